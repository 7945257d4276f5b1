/**
 * Issue 15: how good is the sync-write forecast on published measurements?
 * Leave-one-out over the calibration set (tests/fixtures/forecast/calibration): each record is
 * predicted by parameters fitted without it (and without the catalog measurement taken from it);
 * median absolute percentage error and range coverage for "now" (no SLOG), "with" (SLOG) and
 * async records. Records that cannot be scored are listed with the reason. Numbers as they come.
 */
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCalibration, toScorable, type Scorable } from '../../server/src/forecast/calibration.ts';
import { asyncControls, fit, HIGH_GAIN, leaveOneOut, leaveOneSystemOut, LOW_GAIN, pairGains, summarise } from '../../server/src/forecast/fit.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'fixtures', 'forecast', 'calibration');
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)} %` : '–');
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

export default async function forecastBench(): Promise<string> {
  const records = loadCalibration(DIR);
  const scorable: Scorable[] = [];
  const skipped: string[] = [];
  for (const r of records) {
    const s = toScorable(r);
    if ('skip' in s) skipped.push(`${r.id} (${s.skip})`);
    else scorable.push(s);
  }
  const t0 = performance.now();
  const full = fit(scorable);
  const rows = leaveOneOut(scorable);
  const seconds = (performance.now() - t0) / 1000;
  const sum = summarise(rows);
  const bySystem = summarise(leaveOneSystemOut(scorable));
  const sys = (g: string) => bySystem.find((x) => x.group === g)!;
  const pairs = pairGains(scorable, full);
  // What the point gain alone would say: reported beside the range, not hidden.
  const pairPointFlips = pairs.filter((g) => (g.forecastGain >= HIGH_GAIN && g.measuredGain < LOW_GAIN) || (g.measuredGain >= HIGH_GAIN && g.forecastGain < LOW_GAIN));
  const clemtibs = pairs.filter((g) => g.now.startsWith('clemtibs-'));
  const span = (xs: number[], d = 2) => (Math.min(...xs).toFixed(d) === Math.max(...xs).toFixed(d) ? Math.min(...xs).toFixed(d) : `${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)}`);
  const controls = asyncControls(scorable, full);
  // The same leave-one-out with the records whose data disks are not published, on the "unknown"
  // class as the rounds before this rule scored them: the figure the rule changed, side by side.
  const unknownDisks = records.map((r) => toScorable(r, { keepUnknownDisks: true })).filter((s): s is Scorable => !('skip' in s));
  const withUnknown = summarise(leaveOneOut(unknownDisks));
  const wu = (g: string) => withUnknown.find((x) => x.group === g)!;
  const dropped = unknownDisks.filter((s) => !scorable.some((x) => x.record.id === s.record.id)).map((s) => s.record.id);
  const out = [
    '## Sync-write forecast: leave-one-out on published measurements (issues 15, 27)',
    '',
    `${records.length} published records (tests/fixtures/forecast/calibration, sources in its PROVENANCE.md); ${scorable.length} scorable through the pool model, ${skipped.length} not (listed below). ` +
      'Each record is predicted by parameters fitted on the others (per-commit overhead, CPU per further writer, ceiling scale, hard-disk append share: the grid point with the smallest median |ln(forecast/measured)|, each group and each published system counted once; then the range slack that puts ≥ 80 % of the *training* records inside their range, capped at 3×), ' +
      'and a catalog SLOG measurement that came from the record itself is not used for it. APE = |forecast − measured| / measured. ' +
      `Where a source published MB/s only, IOPS = MB/s ÷ block size (${rows.filter((r) => r.derivedIops).length} records).`,
    '',
    '| group | records | LOO median APE | measured inside the range |',
    '|---|---:|---:|---:|',
    ...sum.map((s) => `| ${s.group === 'now' ? '"now" (no SLOG, sync)' : s.group === 'with' ? '"with" (SLOG, sync)' : s.group === 'async' ? 'async / sync=disabled' : '**all**'} | ${s.n} | ${pct(s.medianApe)} | ${pct(s.coverage)} |`),
    '',
    `Stricter, leaving out a whole published system at a time (every run of the same source and kind of data disk, and the catalog measurements taken from them): "now" ${pct(sys('now').medianApe)}, "with" ${pct(sys('with').medianApe)}, all ${pct(sys('all').medianApe)} median APE (inside the range: ${pct(sys('now').coverage)}, ${pct(sys('with').coverage)}, ${pct(sys('all').coverage)}).`,
    '',
    `Records whose data disks are not published (neither media nor model) are not scored: every forecast rests on the data disks' class, the ZIL's home without a SLOG and the pool's ceiling with one, and the app always reads it from the inventory, so such a record tests a guess the app never makes. The rule came in round 6; scored as before, on the "unknown" class, each left out in turn from all ${unknownDisks.length}, the ${dropped.length} records (${dropped.join(', ')}) give "now" ${pct(wu('now').medianApe)}, "with" ${pct(wu('with').medianApe)}, all ${pct(wu('all').medianApe)} median APE (${wu('now').n}, ${wu('with').n} and ${wu('all').n} records).`,
    '',
    `Parameters fitted on all ${scorable.length}: overhead ${full.overheadUs.typical} µs per commit, ${full.writerUs} µs CPU per further writer, ceiling scale ${full.ceilingScale.typical}, hard-disk append share ${full.hddZilScale}, range slack ${full.slack} (server/src/forecast/model.ts DEFAULT_PARAMS must equal these; a test checks it). LOO run took ${seconds.toFixed(1)} s.`,
    '',
    `### Published with/without pairs: does the forecast gain flip the decision? (≥ ${HIGH_GAIN}× forecast while < ${LOW_GAIN}× measured, or the reverse)`,
    '',
    'Model only = both sides from the inventory\'s facts (DEFAULT_PARAMS), judged as the user sees them: by the gain range the app shows, which carries the ZIL devices\' own range while "now" is a model estimate (with.low ÷ "now" with fast devices … with.high ÷ "now" with slow devices, the host\'s overhead and the pool\'s ceiling at the same end on both sides; server/src/forecast/forecast.ts gainSpread), and by the decision it takes on it (server/src/optane/decide.ts, on the pair\'s own workload). A range says ≥ 2× only when its low end is, < 1.3× only when its high end is. The point gain is printed as it is. ' +
      'After the probe = what the app forecasts once its QD1 probe measured "now": "now" is the measurement, "with" the model plus the part of the measured latency the model cannot attribute (flash only; server/src/forecast/measured-now.ts), judged by its point gain.',
    '',
    '| now record | with record | measured gain | model-only gain (point) | model-only range | decision | flipped | gain after the probe | flipped |',
    '|---|---|---:|---:|---:|---|:-:|---:|:-:|',
    ...pairs.map((g) => `| ${g.now} | ${g.with} | ${g.measuredGain.toFixed(2)}× | ${g.forecastGain.toFixed(2)}× | ${g.forecastRange.low.toFixed(2)}–${g.forecastRange.high.toFixed(2)}× | ${g.decision} (${g.decisionKind}) | ${g.flipped ? '**yes**' : 'no'} | ${g.probedGain.toFixed(2)}× | ${g.probedFlipped ? '**yes**' : 'no'} |`),
    '',
    `Flipped: ${pairs.filter((g) => g.flipped).length} of ${pairs.length} pairs model-only (by the range shown and the decision), ${pairs.filter((g) => g.probedFlipped).length} of ${pairs.length} after the probe. By the model-only point gain alone ${pairPointFlips.length} would (${pairPointFlips.map((g) => g.now).join(', ') || 'none'}).`,
    '',
    `Async controls (no sync writes, so a SLOG changes nothing, zfs-facts A1): the forecast with a data-centre Optane SLOG over the forecast without one: ${controls.map((c) => `${c.id} ${fmt(c.now)} → ${fmt(c.withSlog)}, ${c.gain.toFixed(2)}×`).join('; ')}. Every forecast of such a workload (\`forecast --sync none\`, a sync=disabled dataset) states gain 1 with the range [1, 1], whatever the device (tests/forecast/published-pairs.test.ts).`,
    '',
    'Honest reading: the model is one structure for both sides. Group commit: with T = jobs × iodepth writers outstanding, the commit records that arrive while one log block is written and flushed go into the next one, so one write and one flush serve all of them (zil.c zil_commit_waiter); a round costs the per-commit overhead, one device write + flush and the batch\'s bytes, and serves T writers (T/2 on a device whose flush waits for a volatile cache: the open block is issued after zfs_commit_timeout_pct of the last one\'s latency, so two blocks share the waiting writers), and IOPS = writers ÷ round until the log device\'s bandwidth, the CPU per writer or a ceiling binds. ' +
      '"Now" comes out of the same formula with the ZIL on the data vdevs (embedded log, zfs-facts A3): QD1 and many-writer runs differ only in T (clemtibs 8 jobs, pr14378 16/32 threads, zvolperf iodepth 4/24). Large writes without a SLOG (or with logbias=throughput) are logged indirectly: each writer\'s block is written in place by dmu_sync, in parallel, so they are bound by the pool\'s bandwidth, not the log (pr14378, whose pool is not published and so not scored: 1,292 and 1,293 IOPS at 16 and 32 threads). ' +
      `The pool ceiling is what the data vdevs receive, at their sustained bandwidth: each txg writes every record dirtied in it once (a random write smaller than the record rewrites the record; several writes into one record within a txg are one write-back: with a working set S and a txg holding about 30 % of zfs_dirty_data_max, −ln(1 − f)/f writes per record, f = 0.3 × dirty max ÷ S; 1 where S or the host's RAM is unknown, 1.19 for 000's 4 GiB file on a 128 GB host), and with the ZIL on the data disks copied writes are written twice (zvolperf 1 MiB into a zvol: 85 IOPS measured, 81 forecast). Virtual disks and LUNs are their own class, of unknown latency, not hard disks: without a measurement "now" on them is a range with no point gain, and the app asks for its probe. The hard-disk ZIL share is fitted at ${full.hddZilScale} of a random write (an append near the previous block, whose flush still reaches the platters), and the fit counts each published system once, so four runs of one pool no longer decide it. ` +
      `What stays wrong, and why: the model-only point gain of the clemtibs pairs is ${span(clemtibs.map((g) => g.forecastGain))}× where a SLOG gained ${span(clemtibs.map((g) => g.measuredGain))}×. Its fio log shows sync writes on the hard disks completing in 0.43–0.6 ms (a tenth of one revolution) and ~1.5k writes/s per disk: the disks acknowledged the ZIL's flushes from their write cache (PROVENANCE.md). No inventory shows that; the "now" range's fast end (a cached append) holds the measurement, and the gain range the app shows carries it (${span(clemtibs.map((g) => g.forecastRange.low))}× to ${span(clemtibs.map((g) => g.forecastRange.high), 1)}×), so the decision is "${clemtibs[0]?.decision ?? '–'}: measure the pool first" (the one-click probe), and after the probe measured "now" the gain is ${span(clemtibs.map((g) => g.probedGain))}×. ` +
      `The price of that honesty: without a measurement ${pairs.filter((g) => g.decisionKind === 'measure-first').length} of the ${pairs.length} pairs read "measure first", because a hard disk's class range spans a cached append to a full seek and flush, and which one a pool's disks do is not known until measured (the app decides on QD1 per-write ranges, narrower than these many-writer ones). The records still furthest off are clemtibs (above), smartos847-2 (4 KiB random writes into 128 KiB records, which the author says made no difference) and duzlov's TrueNAS SCALE host (fsync-1 and -3: about 175 µs per commit, three times the fitted ${full.overheadUs.typical} µs; on a user's host the probe's CPU per write is what shows such a host, forecast.ts HostCpu). `,
      'Hosts differ in per-commit overhead (~35 µs on 000\'s FreeBSD Xeon D, ~100 µs in the PMem thesis, ~175 µs on duzlov\'s TrueNAS SCALE); the fit takes ' + `${full.overheadUs.typical} µs` + ', so 000\'s QD1 Optane runs are forecast low and the range\'s fast end reaches them. Leaving out a whole system at a time (the line under the table) tests what leave-one-out cannot: whether runs of one pool (clemtibs, 000) only predict each other. Misses are listed, not tuned away.',
    '',
    '<details><summary>Per record (LOO)</summary>',
    '',
    '| record | group | measured IOPS | forecast | range | APE | inside |',
    '|---|---|---:|---:|---|---:|:-:|',
    ...rows.map((r) => `| ${r.id} | ${r.group} | ${fmt(r.measured)}${r.derivedIops ? '†' : ''} | ${fmt(r.pred.iops)} | ${fmt(r.pred.low)}–${fmt(r.pred.high)} | ${pct(r.ape)} | ${r.inside ? 'yes' : '**no**'} |`),
    '',
    '† IOPS from the published MB/s ÷ block size.',
    '',
    `Not scorable: ${skipped.join('; ') || 'none'}.`,
    '',
    '</details>',
  ];
  return out.join('\n');
}

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
import { fit, leaveOneOut, summarise } from '../../server/src/forecast/fit.ts';

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
  const out = [
    '## Sync-write forecast: leave-one-out on published measurements (issue 15)',
    '',
    `${records.length} published records (tests/fixtures/forecast/calibration, sources in its PROVENANCE.md); ${scorable.length} scorable through the pool model, ${skipped.length} not (listed below). ` +
      'Each record is predicted by parameters fitted on the others (per-commit overhead, queue penalty, ceiling scale; then the range slack that puts ≥ 80 % of the *training* records inside their range, capped at 3×), ' +
      'and a catalog SLOG measurement that came from the record itself is not used for it. APE = |forecast − measured| / measured. ' +
      `Where a source published MB/s only, IOPS = MB/s ÷ block size (${rows.filter((r) => r.derivedIops).length} records).`,
    '',
    '| group | records | LOO median APE | measured inside the range |',
    '|---|---:|---:|---:|',
    ...sum.map((s) => `| ${s.group === 'now' ? '"now" (no SLOG, sync)' : s.group === 'with' ? '"with" (SLOG, sync)' : s.group === 'async' ? 'async / sync=disabled' : '**all**'} | ${s.n} | ${pct(s.medianApe)} | ${pct(s.coverage)} |`),
    '',
    `Parameters fitted on all ${scorable.length}: overhead ${full.overheadUs.typical} µs, queue penalty ${full.queuePenalty}, ceiling scale ${full.ceilingScale.typical}, range slack ${full.slack} (server/src/forecast/model.ts DEFAULT_PARAMS must equal these; a test checks it). LOO run took ${seconds.toFixed(1)} s.`,
    '',
    'Honest reading: the "with" forecasts are anchored by device figures that are mostly measured, and most of the set is one host (000); ' +
      'the "now" baseline is weak — HDD pools that published far higher O_SYNC rates than any seek-bound model allows (clemtibs: ~8.7k IOPS on 5 HDDs, flagged in PROVENANCE.md), pools whose disks are not named (SmartOS NVMe, NFS tests), ' +
      'and the flash queue penalty is barely constrained (most QD>1 runs are ceiling-bound). The hard-disk queue penalty (0.0325) is taken from 000\'s 2×HDD mirror at QD16, i.e. from record ant-slog-1 itself, so that record\'s LOO score is not independent. Misses are listed, not tuned away.',
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

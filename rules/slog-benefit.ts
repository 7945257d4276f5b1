/**
 * A pool on hard disks (or other slow flush devices) with sync-write demand and no log vdev:
 * a low-latency SLOG would cut every sync write from milliseconds to tens of microseconds.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { poolSyncEvidence } from '../server/src/forecast/sync-evidence.ts';
import { confidenceReason, forecastConfidence, withSourceOf } from '../server/src/forecast/confidence.ts';
import { DOC_000, DOC_003, OPENZFS_CACHING_DOC, doc, fact, kb, man } from './lib/slog-citations.ts';
import { NEEDS_OBSERVATION } from './lib/slog-evidence.ts';
import { NEW_DEVICE, drivePath, hasLog, hasSpecial, isSlowDataPool } from './lib/slog-devices.ts';
import { productName } from './lib/device-class.ts';
import { formatCount, formatGain } from '../server/src/text/format.ts';
import { atLeast } from './engine/version.ts';

/**
 * Recommend a SLOG only when it would be ≥ this many times faster per sync write than the pool's
 * own ZIL path. Cheat-sheet in zfs-facts.md: "the SLOG would have ~≥10× lower sync-write latency"
 * [heuristic]; HDD (~12 ms) vs Optane (~50 µs incl. overhead) is ~200×.
 */
export const MIN_LATENCY_GAIN = 10;

export default defineRule({
  meta: {
    id: 'slog-benefit',
    title: 'A SLOG would speed up sync writes',
    category: 'slog',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Pools', 'Drives'],
    // Every input of the pool's sync-write evidence (forecast/sync-evidence.ts), so the rule reads the verdict's record.
    optionalArtifacts: ['Datasets', 'Workload', 'ZilStats', 'Host', 'Benchmarks', 'Capture'],
    description:
      'Synchronous writes (NFS, databases, VM disks, sync=always) wait for the ZIL to reach stable storage. Without a log vdev the ZIL lives on the data disks, so on hard disks every sync write costs milliseconds; a low-latency SLOG (Optane, PLP NVMe) cuts that to tens of microseconds. Async writes never touch the ZIL, so this only applies with sync demand. Learn more: [SLOG and the ZFS intent log: When a SLOG helps](docs/kb/slog.md#when-a-slog-helps).',
    citations: [kb('slog', 'When a SLOG helps'), fact('A1'), fact('A26'), doc(DOC_000, 'QD16 and QD1 results'), OPENZFS_CACHING_DOC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Datasets, Workload, ZilStats, Host, Benchmarks, Capture }) {
    const findings: FindingDraft[] = [];
    const openzfs = Host?.zfs.openzfs ?? null;
    let considered = 0;
    for (const pool of Pools) {
      if (hasLog(pool)) continue;
      // On 2.4+ a special vdev already takes ZIL writes: slog-on-2.4-special speaks for that case.
      if (hasSpecial(pool) && atLeast(openzfs, '2.4')) continue;
      if (!isSlowDataPool(pool, Drives)) continue;
      considered++;
      // The pool's sync-write evidence as the Optane verdict reads it, the same record (forecast/sync-evidence.ts):
      // demand, "now" (the app's own probe, else the observed sync-write latency, else the model), the
      // candidate (the Optane in the box — 000 measured the P1600X at 13.7k — else the one to buy) and its forecast.
      const e = poolSyncEvidence({ Pools, Drives, Datasets, Workload, ZilStats, Host, Benchmarks, Capture }, pool);
      const ev = e.demand;
      if (ev.level === 'none-observed' || ev.level === 'unknown') continue;
      const now = e.dataLatency!;
      // The box's candidates the forecast weighed, and the drives the log would be made of: a mirror
      // only where the pool asks for one (zvols), as the Optane verdict proposes it.
      const cands = e.inBox.flatMap((t) => (t.drive ? [t.drive] : []));
      const picked = e.logDrives;
      const measured = e.measured;
      const observed = measured.observed;
      const f = { qd1: { now: e.nowQd1, withOptane: e.qd1.with! }, qd16: { now: e.qd16.now, withOptane: e.qd16.with! } };
      const gain = e.gain;
      if (gain < MIN_LATENCY_GAIN) continue;
      // One confidence with the Optane verdict (forecast/confidence.ts).
      const withSource = withSourceOf(e.target.candidate.profile);
      const confidence = forecastConfidence(measured.source, ev.level, withSource);
      const confText = confidenceReason(measured.source, ev.level, withSource);
      const devs = picked.length > 0 ? picked.map((d) => drivePath(d, Host)) : e.mirrorLog ? [NEW_DEVICE(1, Host), NEW_DEVICE(2, Host)] : [NEW_DEVICE(1, Host)];
      const layout = devs.length === 2 ? `mirror ${devs.join(' ')}` : devs[0]!;
      findings.push({
        title: `${pool.name}: a SLOG would make sync writes ~${formatGain(gain)} faster`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          { label: 'data vdev devices', value: now.label },
          { label: 'log vdev', value: 'none' },
          { label: 'sync-write evidence', value: ev.level },
          ...(ev.commitsPerSec !== null ? [{ label: 'ZIL commits', value: Math.round(ev.commitsPerSec * 10) / 10, unit: '/s' }] : []),
          ...(observed?.syncWriteIops != null ? [{ label: 'observed sync writes', value: Math.round(observed.syncWriteIops * 10) / 10, unit: '/s' }] : []),
          ...(observed ? [
            { label: 'observed sync-write latency p50 (data vdevs)', value: observed.p50Ms, unit: 'ms' },
            ...(observed.p99Ms !== null ? [{ label: 'observed sync-write latency p99 (data vdevs)', value: observed.p99Ms, unit: 'ms' }] : []),
          ] : []),
          ...(ev.commitsSinceBoot !== null ? [{ label: 'ZIL commits since boot', value: ev.commitsSinceBoot }] : []),
          ...(ev.syncAlwaysDatasets.length > 0 ? [{ label: 'sync=always datasets', value: ev.syncAlwaysDatasets.length }] : []),
          ...(ev.zvols.length > 0 ? [{ label: 'zvols', value: ev.zvols.length }] : []),
          { label: 'expected QD1 sync IOPS now', value: f.qd1.now.iops, unit: 'IOPS' },
          { label: 'expected QD1 sync IOPS with Optane SLOG', value: f.qd1.withOptane.iops, unit: 'IOPS' },
          { label: 'expected QD16 sync IOPS now → with SLOG', value: `${formatCount(f.qd16.now.iops)} → ${formatCount(f.qd16.withOptane.iops)}` },
          ...(cands.length > 0 ? [{ label: 'unused fast devices in this host', value: cands.map(productName).join(', ') }] : []),
          ...(e.target.candidate.measurement ? [{ label: 'log device measured on this host', value: `${e.target.candidate.label}: run ${e.target.candidate.measurement.runId}, ${e.target.candidate.measurement.startedAt}` }] : []),
        ],
        explanation:
          `${pool.name} has no log vdev, so its ZIL is written to the data disks (${now.label}, ${measured.measuredQd1 !== null ? `measured ${formatCount(Math.round(measured.measuredQd1))} sync writes/s at QD1: ${(1000 / measured.measuredQd1).toFixed(1)} ms each` : `~${Math.round(now.typicalUs / 1000)} ms per flush, class figure`}). ` +
          (observed ? `Measured: sync writes waited p50 ${observed.p50Ms} ms, p99 ${observed.p99Ms ?? '?'} ms on the data vdevs${observed.syncWriteIops !== null ? ` at ${Math.round(observed.syncWriteIops * 10) / 10} sync writes/s` : ''} (${Math.round(observed.windowSeconds)} s observation, zpool iostat -w); the forecast's "now" uses that. ` : '') +
          `${ev.reasons.join(' ')} ` +
          `Every sync write waits for that flush; a SLOG takes the ZIL off the disks. The sync-write forecast (device catalog and pool model, calibrated on published measurements including the Optane SLOG test) for ${e.target.candidate.label} predicts ` +
          `${observed ? '(from the observed latency) ' : ''}${formatCount(f.qd1.now.iops)} → ${formatCount(f.qd1.withOptane.iops)} IOPS at QD1 (range ${formatCount(f.qd1.withOptane.low)}–${formatCount(f.qd1.withOptane.high)}) and ${formatCount(f.qd16.now.iops)} → ${formatCount(f.qd16.withOptane.iops)} at QD16. ` +
          `"Now": ${measured.basis.replace(/\.$/, '')}. ` +
          (e.target.candidate.measurement ? `"With": ${e.target.candidate.profile.basis}. ` : '') +
          `A SLOG lowers latency; it does not raise sustained throughput above what the disks absorb at txg sync, and it does nothing for async writes. ` +
          `${confText[0]!.toUpperCase()}${confText.slice(1)}. ` +
          (ev.level === 'observed' ? '' : NEEDS_OBSERVATION) +
          (picked.length > 0 ? ` This host already has an unused ${productName(picked[0]!)} that would serve.` : '') +
          (e.mirrorLog ? ` Mirror the log: ${pool.name} holds zvols (VM disks or iSCSI LUNs), whose last seconds of acknowledged sync writes a lone SLOG dying together with a crash would lose.` : ''),
        action: {
          summary: picked.length > 0
            ? `Add the unused ${productName(picked[0]!)}${devs.length === 2 ? ' pair' : ''} as a log vdev (dry run first with -n).`
            : `Add a small ${e.mirrorLog ? 'mirrored Optane (e.g. 2 × P1600X 118 GB)' : 'Optane (e.g. a P1600X 118 GB)'} or PLP NVMe as a log vdev (dry run first with -n).`,
          commands: [`zpool add -n ${pool.name} log ${layout}`, `zpool add ${pool.name} log ${layout}`],
          reversible: 'yes',
          reversibleWhy: 'Log vdevs can always be removed again with `zpool remove`, even from raidz pools.',
        },
        citations: [kb('slog', 'When a SLOG helps'), fact('A1'), fact('A4'), fact('A7'), fact('A17'), fact('A26'), fact('E1'), doc(DOC_000, 'QD16/QD1 fio results'), doc(DOC_003, '§10.2, §11.4: Optane SLOG 10–20× sync'), man('zpoolconcepts', 7, 'Intent Log'), OPENZFS_CACHING_DOC],
        confidence,
      });
    }
    if (considered === 0) return notApplicable('No pool without a log vdev sits on slow (HDD or consumer-flash) data vdevs.');
    return findings.length > 0 ? fired(findings) : { status: 'passed', message: `No sync-write evidence on the slow pools without a SLOG. ${NEEDS_OBSERVATION}` };
  },
});

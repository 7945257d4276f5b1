/**
 * A log vdev on a pool whose observed workload has no sync writes: the SLOG does nothing there.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { OPENZFS_CACHING_DOC, fact, kb } from './lib/slog-citations.ts';
import { poolSyncEvidence } from '../server/src/forecast/sync-evidence.ts';
import { hasLog } from './lib/slog-devices.ts';
import { topLevel } from './lib/topology.ts';
import { datasetsOfPool } from './lib/inventory-index.ts';

export default defineRule({
  meta: {
    id: 'slog-without-sync-writes',
    title: 'SLOG on a pool without sync writes',
    category: 'slog',
    defaultSeverity: 'info',
    requiredArtifacts: ['Pools'],
    // Optional so a pool without a log vdev is "not applicable" rather than "needs a workload"; the
    // others are the inputs of the pool's sync-write evidence (forecast/sync-evidence.ts), read as the verdict reads it.
    optionalArtifacts: ['Workload', 'Datasets', 'Drives', 'ZilStats', 'Host', 'Benchmarks', 'Capture'],
    description:
      'A SLOG only holds the ZIL, which only synchronous writes use; asynchronous writes go from RAM to the data vdevs at txg sync and never touch it. A log vdev on a pool with no sync writes is idle. It is not a write cache. Learn more: [SLOG and the ZFS intent log: What the ZIL does](docs/kb/slog.md#what-the-zil-does).',
    citations: [kb('slog', 'What the ZIL does'), fact('A1'), fact('G1'), OPENZFS_CACHING_DOC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Workload, Datasets, Drives, ZilStats, Host, Benchmarks, Capture }) {
    const findings: FindingDraft[] = [];
    const withLog = Pools.filter(hasLog);
    if (withLog.length === 0) return notApplicable('No pool has a log vdev.');
    if (!Workload) {
      return notApplicable(`${withLog.map((p) => p.name).join(', ')} ${withLog.length === 1 ? 'has a log vdev' : 'have log vdevs'}, but whether ${withLog.length === 1 ? 'it sees' : 'they see'} sync writes needs a workload observation: run \`zfs-advisor observe --duration 10m\` during normal use.`);
    }
    for (const pool of withLog) {
      const ev = poolSyncEvidence({ Pools, Workload, Datasets, Drives, ZilStats, Host, Benchmarks, Capture }, pool).demand;
      if (ev.level !== 'none-observed') continue;
      const logs = topLevel(pool, 'log');
      const allDisabled = datasetsOfPool(Datasets ?? [], pool.name).filter((d) => d.type === 'filesystem').every((d) => d.sync === 'disabled') && ev.syncDisabledDatasets.length > 0;
      findings.push({
        title: `${pool.name}: the SLOG saw no sync writes`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          { label: 'log vdevs', value: logs.map((l) => l.name).join(', ') },
          { label: 'observation window', value: Math.round(Workload.windowSeconds), unit: 's' },
          { label: 'ZIL commits on this pool', value: ev.commitsPerSec ?? ev.syncWriteIops ?? 0, unit: '/s' },
          ...(ev.syncDisabledDatasets.length > 0 ? [{ label: 'sync=disabled datasets', value: ev.syncDisabledDatasets.length }] : []),
        ],
        explanation:
          `During the ${Math.round(Workload.windowSeconds)} s observation ${pool.name} had no synchronous writes, so its log vdev was idle: async writes are aggregated in RAM and written at txg sync, they never touch the ZIL. ` +
          (allDisabled ? 'All its file systems have sync=disabled, so the SLOG can never be used (and applications asking for durability are not getting it). ' : '') +
          'This is not harmful. If the window was not representative (e.g. no VM or NFS activity), observe again during a busy period before removing it; if sync writes really never happen, the device could serve better elsewhere.',
        action: {
          summary: 'Observe during a representative period; if there are still no sync writes, the log device can be removed and reused.',
          commands: ['zfs-advisor observe --duration 30m', `zpool remove ${pool.name} ${logs[0]!.name}`],
          reversible: 'yes',
          reversibleWhy: 'A log vdev can be added back at any time with `zpool add … log`.',
        },
        confidence: Workload.windowSeconds >= 600 ? 'medium' : 'low',
      });
    }
    return fired(findings);
  },
});

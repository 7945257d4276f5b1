/**
 * Size of the log vdev: a SLOG only ever holds a few transaction groups of sync data, bounded by
 * zfs_dirty_data_max (≤ 4 GiB by default). A larger whole-disk SLOG wastes the device.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_004, OPENZFS_WORKLOAD_DOC, doc, fact, kb, man } from './lib/slog-citations.ts';
import { isOptane, productName } from './lib/device-class.ts';
import { gib, hasLog } from './lib/slog-devices.ts';
import { repartition } from './lib/commands.ts';
import { driveForLeaf, topLevel, leaves, vdevId } from './lib/topology.ts';

const GiB = 2 ** 30;
/** zfs_dirty_data_max default = 10 % of RAM, capped by min(RAM/4, 4 GiB) (zfs-facts A13). */
export const DIRTY_DATA_MAX_CAP = 4 * GiB;
/** txg timeout 5 s; live SLOG content ≈ 2 txgs of sync ingest (A12, A14, A16). */
export const TXG_TIMEOUT_S = 5;
/** Slack for log-block overhead in the A16 formula. */
export const LOG_SLACK = 1.5;
/** Provision at least this much for endurance/over-provisioning, not capacity (cheat-sheet: 16–32 GB usable). */
export const RECOMMENDED_SLOG_GIB = 16;
/** Flag a log whose usable size exceeds this many times the recommendation [heuristic]. */
export const OVERSIZE_FACTOR = 4;

export function dirtyDataMax(memoryBytes: number | null): number {
  if (memoryBytes === null) return DIRTY_DATA_MAX_CAP;
  return Math.min(memoryBytes * 0.1, Math.min(memoryBytes / 4, DIRTY_DATA_MAX_CAP));
}

/** A16: min(dirty_data_max, sync ingest × 2 × txg timeout) × 1.5. */
export function slogBytesNeeded(memoryBytes: number | null, syncBytesPerSec: number | null): number {
  const ddm = dirtyDataMax(memoryBytes);
  const byIngest = syncBytesPerSec === null ? ddm : syncBytesPerSec * 2 * TXG_TIMEOUT_S;
  return Math.min(ddm, byIngest) * LOG_SLACK;
}

export default defineRule({
  meta: {
    id: 'slog-size',
    title: 'SLOG size',
    category: 'slog',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Pools', 'Drives'],
    optionalArtifacts: ['Host', 'Workload'],
    description:
      'ZIL blocks are freed as soon as their transaction groups sync, so a SLOG holds at most a few seconds of sync writes, bounded by zfs_dirty_data_max (10 % of RAM, at most 4 GiB by default). OpenZFS: "Only about 4GB is needed". Giving a whole large SSD to the log wastes it; a small partition plus over-provisioning (NAND) or a second role (mirrored Optane) is better. Learn more: [SLOG and the ZFS intent log: How big a SLOG needs to be](docs/kb/slog.md#how-big-a-slog-needs-to-be).',
    citations: [kb('slog', 'How big a SLOG needs to be'), fact('A13'), fact('A14'), fact('A15'), fact('A16'), fact('A27'), OPENZFS_WORKLOAD_DOC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Host, Workload }) {
    const findings: FindingDraft[] = [];
    const withLog = Pools.filter(hasLog);
    if (withLog.length === 0) return notApplicable('No pool has a log vdev.');
    const mem = Host?.memoryBytes ?? null;
    const unsized: string[] = [];
    for (const pool of withLog) {
      const syncBps = Workload?.zil ? Workload.zil.bytesToSlogPerSec ?? Workload.zil.itxBytesPerSec : null;
      const needed = slogBytesNeeded(mem, syncBps);
      const recommended = Math.max(needed, RECOMMENDED_SLOG_GIB * GiB);
      for (const top of topLevel(pool, 'log')) {
        const ls = leaves(top);
        const sizes = ls.map((l) => l.sizeBytes ?? (/-part\d+$|p\d+$/.test(l.name) ? null : driveForLeaf(l, Drives)?.sizeBytes ?? null));
        const known = sizes.filter((s): s is number => s !== null);
        if (known.length === 0 && top.sizeBytes == null) { unsized.push(`${pool.name}/${top.name}`); continue; }
        const size = top.sizeBytes ?? Math.min(...known);
        if (size <= recommended * OVERSIZE_FACTOR) continue;
        const d = driveForLeaf(ls[0]!, Drives);
        const optane = d ? isOptane(d) : false;
        const leafName = ls[0]?.name ?? top.name;
        // Partitioning is platform-specific (sgdisk on Linux, gpart on FreeBSD); elsewhere we say what to do, not how.
        const part = d ? repartition(Host, d, RECOMMENDED_SLOG_GIB) : null;
        findings.push({
          title: `${pool.name}: log ${top.name} is ${gib(size)}; it will never use more than ~${gib(needed)}`,
          subject: { kind: 'vdev', id: vdevId(pool.name, top), pool: pool.name },
          evidence: [
            { label: 'log vdev size', value: Math.round(size / GiB), unit: 'GiB' },
            { label: 'zfs_dirty_data_max (default)', value: Math.round((dirtyDataMax(mem) / GiB) * 10) / 10, unit: 'GiB' },
            { label: 'RAM', value: mem === null ? 'unknown' : Math.round(mem / GiB), unit: mem === null ? null : 'GiB' },
            { label: 'sync ingest', value: syncBps === null ? 'not observed' : Math.round(syncBps / 2 ** 20), unit: syncBps === null ? null : 'MiB/s' },
            { label: 'needed', value: Math.round((needed / GiB) * 10) / 10, unit: 'GiB' },
          ],
          explanation:
            `A SLOG only holds log records for transaction groups that have not synced yet; that data is bounded by zfs_dirty_data_max (${gib(dirtyDataMax(mem))} here${mem === null ? ', RAM unknown so the 4 GiB cap is assumed' : ''}). ` +
            `With ${syncBps === null ? 'no observed sync rate' : `${(syncBps / 2 ** 20).toFixed(1)} MiB/s of sync writes`}, about ${gib(needed)} is ever live; ${top.name} offers ${gib(size)}. ` +
            (optane
              ? `${d ? productName(d) : 'This Optane'} can carry several roles: the TrueNAS Optane resource recommends partitioning a mirrored Optane pair into a small SLOG plus a special-vdev (metadata) partition.`
              : 'OpenZFS recommends a small (~4 GB+) partition on NAND SSDs with the rest left unpartitioned as over-provisioning, which also improves endurance.') +
            ' Nothing is wrong with the data; this is about using the device well.',
          action: {
            summary: (optane
              ? `Re-partition: ~${RECOMMENDED_SLOG_GIB} GiB log partition on each Optane, the rest as a mirrored special vdev (only if the pool's data vdevs allow removal or you accept permanence).`
              : `Re-create the log as a ~${RECOMMENDED_SLOG_GIB} GiB partition after a secure erase; leave the rest unpartitioned.`) +
              (part ? '' : ` Partition ${d ? leafName : top.name}'s device with the platform's own tool (no scripted command for this host).`),
            commands: part
              ? [`zpool remove ${pool.name} ${top.name}`, ...part.commands, `zpool add ${pool.name} log ${part.partition}`]
              : [`zpool remove ${pool.name} ${top.name}`],
            reversible: 'yes',
            reversibleWhy: 'A log vdev can be removed and re-added at any time; during the change sync writes fall back to the pool ZIL.',
          },
          citations: [kb('slog', 'How big a SLOG needs to be'), fact('A13'), fact('A14'), fact('A15'), fact('A16'), fact('A27'), ...(optane ? [doc(DOC_004, 'partitioned mirrored Optane')] : []), man('zfs', 4, 'zfs_dirty_data_max'), OPENZFS_WORKLOAD_DOC],
          confidence: 'high',
        });
      }
    }
    if (findings.length === 0 && unsized.length > 0) {
      return notApplicable(`Cannot judge the size of log ${unsized.join(', ')}: no size in zpool list -v and the device size is unknown (or the log is a partition of it).`);
    }
    return fired(findings);
  },
});

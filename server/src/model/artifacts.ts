/**
 * Named artifacts: what collectors produce and rules consume (Lighthouse's gatherer → audit
 * contract). A rule declares the names it needs; the engine hands it only those.
 */
import { z } from 'zod';
import { ArcStats, Dataset, Drive, Host, InventorySource, Pool, ZilStats, type Inventory } from './inventory.ts';
import { BenchmarkSummary, SizeHistogram, WorkloadFingerprint } from './workload.ts';

/** When and from where the evidence was read: rules judge ages ("last scrub 40 days ago") against this, not the clock. */
export const Capture = InventorySource.pick({ kind: true, capturedAt: true, demo: true });

export const ArtifactSchemas = {
  Capture,
  Host,
  Pools: z.array(Pool),
  Datasets: z.array(Dataset),
  Drives: z.array(Drive),
  ZilStats,
  ArcStats,
  Workload: WorkloadFingerprint,
  SizeHistograms: z.array(SizeHistogram),
  Benchmarks: z.array(BenchmarkSummary),
} as const;

export type ArtifactName = keyof typeof ArtifactSchemas;
export const ARTIFACT_NAMES = Object.keys(ArtifactSchemas) as ArtifactName[];

export type ArtifactMap = { [K in ArtifactName]: z.infer<(typeof ArtifactSchemas)[K]> };
/** What the engine holds: any artifact may be missing. */
export type Artifacts = Partial<ArtifactMap>;

/** How a person gets each artifact, for `needs-artifact` results. */
export const HOW_TO_GET: Record<ArtifactName, string> = {
  Capture: 'Comes with every inventory (its capture time); pass the inventory, not loose artifacts.',
  Host: 'Run `zfs-advisor capture DIR` on the host (reads `zfs version`, `uname -a`).',
  Pools: 'Needs `zpool status -v -P` and `zpool list -v` output: run on the host or capture a snapshot.',
  Datasets: 'Needs `zfs get -H -p all` output (the Proxmox API does not provide dataset properties).',
  Drives: 'Needs `smartctl -a -j` per device and `lsblk -J -O -b` (install smartmontools; run as root).',
  ZilStats: 'Needs /proc/spl/kstat/zfs/zil (Linux) or `sysctl kstat.zfs.misc.zil` (FreeBSD).',
  ArcStats: 'Needs /proc/spl/kstat/zfs/arcstats (Linux) or `sysctl kstat.zfs.misc.arcstats` (FreeBSD).',
  Workload: 'Run `zfs-advisor observe --duration 10m` during a normal working period.',
  SizeHistograms: 'Run `zfs-advisor sizes DATASET` (or on OpenZFS 2.x, `zdb -Lbbbs POOL`).',
  Benchmarks: 'Run `zfs-advisor bench sync-write-4k-qd1 --pool POOL` (guarded, on a throw-away dataset).',
};

/** The artifacts an inventory provides (a null section is a missing artifact). */
export function artifactsFromInventory(inv: Inventory): Artifacts {
  const a: Artifacts = {
    Capture: { kind: inv.source.kind, capturedAt: inv.source.capturedAt, demo: inv.source.demo },
    Host: inv.host, Pools: inv.pools, Datasets: inv.datasets, Drives: inv.drives };
  if (inv.zil) a.ZilStats = inv.zil;
  if (inv.arc) a.ArcStats = inv.arc;
  // An inventory whose gaps say a section could not be read does not provide it.
  for (const g of inv.gaps) {
    if (g.severity === 'error' && g.artifact in a) delete a[g.artifact as ArtifactName];
  }
  return a;
}

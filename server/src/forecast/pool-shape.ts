/**
 * From an inventory's pool to the model's inputs: the data vdevs (layout, width, media), where the
 * ZIL lands today (log vdev, 2.4+ special, or the data vdevs: rules/lib/slog-devices.ts) and the
 * dataset side (sync, logbias, block size) of the dataset the sync writes go to.
 */
import type { Dataset, Drive, Host, Pool, VdevNode } from '../model/inventory.ts';
import { leaves, topLevel, driveForLeaf } from '../../../rules/lib/topology.ts';
import { zilHome } from '../../../rules/lib/slog-devices.ts';
import { classProfile, profileForDrive, type DeviceProfile } from './catalog.ts';
import type { DataVdevs, DatasetSide, Layout, LogTarget } from './model.ts';

const live = (v: VdevNode) => v.type !== 'hole' && v.type !== 'indirect';

/** The slowest device profile among drives (a mirror/raidz write waits for its slowest member). */
export function slowest(profiles: DeviceProfile[]): DeviceProfile | null {
  if (profiles.length === 0) return null;
  return profiles.reduce((a, b) => (b.lat4kUs.typical > a.lat4kUs.typical ? b : a));
}

function layoutOf(v: VdevNode): { layout: Layout; parity: number } {
  if (v.type === 'mirror') return { layout: 'mirror', parity: 0 };
  if (v.type === 'raidz1' || v.type === 'raidz2' || v.type === 'raidz3') return { layout: 'raidz', parity: Number(v.type.slice(-1)) };
  if (v.type === 'draid') return { layout: 'draid', parity: v.draid?.parity ?? 1 };
  return { layout: 'stripe', parity: 0 };
}

function profilesOf(vs: VdevNode[], drives: readonly Drive[]): { profiles: DeviceProfile[]; unresolved: number } {
  const ls = vs.flatMap(leaves);
  const ds = ls.map((l) => driveForLeaf(l, drives)).filter((d): d is Drive => d !== null);
  return { profiles: ds.map(profileForDrive), unresolved: ls.length - ds.length };
}

/** The data vdevs as the model sees them: the most common layout, the narrowest width, the slowest medium. */
export function dataVdevs(pool: Pool, drives: readonly Drive[]): DataVdevs {
  const vs = topLevel(pool, 'data').filter(live);
  const first = vs[0];
  const { layout, parity } = first ? layoutOf(first) : { layout: 'stripe' as Layout, parity: 0 };
  const widths = vs.map((v) => Math.max(1, leaves(v).length));
  const media = slowest(profilesOf(vs, drives).profiles) ?? classProfile('unknown', 'no data-vdev drive resolved');
  return { layout, vdevs: Math.max(1, vs.length), width: widths.length ? Math.min(...widths) : 1, parity, media };
}

function targetOf(kind: LogTarget['kind'], vs: VdevNode[], drives: readonly Drive[]): LogTarget {
  const dev = slowest(profilesOf(vs, drives).profiles) ?? classProfile('unknown', `no ${kind} drive resolved`);
  const v = vs[0];
  const width = v ? Math.max(1, leaves(v).length) : 1;
  const { layout, parity } = v ? layoutOf(v) : { layout: 'stripe' as Layout, parity: 0 };
  return {
    kind, device: dev, vdevs: Math.max(1, vs.length),
    waitsFor: layout === 'mirror' ? width : layout === 'raidz' || layout === 'draid' ? Math.min(width, 1 + parity) : 1,
    streams: layout === 'raidz' || layout === 'draid' ? Math.max(1, width - parity) : 1,
  };
}

/** Where the pool's ZIL lands today (zfs-facts A4, A5). */
export function currentLog(pool: Pool, drives: readonly Drive[], host: Host | null | undefined): LogTarget {
  const home = zilHome(pool, host?.zfs.openzfs);
  const vs = topLevel(pool, home).filter(live);
  return targetOf(home === 'log' ? 'slog' : home, vs, drives);
}

/** A SLOG of `device` (one, or a two-way mirror). */
export function slogTarget(device: DeviceProfile, mirrored: boolean): LogTarget {
  return { kind: 'slog', device, vdevs: 1, waitsFor: mirrored ? 2 : 1, streams: 1 };
}

/** zfs_dirty_data_max's default: 10 % of RAM, at most 4 GiB (zfs-facts A13); null when the memory is unknown. */
export const dirtyDataMax = (memoryBytes: number | null): number | null =>
  memoryBytes !== null && memoryBytes > 0 ? Math.min(memoryBytes * 0.1, 4 * 2 ** 30) : null;

const num = (d: Dataset, prop: string): number | null => {
  const v = d.properties[prop]?.value;
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/**
 * The dataset whose sync writes the forecast is about: a sync=always dataset or a zvol first (they
 * are the sync load), else the pool's root dataset. Unknown properties take OpenZFS defaults.
 */
export function datasetSide(pool: Pool, datasets: readonly Dataset[] | undefined, host: Host | null | undefined, name?: string): { side: DatasetSide; dataset: string | null } {
  const ds = (datasets ?? []).filter((d) => d.pool === pool.name && (d.type === 'filesystem' || d.type === 'volume'));
  const pick = (name ? ds.find((d) => d.name === name) : undefined)
    ?? ds.find((d) => d.sync === 'always') ?? ds.find((d) => d.type === 'volume' && d.sync !== 'disabled') ?? ds.find((d) => d.name === pool.name) ?? null;
  const zvol = pick?.type === 'volume';
  const logbias = pick?.properties['logbias']?.value === 'throughput' ? 'throughput' : 'latency';
  const block = pick ? (zvol ? num(pick, 'volblocksize') ?? 16_384 : pick.recordsize ?? num(pick, 'recordsize') ?? 131_072) : 131_072;
  const sync = pick?.sync === 'always' || pick?.sync === 'disabled' ? pick.sync : 'standard';
  return {
    side: { sync, logbias, target: zvol ? 'zvol' : 'dataset', blockSize: block, openzfs: host?.zfs.openzfs ?? null, dirtyMaxBytes: dirtyDataMax(host?.memoryBytes ?? null) },
    dataset: pick?.name ?? null,
  };
}

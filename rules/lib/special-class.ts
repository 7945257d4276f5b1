/**
 * The special and dedup allocation classes of a pool: their vdevs, fill level and redundancy
 * compared with the data vdevs. Shared by the special-* rules.
 */
import type { Pool, VdevClass, VdevNode } from '../../server/src/model/inventory.ts';
import { classFaultTolerance, faultTolerance, topLevel } from './topology.ts';

/**
 * Small data blocks stop going to special once the class is (100 − 25) % = 75 % full
 * (zfs_special_class_metadata_reserve_pct = 25, zfs-facts B7).
 */
export const SMALL_BLOCK_CUTOFF = 0.75;

export const AUX_CLASSES: readonly VdevClass[] = ['special', 'dedup'];

const real = (v: VdevNode) => v.type !== 'hole' && v.type !== 'indirect';

export interface ClassFill {
  cls: VdevClass;
  sizeBytes: number;
  allocBytes: number;
  fill: number;
}

/** Fill of a class from `zpool list -v` per-vdev numbers (B21: compute per class). Null when sizes are unknown. */
export function classFill(pool: Pool, cls: VdevClass): ClassFill | null {
  const vs = topLevel(pool, cls).filter(real);
  if (vs.length === 0) return null;
  let size = 0;
  let alloc = 0;
  for (const v of vs) {
    if (v.sizeBytes == null || v.allocBytes == null) return null;
    size += v.sizeBytes;
    alloc += v.allocBytes;
  }
  if (size <= 0) return null;
  return { cls, sizeBytes: size, allocBytes: alloc, fill: alloc / size };
}

/** Data-class fault tolerance (the least of its top-level vdevs). */
export const dataTolerance = (pool: Pool): number | null => classFaultTolerance(pool, 'data');

/** Special/dedup top-level vdevs whose fault tolerance is below the data vdevs'. */
export function underRedundant(pool: Pool): Array<{ vdev: VdevNode; tolerance: number; needed: number }> {
  const need = dataTolerance(pool);
  if (need === null) return [];
  return AUX_CLASSES.flatMap((c) => topLevel(pool, c).filter(real))
    .map((vdev) => ({ vdev, tolerance: faultTolerance(vdev), needed: need }))
    .filter((x) => x.tolerance < x.needed);
}

export const isRaidzLike = (v: VdevNode) => v.type === 'raidz1' || v.type === 'raidz2' || v.type === 'raidz3' || v.type === 'draid';

/** Human shape of a vdev: "single disk", "2-way mirror", "raidz2". */
export function shapeOf(v: VdevNode): string {
  if (v.type === 'mirror') return `${v.children.length}-way mirror`;
  if (v.type === 'disk' || v.type === 'file') return `single ${v.type}`;
  return v.type;
}

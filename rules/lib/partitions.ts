/**
 * Which partition of a drive a pool leaf is, and how large the leaf really is (issue 17 §4): a
 * leaf on a partition is the partition's size, never the whole drive's. Shared by the inventory
 * builder, the rules and the views so they agree.
 */
import type { Drive, Partition, VdevNode } from '../../server/src/model/inventory.ts';
import { baseName, parentDiskName, stripDev } from '../../server/src/gather/device-names.ts';

const same = (a: string, b: string): boolean => stripDev(a) === stripDev(b) || baseName(a) === baseName(b);

/** The partition of `drive` the leaf names, or null (a whole-disk leaf, or no partition table read). */
export function partitionOfLeaf(leaf: Pick<VdevNode, 'name'>, drive: Drive | null): Partition | null {
  if (!drive?.partitions?.length) return null;
  return drive.partitions.find((p) => [p.name, ...p.aliases].some((a) => same(a, leaf.name))) ?? null;
}

/** A leaf names a partition rather than a whole disk (by its name, or by the drive's partition table). */
export function isPartitionLeaf(leaf: Pick<VdevNode, 'name'>, drive: Drive | null): boolean {
  return partitionOfLeaf(leaf, drive) !== null || parentDiskName(leaf.name) !== null;
}

/**
 * The size a leaf contributes: its partition's size when it is a partition, else what `zpool list -v`
 * said for it, else the drive's size for a whole-disk leaf. null when unknown — a partition leaf
 * never falls back to the whole drive.
 */
export function leafSizeBytes(leaf: Pick<VdevNode, 'name' | 'sizeBytes'>, drive: Drive | null): number | null {
  const part = partitionOfLeaf(leaf, drive);
  if (part?.sizeBytes != null) return part.sizeBytes;
  if (leaf.sizeBytes != null) return leaf.sizeBytes;
  if (isPartitionLeaf(leaf, drive)) return null;
  return drive?.sizeBytes ?? null;
}

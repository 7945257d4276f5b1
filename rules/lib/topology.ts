/**
 * Topology helpers shared by rules: walk vdev trees, find the drive behind a leaf, and describe
 * the redundancy of a vdev in one number (how many devices can fail without data loss).
 */
import type { Drive, Pool, VdevClass, VdevNode } from '../../server/src/model/inventory.ts';
import { baseName, parentDiskName } from '../../server/src/gather/device-names.ts';
import { driveAliases, drivesById, strippedName } from './inventory-index.ts';

/** Top-level vdevs of one allocation class. */
export const topLevel = (pool: Pool, cls: VdevClass): VdevNode[] => pool.vdevs.filter((v) => v.class === cls);

/** Every leaf device below a node (disks and files), descending through replacing/spare groups. */
export function leaves(node: VdevNode): VdevNode[] {
  if (node.children.length === 0) return node.type === 'hole' || node.type === 'indirect' ? [] : [node];
  return node.children.flatMap(leaves);
}

export function allLeaves(pool: Pool, cls?: VdevClass): VdevNode[] {
  return pool.vdevs.filter((v) => cls === undefined || v.class === cls).flatMap(leaves);
}

/**
 * Devices that may fail in this top-level vdev without losing it:
 * disk/file 0, n-way mirror n−1, raidzP P, draidP P (distributed spares not counted).
 * Nested replacing/spare groups count as one device (they are one slot).
 */
export function faultTolerance(node: VdevNode): number {
  switch (node.type) {
    case 'mirror': return Math.max(0, node.children.length - 1);
    case 'raidz1': return 1;
    case 'raidz2': return 2;
    case 'raidz3': return 3;
    case 'draid': return node.draid?.parity ?? (Number(/^draid(\d)/.exec(node.name)?.[1]) || 1);
    default: return 0;
  }
}

/** The least fault tolerance among a class's top-level vdevs (the pool dies with its weakest vdev). */
export function classFaultTolerance(pool: Pool, cls: VdevClass): number | null {
  const vs = topLevel(pool, cls).filter((v) => v.type !== 'indirect' && v.type !== 'hole');
  return vs.length === 0 ? null : Math.min(...vs.map(faultTolerance));
}

/** Resolves a leaf to its drive via `driveId`, else by matching any alias against the leaf name. */
export function driveForLeaf(leaf: VdevNode, drives: readonly Drive[]): Drive | null {
  if (leaf.driveId) {
    const d = drivesById(drives).get(leaf.driveId);
    if (d) return d;
  }
  // The first drive (in inventory order) with an alias equal to the leaf's name, or equal once
  // both lose /dev/, by-id/ and a partition suffix.
  const { exact, stripped } = driveAliases(drives);
  const a = exact.get(leaf.name.replace(/^\/dev\//, ''));
  const b = stripped.get(strippedName(leaf.name));
  const at = a === undefined ? b : b === undefined ? a : Math.min(a, b);
  return at === undefined ? null : drives[at]!;
}

/** Drives of the pool's data vdevs (for "is this an HDD pool?"). */
export function dataDrives(pool: Pool, drives: readonly Drive[]): Drive[] {
  return allLeaves(pool, 'data').map((l) => driveForLeaf(l, drives)).filter((d): d is Drive => d !== null);
}

/** A vdev's human label: "mirror-0 (2 × disk)", "raidz2-1 (6 wide)". */
export function describeVdev(v: VdevNode): string {
  if (v.children.length === 0) return v.name;
  return `${v.name} (${v.children.length} wide ${v.type})`;
}

/**
 * The path to print in a command for a leaf or drive: prefer /dev/disk/by-id. A partition leaf
 * (`…-part1`, `sda1`, `c13t1d0p1`) keeps its own name: the drive's by-id path names the whole
 * disk, which is not the vdev.
 */
export function commandPath(leaf: VdevNode, drives: readonly Drive[]): string {
  if (leaf.children.length === 0 && parentDiskName(leaf.name) !== null) return leaf.name;
  const d = driveForLeaf(leaf, drives);
  return d?.byIdPath ?? leaf.name;
}

/** A vdev's name in subject ids: leaves by their last path component (`sda1`, not `/dev/sda1`). */
export const vdevShortName = (v: VdevNode): string => (v.children.length === 0 ? baseName(v.name) : v.name);

/** Subject id of a vdev: `pool/vdev-name`, never `pool//dev/disk/…`. */
export const vdevId = (poolName: string, v: VdevNode): string => `${poolName}/${vdevShortName(v)}`;

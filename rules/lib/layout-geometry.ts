/**
 * Layout facts the redundancy/layout rules share: which top-level vdevs hold data, their parity,
 * width and ashift, what media they sit on, and how efficiently a block of a given size is stored
 * on them (exact raidz/dRAID allocation math, zfs-facts C1, C6).
 */
import type { Drive, Pool, VdevNode } from '../../server/src/model/inventory.ts';
import { draidEfficiency, raidzEfficiency, raidzNominalEfficiency } from '../../server/src/zfsmath/raidz.ts';
import { isHdd, isSsd, isVirtual } from './device-class.ts';
import { driveForLeaf, faultTolerance, leaves, topLevel, vdevId } from './topology.ts';
import { leafSizeBytes } from './partitions.ts';

/** When the pool reports ashift 0 (auto) or nothing, rules assume 12: the auto value for 4K and flash devices (C21). */
export const ASSUMED_ASHIFT = 12;

/** Real top-level vdevs of a class (no indirect/hole remnants of a removal). */
export function realTopLevel(pool: Pool, cls: VdevNode['class'] = 'data'): VdevNode[] {
  return topLevel(pool, cls).filter((v) => v.type !== 'indirect' && v.type !== 'hole');
}

export const isRaidz = (v: VdevNode): boolean => v.type === 'raidz1' || v.type === 'raidz2' || v.type === 'raidz3';
export const isParityVdev = (v: VdevNode): boolean => isRaidz(v) || v.type === 'draid';

/** Parity level of a raidz/dRAID vdev (0 for anything else). */
export function parityOf(v: VdevNode): number {
  return isParityVdev(v) ? faultTolerance(v) : 0;
}

/** Number of device slots (children) in a top-level vdev; a single disk is 1 wide. */
export function widthOf(v: VdevNode): number {
  return v.children.length === 0 ? 1 : v.children.length;
}

/** dRAID data disks per redundancy group: from the decoded name, else the draid default of 8 (C7). */
export function draidDataDisks(v: VdevNode): number {
  if (v.draid) return v.draid.data;
  const m = /^draid\d(?::(\d+)d)?/.exec(v.name);
  return m?.[1] ? Number(m[1]) : 8;
}

/** The vdev's own ashift, else the pool's, else the assumed 12; says which one it used. */
export function ashiftOf(v: VdevNode, pool: Pool): { ashift: number; known: boolean } {
  if (v.ashift != null && v.ashift > 0) return { ashift: v.ashift, known: true };
  if (pool.ashift != null && pool.ashift > 0) return { ashift: pool.ashift, known: true };
  return { ashift: ASSUMED_ASHIFT, known: false };
}

/** A short human label: `raidz2-0 (12 wide raidz2)`. */
export function vdevLabel(v: VdevNode): string {
  if (v.children.length === 0) return `${v.name} (single ${v.type})`;
  return `${v.name} (${v.children.length} wide ${v.type})`;
}

/** Subject id for a vdev: `pool/vdev`. */
/** `pool/vdev-name` with a leaf's short name (see topology.vdevId). */
export const vdevSubjectId = (pool: Pool, v: VdevNode): string => vdevId(pool.name, v);

export interface BlockEfficiency {
  /** Share of allocated space that holds data for this block size (psize/asize). */
  efficiency: number;
  /** What the layout promises for large blocks: (N−P)/N for raidz, D/(D+P) for dRAID. */
  nominal: number;
}

/** Storage efficiency of one block size on a parity vdev; null for mirrors and single disks. */
export function blockEfficiency(v: VdevNode, blockBytes: number, ashift: number): BlockEfficiency | null {
  if (isRaidz(v)) {
    const n = widthOf(v);
    const p = parityOf(v);
    if (n <= p) return null;
    return { efficiency: raidzEfficiency(blockBytes, n, p, ashift), nominal: raidzNominalEfficiency(n, p) };
  }
  if (v.type === 'draid') {
    const d = draidDataDisks(v);
    const p = parityOf(v);
    return { efficiency: draidEfficiency(blockBytes, d, p, ashift), nominal: d / (d + p) };
  }
  return null;
}

/** The drives behind a vdev's leaves (those we could resolve). */
export function drivesOf(v: VdevNode, drives: readonly Drive[]): Drive[] {
  return leaves(v).map((l) => driveForLeaf(l, drives)).filter((d): d is Drive => d !== null);
}

export type MediaVerdict = 'hdd' | 'flash' | 'virtual' | 'mixed' | 'unknown';

/**
 * Whether a set of drives is spinning, flash, virtual disks or LUNs (whose media this host cannot
 * see), a mix, or unknown (no drive resolved / media unknown).
 */
export function mediaOf(ds: readonly Drive[]): MediaVerdict {
  if (ds.length === 0) return 'unknown';
  if (ds.every(isVirtual)) return 'virtual';
  const hdd = ds.filter(isHdd).length;
  const flash = ds.filter(isSsd).length;
  if (hdd === ds.length) return 'hdd';
  if (flash === ds.length) return 'flash';
  if (hdd > 0 && flash > 0) return 'mixed';
  return 'unknown';
}

/** Largest member size of a vdev (a partition member counts at its partition's size), else the vdev's own size divided by its width. */
export function memberSizeBytes(v: VdevNode, drives: readonly Drive[]): number | null {
  const sizes = leaves(v).map((l) => leafSizeBytes(l, driveForLeaf(l, drives))).filter((s): s is number => s !== null);
  if (sizes.length > 0) return Math.max(...sizes);
  if (v.sizeBytes != null) return v.sizeBytes / widthOf(v);
  return null;
}

export const fmtPct = (x: number): string => `${(x * 100).toFixed(1)} %`;
export const fmtTB = (bytes: number): string => `${(bytes / 1e12).toFixed(1)} TB`;
export const fmtKiB = (bytes: number): string => (bytes >= 1048576 ? `${bytes / 1048576}M` : `${bytes / 1024}K`);

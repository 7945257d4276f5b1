/**
 * Capacity of a layout, from disk size to what `zfs list` shows as AVAIL on the empty pool, and
 * what a workload's blocks really fit (raidz padding, zfs-facts C1–C3, C6, C23).
 */
import { draidAsize, raidzAsize } from '../zfsmath/raidz.ts';
import { disksUsed, topLevelVdevs, type LayoutSpec } from './layout-spec.ts';
import { deflatedSpace, leafAsize, metaslabUsable, slopSpace, type SlopOptions } from './space.ts';

export interface SpaceOptions extends SlopOptions {
  ashift: number;
}

export interface LayoutSpace {
  /** Disks × size: what was bought. */
  rawBytes: number;
  /** Σ top-level vdev allocatable bytes after labels and metaslab rounding (`zpool list` SIZE). */
  poolSizeBytes: number;
  /** User-visible space before slop (deflate ratio applied: parity and 128K padding removed). */
  deflatedBytes: number;
  slopBytes: number;
  /** AVAIL of the empty pool's root dataset: deflated − slop. */
  usableBytes: number;
}

/** Bytes a block of `psize` allocates on one top-level vdev of this layout (mirror/stripe: itself, sector-rounded). */
export function blockAsize(spec: LayoutSpec, psize: number, ashift: number): number {
  const s = 2 ** ashift;
  switch (spec.kind) {
    case 'stripe': case 'mirror': return Math.ceil(psize / s) * s;
    case 'raidz': return raidzAsize(psize, spec.width, spec.parity, ashift);
    case 'draid': return draidAsize(psize, spec.data, spec.parity, ashift);
  }
}

/** Physical bytes written per logical block, all copies and parity included (mirror: × ways). */
export function blockRawCost(spec: LayoutSpec, psize: number, ashift: number): number {
  return spec.kind === 'mirror' ? blockAsize(spec, psize, ashift) * spec.ways : blockAsize(spec, psize, ashift);
}

/** One top-level vdev's allocatable size before metaslab rounding (`vdev_*_open` asize). */
function vdevAsize(spec: LayoutSpec, diskBytes: number): number {
  const leaf = leafAsize(diskBytes);
  switch (spec.kind) {
    case 'stripe': case 'mirror': return leaf;
    case 'raidz': return leaf * spec.width;
    // dRAID: the distributed spares' share is not allocatable; slice rounding is ignored (< 0.1 %).
    case 'draid': return leaf * (spec.children - spec.spares);
  }
}

export function layoutSpace(spec: LayoutSpec, diskBytes: number, opts: SpaceOptions): LayoutSpace {
  const vdevs = topLevelVdevs(spec);
  const disks = disksUsed(spec);
  const perVdev = metaslabUsable(vdevAsize(spec, diskBytes));
  const deflatedPerVdev = deflatedSpace(perVdev, blockAsize(spec, 131072, opts.ashift));
  const deflatedBytes = deflatedPerVdev * vdevs;
  const slopBytes = slopSpace(deflatedBytes, opts);
  return {
    rawBytes: disks * diskBytes,
    poolSizeBytes: perVdev * vdevs,
    deflatedBytes,
    slopBytes,
    usableBytes: deflatedBytes - slopBytes,
  };
}

export interface BlockFit {
  blockSize: number;
  /** Allocated bytes per block on one vdev (parity and padding included). */
  allocatedBytes: number;
  /** blockSize / allocated (C-T1): share of the vdev's raw space holding data. */
  efficiency: number;
  /** Space charged in zfs list per logical byte, relative to 128K blocks (C-T2). */
  chargeFactor: number;
  /** Logical data of this block size that fits in `usableBytes` (usable ÷ charge factor). */
  effectiveUsableBytes: number;
}

/** How well blocks of the workload's size fit the layout (C-T1/C-T2 for raidz, C-T3 for dRAID). */
export function blockFit(spec: LayoutSpec, space: LayoutSpace, blockSize: number, ashift: number): BlockFit {
  const allocatedBytes = blockAsize(spec, blockSize, ashift);
  const ref = blockAsize(spec, 131072, ashift) / 131072;
  const chargeFactor = allocatedBytes / blockSize / ref;
  const dataBytes = spec.kind === 'draid' ? blockSize : Math.ceil(blockSize / 2 ** ashift) * 2 ** ashift;
  return {
    blockSize,
    allocatedBytes,
    efficiency: dataBytes / allocatedBytes,
    chargeFactor,
    effectiveUsableBytes: Math.floor(space.usableBytes / chargeFactor),
  };
}

/**
 * Relative performance and resilver exposure of a layout: a per-vdev model (zfs-facts C7, C11,
 * C14, C15), expressed in multiples of one disk so it does not pretend to know the drives.
 *
 * Model (per top-level vdev, summed over vdevs):
 *   mirror  W-way:  random read W, random write 1, sequential read W, sequential write 1
 *   raidzP  N-wide: random read 1, random write 1, sequential read/write N−P (data disks)
 *   dRAID:          random ≈ floor((N−S)/(D+P)) groups; sequential (N−S)·D/(D+P)
 *   stripe:         1 / 1 / 1 / 1 per disk
 * Calibration against 001 (bonnie++, 24 × 4 TB HDD on one HBA link): the ordering of measured
 * sequential write across its layouts follows the data-disk count, but scaling is sublinear
 * (its 24-disk stripe writes 6.4× one disk, not 24×) because one SAS link saturates near
 * 0.7–1.4 GB/s. So the multiples are upper bounds for the disks; `sequentialMBps` turns them into
 * MB/s and applies a stated per-host ceiling (HOST_SEQ_CAP_001 for HDDs unless the caller gives its
 * own), with the host's measured write ceiling per parity level for raidz/dRAID (the CPU computes
 * parity), so raidz1/2/3 of one width no longer tie at the ceiling. tests/planner/performance-001.test.ts checks the resulting ORDER of layouts against
 * every row of 001's HDD and SSD throughput tables (not the absolute numbers).
 */
import type { LayoutSpec } from './layout-spec.ts';
import { factLinks } from '../../../rules/lib/citations.ts';

export const MediaKind = ['hdd', 'ssd', 'nvme'] as const;
export type MediaKind = (typeof MediaKind)[number];

/** Per-disk rates used to turn multiples into numbers [heuristic; 001's single HDD: 204 MB/s read, 108 MB/s synced write]. */
export const DISK_RATES: Record<MediaKind, { randomIops: number; seqMBps: number; resilverMBps: [number, number] }> = {
  hdd: { randomIops: 200, seqMBps: 200, resilverMBps: [50, 150] }, // C15 range for HDD resilver
  ssd: { randomIops: 50_000, seqMBps: 500, resilverMBps: [150, 400] },
  nvme: { randomIops: 200_000, seqMBps: 2_500, resilverMBps: [300, 1_500] },
};

export interface RelativePerformance {
  /** Multiples of one disk. */
  randomReadX: number;
  randomWriteX: number;
  seqReadX: number;
  seqWriteX: number;
  /** Parity columns per stripe the host computes on writes (0 for mirrors and stripes). */
  parity: number;
}

export function relativePerformance(spec: LayoutSpec): RelativePerformance {
  switch (spec.kind) {
    case 'stripe':
      return { randomReadX: spec.disks, randomWriteX: spec.disks, seqReadX: spec.disks, seqWriteX: spec.disks, parity: 0 };
    case 'mirror':
      return { randomReadX: spec.ways * spec.vdevs, randomWriteX: spec.vdevs, seqReadX: spec.ways * spec.vdevs, seqWriteX: spec.vdevs, parity: 0 };
    case 'raidz': {
      const data = (spec.width - spec.parity) * spec.vdevs;
      return { randomReadX: spec.vdevs, randomWriteX: spec.vdevs, seqReadX: data, seqWriteX: data, parity: spec.parity };
    }
    case 'draid': {
      const groups = Math.max(1, Math.floor((spec.children - spec.spares) / (spec.data + spec.parity)));
      const data = ((spec.children - spec.spares) * spec.data) / (spec.data + spec.parity);
      return { randomReadX: groups, randomWriteX: groups, seqReadX: data, seqWriteX: data, parity: spec.parity };
    }
  }
}

export interface ResilverExposure {
  /** Fill level assumed (the 80 % guidance). */
  fill: number;
  /** Bytes each surviving disk of the affected vdev reads (resilver reads allocated data only, C14). */
  bytesPerDiskToRead: number;
  /** Disks that must be read to rebuild one failed disk. */
  disksRead: number;
  totalBytesRead: number;
  rateMBps: [number, number];
  /** null when there is nothing to rebuild from (stripe). */
  hours: [number, number] | null;
  /** Why the range: healing vs sequential rebuild. */
  basis: string;
}

export function resilverExposure(spec: LayoutSpec, diskBytes: number, media: MediaKind, fill = 0.8): ResilverExposure {
  const perDisk = diskBytes * fill;
  const [lo, hi] = DISK_RATES[media].resilverMBps;
  let disksRead: number;
  let speedup = 1;
  let basis = 'healing resilver reads the allocated blocks of the surviving disks and writes the new disk at the per-disk rate (' + factLinks('C14', 'C15') + ' [heuristic rate])';
  switch (spec.kind) {
    case 'stripe': disksRead = 0; basis = 'no redundancy: a failed disk cannot be rebuilt'; break;
    case 'mirror': disksRead = spec.ways - 1; break;
    case 'raidz': disksRead = spec.width - 1; break;
    case 'draid':
      disksRead = spec.children - 1;
      // Sequential rebuild to a distributed spare scales with the number of redundancy groups (C7, C15).
      speedup = Math.max(1, (spec.children - spec.spares) / (spec.data + spec.parity));
      basis = 'dRAID sequential rebuild to a distributed spare, spread over all children: per-disk rate × (N−S)/(D+P) (' + factLinks('C7', 'C15') + ' [heuristic rate])';
      break;
  }
  const seconds = (rate: number) => perDisk / (rate * 1e6 * speedup);
  return {
    fill,
    bytesPerDiskToRead: spec.kind === 'stripe' ? 0 : Math.round(spec.kind === 'draid' ? perDisk * (spec.data + spec.parity - 1) / (spec.children - 1) : perDisk),
    disksRead,
    totalBytesRead: Math.round(spec.kind === 'draid' ? perDisk * (spec.data + spec.parity - 1) : perDisk * disksRead),
    rateMBps: [lo, hi],
    hours: spec.kind === 'stripe' ? null : [seconds(hi) / 3600, seconds(lo) / 3600],
    basis,
  };
}

/** A host's sequential ceiling (HBA link, PCIe lanes, CPU), in MB/s for the whole pool. */
export interface HostSeqCap {
  readMBps: number;
  writeMBps: number;
  /**
   * The host's write ceiling for parity layouts by parity level (the CPU computes parity for every
   * stripe). Absent: the write ceiling scaled by 001's measured shares (PARITY_WRITE_SHARE_001).
   */
  parityWriteMBps?: Readonly<Record<1 | 2 | 3, number>>;
  /** Where the numbers come from, printed with the plan. */
  basis: string;
}

/**
 * 001's measured maximum over its 26 HDD layouts (24 × 4 TB HDD, one HBA, FreeBSD, bonnie++):
 * write 696 MB/s (12 striped mirrors; the 24-disk stripe 692), read 1377 MB/s (24-disk stripe).
 * More disks behind that host did not go faster, so this is the host's ceiling, not the disks'.
 * Parity layouts: the fastest raidz1 wrote 689 (12 wide), raidz2 638 (2 × 6 wide), raidz3 567
 * (2 × 11 wide) MB/s — wider and single-vdev parity pools stayed below these.
 */
export const HOST_SEQ_CAP_001: HostSeqCap = {
  readMBps: 1377,
  writeMBps: 696,
  parityWriteMBps: { 1: 689, 2: 638, 3: 567 },
  basis: '001 measured maxima on one HBA (24 × 4 TB HDD): write 696 MB/s, read 1377 MB/s; parity pools wrote at most 689 (raidz1), 638 (raidz2), 567 (raidz3) MB/s',
};

/**
 * 001's SSD table on the same chassis and HBA (24 × Samsung 840 256 GB): the 24-disk stripe wrote
 * 1620 and read 2043 MB/s; parity pools wrote at most 874 (raidz1, 17 wide), 806 (raidz2, 10 wide),
 * 699 (raidz3, 19 wide) MB/s however many SSDs they had: parity, not the disks, set the pace.
 */
export const HOST_SEQ_CAP_001_SSD: HostSeqCap = {
  readMBps: 2043,
  writeMBps: 1620,
  parityWriteMBps: { 1: 874, 2: 806, 3: 699 },
  basis: '001 measured maxima on one HBA (24 × SATA SSD): write 1620 MB/s, read 2043 MB/s; parity pools wrote at most 874 (raidz1), 806 (raidz2), 699 (raidz3) MB/s',
};

/** Share of the write ceiling parity pools reached on 001's HDD host, used when a caller's ceiling has no parity figures. */
export const PARITY_WRITE_SHARE_001: Readonly<Record<1 | 2 | 3, number>> = { 1: 689 / 696, 2: 638 / 696, 3: 567 / 696 };

/** The default ceiling: 001's for HDD and SATA SSD pools (the only host measured); none for NVMe. */
export function defaultHostSeqCap(media: MediaKind): HostSeqCap | null {
  return media === 'hdd' ? HOST_SEQ_CAP_001 : media === 'ssd' ? HOST_SEQ_CAP_001_SSD : null;
}

export interface SequentialEstimate {
  seqReadMBps: number;
  seqWriteMBps: number;
  /** True when the host ceiling, not the disks, sets a figure. */
  busLimited: boolean;
}

/** The write ceiling for a layout with `parity` parity columns (0 = mirror/stripe: the plain ceiling). */
export function writeCeiling(cap: HostSeqCap, parity: number): number {
  if (parity <= 0) return cap.writeMBps;
  const p = Math.min(3, parity) as 1 | 2 | 3;
  return cap.parityWriteMBps?.[p] ?? cap.writeMBps * PARITY_WRITE_SHARE_001[p];
}

/**
 * Sequential MB/s of a layout: disk multiples × per-disk rate, limited by the host ceiling; parity
 * layouts by the host's parity write ceiling, so raidz1/2/3 of one width do not tie at the ceiling.
 */
export function sequentialMBps(rel: RelativePerformance, perDisk: { readMBps: number; writeMBps: number }, cap: HostSeqCap | null): SequentialEstimate {
  const read = rel.seqReadX * perDisk.readMBps;
  const write = rel.seqWriteX * perDisk.writeMBps;
  const r = cap ? Math.min(read, cap.readMBps) : read;
  const w = cap ? Math.min(write, writeCeiling(cap, rel.parity)) : write;
  return { seqReadMBps: Math.round(r), seqWriteMBps: Math.round(w), busLimited: r < read || w < write };
}

/**
 * Pool-level space math the layout planner needs besides per-block raidz/dRAID allocation:
 * vdev labels, metaslab rounding, the deflate ratio and slop space. Each step follows the named
 * OpenZFS function so a number we print can be traced to the code that produces it.
 */
import { deflateRatio } from '../zfsmath/raidz.ts';

export const KiB = 1024;
export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;
export const TiB = 1024 ** 4;

/** `VDEV_LABEL_START_SIZE` (2 labels + boot block = 4 MiB) + `VDEV_LABEL_END_SIZE` (2 labels = 512 KiB). */
export const LABEL_OVERHEAD_BYTES = 4 * MiB + 512 * KiB;

/** A leaf device's allocatable size: size aligned down to a 256 KiB label, minus the labels (`vdev_open`). */
export function leafAsize(deviceBytes: number): number {
  const osize = Math.floor(deviceBytes / (256 * KiB)) * 256 * KiB;
  return Math.max(0, osize - LABEL_OVERHEAD_BYTES);
}

const highbit = (x: number): number => (x <= 0 ? 0 : Math.floor(Math.log2(x)) + 1);

/**
 * `vdev_metaslab_set_size` (OpenZFS ≥ 0.8 defaults): about 200 metaslabs per top-level vdev,
 * 512 MiB minimum (`zfs_vdev_default_ms_shift` 29) and 16 GiB maximum (`zfs_vdev_max_ms_shift` 34);
 * the tail below one metaslab is never allocatable.
 */
export function metaslabShift(vdevAsize: number): number {
  const count = Math.floor(vdevAsize / 2 ** 29);
  if (count < 16) return Math.max(highbit(vdevAsize / 16), 17);
  if (count > 200) return Math.min(highbit(vdevAsize / 200), 34);
  return 29;
}

/** Allocatable bytes of a top-level vdev after dropping the metaslab tail. */
export function metaslabUsable(vdevAsize: number): number {
  const shift = metaslabShift(vdevAsize);
  return Math.floor(vdevAsize / 2 ** shift) * 2 ** shift;
}

/** User-visible (deflated) space of a top-level vdev: `(bytes >> 9) × deflate ratio` (`vdev_deflated_space`). */
export function deflatedSpace(allocatableBytes: number, asizeOf128K: number): number {
  return Math.floor(allocatableBytes / 512) * deflateRatio(asizeOf128K);
}

export interface SlopOptions {
  /** `spa_slop_shift`, default 5 (1/32 ≈ 3.1 %). Before OpenZFS 0.6.5/FreeBSD 2015 the reserve was 1/64. */
  slopShift?: number;
  /** Apply the 128 MiB minimum / 128 GiB maximum clamps (absent before 2.0). */
  clamps?: boolean;
}

/**
 * `spa_get_slop_space` (zfs-facts C23): min(space >> spa_slop_shift, 128 GiB), then at least
 * min(space / 2, 128 MiB). The embedded-log deduction (at most half the slop, returned to the
 * user when the pool has ≥ 64 metaslabs per vdev) is not modelled: it makes AVAIL at most 1.6 % larger.
 */
export function slopSpace(space: number, opts: SlopOptions = {}): number {
  const shift = opts.slopShift ?? 5;
  const clamps = opts.clamps ?? true;
  let slop = Math.floor(space / 2 ** shift);
  if (!clamps) return slop;
  slop = Math.min(slop, 128 * GiB);
  return Math.max(slop, Math.min(Math.floor(space / 2), 128 * MiB));
}

/**
 * Parses a disk size: "16T" / "16TB" = 16·10^12 bytes (how drives are sold and how people name them),
 * "14.5TiB" / "960GiB" = binary units, a bare number = bytes. Returns null when unreadable.
 */
export function parseDiskSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGTP]?)(i?)B?\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2]!.toUpperCase();
  if (!unit) return Math.round(n);
  const exp = 'KMGTP'.indexOf(unit) + 1;
  return Math.round(n * (m[3] ? 1024 : 1000) ** exp);
}

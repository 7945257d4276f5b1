/**
 * raidz space math, an exact port of OpenZFS `vdev_raidz_psize_to_asize`
 * (zfs-facts.md C1, C3): used by the layout planner and the padding rule.
 */

/** Allocated bytes for a block of `psize` bytes on an N-wide raidz with P parity. */
export function raidzAsize(psize: number, width: number, parity: number, ashift: number): number {
  if (width <= parity) throw new RangeError(`raidz width ${width} must exceed parity ${parity}`);
  const s = 2 ** ashift;
  const d = Math.ceil(psize / s);
  let total = d + parity * Math.ceil(d / (width - parity));
  total = Math.ceil(total / (parity + 1)) * (parity + 1);
  return total * s;
}

/** psize / asize: the share of allocated space that holds data, for one block size. */
export function raidzEfficiency(psize: number, width: number, parity: number, ashift: number): number {
  return Math.ceil(psize / 2 ** ashift) * 2 ** ashift / raidzAsize(psize, width, parity, ashift);
}

/**
 * Space charged in `zfs list` per logical byte relative to 128 K blocks (C3 deflate ratio, table C-T2):
 * > 1 means small blocks use more space than `zfs list` predicts from the raw capacity.
 */
export function raidzChargeFactor(psize: number, width: number, parity: number, ashift: number): number {
  const per = raidzAsize(psize, width, parity, ashift) / psize;
  const ref = raidzAsize(131072, width, parity, ashift) / 131072;
  return per / ref;
}

/** Nominal data fraction ignoring padding: (N − P) / N. */
export const raidzNominalEfficiency = (width: number, parity: number): number => (width - parity) / width;

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

/**
 * dRAID allocation (zfs-facts C6, port of `vdev_draid_psize_to_asize`): every allocation is whole
 * (D + P)-sector rows, so a block uses `ceil(psize / (D·s))` rows of `(D + P)·s` bytes.
 */
export function draidAsize(psize: number, data: number, parity: number, ashift: number): number {
  if (data < 1 || parity < 1) throw new RangeError(`draid needs data ≥ 1 and parity ≥ 1 (got ${data}d, ${parity}p)`);
  const s = 2 ** ashift;
  const rows = Math.ceil(psize / (data * s));
  return rows * (data + parity) * s;
}

/** psize / asize for dRAID (table C-T3): the block's own size over what it allocates. */
export function draidEfficiency(psize: number, data: number, parity: number, ashift: number): number {
  return psize / draidAsize(psize, data, parity, ashift);
}

/**
 * The integer deflate ratio a vdev uses to turn allocated bytes into user-visible bytes
 * (zfs-facts C3, `vdev_set_deflate_ratio`): 2^17 / (asize(128K) >> 9), integer division as in C.
 * Multiply `(bytes >> 9) × ratio` to get the space `zfs list` reports.
 */
export function deflateRatio(asizeOf128K: number): number {
  return Math.floor(131072 / Math.floor(asizeOf128K / 512));
}

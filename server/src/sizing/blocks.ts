/**
 * How ZFS stores a file's data as blocks (zfs-facts B4, B5, C27), reduced to what special-vdev
 * sizing needs, without compression:
 *  - an empty file has no data block;
 *  - a file up to `recordsize` is ONE block of about its own size; allocated, it is rounded up to
 *    the sector size 2^ashift;
 *  - a larger file is ceil(size / recordsize) blocks of `recordsize` (the tail block is full size
 *    too: with compression its zero tail shrinks, without it does not).
 * With compression each block's physical size is smaller (and rounded up to 2^ashift, kept only if
 * it saves ≥ 12.5 %, B4); `special_small_blocks` is compared per block with that compressed size
 * (B3), so on compressible data more blocks qualify than this uncompressed projection shows: it
 * is an upper bound on block sizes and a lower bound on what a threshold captures.
 */

/** Smallest histogram bin: ≤ 512 B (SPA_MINBLOCKSIZE). Bin k holds (512·2^(k−1), 512·2^k]. */
export const FIRST_BIN_BYTES = 512;

/** Index of the power-of-two bin holding `size`: 0 for ≤ 512, then ⌈log2(size)⌉ − 9. */
export function binIndex(size: number): number {
  if (size <= FIRST_BIN_BYTES) return 0;
  // Exact for integers up to 2^53: the bit length of size − 1.
  let k = 0;
  let v = size - 1;
  while (v >= 2 ** 31) { v = Math.floor(v / 2 ** 31); k += 31; }
  k += 32 - Math.clz32(v);
  return k - 9;
}

export const binUpper = (index: number): number => FIRST_BIN_BYTES * 2 ** index;

export interface FileBlocks {
  /** Number of data blocks (0 for an empty file). */
  count: number;
  /** Size each block occupies on a mirror/single-disk vdev. */
  blockBytes: number;
}

/** The data blocks of a file of `size` bytes (see the module comment for the model). */
export function fileBlocks(size: number, recordsize: number, ashift: number): FileBlocks {
  if (size <= 0) return { count: 0, blockBytes: 0 };
  const sector = 2 ** ashift;
  if (size <= recordsize) return { count: 1, blockBytes: Math.ceil(size / sector) * sector };
  return { count: Math.ceil(size / recordsize), blockBytes: Math.ceil(recordsize / sector) * sector };
}

/**
 * The data blocks ZFS would store for a file the walk saw with `allocatedBytes` on disk
 * (st_blocks × 512). A sparse file (allocated < size) is counted by what is allocated: no block
 * when nothing is (a file that is one hole), and for a multi-record file one record per
 * `recordsize` allocated (at most the apparent count), since a whole-record hole has no block.
 * A single-block file with data keeps its one block: a hole inside one record is written with it.
 */
export function storedFileBlocks(size: number, allocatedBytes: number | null, recordsize: number, ashift: number): FileBlocks {
  const full = fileBlocks(size, recordsize, ashift);
  if (allocatedBytes === null || allocatedBytes >= size || full.count === 0) return full;
  if (allocatedBytes <= 0) return { count: 0, blockBytes: 0 };
  if (full.count === 1) return full;
  return { count: Math.min(full.count, Math.ceil(allocatedBytes / recordsize)), blockBytes: full.blockBytes };
}

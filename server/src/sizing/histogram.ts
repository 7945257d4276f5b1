/**
 * Bounded-memory accumulation of a file walk: two power-of-two histograms (files by apparent size,
 * blocks by allocated size), a metadata estimate, and the per-threshold special-class projection.
 * Memory is O(number of bins), whatever the number of files.
 */
import type { SizeBin, SizeHistogram } from '../model/workload.ts';
import { binIndex, binUpper, storedFileBlocks } from './blocks.ts';
import { factLinks } from '../../../rules/lib/citations.ts';

/** Bytes per dnode (dnodesize=legacy) and per block pointer (blkptr_t), from the on-disk format. */
const DNODE_BYTES = 512;
const BLKPTR_BYTES = 128;
/** Rough fat-ZAP cost of one directory entry [heuristic]. */
const DIRENT_BYTES = 64;
/** redundant_metadata=all keeps 2 copies of ordinary metadata on the special class (zfs-facts B20). */
const METADATA_COPIES = 2;

export const METADATA_BASIS =
  'estimate [derived] (' + factLinks('B20', 'B26', 'C28') + '): 512 B dnode per file and directory + 64 B directory entry each [heuristic] ' +
  '+ for each file with more than one block an indirect block holding a 128 B block pointer per block (rounded up to the sector), ' +
  `all × ${METADATA_COPIES} copies (redundant_metadata=all). OpenZFS gives no formula (${factLinks('B25')}): measure with zdb -bb once the pool exists.`;

export class SizeAccumulator {
  readonly fileCount: number[] = [];
  readonly fileBytes: number[] = [];
  readonly blockCount: number[] = [];
  readonly blockBytes: number[] = [];
  files = 0;
  dirs = 0;
  totalBytes = 0;
  indirectBytes = 0;
  /**
   * Sparse files: some blocks allocated, fewer than their apparent size (0 < st_blocks × 512 < size).
   * A file with data and no block at all is not counted here (see `unallocatedFiles`).
   */
  sparseFiles = 0;
  sparseHoleBytes = 0;
  /**
   * Files with a size and no block allocated (st_blocks = 0): on ZFS a file written moments ago has
   * none until the next txg sync writes it out (seconds later), so these are "not yet on disk", not
   * holes — unless the file is all holes (e.g. made by truncate) or zeros compression stores as holes.
   */
  unallocatedFiles = 0;
  unallocatedBytes = 0;

  constructor(readonly recordsize: number, readonly ashift: number) {}

  /** One regular file, counted once (hard links are de-duplicated by the caller). */
  addFile(size: number, allocatedBytes: number | null): void {
    this.addFiles(size, 1, allocatedBytes);
    if (allocatedBytes === null || allocatedBytes >= size) return;
    if (allocatedBytes <= 0) {
      this.unallocatedFiles++;
      this.unallocatedBytes += size;
    } else {
      this.sparseFiles++;
      this.sparseHoleBytes += size - allocatedBytes;
    }
  }

  /**
   * `n` files of `size` bytes each (a size table's row: one multiplication, not n calls). With
   * `allocatedBytes` (a walked file), a sparse file's blocks are what is allocated (blocks.ts).
   */
  addFiles(size: number, n: number, allocatedBytes: number | null = null): void {
    this.files += n;
    this.totalBytes += size * n;
    const f = binIndex(size);
    this.fileCount[f] = (this.fileCount[f] ?? 0) + n;
    this.fileBytes[f] = (this.fileBytes[f] ?? 0) + size * n;
    const { count, blockBytes } = storedFileBlocks(size, allocatedBytes, this.recordsize, this.ashift);
    if (count > 0) {
      const b = binIndex(blockBytes);
      this.blockCount[b] = (this.blockCount[b] ?? 0) + count * n;
      this.blockBytes[b] = (this.blockBytes[b] ?? 0) + count * blockBytes * n;
    }
    if (count > 1) {
      const sector = 2 ** this.ashift;
      this.indirectBytes += Math.ceil((count * BLKPTR_BYTES) / sector) * sector * n;
    }
  }

  addDirectory(): void {
    this.dirs++;
  }

  metadataBytes(): number {
    const objects = this.files + this.dirs;
    return METADATA_COPIES * (objects * (DNODE_BYTES + DIRENT_BYTES) + this.indirectBytes);
  }
}

/** Turns per-bin counts into SizeBins with running totals, from the first bin to the last non-empty one. */
export function toBins(counts: readonly (number | undefined)[], bytes: readonly (number | undefined)[]): SizeBin[] {
  let last = -1;
  for (let i = 0; i < counts.length; i++) if (counts[i]) last = i;
  const out: SizeBin[] = [];
  let cumulativeBytes = 0;
  let cumulativeCount = 0;
  for (let i = 0; i <= last; i++) {
    const count = counts[i] ?? 0;
    const b = bytes[i] ?? 0;
    cumulativeBytes += b;
    cumulativeCount += count;
    out.push({ upperBytes: binUpper(i), count, bytes: b, cumulativeBytes, cumulativeCount });
  }
  return out;
}

/** Candidate thresholds: 0 (off), then 4K, 8K … up to recordsize (and never above 1M, the ≤2.3 limit, B11). */
export function candidateThresholds(recordsize: number): number[] {
  const out = [0];
  for (let t = 4096; t <= Math.min(recordsize, 1048576); t *= 2) out.push(t);
  return out;
}

/**
 * Special-class usage per threshold: blocks ≤ T (bins are (T/2, T] so "≤ T" is whole bins, B6)
 * plus the metadata estimate, which lands there whatever T is (B1).
 */
export function projectCandidates(blockBins: readonly SizeBin[], recordsize: number, metadataBytes: number): SizeHistogram['candidates'] {
  return candidateThresholds(recordsize).map((t) => {
    const smallBlockBytes = t === 0 ? 0 : blockBins.filter((b) => b.upperBytes <= t).reduce((s, b) => s + b.bytes, 0);
    return { specialSmallBlocks: t, smallBlockBytes, metadataBytes, totalBytes: smallBlockBytes + metadataBytes };
  });
}

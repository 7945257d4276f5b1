import { mkdtempSync, mkdirSync, rmSync, symlinkSync, linkSync, writeFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binIndex, binUpper, fileBlocks } from '../../server/src/sizing/blocks.ts';
import { candidateThresholds, SizeAccumulator } from '../../server/src/sizing/histogram.ts';
import { measureSizes } from '../../server/src/sizing/measure.ts';

describe('block model', () => {
  it('bins by powers of two from 512 B, upper edge inclusive', () => {
    expect([0, 1, 512, 513, 1024, 1025, 4096, 4097, 2 ** 40, 2 ** 40 + 1].map(binIndex)).toEqual([0, 0, 0, 1, 1, 2, 3, 4, 31, 32]);
    expect(binUpper(3)).toBe(4096);
  });
  it('stores a file ≤ recordsize as one sector-rounded block, larger ones as recordsize blocks', () => {
    expect(fileBlocks(0, 131072, 12)).toEqual({ count: 0, blockBytes: 0 });
    expect(fileBlocks(1, 131072, 12)).toEqual({ count: 1, blockBytes: 4096 });
    expect(fileBlocks(5000, 131072, 12)).toEqual({ count: 1, blockBytes: 8192 });
    expect(fileBlocks(5000, 131072, 9)).toEqual({ count: 1, blockBytes: 5120 });
    expect(fileBlocks(131072, 131072, 12)).toEqual({ count: 1, blockBytes: 131072 });
    expect(fileBlocks(131073, 131072, 12)).toEqual({ count: 2, blockBytes: 131072 });
  });
  it('offers thresholds 0, 4K … recordsize', () => {
    expect(candidateThresholds(32768)).toEqual([0, 4096, 8192, 16384, 32768]);
    expect(candidateThresholds(4 * 1048576).at(-1)).toBe(1048576);
  });
});

// Issue 38 §4: 199 files written moments earlier counted as "sparse files". A file with a size and no
// block allocated (st_blocks = 0) is one whose txg has not synced yet (or all holes), not a sparse file;
// sparse is 0 < allocated < size.
describe('sparse or not yet on disk', () => {
  it('counts st_blocks = 0 with a size apart from sparse files', () => {
    const a = new SizeAccumulator(131072, 12);
    for (let i = 0; i < 199; i++) a.addFile(10_000, 0); // just written: no block allocated yet
    a.addFile(200_000, 4096); // partly allocated: sparse
    a.addFile(5000, 8192); // fully allocated
    a.addFile(0, 0); // empty: neither
    expect([a.unallocatedFiles, a.unallocatedBytes]).toEqual([199, 199 * 10_000]);
    expect([a.sparseFiles, a.sparseHoleBytes]).toEqual([1, 200_000 - 4096]);
    expect(a.files).toBe(202);
  });
});

describe('measureSizes on a small hand-made tree', () => {
  const root = mkdtempSync(join(tmpdir(), 'sizes-small-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'a/b'), { recursive: true });
  writeFileSync(join(root, 'empty'), '');
  writeFileSync(join(root, 'a/x'), Buffer.alloc(5000, 1)); // 1 block of 8K
  writeFileSync(join(root, 'a/b/y'), Buffer.alloc(4096, 1)); // 1 block of 4K
  writeFileSync(join(root, 'big'), '');
  truncateSync(join(root, 'big'), 300_000); // sparse, nothing allocated: no block at all
  linkSync(join(root, 'a/x'), join(root, 'a/x-link'));
  symlinkSync(join(root, 'a'), join(root, 'dir-link'));

  it('gives exact file and block histograms, counts links once and projects special usage', async () => {
    const progress: number[] = [];
    const { histogram: h, stats } = await measureSizes(root, { recordsize: 131072, ashift: 12, now: () => new Date(0), onProgress: (p) => progress.push(p.files) });
    expect(stats).toMatchObject({ files: 4, dirs: 3, symlinks: 1, hardLinkDuplicates: 1, mountPointsSkipped: 0, errors: 0 });
    expect(h.files).toBe(4);
    expect(h.totalBytes).toBe(5000 + 4096 + 300_000);
    expect(h.fileBins.filter((b) => b.count > 0).map((b) => [b.upperBytes, b.count, b.bytes])).toEqual([
      [512, 1, 0], [4096, 1, 4096], [8192, 1, 5000], [524288, 1, 300_000],
    ]);
    expect(h.fileBins.at(-1)!.cumulativeCount).toBe(4);
    // The sparse file is binned by apparent size in the file histogram, by allocation (none) here.
    expect(h.blockBins.filter((b) => b.count > 0).map((b) => [b.upperBytes, b.count, b.bytes])).toEqual([
      [4096, 1, 4096], [8192, 1, 8192],
    ]);
    // Metadata: 2 copies × (4 files + 3 dirs) × (512 + 64); no file has more than one block.
    const meta = 2 * (7 * 576);
    expect(h.candidates.map((c) => [c.specialSmallBlocks, c.smallBlockBytes, c.metadataBytes])).toEqual([
      [0, 0, meta], [4096, 4096, meta], [8192, 12288, meta], [16384, 12288, meta], [32768, 12288, meta],
      [65536, 12288, meta], [131072, 12288, meta],
    ]);
    // Issue 38 §4: a file with a size and no block allocated is "not yet on disk" (or all holes), never counted as sparse.
    expect(h.notes.join('\n')).toMatch(/^1 file \(293 KiB\) not yet on disk: no blocks allocated yet \(ZFS allocates them at the next txg sync/m);
    expect(h.notes.join('\n')).not.toMatch(/sparse file/);
    expect(progress.at(-1)).toBe(4);
  });

  it('stops when cancelled', async () => {
    const ac = new AbortController();
    ac.abort(new Error('user cancelled'));
    await expect(measureSizes(root, { recordsize: 131072, ashift: 12, signal: ac.signal })).rejects.toThrow('user cancelled');
  });
});

/**
 * The find-record parser on hand-written streams: what each record adds, hard links once, entries
 * on another filesystem skipped, the same result however the pipe splits the bytes, malformed
 * input rejected, a torn tail reported.
 */
import { describe, expect, it } from 'vitest';
import { FindRecordParser, findRecordArgs } from '../../server/src/sizing/find-records.ts';
import { SizeAccumulator } from '../../server/src/sizing/histogram.ts';
import type { WalkStats } from '../../server/src/sizing/walker.ts';

const emptyStats = (): WalkStats => ({
  files: 0, dirs: 0, symlinks: 0, otherEntries: 0, hardLinkDuplicates: 0,
  mountPointsSkipped: 0, mountPointExamples: [], errors: 0, errorExamples: [], elapsedMs: 0,
});

// root (dev 64770), a subdir, a 1000-byte file, a 0-byte file, a 200000-byte sparse file (8 blocks
// of 512 allocated), one inode (77) under two names, a symlink, a fifo, a mount point with a
// newline in its name, and a file on another device (a bind-mounted file).
const STREAM = [
  'd 64770 /tank/share',
  'd 64770 /tank/share/sub dir',
  'f 1000 8 11 1 64770',
  'f 0 0 12 1 64770',
  'f 200000 8 13 1 64770',
  'f 5000 16 77 2 64770',
  'l',
  'o',
  'f 5000 16 77 2 64770',
  'd 45 /tank/share/snap\nshot',
  'f 7 8 99 1 45',
].map((r) => `${r}\0`).join('');

function parseAll(chunks: Buffer[]) {
  const sizes = new SizeAccumulator(131072, 12);
  const stats = emptyStats();
  const p = new FindRecordParser(sizes, stats);
  for (const c of chunks) p.push(c);
  return { sizes, stats, p };
}

describe('FindRecordParser', () => {
  it('counts each record as the walker would', () => {
    const { sizes, stats, p } = parseAll([Buffer.from(STREAM)]);
    expect(p.records).toBe(11);
    expect(p.sawRoot).toBe(true);
    expect(p.partial).toBe(false);
    expect(stats).toMatchObject({
      files: 4, dirs: 2, symlinks: 1, otherEntries: 1, hardLinkDuplicates: 1, mountPointsSkipped: 2,
      mountPointExamples: ['/tank/share/snap\nshot', '(a file on another filesystem, inode 99)'],
    });
    expect(sizes.totalBytes).toBe(1000 + 0 + 200000 + 5000);
    // Files by apparent size: 1000 → bin (512,1K]; 0 → ≤512; 5000 → (4K,8K]; 200000 → (128K,256K].
    expect(sizes.fileCount[0]).toBe(1);
    expect(sizes.fileCount[1]).toBe(1);
    expect(sizes.fileCount[4]).toBe(1);
    expect(sizes.fileCount[9]).toBe(1);
    // Blocks (recordsize 128K, 4K sectors): 1000 → one 4K block, 5000 → one 8K block, 200000 bytes
    // of which 4096 are allocated (sparse) → one 128K record (a whole-record hole has no block).
    expect(sizes.blockCount[3]).toBe(1);
    expect(sizes.blockBytes[3]).toBe(4096);
    expect(sizes.blockCount[4]).toBe(1);
    expect(sizes.blockBytes[4]).toBe(8192);
    expect(sizes.blockCount[8]).toBe(1);
    expect(sizes.blockBytes[8]).toBe(131072);
    // 200000 bytes with 8 × 512 allocated: sparse.
    expect(sizes.sparseFiles).toBe(1);
    expect(sizes.sparseHoleBytes).toBe(200000 - 4096);
  });

  it('gives the same result wherever the pipe splits the stream', () => {
    const whole = Buffer.from(STREAM);
    const reference = parseAll([whole]);
    for (let cut = 1; cut < whole.length; cut++) {
      const split = parseAll([whole.subarray(0, cut), whole.subarray(cut)]);
      expect(split.stats).toEqual(reference.stats);
      expect(split.sizes).toEqual(reference.sizes);
    }
    const bytewise = parseAll([...whole].map((b) => Buffer.from([b])));
    expect(bytewise.stats).toEqual(reference.stats);
    expect(bytewise.sizes).toEqual(reference.sizes);
  });

  it('reports a stream that ends inside a record', () => {
    const { p } = parseAll([Buffer.from('d 1 /x\0f 10 8 5 1')]);
    expect(p.partial).toBe(true);
  });

  it('rejects malformed records', () => {
    expect(() => parseAll([Buffer.from('d 1 /x\0f 1x 8 5 1 1\0')])).toThrow(/malformed/);
    expect(() => parseAll([Buffer.from('d 1 /x\0f 10 8 5\0')])).toThrow(/malformed/);
    expect(() => parseAll([Buffer.from('d 1 /x\0q\0')])).toThrow(/unknown/);
    expect(() => parseAll([Buffer.from('f 10 8 5 1 1\0')])).toThrow(/before the root/);
  });

  it('keeps a start point that looks like an option out of the expression', () => {
    expect(findRecordArgs('-weird')[0]).toBe('./-weird');
    expect(findRecordArgs('(x')[0]).toBe('./(x');
    expect(findRecordArgs('/tank/share').slice(0, 2)).toEqual(['/tank/share', '-xdev']);
  });
});

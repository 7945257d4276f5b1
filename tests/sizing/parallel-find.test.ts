/**
 * The parallel size walk (several find processes over disjoint subtrees, parallel-find.ts) gives
 * exactly what `find -xdev -type f` sees: checked against real find output on a generated tree
 * with hard links (also across subtrees), partly and wholly sparse files, symlinks, odd names that
 * cannot be start points, a directory too large to split, and, as root, a nested tmpfs mount at an
 * upper level and one deep inside a subtree plus a bind-mounted file. The reference histogram is
 * computed here from find's lines, independently of server/src/sizing; the single find stream and
 * the Node walker must agree with it too.
 */
import { closeSync, ftruncateSync, linkSync, lstatSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/src/exec/runner.ts';
import type { SizeBin } from '../../server/src/model/workload.ts';
import { findHasPrintf } from '../../server/src/sizing/find-walk.ts';
import { measureSizes } from '../../server/src/sizing/measure.ts';
import { walkWithParallelFind } from '../../server/src/sizing/parallel-find.ts';
import { generateTree } from './generate-tree.ts';

const RECORDSIZE = 131072;
const ASHIFT = 12;
const isRoot = process.getuid?.() === 0;
const canMount = isRoot || process.env.CI === 'true'; // under CI a non-root run must fail, not skip
const gnuFind = await findHasPrintf();
if (!gnuFind && process.env.CI === 'true') throw new Error('GNU find with -printf is required under CI');

function refUpper(size: number): number {
  let u = 512;
  while (u < size) u *= 2;
  return u;
}

function refBins(entries: Map<number, { count: number; bytes: number }>): SizeBin[] {
  const uppers = [...entries.keys()].sort((a, b) => a - b);
  const out: SizeBin[] = [];
  let cb = 0;
  let cc = 0;
  if (uppers.length === 0) return out;
  for (let u = 512; u <= uppers.at(-1)!; u *= 2) {
    const e = entries.get(u) ?? { count: 0, bytes: 0 };
    cb += e.bytes;
    cc += e.count;
    out.push({ upperBytes: u, count: e.count, bytes: e.bytes, cumulativeBytes: cb, cumulativeCount: cc });
  }
  return out;
}

/**
 * The histograms from `find ROOT -xdev -type f -printf '%s %b %i %n %D\n'`, each inode once. One
 * documented difference: -xdev keeps find out of mounted directories, but a file mounted over a
 * file (bind mount) is still listed, with the other filesystem's device; it is not the tree's
 * data, so like the walks the reference leaves it out (and the walks count it as a mount point).
 */
async function reference(root: string) {
  const rootDev = lstatSync(root).dev;
  const found = await runCommand('find', [root, '-xdev', '-type', 'f', '-printf', '%s %b %i %n %D\\n'], { timeoutMs: 300_000, maxBytes: 256 * 1024 * 1024 });
  expect(found.error).toBeNull();
  expect(found.exitCode).toBe(0);
  const files = new Map<number, { count: number; bytes: number }>();
  const blocks = new Map<number, { count: number; bytes: number }>();
  const seen = new Set<string>();
  let count = 0;
  let total = 0;
  let linkNames = 0;
  let otherDevice = 0;
  for (const line of found.stdout.split('\n')) {
    if (!line) continue;
    const [s, b, ino, n, dev] = line.split(' ');
    if (Number(dev) !== rootDev) { otherDevice++; continue; }
    if (Number(n) > 1) {
      if (seen.has(ino!)) { linkNames++; continue; }
      seen.add(ino!);
    }
    const size = Number(s);
    const allocated = Number(b) * 512;
    count++;
    total += size;
    const f = files.get(refUpper(size)) ?? { count: 0, bytes: 0 };
    files.set(refUpper(size), { count: f.count + 1, bytes: f.bytes + size });
    // Blocks as stored: one block up to recordsize (none if nothing is allocated), else one
    // record per recordsize allocated, at most the apparent count.
    if (size === 0 || allocated === 0) continue;
    const apparent = size <= RECORDSIZE ? 1 : Math.ceil(size / RECORDSIZE);
    const blockCount = allocated >= size || apparent === 1 ? apparent : Math.min(apparent, Math.ceil(allocated / RECORDSIZE));
    const blockBytes = size <= RECORDSIZE ? Math.ceil(size / 2 ** ASHIFT) * 2 ** ASHIFT : RECORDSIZE;
    const e = blocks.get(refUpper(blockBytes)) ?? { count: 0, bytes: 0 };
    blocks.set(refUpper(blockBytes), { count: e.count + blockCount, bytes: e.bytes + blockCount * blockBytes });
  }
  return { fileBins: refBins(files), blockBins: refBins(blocks), files: count, totalBytes: total, linkNames, otherDevice };
}

const sparse = (path: string, data: number, size: number) => {
  const fd = openSync(path, 'w');
  if (data > 0) writeSync(fd, Buffer.alloc(data, 0x61));
  ftruncateSync(fd, size);
  closeSync(fd);
};

describe.runIf(gnuFind)('parallel find walk = find -xdev -type f', () => {
  let dir = '';
  let root = '';
  const mounts: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sizes-par-'));
    root = join(dir, 't');
    generateTree(root, 30_000, 21);
    // Hard links across subtrees, and a link count above 2.
    writeFileSync(join(root, 'd0', 'shared'), Buffer.alloc(9000, 1));
    linkSync(join(root, 'd0', 'shared'), join(root, 'd17', 'shared-again'));
    linkSync(join(root, 'd0', 'shared'), join(root, 'd29', 'l0', 'l1', 'shared-deep'));
    // Partly sparse (200 KB written, 10 MB apparent; 5000 B written, 100 KB apparent) and all holes.
    sparse(join(root, 'd3', 'partly-sparse'), 200_000, 10 * 1024 * 1024);
    sparse(join(root, 'd3', 'small-sparse'), 5000, 100_000);
    sparse(join(root, 'd4', 'all-holes'), 0, 50_000);
    sparse(join(root, 'all-holes-at-root'), 0, 3 * 1024 * 1024);
    // Names no start point can carry: the directory holding them is walked whole.
    mkdirSync(join(root, 'odd', 'new\nline dir', 'inner'), { recursive: true });
    writeFileSync(join(root, 'odd', 'new\nline dir', 'inner', 'f'), Buffer.alloc(777, 1));
    mkdirSync(join(root, '-dash', '(paren'), { recursive: true });
    writeFileSync(join(root, '-dash', '(paren', 'g'), Buffer.alloc(3333, 1));
    symlinkSync('../d1', join(root, 'odd', 'dir-link'));
    // Too many entries to read before splitting: walked whole by one find.
    mkdirSync(join(root, 'flat'));
    for (let i = 0; i < 20_500; i++) writeFileSync(join(root, 'flat', `x${i}`), i % 7 === 0 ? '' : 'abc');
    mkdirSync(join(root, 'flat', 'sub'));
    writeFileSync(join(root, 'flat', 'sub', 'y'), Buffer.alloc(100_000, 1));
    if (canMount) {
      // A mount point at an upper level (read by the split) and one deep in a subtree (seen by find).
      for (const m of [join(root, 'mnt-upper'), join(root, 'd5', 'l0', 'l1', 'mnt-deep')]) {
        mkdirSync(m);
        const r = await runCommand('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', m]);
        if (r.exitCode !== 0) throw new Error(`mount tmpfs failed: ${r.stderr || r.error?.message}`);
        mounts.push(m);
        for (let i = 0; i < 10; i++) writeFileSync(join(m, `inside-${i}`), Buffer.alloc(100 + i));
      }
      // A file of the tmpfs bind-mounted over a file of the tree: find lists it with the tmpfs's device.
      writeFileSync(join(root, 'd6', 'bound'), '');
      const b = await runCommand('mount', ['--bind', join(root, 'mnt-upper', 'inside-3'), join(root, 'd6', 'bound')]);
      if (b.exitCode !== 0) throw new Error(`bind mount failed: ${b.stderr || b.error?.message}`);
      mounts.push(join(root, 'd6', 'bound'));
    }
  }, 600_000);

  afterAll(async () => {
    for (const m of mounts.reverse()) await runCommand('umount', [m]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 300_000);

  it.runIf(canMount)('histograms and counts equal the reference from real find output, for 1, 2 and 3 processes', async () => {
    const ref = await reference(root);
    expect(ref.linkNames).toBeGreaterThanOrEqual(2);
    expect(ref.otherDevice).toBe(1); // the bind-mounted file
    const opts = { recordsize: RECORDSIZE, ashift: ASHIFT, now: () => new Date('2026-01-01T00:00:00Z') };
    const single = await measureSizes(root, { ...opts, method: 'find' });
    const walker = await measureSizes(root, { ...opts, method: 'node' });
    for (const processes of [1, 2, 3]) {
      const r = await measureSizes(root, { ...opts, method: 'parallel', processes });
      expect(r.method).toBe('parallel');
      expect(r.histogram.fileBins).toEqual(ref.fileBins);
      expect(r.histogram.blockBins).toEqual(ref.blockBins);
      expect(r.histogram.files).toBe(ref.files);
      expect(r.histogram.totalBytes).toBe(ref.totalBytes);
      expect(r.stats.hardLinkDuplicates).toBe(ref.linkNames);
      // Everything but the walker's name and the order of examples is the single walk's.
      const { notes: n1, ...h1 } = r.histogram;
      const { notes: n2, ...h2 } = single.histogram;
      expect(h1).toEqual(h2);
      const strip = (ns: string[]) => ns.filter((n) => !n.startsWith('walk:') && !n.includes('mount points not entered'));
      expect(strip(n1)).toEqual(strip(n2));
      const norm = (s: typeof r.stats) => ({ ...s, elapsedMs: 0, mountPointExamples: [...s.mountPointExamples].sort() });
      expect(norm(r.stats)).toEqual(norm(single.stats));
      // The Node walker names a bind-mounted file by its path; find's records carry no file path.
      expect({ ...norm(r.stats), mountPointExamples: [] }).toEqual({ ...norm(walker.stats), mountPointExamples: [] });
      expect(r.histogram).toEqual({ ...walker.histogram, notes: r.histogram.notes });
    }
    expect(single.stats.mountPointsSkipped).toBe(3);
    expect(single.stats.mountPointExamples).toEqual(expect.arrayContaining([join(root, 'd5', 'l0', 'l1', 'mnt-deep'), join(root, 'mnt-upper')]));
    expect(single.stats.errors).toBe(0);
  }, 600_000);

  it('really splits: several subtrees, and the note names the processes', async () => {
    const r = await walkWithParallelFind(root, { recordsize: RECORDSIZE, ashift: ASHIFT, processes: 2 });
    expect(r.ok).toBe(true);
    expect(r.processes).toBe(2);
    expect(r.subtrees).toBeGreaterThanOrEqual(32);
    const m = await measureSizes(root, { recordsize: RECORDSIZE, ashift: ASHIFT, processes: 2 });
    expect(m.method).toBe('parallel');
    expect(m.histogram.method).toBe('walk');
    expect(m.histogram.notes).toContainEqual(expect.stringMatching(/^walk: by 2 GNU find -xdev -printf processes at once over \d+ subtrees/));
  }, 300_000);

  it('cancellation stops every find and rejects with the reason', async () => {
    const ac = new AbortController();
    const walk = walkWithParallelFind(root, {
      recordsize: RECORDSIZE, ashift: ASHIFT, processes: 2, signal: ac.signal, progressIntervalMs: 0,
      onProgress: () => ac.abort(new Error('stop here')),
    });
    await expect(walk).rejects.toThrow('stop here');
  }, 300_000);
});


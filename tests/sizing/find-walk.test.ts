/**
 * The two walks of `sizes` on the same real tree: GNU find -printf streaming (fast path) and the
 * Node walker (fallback) must give the same SizeHistogram and the same walk statistics. The tree
 * is the generated one (hard links, sparse files, symlinks, deep and wide directories) plus odd
 * names (newline, space, leading dash), a fifo and, as root, a nested tmpfs mount.
 * Also: progress, cancellation, and the fallback when find has no -printf (a stand-in find).
 */
import { createServer, type Server } from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/src/exec/runner.ts';
import { findHasPrintf, walkWithFind } from '../../server/src/sizing/find-walk.ts';
import { measureSizes } from '../../server/src/sizing/measure.ts';
import type { WalkProgress } from '../../server/src/sizing/walker.ts';
import { generateTree, type GeneratedTree } from './generate-tree.ts';

const FILES = 20_000;
const isRoot = process.getuid?.() === 0;
const OPTS = { recordsize: 131072, ashift: 12, now: () => new Date('2026-01-01T00:00:00Z') };
// GNU find is the fast path's tool: missing is a skip locally, a failure under CI.
const gnuFind = await findHasPrintf();
if (!gnuFind && process.env.CI === 'true') throw new Error('GNU find with -printf is required under CI');

describe('find -printf walk vs Node walker on a generated tree', () => {
  let dir = '';
  let root = '';
  let tree: GeneratedTree;
  let mountPoint = '';
  let mounted = false;
  let socket: Server | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sizes-find-'));
    root = join(dir, 't');
    tree = generateTree(root, FILES, 15);
    mkdirSync(join(root, '-dash dir'));
    writeFileSync(join(root, '-dash dir', 'new\nline'), Buffer.alloc(3000, 1));
    writeFileSync(join(root, '-dash dir', 'with space'), Buffer.alloc(70000, 1));
    // A unix socket: neither file nor directory (exists while the server listens).
    const server = createServer();
    socket = server;
    await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(join(root, 'd1', 'sock'), resolve); });
    if (isRoot) {
      mountPoint = join(root, 'd2', 'nested');
      mkdirSync(mountPoint);
      const r = await runCommand('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]);
      if (r.exitCode !== 0) throw new Error(`mount tmpfs failed: ${r.stderr || r.error?.message}`);
      mounted = true;
      for (let i = 0; i < 20; i++) writeFileSync(join(mountPoint, `inside-${i}`), Buffer.alloc(100 + i));
    }
  }, 300_000);

  afterAll(async () => {
    if (mounted) await runCommand('umount', [mountPoint]);
    if (socket) await new Promise((resolve) => socket!.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 300_000);

  it.runIf(gnuFind)('both methods give the same histogram and statistics', async () => {
    const viaFind = await measureSizes(root, { ...OPTS, method: 'find' });
    const viaNode = await measureSizes(root, { ...OPTS, method: 'node' });
    expect(viaFind.method).toBe('find');
    expect(viaNode.method).toBe('node');
    expect(viaFind.histogram.notes.some((n) => n.includes('GNU find'))).toBe(true);
    expect(viaNode.histogram.notes).toContain('walk: by the Node walker (requested)');

    const { notes: nf, ...hf } = viaFind.histogram;
    const { notes: nn, ...hn } = viaNode.histogram;
    expect(hf).toEqual(hn);
    // The notes differ only in the line naming the method.
    expect(nf.filter((n) => !n.startsWith('walk:'))).toEqual(nn.filter((n) => !n.startsWith('walk:')));
    expect({ ...viaFind.stats, elapsedMs: 0 }).toEqual({ ...viaNode.stats, elapsedMs: 0 });

    // And both are right about the tree: generated files + the two odd names, links once.
    expect(viaFind.stats.files).toBe(FILES + 2);
    expect(viaFind.stats.hardLinkDuplicates).toBe(tree.hardLinks);
    expect(viaFind.stats.symlinks).toBe(tree.symlinks);
    expect(viaFind.stats.otherEntries).toBe(1);
    expect(viaFind.stats.dirs).toBe(tree.dirs + 1);
    expect(viaFind.stats.mountPointsSkipped).toBe(mounted ? 1 : 0);
    if (mounted) expect(viaFind.stats.mountPointExamples).toEqual([mountPoint]);
    expect(viaFind.stats.errors).toBe(0);
  }, 300_000);

  it.runIf(gnuFind)('auto picks the parallel find walk when find has -printf and reports progress', async () => {
    const seen: WalkProgress[] = [];
    const r = await measureSizes(root, { ...OPTS, progressIntervalMs: 0, onProgress: (p) => seen.push(p) });
    expect(r.method).toBe('parallel');
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)!.files).toBe(FILES + 2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.files).toBeGreaterThanOrEqual(seen[i - 1]!.files);
  }, 300_000);

  it.runIf(gnuFind)('cancellation kills find and rejects with the reason', async () => {
    const ac = new AbortController();
    const walk = walkWithFind(root, {
      recordsize: 131072, ashift: 12, signal: ac.signal, progressIntervalMs: 0,
      onProgress: () => ac.abort(new Error('stop here')),
    });
    await expect(walk).rejects.toThrow('stop here');
  }, 300_000);

  it('falls back to the Node walker when find has no -printf', async () => {
    // A stand-in `find` that answers like FreeBSD's find does to -printf.
    const bin = join(dir, 'fake-bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'find'), '#!/bin/sh\necho "find: -printf: unknown primary or operator" >&2\nexit 1\n');
    chmodSync(join(bin, 'find'), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath ?? ''}`;
    try {
      expect(await findHasPrintf()).toBe(false);
      const r = await measureSizes(root, OPTS);
      expect(r.method).toBe('node');
      expect(r.histogram.notes).toContain('walk: by the Node walker (find has no -printf (not GNU find))');
      expect(r.stats.files).toBe(FILES + 2);
      await expect(measureSizes(root, { ...OPTS, method: 'find' })).rejects.toThrow(/find walk is not available/);
    } finally {
      process.env.PATH = savedPath;
    }
  }, 300_000);
});

/**
 * Walks a directory tree the way `find -xdev -type f` does, feeding a SizeAccumulator:
 * - never leaves the root's filesystem (st_dev compared on every directory and file);
 * - never follows symlinks (lstat; links are counted, not entered);
 * - counts a hard-linked file once (an inode set, kept only for files with nlink > 1);
 * - keeps no list of files: memory is the directory stack plus the hard-link set.
 *
 * Why synchronous calls: measured on 100k files (warm cache), promise-based opendir/lstat through
 * the libuv pool ran at ~36k files/s, `opendirSync`/`lstatSync` at ~210k files/s, about what
 * `find -printf '%s\n'` does. The walk yields to the event loop every YIELD_EVERY entries
 * (≈ 10–20 ms of work), which is where progress is reported and cancellation is checked, so a
 * server using it stays responsive.
 */
import { lstatSync, opendirSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { SizeAccumulator } from './histogram.ts';

export interface WalkProgress {
  files: number;
  dirs: number;
  bytes: number;
  elapsedMs: number;
}

export interface WalkOptions {
  recordsize: number;
  ashift: number;
  signal?: AbortSignal;
  onProgress?: (p: WalkProgress) => void;
  progressIntervalMs?: number;
}

export interface WalkStats {
  files: number;
  dirs: number;
  symlinks: number;
  /** fifos, sockets, device nodes: not data. */
  otherEntries: number;
  /** Extra names of an already counted inode. */
  hardLinkDuplicates: number;
  /** Directories on another filesystem (nested mounts, snapshot dirs), not entered. */
  mountPointsSkipped: number;
  mountPointExamples: string[];
  /** Entries that vanished or could not be read (permission), skipped. */
  errors: number;
  errorExamples: string[];
  elapsedMs: number;
}

export interface WalkResult {
  sizes: SizeAccumulator;
  stats: WalkStats;
}

const EXAMPLES = 10;
const YIELD_EVERY = 4096;

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

export async function walkTree(root: string, opts: WalkOptions): Promise<WalkResult> {
  const started = performance.now();
  const signal = opts.signal;
  signal?.throwIfAborted();
  const rootStat = lstatSync(root);
  if (!rootStat.isDirectory()) throw new Error(`${root} is not a directory`);
  const dev = rootStat.dev;
  const sizes = new SizeAccumulator(opts.recordsize, opts.ashift);
  const stats: WalkStats = {
    files: 0, dirs: 0, symlinks: 0, otherEntries: 0, hardLinkDuplicates: 0,
    mountPointsSkipped: 0, mountPointExamples: [], errors: 0, errorExamples: [], elapsedMs: 0,
  };
  const seenInodes = new Set<number>();
  const interval = opts.progressIntervalMs ?? 250;
  let lastProgress = started;
  let sinceYield = 0;

  const fail = (path: string, err: unknown) => {
    stats.errors++;
    if (stats.errorExamples.length < EXAMPLES) stats.errorExamples.push(`${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  };
  const mount = (path: string) => {
    stats.mountPointsSkipped++;
    if (stats.mountPointExamples.length < EXAMPLES) stats.mountPointExamples.push(path);
  };
  const report = () => {
    opts.onProgress?.({ files: stats.files, dirs: stats.dirs, bytes: sizes.totalBytes, elapsedMs: performance.now() - started });
  };
  const pause = async () => {
    sinceYield = 0;
    await yieldToLoop();
    signal?.throwIfAborted();
    const now = performance.now();
    if (now - lastProgress >= interval) { lastProgress = now; report(); }
  };
  const file = (path: string, st: Stats) => {
    if (st.dev !== dev) { mount(path); return; }
    if (st.nlink > 1) {
      if (seenInodes.has(st.ino)) { stats.hardLinkDuplicates++; return; }
      seenInodes.add(st.ino);
    }
    stats.files++;
    sizes.addFile(st.size, st.blocks * 512);
  };

  // Directories still to read, depth first (keeps the stack short on wide trees).
  const pending: string[] = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    stats.dirs++;
    sizes.addDirectory();
    let handle;
    try {
      handle = opendirSync(dir, { bufferSize: 1024 });
    } catch (err) {
      fail(dir, err);
      continue;
    }
    try {
      for (let d = handle.readSync(); d !== null; d = handle.readSync()) {
        if (++sinceYield >= YIELD_EVERY) await pause();
        if (d.isSymbolicLink()) { stats.symlinks++; continue; }
        if (d.isBlockDevice() || d.isCharacterDevice() || d.isFIFO() || d.isSocket()) { stats.otherEntries++; continue; }
        // Files need lstat for their size, directories for st_dev (mount points); so does an unknown d_type.
        const path = `${dir}/${d.name}`;
        let st: Stats | undefined;
        try {
          st = lstatSync(path, { throwIfNoEntry: false });
        } catch (err) {
          fail(path, err);
          continue;
        }
        if (!st) { fail(path, 'ENOENT'); continue; }
        if (st.isFile()) file(path, st);
        else if (st.isDirectory()) { if (st.dev !== dev) mount(path); else pending.push(path); }
        else if (st.isSymbolicLink()) stats.symlinks++;
        else stats.otherEntries++;
      }
    } catch (err) {
      fail(dir, err);
    } finally {
      handle.closeSync();
    }
  }
  stats.elapsedMs = performance.now() - started;
  report();
  return { sizes, stats };
}

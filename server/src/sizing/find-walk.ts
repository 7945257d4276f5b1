/**
 * The fast path of `sizes` on Linux: GNU find does the directory walk (fstatat relative to an open
 * directory, in C, in its own process, so on the other core) and streams one NUL-terminated record
 * per entry (find-records.ts), binned as the bytes arrive. Same rules and same result as the Node
 * walker (walker.ts), which stays the fallback where find has no -printf (FreeBSD / TrueNAS CORE)
 * or fails:
 * - `-xdev`: mount points are listed but not entered; an entry whose st_dev differs from the
 *   root's is counted as a skipped mount point, as the walker does;
 * - find never follows symlinks (-P is its default); they are counted;
 * - a hard-linked file is counted once (inode set only for nlink > 1);
 * - bounded memory: records are parsed from the pipe's chunks, no file list, no output kept.
 * find's per-entry errors (permission, vanished entries) go to stderr and it exits 1: counted as
 * skipped entries like the walker's. Anything else (no find, killed, a torn or malformed record)
 * is returned as a reason and the caller falls back to the walker.
 */
import { lstatSync } from 'node:fs';
import { runCommand, runStreaming } from '../exec/runner.ts';
import { FindRecordParser, findRecordArgs } from './find-records.ts';
import { SizeAccumulator } from './histogram.ts';
import type { WalkOptions, WalkResult, WalkStats } from './walker.ts';

const EXAMPLES = 10;
/** find runs as long as the walk takes; this only bounds a hung process (setTimeout's limit is ~24.8 days). */
const FIND_TIMEOUT_MS = 24 * 3600_000;

/** True when `find` is GNU find with -printf (Linux); FreeBSD's find rejects the primary. */
export async function findHasPrintf(): Promise<boolean> {
  const r = await runCommand('find', ['/', '-maxdepth', '0', '-printf', 'x'], { timeoutMs: 10_000 });
  return r.error === null && r.exitCode === 0 && r.stdout === 'x';
}

export type FindWalkOutcome = { ok: true; result: WalkResult } | { ok: false; reason: string };

/**
 * Walks `root` with GNU find. Cancellation: aborting `opts.signal` kills find and rejects with the
 * signal's reason, as the walker does. Progress (every progressIntervalMs) counts records parsed.
 */
export async function walkWithFind(root: string, opts: WalkOptions): Promise<FindWalkOutcome> {
  const started = performance.now();
  const signal = opts.signal;
  signal?.throwIfAborted();
  if (!lstatSync(root).isDirectory()) throw new Error(`${root} is not a directory`);
  const sizes = new SizeAccumulator(opts.recordsize, opts.ashift);
  const stats: WalkStats = {
    files: 0, dirs: 0, symlinks: 0, otherEntries: 0, hardLinkDuplicates: 0,
    mountPointsSkipped: 0, mountPointExamples: [], errors: 0, errorExamples: [], elapsedMs: 0,
  };
  const parser = new FindRecordParser(sizes, stats);
  const interval = opts.progressIntervalMs ?? 250;
  let lastProgress = started;
  let broken: string | null = null;
  const report = () => {
    opts.onProgress?.({ files: stats.files, dirs: stats.dirs, bytes: sizes.totalBytes, elapsedMs: performance.now() - started });
  };

  // Our own stop, for output we cannot parse: no point letting find walk on.
  const stop = new AbortController();
  const r = await runStreaming('find', findRecordArgs(root), {
    signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal, timeoutMs: FIND_TIMEOUT_MS,
    onStdoutChunk: (chunk) => {
      if (broken) return;
      try {
        parser.push(chunk);
      } catch (err) {
        broken = (err as Error).message;
        stop.abort();
        return;
      }
      const now = performance.now();
      if (now - lastProgress >= interval) { lastProgress = now; report(); }
    },
    onStderrLine: (line) => {
      stats.errors++;
      if (stats.errorExamples.length < EXAMPLES) stats.errorExamples.push(line.replace(/^find: /, ''));
    },
  });
  signal?.throwIfAborted();
  const cmd = `find ${root} -xdev -printf`;
  if (broken) return { ok: false, reason: `${cmd}: ${broken}` };
  if (r.error) return { ok: false, reason: `${cmd}: ${r.error.message}` };
  if (parser.partial) return { ok: false, reason: `${cmd}: output ended inside a record` };
  // Exit 1 with per-entry errors is a completed walk; anything else (or no root record) is not.
  if (!parser.sawRoot || (r.exitCode !== 0 && !(r.exitCode === 1 && stats.errors > 0))) {
    return { ok: false, reason: `${cmd}: exit ${r.exitCode ?? r.signal}${r.stderr ? `: ${r.stderr.split('\n')[0]}` : ''}` };
  }
  stats.elapsedMs = performance.now() - started;
  report();
  return { ok: true, result: { sizes, stats } };
}

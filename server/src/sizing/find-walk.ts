/**
 * The fast path of `sizes` on Linux: GNU find does the directory walk (fstatat relative to an open
 * directory, in C, on its own core) and streams one NUL-terminated record per entry, which we bin
 * as the bytes arrive. Same rules and same result as the Node walker (walker.ts), which stays the
 * fallback where find has no -printf (FreeBSD / TrueNAS CORE) or fails:
 * - `-xdev`: mount points are listed but not entered; a directory (or bind-mounted file) whose
 *   st_dev differs from the root's is counted as a skipped mount point, as the walker does;
 * - find never follows symlinks (-P is its default); they are counted;
 * - a hard-linked file is counted once (inode set only for nlink > 1);
 * - bounded memory: records are parsed from the pipe's chunks, no file list, no output kept.
 *
 * Records (NUL-terminated, so a name with a newline cannot break the parse):
 *   f SIZE BLOCKS512 INODE NLINK DEV   regular file
 *   d DEV PATH                         directory (PATH used only for mount-point examples)
 *   l                                  symbolic link
 *   o                                  fifo, socket, device node…
 * find's per-entry errors (permission, vanished entries) go to stderr and it exits 1: counted as
 * skipped entries like the walker's. Anything else (no find, no -printf, killed, a torn record)
 * returns null and the caller falls back to the walker.
 */
import { lstatSync } from 'node:fs';
import { runCommand, runStreaming } from '../exec/runner.ts';
import { SizeAccumulator } from './histogram.ts';
import type { WalkOptions, WalkResult, WalkStats } from './walker.ts';

const EXAMPLES = 10;
/** How often (in records) the clock is read for progress. */
const PROGRESS_EVERY = 4096;
/** find runs as long as the walk takes; this only bounds a hung process (setTimeout's limit is ~24.8 days). */
const FIND_TIMEOUT_MS = 24 * 3600_000;

const NUL = 0;
const SPACE = 0x20;
const ZERO = 0x30;
const F = 0x66;
const D = 0x64;
const L = 0x6c;
const O_OTHER = 0x6f;

export const FIND_ARGS = (root: string): string[] => [
  root, '-xdev',
  '(', '-type', 'f', '-printf', 'f %s %b %i %n %D\\0', ')', '-o',
  '(', '-type', 'd', '-printf', 'd %D %p\\0', ')', '-o',
  '(', '-type', 'l', '-printf', 'l\\0', ')', '-o',
  '-printf', 'o\\0',
];

/** True when `find` is GNU find with -printf (Linux); FreeBSD's find rejects the primary. */
export async function findHasPrintf(): Promise<boolean> {
  const r = await runCommand('find', ['/', '-maxdepth', '0', '-printf', 'x'], { timeoutMs: 10_000 });
  return r.error === null && r.exitCode === 0 && r.stdout === 'x';
}

export type FindWalkOutcome = { ok: true; result: WalkResult } | { ok: false; reason: string };

/**
 * Walks `root` with GNU find. Cancellation: aborting `opts.signal` kills find and rejects with the
 * signal's reason, as the walker does. Progress counts records seen.
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
  const seenInodes = new Set<number>();
  const interval = opts.progressIntervalMs ?? 250;
  let lastProgress = started;
  let records = 0;
  let rootDev = -1;
  let torn: string | null = null;
  let rest: Buffer | null = null;

  const report = () => {
    opts.onProgress?.({ files: stats.files, dirs: stats.dirs, bytes: sizes.totalBytes, elapsedMs: performance.now() - started });
  };
  const mount = (path: string) => {
    stats.mountPointsSkipped++;
    if (stats.mountPointExamples.length < EXAMPLES) stats.mountPointExamples.push(path);
  };

  /**
   * Parses whole records in buf[0, end); `end` is just past a NUL. Hot loop: no strings for files.
   * A byte that is not a digit where one is expected (including running off the buffer) throws.
   */
  let pos = 0;
  const num = (buf: Buffer, terminator: number): number => {
    // Doubles are exact up to 2^53, as Node's own Stats numbers are.
    let v = 0;
    for (;;) {
      const c = buf[pos++];
      if (c === terminator) return v;
      const digit = (c ?? -1) - ZERO;
      if (!(digit >= 0 && digit <= 9)) throw new Error(`malformed record near byte ${pos - 1}`);
      v = v * 10 + digit;
    }
  };
  const parse = (buf: Buffer, end: number) => {
    pos = 0;
    while (pos < end) {
      const type = buf[pos];
      if (buf[pos + 1] !== (type === F || type === D ? SPACE : NUL)) throw new Error(`malformed record near byte ${pos}`);
      if (type === F) {
        pos += 2;
        const size = num(buf, SPACE);
        const blocks = num(buf, SPACE);
        const ino = num(buf, SPACE);
        const nlink = num(buf, SPACE);
        const dev = num(buf, NUL);
        if (dev !== rootDev) {
          mount(`(a file on another filesystem, inode ${ino})`);
        } else if (nlink > 1 && seenInodes.has(ino)) {
          stats.hardLinkDuplicates++;
        } else {
          if (nlink > 1) seenInodes.add(ino);
          stats.files++;
          sizes.addFile(size, blocks * 512);
        }
      } else if (type === D) {
        pos += 2;
        const dev = num(buf, SPACE);
        const nameStart = pos;
        const nameEnd = buf.indexOf(NUL, pos);
        pos = nameEnd + 1;
        if (rootDev < 0) rootDev = dev; // the first record is the root itself
        if (dev !== rootDev) mount(buf.toString('utf8', nameStart, nameEnd));
        else { stats.dirs++; sizes.addDirectory(); }
      } else if (type === L) {
        stats.symlinks++;
        pos += 2;
      } else if (type === O_OTHER) {
        stats.otherEntries++;
        pos += 2;
      } else {
        throw new Error(`unknown record type near byte ${pos}`);
      }
      if (++records % PROGRESS_EVERY === 0) {
        const now = performance.now();
        if (now - lastProgress >= interval) { lastProgress = now; report(); }
      }
    }
  };

  const onChunk = (chunk: Buffer) => {
    if (torn) return;
    const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
    const end = buf.lastIndexOf(NUL) + 1;
    try {
      parse(buf, end);
    } catch (err) {
      torn = `unparsable find output: ${(err as Error).message}`;
      return;
    }
    rest = end < buf.length ? Buffer.from(buf.subarray(end)) : null;
  };

  const r = await runStreaming('find', FIND_ARGS(root), {
    signal, timeoutMs: FIND_TIMEOUT_MS, onStdoutChunk: onChunk,
    onStderrLine: (line) => {
      stats.errors++;
      if (stats.errorExamples.length < EXAMPLES) stats.errorExamples.push(line.replace(/^find: /, ''));
    },
  });
  signal?.throwIfAborted();
  const cmd = `find ${root} -xdev … -printf`;
  if (r.error) return { ok: false, reason: `${cmd}: ${r.error.message}` };
  if (torn) return { ok: false, reason: `${cmd}: ${torn}` };
  if (rest) return { ok: false, reason: `${cmd}: output ended inside a record` };
  // Exit 1 with per-entry errors is a completed walk; anything else (or no root record) is not.
  if (rootDev < 0 || (r.exitCode !== 0 && !(r.exitCode === 1 && stats.errors > 0))) {
    return { ok: false, reason: `${cmd}: exit ${r.exitCode ?? r.signal}${r.stderr ? `: ${r.stderr.split('\n')[0]}` : ''}` };
  }
  stats.elapsedMs = performance.now() - started;
  report();
  return { ok: true, result: { sizes, stats } };
}

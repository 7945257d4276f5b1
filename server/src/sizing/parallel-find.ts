/**
 * The size walk on both (or all) cores: the tree is cut into disjoint subtrees and several GNU find
 * processes walk them at once, each streaming the records of find-records.ts through the runner;
 * one parser per process feeds ONE shared accumulator, statistics and hard-link set, so the result
 * is the single walk's (find-walk.ts), entry for entry:
 *
 *  1. Split (here, in Node, reading directories only): from the root, whole levels of directories
 *     are opened until there are enough subtrees (SUBTREES_PER_PROCESS × processes) or MAX_DEPTH.
 *     Each opened ("upper") directory counts as one directory; its subdirectories on the root's
 *     filesystem become the next level, those on another filesystem are skipped mount points
 *     (lstat, as `-xdev` does). A directory with more than MAX_SPLIT_ENTRIES entries, or whose
 *     subdirectory names cannot be passed as arguments (control characters, very long paths), is
 *     not opened: it is walked whole by one find.
 *  2. Walk: the non-directory entries of the upper directories (`-mindepth 1 -maxdepth 1`,
 *     directories pruned) and the subtrees (`-xdev`, whole) are handed out in batches to at most
 *     `processes` concurrent finds; a process that finishes takes the next batch, so uneven
 *     subtrees still keep every core busy.
 *
 * Any find failure other than per-entry errors (exit 1 with messages, counted as skipped entries)
 * stops the others and is returned as a reason; the caller then uses the Node walker.
 */
import { lstatSync, opendirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { runStreaming, validateArgument } from '../exec/runner.ts';
import { FindRecordParser, RECORD_EXPRESSION } from './find-records.ts';
import type { FindWalkOutcome } from './find-walk.ts';
import { SizeAccumulator } from './histogram.ts';
import type { WalkOptions, WalkStats } from './walker.ts';

const EXAMPLES = 10;
const FIND_TIMEOUT_MS = 24 * 3600_000;
/** Enough subtrees that uneven ones still balance: per process. */
const SUBTREES_PER_PROCESS = 16;
/** Batches per process: each finished process takes another (a spawn costs a few ms). */
const BATCHES_PER_PROCESS = 4;
const MAX_DEPTH = 6;
/** A directory this large is walked whole by one find rather than read here first. */
const MAX_SPLIT_ENTRIES = 20_000;

export interface ParallelWalkOptions extends WalkOptions {
  /**
   * Concurrent find processes (default: the CPUs available). Not lowered by the load average: on a
   * shared host each login session gets its share of the CPUs (autogroup), and measured there
   * (BENCHMARKS.md, sizing) two streams still beat one at a load average of 4.5 on 2 CPUs.
   */
  processes?: number;
}

/** The path find prints for `name` under `dir` (no doubled slash after a root ending in "/"). */
const child = (dir: string, name: string) => (dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`);
/** A start point find would read as part of its expression gets a "./" (as findRecordArgs does). */
const startPoint = (p: string) => (/^[-(!)]/.test(p) ? `./${p}` : p);

interface Split { upper: string[]; subtrees: string[] }

const typeUnknown = (d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean; isFIFO(): boolean; isSocket(): boolean; isBlockDevice(): boolean; isCharacterDevice(): boolean }) =>
  !(d.isFile() || d.isDirectory() || d.isSymbolicLink() || d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice());

/** Reads one directory for the split: its subdirectories on `dev` and its mount points, or null to walk it whole. */
function open(dir: string, dev: number, fail: (p: string, e: unknown) => void): { subdirs: string[]; mounts: string[] } | null {
  let handle;
  try {
    handle = opendirSync(dir, { bufferSize: 1024 });
  } catch {
    return null; // find reports the error itself, as the single walk does
  }
  const subdirs: string[] = [];
  const mounts: string[] = [];
  let entries = 0;
  try {
    for (let d = handle.readSync(); d !== null; d = handle.readSync()) {
      if (++entries > MAX_SPLIT_ENTRIES) return null;
      if (!d.isDirectory() && !typeUnknown(d)) continue;
      const path = child(dir, d.name);
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st?.isDirectory()) continue; // vanished, or not a directory after all: find lists it
      if (st.dev !== dev) { mounts.push(path); continue; }
      if (validateArgument(startPoint(path)) !== null) return null; // cannot be a start point
      subdirs.push(path);
    }
  } catch (err) {
    fail(dir, err);
    return null;
  } finally {
    handle.closeSync();
  }
  return { subdirs, mounts };
}

/** Step 1: which directories are read here (upper) and which subtrees each go to one find. */
function split(root: string, dev: number, want: number, stats: WalkStats, sizes: SizeAccumulator, fail: (p: string, e: unknown) => void): Split {
  const upper: string[] = [];
  const subtrees: string[] = [];
  let level = [root];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && subtrees.length + level.length < want; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const r = open(dir, dev, fail);
      if (!r) { subtrees.push(dir); continue; }
      upper.push(dir);
      stats.dirs++;
      sizes.addDirectory();
      for (const m of r.mounts) {
        stats.mountPointsSkipped++;
        if (stats.mountPointExamples.length < EXAMPLES) stats.mountPointExamples.push(m);
      }
      next.push(...r.subdirs);
    }
    level = next;
  }
  subtrees.push(...level);
  return { upper, subtrees };
}

/** Deals `items` into `n` batches round-robin (siblings spread over batches). */
function deal<T>(items: readonly T[], n: number): T[][] {
  const out: T[][] = Array.from({ length: Math.min(n, items.length) }, () => []);
  items.forEach((x, i) => out[i % out.length]!.push(x));
  return out;
}

export async function walkWithParallelFind(root: string, opts: ParallelWalkOptions): Promise<FindWalkOutcome & { processes?: number; subtrees?: number }> {
  const started = performance.now();
  const signal = opts.signal;
  signal?.throwIfAborted();
  const rootStat = lstatSync(root);
  if (!rootStat.isDirectory()) throw new Error(`${root} is not a directory`);
  const processes = Math.max(1, Math.floor(opts.processes ?? availableParallelism()));
  const sizes = new SizeAccumulator(opts.recordsize, opts.ashift);
  const stats: WalkStats = {
    files: 0, dirs: 0, symlinks: 0, otherEntries: 0, hardLinkDuplicates: 0,
    mountPointsSkipped: 0, mountPointExamples: [], errors: 0, errorExamples: [], elapsedMs: 0,
  };
  const fail = (path: string, err: unknown) => {
    stats.errors++;
    if (stats.errorExamples.length < EXAMPLES) stats.errorExamples.push(`${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  };
  const plan = processes > 1
    ? split(root, rootStat.dev, processes * SUBTREES_PER_PROCESS, stats, sizes, fail)
    : { upper: [], subtrees: [root] };

  // Jobs: the upper directories' own entries, then the subtrees, in batches.
  const batches: string[][] = [];
  const byArgs = (paths: string[], fixed: number) => {
    // Keep each command line well under ARG_MAX (paths are ≤ 4096 characters each).
    const out: string[][] = [];
    let cur: string[] = [];
    let len = fixed;
    for (const p of paths) {
      if (cur.length && len + p.length + 1 > 512 * 1024) { out.push(cur); cur = []; len = fixed; }
      cur.push(p);
      len += p.length + 1;
    }
    if (cur.length) out.push(cur);
    return out;
  };
  const jobs: { args: string[] }[] = [];
  for (const group of byArgs(plan.upper, 256)) {
    jobs.push({ args: [...group.map(startPoint), '-mindepth', '1', '-maxdepth', '1', '-xdev', '(', '-type', 'd', '-prune', ')', '-o', ...RECORD_EXPRESSION] });
  }
  for (const b of deal(plan.subtrees, processes * BATCHES_PER_PROCESS)) batches.push(b);
  for (const b of batches) for (const group of byArgs(b, 256)) jobs.push({ args: [...group.map(startPoint), '-xdev', ...RECORD_EXPRESSION] });

  const seenInodes = new Set<number>();
  const interval = opts.progressIntervalMs ?? 250;
  let lastProgress = started;
  const report = () => opts.onProgress?.({ files: stats.files, dirs: stats.dirs, bytes: sizes.totalBytes, elapsedMs: performance.now() - started });
  const stop = new AbortController();
  const stopSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let broken: string | null = null;

  const runJob = async (job: { args: string[] }): Promise<void> => {
    const parser = new FindRecordParser(sizes, stats, { rootDev: rootStat.dev, seenInodes });
    let errors = 0;
    const r = await runStreaming('find', job.args, {
      signal: stopSignal, timeoutMs: FIND_TIMEOUT_MS,
      onStdoutChunk: (chunk) => {
        if (broken) return;
        try { parser.push(chunk); } catch (err) { broken = `find: ${(err as Error).message}`; stop.abort(); return; }
        const now = performance.now();
        if (now - lastProgress >= interval) { lastProgress = now; report(); }
      },
      onStderrLine: (line) => {
        errors++;
        stats.errors++;
        if (stats.errorExamples.length < EXAMPLES) stats.errorExamples.push(line.replace(/^find: /, ''));
      },
    });
    if (broken || signal?.aborted) return;
    const what = `find (${job.args.length} arguments)`;
    if (r.error && r.error.code !== 'aborted') broken = `${what}: ${r.error.message}`;
    else if (parser.partial) broken = `${what}: output ended inside a record`;
    else if (r.exitCode !== 0 && !(r.exitCode === 1 && errors > 0)) broken = `${what}: exit ${r.exitCode ?? r.signal}${r.stderr ? `: ${r.stderr.split('\n')[0]}` : ''}`;
    if (broken) stop.abort();
  };

  let next = 0;
  const worker = async () => {
    while (!broken && !stopSignal.aborted && next < jobs.length) await runJob(jobs[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(processes, jobs.length) }, worker));
  signal?.throwIfAborted();
  if (broken) return { ok: false, reason: broken };
  stats.elapsedMs = performance.now() - started;
  report();
  return { ok: true, result: { sizes, stats }, processes: Math.min(processes, jobs.length), subtrees: plan.subtrees.length };
}

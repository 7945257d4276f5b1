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
 *
 * Anchored (`anchor`, the API's walks, issue 35): the place was checked and opened once
 * (O_DIRECTORY|O_NOFOLLOW) by the caller, and the walk goes from that descriptor, never by name:
 * every directory the split reads is opened relative to its parent's descriptor with O_NOFOLLOW
 * (`/proc/self/fd/P/name`, which the kernel resolves as openat(P, name)), and each find starts at
 * a descriptor (`/proc/PID/fd/N`, followed with -H as a start point only; inside, find follows no
 * link). A directory swapped for a symlink while the walk runs is an error of the walk, not a way
 * out of the place; the examples name entries by their path below the place as the caller shows it.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, opendirSync } from 'node:fs';
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
/** Anchored walks: start points (open descriptors) per find. */
const ANCHORED_BATCH = 64;

/** The place, opened by the caller: its descriptor and the path to show for it. */
export interface WalkAnchor { fd: number; display: string }

export interface ParallelWalkOptions extends WalkOptions {
  /** Walk from this descriptor, never by name (see the file comment). */
  anchor?: WalkAnchor;
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

interface Split { upper: Place[]; subtrees: Place[] }

const typeUnknown = (d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean; isFIFO(): boolean; isSocket(): boolean; isBlockDevice(): boolean; isCharacterDevice(): boolean }) =>
  !(d.isFile() || d.isDirectory() || d.isSymbolicLink() || d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice());

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** The kernel's name for descriptor `fd` of this process (a child process reaches it too). */
export const fdPath = (fd: number) => `/proc/${process.pid}/fd/${fd}`;

/**
 * A directory of the walk: how find is to start there, and what to call it. By name (the CLI), or
 * (anchored) by a descriptor opened relative to its parent's, only when it is needed.
 */
interface Place {
  display: string;
  /** Opens it (anchored: O_NOFOLLOW below the parent's descriptor) and returns the start point, or throws. */
  start(): string;
  /** Its descriptor once opened (anchored), to open children relative to it. */
  fd: number | null;
}

function byName(path: string): Place {
  return { display: path, start: () => startPoint(path), fd: null };
}

function below(parent: Place, name: string, opened: number[]): Place {
  const place: Place = {
    display: child(parent.display, name),
    fd: null,
    start() {
      if (place.fd === null) {
        place.fd = openSync(`/proc/self/fd/${parent.fd!}/${name}`, DIR_FLAGS);
        opened.push(place.fd);
      }
      return fdPath(place.fd);
    },
  };
  return place;
}

/** Reads one directory for the split: its subdirectories on `dev` and its mount points, or null to walk it whole. */
function open(place: Place, anchored: boolean, dev: number, fail: (p: string, e: unknown) => void, opened: number[]): { subdirs: Place[]; mounts: string[] } | null {
  let handle;
  try {
    handle = opendirSync(anchored ? `/proc/self/fd/${(place.start(), place.fd!)}` : place.display, { bufferSize: 1024 });
  } catch {
    return null; // find reports the error itself, as the single walk does
  }
  const subdirs: Place[] = [];
  const mounts: string[] = [];
  let entries = 0;
  try {
    for (let d = handle.readSync(); d !== null; d = handle.readSync()) {
      if (++entries > MAX_SPLIT_ENTRIES) return null;
      if (!d.isDirectory() && !typeUnknown(d)) continue;
      const shown = child(place.display, d.name);
      const st = lstatSync(anchored ? `/proc/self/fd/${place.fd!}/${d.name}` : shown, { throwIfNoEntry: false });
      if (!st?.isDirectory()) continue; // vanished, or not a directory after all: find lists it
      if (st.dev !== dev) { mounts.push(shown); continue; }
      if (validateArgument(startPoint(shown)) !== null) return null; // cannot be a start point
      subdirs.push(anchored ? below(place, d.name, opened) : byName(shown));
    }
  } catch (err) {
    fail(place.display, err);
    return null;
  } finally {
    handle.closeSync();
  }
  return { subdirs, mounts };
}

/** Step 1: which directories are read here (upper) and which subtrees each go to one find. */
function split(root: Place, anchored: boolean, dev: number, want: number, stats: WalkStats, sizes: SizeAccumulator, fail: (p: string, e: unknown) => void, opened: number[]): Split {
  const upper: Place[] = [];
  const subtrees: Place[] = [];
  let level = [root];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && subtrees.length + level.length < want; depth++) {
    const next: Place[] = [];
    for (const dir of level) {
      const r = open(dir, anchored, dev, fail, opened);
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
  const anchor = opts.anchor ?? null;
  const rootStat = anchor ? fstatSync(anchor.fd) : lstatSync(root);
  if (!rootStat.isDirectory()) throw new Error(`${anchor?.display ?? root} is not a directory`);
  const processes = Math.max(1, Math.floor(opts.processes ?? availableParallelism()));
  const sizes = new SizeAccumulator(opts.recordsize, opts.ashift);
  const stats: WalkStats = {
    files: 0, dirs: 0, symlinks: 0, otherEntries: 0, hardLinkDuplicates: 0,
    mountPointsSkipped: 0, mountPointExamples: [], errors: 0, errorExamples: [], elapsedMs: 0,
  };
  // Anchored: find prints /proc/PID/fd/N/…; examples show the place's own path instead.
  const shownAs = new Map<string, string>();
  const shown = (text: string) => (anchor ? text.replace(/\/proc\/\d+\/fd\/\d+/g, (m) => shownAs.get(m) ?? anchor.display) : text);
  const example = (list: string[], text: string) => { if (list.length < EXAMPLES) list.push(shown(text)); };
  const fail = (path: string, err: unknown) => {
    stats.errors++;
    example(stats.errorExamples, `${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  };
  const opened: number[] = [];
  const rootPlace: Place = anchor ? { display: anchor.display, fd: anchor.fd, start: () => fdPath(anchor.fd) } : byName(root);
  try {
    const plan = processes > 1
      ? split(rootPlace, anchor !== null, rootStat.dev, processes * SUBTREES_PER_PROCESS, stats, sizes, fail, opened)
      : { upper: [], subtrees: [rootPlace] };

    // Jobs: the upper directories' own entries, then the subtrees, in batches. Anchored, each find
    // gets at most ANCHORED_BATCH start points, opened just before it runs and closed after it.
    const limit = anchor ? ANCHORED_BATCH : Infinity;
    const byArgs = (places: Place[], fixed: number) => {
      // Keep each command line well under ARG_MAX (paths are ≤ 4096 characters each).
      const out: Place[][] = [];
      let cur: Place[] = [];
      let len = fixed;
      for (const p of places) {
        if (cur.length && (len + p.display.length + 1 > 512 * 1024 || cur.length >= limit)) { out.push(cur); cur = []; len = fixed; }
        cur.push(p);
        len += p.display.length + 1;
      }
      if (cur.length) out.push(cur);
      return out;
    };
    const follow = anchor ? ['-H'] : [];
    const jobs: { places: Place[]; tail: readonly string[] }[] = [];
    for (const group of byArgs(plan.upper, 256)) jobs.push({ places: group, tail: ['-mindepth', '1', '-maxdepth', '1', '-xdev', '(', '-type', 'd', '-prune', ')', '-o', ...RECORD_EXPRESSION] });
    for (const b of deal(plan.subtrees, processes * BATCHES_PER_PROCESS)) for (const group of byArgs(b, 256)) jobs.push({ places: group, tail: ['-xdev', ...RECORD_EXPRESSION] });

    const seenInodes = new Set<number>();
    const interval = opts.progressIntervalMs ?? 250;
    let lastProgress = started;
    const report = () => opts.onProgress?.({ files: stats.files, dirs: stats.dirs, bytes: sizes.totalBytes, elapsedMs: performance.now() - started });
    const stop = new AbortController();
    const stopSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    let broken: string | null = null;

    const runJob = async (job: { places: Place[]; tail: readonly string[] }): Promise<void> => {
      const mine: Place[] = [];
      const starts: string[] = [];
      for (const p of job.places) {
        // Anchored: a directory swapped for a link (ELOOP) or removed since the split is an error of
        // the walk, named by its path below the place.
        const wasOpen = p.fd !== null;
        try {
          const sp = p.start();
          if (anchor) shownAs.set(sp, p.display);
          if (!wasOpen && p.fd !== null) mine.push(p);
          starts.push(sp);
        } catch (err) { fail(p.display, err); }
      }
      const args = [...follow, ...starts, ...job.tail];
      const parser = new FindRecordParser(sizes, stats, { rootDev: rootStat.dev, seenInodes });
      let errors = 0;
      try {
        if (starts.length === 0) return;
        const r = await runStreaming('find', args, {
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
            example(stats.errorExamples, line.replace(/^find: /, ''));
          },
        });
        if (broken || signal?.aborted) return;
        const what = `find (${args.length} arguments)`;
        if (r.error && r.error.code !== 'aborted') broken = `${what}: ${r.error.message}`;
        else if (parser.partial) broken = `${what}: output ended inside a record`;
        else if (r.exitCode !== 0 && !(r.exitCode === 1 && errors > 0)) broken = `${what}: exit ${r.exitCode ?? r.signal}${r.stderr ? `: ${shown(r.stderr.split('\n')[0]!)}` : ''}`;
        if (broken) stop.abort();
      } finally {
        if (anchor) {
          // find's own records name directories by descriptor: shown by their place's path.
          stats.mountPointExamples = stats.mountPointExamples.map(shown);
          // The subtrees' descriptors opened for this job (the upper ones stay until the end).
          for (const p of mine) {
            const i = opened.indexOf(p.fd!);
            if (i >= 0) opened.splice(i, 1);
            try { closeSync(p.fd!); } catch { /* closed */ }
            p.fd = null;
          }
        }
      }
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
  } finally {
    for (const fd of opened) { try { closeSync(fd); } catch { /* closed */ } }
  }
}

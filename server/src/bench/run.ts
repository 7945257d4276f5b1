/**
 * The benchmark runner: one code path for the CLI and the server.
 *
 *   dryRun(request)              → every command and every guard's verdict; writes nothing
 *   startBenchmark(request, deps) → guards → lock → journal → target → fio layout → fio run
 *                                   (progress, load and pool-latency watch, wall-clock cap)
 *                                   → cleanup → stored run; never throws for expected failures
 *   recoverAbandoned(db)          → removes a crashed run's leftovers (see recover.ts)
 *   listProfiles(), history(db, filter), beforeAfter(db, pool, profile)
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { cpus, hostname, loadavg } from 'node:os';
import { realpathSync, statSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { runStreaming, type CommandResult } from '../exec/runner.ts';
import type { BenchmarkSummary } from '../model/workload.ts';
import { getProfile, listProfiles as allProfiles, type Profile } from './profiles.ts';
import { chooseSyncMode, layoutArgs, runArgs, type FioPlan, type SyncMode } from './fio-args.ts';
import { createFioStreamSplitter, intervalIops, snapshotOf, type FioSnapshot } from './fio-stream.ts';
import { fioResultFromText, totals, type FioResult } from './fio-result.ts';
import { evaluateGuards, refusals, type GuardFacts, type PathFacts } from './guards.ts';
import { readPoolFacts, type PoolFacts } from './pool-facts.ts';
import { readDeviceFacts, type DeviceFacts } from './device-facts.ts';
import { checkDevicePath, checkPath, checkPoolName, checkSerial, benchDatasetName, BENCH_DIR_PREFIX } from './names.ts';
import {
  addSample, finishRun, insertRun, journalAdd, journalOpen, journalRemoved, listRuns, lockHolder,
  type HistoryFilter,
} from './store.ts';
import { datasetCreateArgs, killFioFor, prepareDataset, prepareDirectory, processJournalPath, undoJournal, type PreparedTarget } from './targets.ts';
import { isStaleHolder, recoverAbandoned } from './recover.ts';
import { acquireBenchLock, liveHostLockHolder, releaseBenchLock } from './host-lock.ts';
import { liveProbe, selfIdentity, type LivenessProbe } from './process-identity.ts';
import {
  DATASET_READ_HONESTY_NOTE, DEVICE_READ_HONESTY_NOTE, fsKindOf, oDirectProbeArgs, planDirectoryReads, readCacheBound,
  sizeAboveCacheHonesty, type CacheBound, type ReadHonesty,
} from './read-honesty.ts';
import { FREE_SPACE_FACTOR } from './guards.ts';
import { startLatencySampler } from './pool-latency.ts';
import type { BenchmarkDetail, BenchmarkRun, BenchRequest, GuardVerdict, PoolLatencySample, ProgressEvent } from './types.ts';

export { recoverAbandoned, recoverHostLock } from './recover.ts';
export const listProfiles = allProfiles;

/** Over this share of difference between wall time and fio's runtime, a run is flagged (002). */
export const WALL_MISMATCH_LIMIT = 0.1;

export function defaultMaxLoad1(): number {
  return Math.max(4, 2 * cpus().length);
}

/** Layout allowance for a file enlarged above the cache (honest reads): written at ≥ 50 MiB/s. */
const LAYOUT_ALLOWANCE_BPS = 50 * 1024 * 1024;

/**
 * The hard wall-clock cap: the request's, or runtime × 3 + 60 s; when the file was enlarged above
 * the cache (read-honesty.ts) the default also allows laying that file out at 50 MiB/s.
 */
export function wallCapOf(req: BenchRequest, fileBytes: number = req.sizeBytes): number {
  if (req.wallCapS !== undefined) return req.wallCapS;
  const extra = fileBytes > req.sizeBytes ? Math.ceil(fileBytes / LAYOUT_ALLOWANCE_BPS) : 0;
  return req.runtimeS * 3 + 60 + extra;
}

export interface RunDeps {
  db: Database;
  onProgress?: (e: ProgressEvent) => void;
  signal?: AbortSignal;
  /** Source of the 1-minute load average (default os.loadavg); tests inject a rising one. */
  readLoad?: () => number;
  /** The cache a directory's reads could come from (default: ARC c_max or RAM); tests inject a small one. */
  cacheBound?: CacheBound;
}

interface Context {
  profile: Profile;
  facts: GuardFacts;
  pool: PoolFacts | null;
  device: DeviceFacts | null;
  realDir: string | null;
  syncMode: SyncMode;
  /** How read profiles stay honest (null for write-only profiles); may change after the O_DIRECT probe. */
  readHonesty: ReadHonesty | null;
  /** The path target's free bytes (for re-checking a fallback to a bigger file). */
  pathFreeBytes: number | null;
}

function targetLabel(req: BenchRequest, runId: string): string {
  switch (req.target.kind) {
    case 'dataset': return benchDatasetName(req.target.pool, runId);
    case 'path': return join(req.target.dir, `${BENCH_DIR_PREFIX}${runId}`);
    case 'device': return req.target.device;
  }
}

async function gather(req: BenchRequest, db: Database | null, readLoad: () => number, probe: LivenessProbe, cacheBound?: CacheBound): Promise<Context> {
  const profile = getProfile(req.profile)!; // BenchRequest.profile is the enum of profile ids
  const nameProblems: string[] = [];
  let pool: PoolFacts | null = null;
  let poolError: string | null = null;
  let path: PathFacts | null = null;
  let device: DeviceFacts | null = null;
  let deviceError: string | null = null;
  let realDir: string | null = null;
  let readHonesty: ReadHonesty | null = null;
  let fsMagic: number | null = null;
  const t = req.target;
  if (t.kind === 'dataset') {
    const bad = checkPoolName(t.pool);
    if (bad) nameProblems.push(bad);
    else {
      const r = await readPoolFacts(t.pool);
      if (r.ok) pool = r.facts; else poolError = r.message;
    }
  } else if (t.kind === 'path') {
    const bad = checkPath('path', t.dir);
    if (bad) nameProblems.push(bad);
    else {
      let real: string | null = null;
      let isDirectory = false;
      let freeBytes: number | null = null;
      try {
        real = realpathSync(t.dir);
        isDirectory = statSync(real).isDirectory();
        const fs = statfsSync(real);
        freeBytes = fs.bavail * fs.bsize;
        fsMagic = fs.type;
      } catch { /* reported by the path-exists guard */ }
      path = { requested: t.dir.length > 1 ? t.dir.replace(/\/+$/, '') : t.dir, realPath: real, isDirectory, freeBytes };
      if (real !== null && real === path.requested && isDirectory) realDir = real;
      if (profile.readsFromDisk && real !== null) {
        const kind = fsKindOf(fsMagic);
        readHonesty = planDirectoryReads(kind, req.sizeBytes, cacheBound ?? await readCacheBound(kind));
      }
    }
  } else {
    const bad = checkDevicePath(t.device) ?? checkSerial(t.confirmSerial);
    if (bad) nameProblems.push(bad);
    else {
      const r = await readDeviceFacts(t.device);
      if (r.ok) device = r.facts; else deviceError = r.message;
    }
  }
  const holder = db ? lockHolder(db) : null;
  const facts: GuardFacts = {
    nameProblems,
    sizeBytes: req.sizeBytes,
    runtimeS: req.runtimeS,
    wallCapS: wallCapOf(req, readHonesty?.fileBytes),
    load1: readLoad(),
    maxLoad1: req.maxLoad1 ?? defaultMaxLoad1(),
    lock: (holder && !isStaleHolder(holder, probe) ? holder : null) ?? liveHostLockHolder(probe),
    pool, poolError, path, device, deviceError,
    confirmSerial: t.kind === 'device' ? t.confirmSerial : null,
    readHonesty,
  };
  if (readHonesty) facts.sizeBytes = readHonesty.fileBytes; // the free-space guard judges the real file
  if (profile.readsFromDisk && t.kind === 'dataset') readHonesty = { method: 'primarycache-metadata', fileBytes: req.sizeBytes, note: DATASET_READ_HONESTY_NOTE };
  if (profile.readsFromDisk && t.kind === 'device') readHonesty = { method: 'o-direct', fileBytes: req.sizeBytes, note: DEVICE_READ_HONESTY_NOTE };
  const syncMode = chooseSyncMode(profile, t.kind === 'dataset' && pool !== null && pool.syncProperty);
  return { profile, facts, pool, device, realDir, syncMode, readHonesty, pathFreeBytes: path?.freeBytes ?? null };
}

function planFor(ctx: Context, filename: string, req: BenchRequest): FioPlan {
  return {
    filename, sizeBytes: ctx.readHonesty?.fileBytes ?? req.sizeBytes, runtimeS: req.runtimeS, syncMode: ctx.syncMode,
    rawDevice: ctx.device !== null, direct: req.target.kind === 'path' && ctx.readHonesty?.method === 'o-direct',
  };
}

function datasetSyncValue(ctx: Context): 'always' | 'standard' | null {
  if (!ctx.pool?.syncProperty) return null;
  return ctx.syncMode === 'property' ? 'always' : 'standard';
}

/** The commands a run would execute, in order (mkdir/rm are done in-process, shown for clarity). */
function commandsFor(req: BenchRequest, ctx: Context, runId: string): string[][] {
  const t = req.target;
  const cmds: string[][] = [];
  let filename: string;
  if (t.kind === 'dataset') {
    cmds.push(['zfs', ...datasetCreateArgs(t.pool, runId, req.sizeBytes, datasetSyncValue(ctx))]);
    filename = `<mountpoint of ${benchDatasetName(t.pool, runId)}>/zfs-advisor-bench.dat`;
  } else if (t.kind === 'path') {
    const dir = join(ctx.realDir ?? t.dir, `${BENCH_DIR_PREFIX}${runId}`);
    cmds.push(['mkdir', '-m', '0700', dir]);
    filename = join(dir, 'zfs-advisor-bench.dat');
    if (ctx.readHonesty?.method === 'o-direct') cmds.push(['fio', ...oDirectProbeArgs(join(dir, ODIRECT_PROBE_FILE))]);
  } else {
    filename = ctx.device?.realPath ?? t.device;
  }
  const plan = planFor(ctx, filename, req);
  const layout = layoutArgs(ctx.profile, plan);
  if (layout) cmds.push(['fio', ...layout]);
  cmds.push(['fio', ...runArgs(ctx.profile, plan)]);
  if (t.kind === 'dataset') cmds.push(['zfs', 'destroy', '-r', benchDatasetName(t.pool, runId)]);
  if (t.kind === 'path') cmds.push(['rm', '-r', join(ctx.realDir ?? t.dir, `${BENCH_DIR_PREFIX}${runId}`)]);
  return cmds;
}

export interface DryRun {
  profile: Profile;
  syncMode: SyncMode;
  commands: string[][];
  guards: GuardVerdict[];
  wouldRun: boolean;
  /** How read profiles stay honest on this target (o-direct on a directory is confirmed by a probe at run time). */
  readHonesty: ReadHonesty | null;
}

/** Every command and every guard's verdict, without creating or writing anything. */
export async function dryRun(req: BenchRequest, opts: { db?: Database | null; readLoad?: () => number; cacheBound?: CacheBound } = {}): Promise<DryRun> {
  const ctx = await gather(req, opts.db ?? null, opts.readLoad ?? (() => loadavg()[0]!), await liveProbe(), opts.cacheBound);
  const guards = evaluateGuards(ctx.facts);
  return {
    profile: ctx.profile, syncMode: ctx.syncMode, commands: commandsFor(req, ctx, '<id>'), guards,
    wouldRun: refusals(guards).length === 0, readHonesty: ctx.readHonesty,
  };
}

/** The O_DIRECT probe's file, inside the run's own sub-directory. */
const ODIRECT_PROBE_FILE = 'odirect-probe.dat';

function newRunId(): string {
  return randomBytes(6).toString('hex');
}

function emptyDetail(req: BenchRequest, guards: GuardVerdict[], commands: string[][]): BenchmarkDetail {
  return {
    request: req, commands, guards, fio: null, syncLatency: null, layoutSeconds: null, load: [],
    poolLatency: { available: false, note: null, samples: [] }, cpu: { usrPct: null, sysPct: null },
    datasetProperties: {}, cleanup: [], readHonesty: null,
  };
}

function syncNote(mode: SyncMode, kind: BenchRequest['target']['kind']): string | null {
  if (mode === 'fio-fsync') return `sync writes by fio --fsync=1 (the sync property cannot be set on this ${kind === 'dataset' ? 'platform' : 'target'}); fsync latency is reported separately (jobs[].sync.lat_ns)`;
  if (mode === 'fio-sync') return `sync writes by fio --sync=1 (O_SYNC; the sync property cannot be set on this ${kind === 'dataset' ? 'platform' : 'target'})`;
  if (mode === 'property') return 'sync writes by sync=always on the temporary dataset (the method of 000)';
  return null;
}

function summaryOf(
  id: string, req: BenchRequest, ctx: Context, startedAt: string, status: BenchmarkSummary['status'],
  fio: FioResult | null, wallSeconds: number | null, notes: string[],
): BenchmarkSummary {
  const tot = fio ? totals(fio) : null;
  const job = fio?.jobs[0] ?? null;
  const runtime = tot?.runtimeS ?? null;
  const mismatch = wallSeconds !== null && runtime !== null && runtime > 0 && Math.abs(wallSeconds - runtime) / runtime > WALL_MISMATCH_LIMIT;
  return {
    id, profile: req.profile, pool: req.target.kind === 'dataset' ? req.target.pool : null,
    target: targetLabel(req, id), startedAt, status, syncMode: ctx.syncMode, iodepth: ctx.profile.iodepth,
    blockSize: ctx.profile.blockSize,
    readIops: tot?.readIops ?? 0, writeIops: tot?.writeIops ?? 0,
    readBytesPerSec: tot?.readBps ?? 0, writeBytesPerSec: tot?.writeBps ?? 0,
    writeLatency: job?.write.latency ?? null, readLatency: job?.read.latency ?? null,
    wallSeconds, fioRuntimeSeconds: runtime, wallTimeMismatch: mismatch,
    topologyFingerprint: ctx.pool?.topologyFingerprint ?? null,
    notes: mismatch
      ? [...notes, `wall time ${wallSeconds!.toFixed(2)} s differs from fio's runtime ${runtime!.toFixed(2)} s by more than ${WALL_MISMATCH_LIMIT * 100} % (the 002 KPI: something outside fio's clock, e.g. flushing, took the time)`]
      : notes,
  };
}

/**
 * Runs one guarded benchmark to the end (completed, aborted, failed or refused) and stores it.
 * Resolves with the run; rejects only on programming errors.
 */
export async function startBenchmark(req: BenchRequest, deps: RunDeps): Promise<BenchmarkRun> {
  const { db } = deps;
  const readLoad = deps.readLoad ?? (() => loadavg()[0]!);
  const emit = (e: ProgressEvent) => deps.onProgress?.(e);
  const t0 = Date.now();
  const elapsed = () => (Date.now() - t0) / 1000;
  const startedAt = new Date(t0).toISOString();
  emit({ phase: 'guards', pct: 0, iops: null, latencyUs: null, elapsedS: 0 });

  const probe = await liveProbe();
  await recoverAbandoned(db, probe);
  const me = selfIdentity(probe);
  const id = newRunId();
  const ctx = await gather(req, db, readLoad, probe, deps.cacheBound);
  const guards = evaluateGuards(ctx.facts);
  const commands = commandsFor(req, ctx, id);
  const base = {
    id, profile: req.profile, targetKind: req.target.kind, target: targetLabel(req, id),
    pool: req.target.kind === 'dataset' ? req.target.pool : null, startedAt, pid: process.pid, host: hostname(),
    sizeBytes: req.sizeBytes, runtimeS: req.runtimeS, bootId: me.bootId, procStart: me.startTime,
  };

  const refuse = (verdicts: GuardVerdict[]): BenchmarkRun => {
    const message = refusals(verdicts).map((g) => g.message).join(' ');
    const run: BenchmarkRun = {
      summary: summaryOf(id, req, ctx, startedAt, 'refused', null, null, []),
      detail: emptyDetail(req, verdicts, commands),
      message,
    };
    insertRun(db, { ...base, status: 'refused' });
    finishRun(db, id, 'refused', message, run);
    emit({ phase: 'done', pct: 100, iops: null, latencyUs: null, elapsedS: elapsed() });
    return run;
  };
  if (refusals(guards).length > 0) return refuse(guards);

  insertRun(db, { ...base, status: 'running' });
  const lock = acquireBenchLock(db, {
    runId: id, pid: process.pid, host: hostname(), profile: req.profile, target: base.target, acquiredAt: startedAt,
    bootId: me.bootId, procStart: me.startTime,
  }, (h) => isStaleHolder(h, probe), probe);
  if (!lock.ok) {
    const h = lock.holder;
    const verdicts = guards.map((g) => g.id === 'lock'
      ? { id: 'lock', ok: false, message: `refused: another benchmark is running on this host (run ${h.runId}, ${h.profile} on ${h.target}, pid ${h.pid} on ${h.host}, since ${h.acquiredAt})` }
      : g);
    const message = verdicts.find((g) => g.id === 'lock')!.message;
    const run: BenchmarkRun = { summary: summaryOf(id, req, ctx, startedAt, 'refused', null, null, []), detail: emptyDetail(req, verdicts, commands), message };
    finishRun(db, id, 'refused', message, run);
    return run;
  }

  const detail = emptyDetail(req, guards, commands);
  const notes: string[] = [];
  const sn = syncNote(ctx.syncMode, req.target.kind);
  if (sn) notes.push(sn);

  const abort = new AbortController();
  let abortReason: string | null = null;
  const stop = (reason: string) => { if (!abortReason) { abortReason = reason; abort.abort(); } };
  const onOuterAbort = () => stop('stopped by request (signal)');
  if (deps.signal?.aborted) onOuterAbort();
  deps.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let cap = wallCapOf(req, ctx.readHonesty?.fileBytes);
  let deadline = t0 + cap * 1000;
  const remainingMs = () => Math.max(1, deadline - Date.now());
  const capReason = () => `hard wall-clock cap of ${cap} s reached`;
  const maxLoad = ctx.facts.maxLoad1;

  let status: BenchmarkSummary['status'] = 'failed';
  let message: string | null = null;
  let fio: FioResult | null = null;
  let wallSeconds: number | null = null;
  let prepared: PreparedTarget | null = null;
  let loadTimer: ReturnType<typeof setInterval> | null = null;
  let lastLatency: PoolLatencySample | null = null;

  try {
    emit({ phase: 'prepare', pct: 2, iops: null, latencyUs: null, elapsedS: elapsed() });
    const t = req.target;
    if (t.kind === 'dataset') {
      const p = await prepareDataset(db, id, t.pool, req.sizeBytes, datasetSyncValue(ctx));
      if (!p.ok) throw new RunFailure(p.message);
      prepared = p.target;
    } else if (t.kind === 'path') {
      const p = await prepareDirectory(db, id, ctx.realDir!);
      if (!p.ok) throw new RunFailure(p.message);
      prepared = p.target;
    } else {
      prepared = { workDir: null, filename: ctx.device!.realPath, dataset: null, datasetProperties: {}, commands: [] };
    }
    detail.datasetProperties = prepared.datasetProperties;

    const runFio = (args: string[], onLine?: (l: string) => void, file: string = prepared!.filename): Promise<CommandResult> => {
      // Journaled before the process exists: a crash between spawn and any later write still
      // leaves a record that finds this fio by its file.
      const journalId = journalAdd(db, id, 'process', processJournalPath(file));
      return runStreaming('fio', args, {
        signal: abort.signal,
        timeoutMs: remainingMs(),
        maxBytes: 256 * 1024 * 1024,
        onStdoutLine: onLine,
      }).then(async (r) => {
        await killFioFor(file); // a killed fio parent must leave no job behind
        journalRemoved(db, journalId);
        return r;
      });
    };
    const failureOf = (r: CommandResult, what: string): string => {
      if (r.error?.code === 'timeout') { stop(capReason()); return capReason(); }
      if (abortReason) return abortReason;
      return `${what} failed: ${r.error?.message ?? `exit ${String(r.exitCode)}`}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n').slice(-1)[0]}` : ''}`;
    };

    // Honest reads on a directory: confirm O_DIRECT with fio itself before relying on it; when the
    // file system refuses it, fall back to a file above the cache if that still fits the free-space guard.
    if (t.kind === 'path' && ctx.readHonesty?.method === 'o-direct' && prepared.workDir) {
      const probeFile = join(prepared.workDir, ODIRECT_PROBE_FILE);
      const r = await runFio(oDirectProbeArgs(probeFile), undefined, probeFile);
      rmSync(probeFile, { force: true });
      if (abortReason) throw new RunFailure(abortReason, true);
      if (r.exitCode !== 0 || r.error) {
        const why = `O_DIRECT was refused by the file system (${failureOf(r, 'fio direct=1 probe')})`;
        const cache = deps.cacheBound ?? await readCacheBound('other');
        const fallback = sizeAboveCacheHonesty(req.sizeBytes, cache, why);
        const need = FREE_SPACE_FACTOR * fallback.fileBytes;
        if (ctx.pathFreeBytes === null || ctx.pathFreeBytes < need) {
          throw new RunFailure(`${why}, and a test file above the cache (${(fallback.fileBytes / 1024 ** 3).toFixed(2)} GiB) needs ${FREE_SPACE_FACTOR} × that free; reads could not be kept honest`);
        }
        ctx.readHonesty = fallback;
        cap = wallCapOf(req, fallback.fileBytes); // the bigger file needs its layout time
        deadline = t0 + cap * 1000;
      }
    }
    detail.readHonesty = ctx.readHonesty;
    if (ctx.readHonesty) notes.push(ctx.readHonesty.note);

    const plan = planFor(ctx, prepared.filename, req);
    // The dataset's mountpoint is known only now: fill it into the printed commands.
    detail.commands = commandsFor(req, ctx, id).map((c) => (c[0] === 'fio'
      ? c.map((a) => (a.startsWith('--filename=<mountpoint of ') ? `--filename=${prepared!.filename}` : a))
      : c));

    const lay = layoutArgs(ctx.profile, plan);
    if (abortReason) throw new RunFailure(abortReason, true);
    if (lay) {
      emit({ phase: 'layout', pct: 5, iops: null, latencyUs: null, elapsedS: elapsed() });
      const r = await runFio(lay);
      if (r.exitCode !== 0 || r.error) throw new RunFailure(failureOf(r, 'laying out the test file'), abortReason !== null);
      detail.layoutSeconds = r.durationMs / 1000;
    }

    // Watchers: load every second, pool latency where `zpool iostat -l` exists.
    loadTimer = setInterval(() => {
      const l = readLoad();
      detail.load.push({ tS: elapsed(), load1: l });
      if (l > maxLoad) stop(`1-minute load ${l.toFixed(2)} rose above the limit ${maxLoad}`);
    }, 1000);
    const sampler = ctx.pool
      ? startLatencySampler(ctx.pool.name, t0, abort.signal, remainingMs(), (s) => {
        lastLatency = s;
        detail.poolLatency.samples.push(s);
        if (s.writeWaitNs !== null && s.writeWaitNs > req.maxPoolWriteWaitMs * 1e6) {
          stop(`pool write latency ${(s.writeWaitNs / 1e6).toFixed(1)} ms rose above the limit ${req.maxPoolWriteWaitMs} ms`);
        }
      })
      : null;

    if (abortReason) throw new RunFailure(abortReason, true);
    const splitter = createFioStreamSplitter();
    let prev: FioSnapshot | null = null;
    let lastDoc: ReturnType<typeof splitter.push> = null;
    emit({ phase: 'run', pct: 10, iops: null, latencyUs: null, elapsedS: elapsed() });
    const r = await runFio(runArgs(ctx.profile, plan), (line) => {
      const doc = splitter.push(line);
      if (!doc) return;
      lastDoc = doc;
      const snap = snapshotOf(doc);
      const e: ProgressEvent = {
        phase: 'run',
        pct: Math.min(95, 10 + (85 * snap.elapsedS) / req.runtimeS),
        iops: intervalIops(prev, snap),
        latencyUs: snap.meanLatencyUs,
        elapsedS: elapsed(),
      };
      prev = snap;
      emit(e);
      const ll = lastLatency as PoolLatencySample | null;
      addSample(db, id, e, detail.load.at(-1)?.load1 ?? null, ll?.writeWaitNs ?? null);
    });
    wallSeconds = r.durationMs / 1000;
    if (sampler) {
      abort.abort(); // the sampler has no end of its own; fio is done by now
      const s = await sampler.done;
      detail.poolLatency.available = s.available;
      detail.poolLatency.note = s.note;
      if (s.note) notes.push(s.note);
    }
    fio = lastDoc ? fioResultFromText(r.stdout) : null;
    if (r.exitCode === 0 && !r.error && fio) {
      status = 'completed';
    } else {
      throw new RunFailure(failureOf(r, 'fio'), abortReason !== null);
    }
  } catch (err) {
    if (!(err instanceof RunFailure)) throw err;
    status = err.aborted ? 'aborted' : 'failed';
    message = err.message;
    if (fio) notes.push('partial result: from the last progress report before the run stopped');
  } finally {
    if (loadTimer) clearInterval(loadTimer);
    deps.signal?.removeEventListener('abort', onOuterAbort);
  }

  emit({ phase: 'cleanup', pct: 96, iops: null, latencyUs: null, elapsedS: elapsed() });
  if (prepared) await killFioFor(prepared.filename); // an aborted/timed-out fio must not outlive the run
  const cleanup = await undoJournal(db, id, journalOpen(db, id));
  detail.cleanup = cleanup.messages;
  if (!cleanup.clean) {
    const left = `cleanup incomplete: ${cleanup.messages.join('; ')} (retried at the next start)`;
    notes.push(left);
    if (status === 'completed') { status = 'failed'; message = left; }
  }

  const job = fio?.jobs[0] ?? null;
  detail.fio = fio;
  detail.syncLatency = job?.sync ? { meanNs: job.sync.meanNs, p50Ns: job.sync.p50Ns, p99Ns: job.sync.p99Ns, p999Ns: job.sync.p999Ns } : null;
  detail.cpu = { usrPct: job?.usrCpuPct ?? null, sysPct: job?.sysCpuPct ?? null };
  if (abortReason && !message) message = abortReason;
  const run: BenchmarkRun = { summary: summaryOf(id, req, ctx, startedAt, status, fio, wallSeconds, notes), detail, message };
  finishRun(db, id, status, message, run);
  releaseBenchLock(db, id);
  emit({ phase: 'done', pct: 100, iops: null, latencyUs: null, elapsedS: elapsed() });
  return run;
}

class RunFailure extends Error {
  constructor(message: string, readonly aborted = false) {
    super(message);
  }
}

export function history(db: Database, filter: HistoryFilter = {}): ReturnType<typeof listRuns> {
  return listRuns(db, filter);
}

export interface BeforeAfter {
  pool: string;
  profile: string;
  /** One group per topology, oldest first; each with its runs, newest first. */
  groups: { topologyFingerprint: string | null; firstAt: string; lastAt: string; runs: BenchmarkSummary[] }[];
  before: BenchmarkSummary | null;
  after: BenchmarkSummary | null;
  /** after / before for the numbers that matter; null when there is no pair. */
  ratios: { writeIops: number | null; readIops: number | null; writeP99: number | null } | null;
}

export function beforeAfter(db: Database, pool: string, profile: string): BeforeAfter {
  const runs = listRuns(db, { pool, profile, status: 'completed', limit: 1000 })
    .map((r) => r.summary).filter((s): s is BenchmarkSummary => s !== null).reverse(); // oldest first
  const groups: BeforeAfter['groups'] = [];
  for (const s of runs) {
    const g = groups.at(-1);
    if (g && g.topologyFingerprint === s.topologyFingerprint) { g.runs.unshift(s); g.lastAt = s.startedAt; } else {
      groups.push({ topologyFingerprint: s.topologyFingerprint, firstAt: s.startedAt, lastAt: s.startedAt, runs: [s] });
    }
  }
  const before = groups.length >= 2 ? groups.at(-2)!.runs[0]! : null;
  const after = groups.length >= 1 ? groups.at(-1)!.runs[0]! : null;
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b != null && b > 0 ? a / b : null);
  return {
    pool, profile, groups, before, after,
    ratios: before && after
      ? {
        writeIops: ratio(after.writeIops, before.writeIops),
        readIops: ratio(after.readIops, before.readIops),
        writeP99: ratio(after.writeLatency?.p99Ns, before.writeLatency?.p99Ns),
      }
      : null,
  };
}

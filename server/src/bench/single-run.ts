/**
 * One guarded benchmark run, start to end: guards → lock → journal → target (dataset, zvol,
 * directory or device) → fio layout → fio run (progress; load, iowait and pool-latency watch;
 * wall-clock cap) → cleanup → stored run. The planning half (facts, commands) is context.ts; the
 * suite runner (suite-runner.ts) calls this once per matrix cell.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { hostname, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { CommandResult } from '../exec/runner.ts';
import type { BenchmarkSummary } from '../model/workload.ts';
import { fioThreads, layoutArgs, runArgs, type SyncMode } from './fio-args.ts';
import { createFioStreamSplitter, intervalIops, snapshotOf, type FioSnapshot } from './fio-stream.ts';
import { fioResultFromText, totals, type FioResult } from './fio-result.ts';
import { evaluateGuards, guardSentence, refusals, FREE_SPACE_FACTOR } from './guards.ts';
import { loadWayForward, poolLatencyWayForward } from './way-forward.ts';
import { addSample, finishRun, insertRun, journalAdd, journalOpen, journalRemoved } from './store.ts';
import { acquireBenchLock, releaseBenchLock } from './host-lock.ts';
import { killFioFor, prepareDataset, prepareDirectory, processJournalPath, undoJournal, type PreparedTarget } from './targets.ts';
import { prepareZvol } from './zvol.ts';
import { isStaleHolder, recoverAbandoned } from './recover.ts';
import { liveProbe, selfIdentity } from './process-identity.ts';
import { oDirectProbeArgs, readCacheBound, sizeAboveCacheHonesty, type CacheBound } from './read-honesty.ts';
import { startLatencySampler } from './pool-latency.ts';
import { cpuUsPerIo, startSystemSampler, syncOpLatency, type SystemSources } from './kpi.ts';
import { realExec, type BenchExec } from './exec.ts';
import {
  commandsFor, datasetSyncValue, fileBytesOf, gather, planFor, syncTextOf, targetLabel, wallCapOf, ODIRECT_PROBE_FILE, type Context,
} from './context.ts';
import type { BenchmarkDetail, BenchmarkRun, BenchRequest, GuardVerdict, PoolLatencySample, ProgressEvent } from './types.ts';

/** Over this share of difference between wall time and fio's runtime, a run is flagged (002). */
export const WALL_MISMATCH_LIMIT = 0.1;

export interface RunDeps {
  db: Database;
  onProgress?: (e: ProgressEvent) => void;
  signal?: AbortSignal;
  /** Source of the 1-minute load average (default os.loadavg); tests inject a rising one. */
  readLoad?: () => number;
  /** /proc/stat and arcstats readers (default: the real files); tests inject their own. */
  system?: Omit<SystemSources, 'readLoad'>;
  /** The cache a directory's reads could come from (default: ARC c_max or RAM); tests inject a small one. */
  cacheBound?: CacheBound;
  /** Command seam (exec.ts): the real runner unless a test needs a fake zvol platform. */
  exec?: BenchExec;
  /** The suite this run belongs to (suite-runner.ts), recorded in its summary. */
  suiteId?: string | null;
}

function newRunId(): string {
  return randomBytes(6).toString('hex');
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

function emptyDetail(req: BenchRequest, guards: GuardVerdict[], commands: string[][]): BenchmarkDetail {
  return {
    request: req, commands, guards, fio: null, syncLatency: null, layoutSeconds: null, load: [],
    poolLatency: { available: false, note: null, samples: [] }, cpu: { usrPct: null, sysPct: null },
    datasetProperties: {}, cleanup: [], readHonesty: null, system: [],
  };
}

/** Load the in-run watch allows for fio's own threads, at most (see startBenchmark). */
const MAX_OWN_LOAD = 16;

function summaryOf(
  id: string, req: BenchRequest, ctx: Context, startedAt: string, status: BenchmarkSummary['status'],
  fio: FioResult | null, wallSeconds: number | null, notes: string[], extra: Pick<BenchmarkSummary, 'system' | 'suiteId'> = {},
): BenchmarkSummary {
  const tot = fio ? totals(fio) : null;
  const job = fio?.jobs[0] ?? null;
  const runtime = tot?.runtimeS ?? null;
  const syncMode: SyncMode = ctx.syncMode;
  const writers = fioThreads(ctx.profile, { sizeBytes: fileBytesOf(ctx, req) });
  const mismatch = wallSeconds !== null && runtime !== null && runtime > 0 && Math.abs(wallSeconds - runtime) / runtime > WALL_MISMATCH_LIMIT;
  return {
    id, profile: req.profile, pool: req.target.kind === 'dataset' || req.target.kind === 'zvol' ? req.target.pool : null,
    target: targetLabel(req, id), startedAt, status, syncMode: ctx.syncMode, iodepth: ctx.profile.iodepth,
    writers,
    blockSize: ctx.profile.blockSize,
    readIops: tot?.readIops ?? 0, writeIops: tot?.writeIops ?? 0,
    readBytesPerSec: tot?.readBps ?? 0, writeBytesPerSec: tot?.writeBps ?? 0,
    writeLatency: job?.write.latency ?? null, readLatency: job?.read.latency ?? null,
    wallSeconds, fioRuntimeSeconds: runtime, wallTimeMismatch: mismatch,
    topologyFingerprint: ctx.pool?.topologyFingerprint ?? null,
    notes: mismatch
      ? [...notes, `wall time ${wallSeconds!.toFixed(1)} s differs from fio's runtime ${runtime!.toFixed(1)} s by more than ${WALL_MISMATCH_LIMIT * 100} % (the 002 KPI: something outside fio's clock, e.g. flushing, took the time)`]
      : notes,
    targetKind: req.target.kind, zfsTarget: ctx.zfs, sync: ctx.sync, io: ctx.io,
    syncOpLatency: syncOpLatency(job, syncMode),
    fileBytes: fileBytesOf(ctx, req),
    cpuUsPerIo: fio && fio.jobs.length === 1 && tot ? cpuUsPerIo(job, writers, tot.readIops + tot.writeIops) : null,
    syncText: syncTextOf(syncMode, ctx.sync, req.target.kind, ctx.zfs, ctx.profile.writes),
    system: extra.system ?? null, suiteId: extra.suiteId ?? null,
    ...(ctx.device ? { device: { serial: ctx.device.serial, wwn: ctx.device.wwn ?? null, sizeBytes: ctx.device.sizeBytes } } : {}),
  };
}

/**
 * Runs one guarded benchmark to the end (completed, aborted, failed or refused) and stores it.
 * Resolves with the run; rejects only on programming errors.
 */
export async function startBenchmark(req: BenchRequest, deps: RunDeps): Promise<BenchmarkRun> {
  const { db } = deps;
  const exec = deps.exec ?? realExec;
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
  const ctx: Context = await gather(req, { db, readLoad, probe, cacheBound: deps.cacheBound, exec });
  const guards = evaluateGuards(ctx.facts);
  const commands = commandsFor(req, ctx, id, exec);
  const base = {
    // The table's CHECK predates zvols; a zvol is a ZFS dataset of type volume (the summary says which).
    id, profile: req.profile, targetKind: req.target.kind === 'zvol' ? 'dataset' as const : req.target.kind, target: targetLabel(req, id),
    pool: req.target.kind === 'dataset' || req.target.kind === 'zvol' ? req.target.pool : null, startedAt, pid: process.pid, host: hostname(),
    sizeBytes: req.sizeBytes, runtimeS: req.runtimeS, bootId: me.bootId, procStart: me.startTime,
  };

  const refuse = (verdicts: GuardVerdict[]): BenchmarkRun => {
    const message = refusals(verdicts).map(guardSentence).join(' ');
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
    const verdicts = guards.map((g) => (g.id === 'lock' ? { id: 'lock', ok: false, message: lock.message } : g));
    const message = verdicts.find((g) => g.id === 'lock')!.message;
    const run: BenchmarkRun = { summary: summaryOf(id, req, ctx, startedAt, 'refused', null, null, []), detail: emptyDetail(req, verdicts, commands), message };
    finishRun(db, id, 'refused', message, run);
    return run;
  }

  const detail = emptyDetail(req, guards, commands);
  const notes: string[] = [];

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
  let system: ReturnType<typeof startSystemSampler> | null = null;
  let systemKpi: BenchmarkSummary['system'] = null;
  let lastLatency: PoolLatencySample | null = null;

  try {
    emit({ phase: 'prepare', pct: 2, iops: null, latencyUs: null, elapsedS: elapsed() });
    const t = req.target;
    if (t.kind === 'dataset') {
      const p = await prepareDataset(db, id, t.pool, req.sizeBytes, datasetSyncValue(ctx), ctx.profile, exec);
      if (!p.ok) throw new RunFailure(p.message);
      prepared = p.target;
    } else if (t.kind === 'zvol') {
      const p = await prepareZvol(db, exec, id, t.pool, req.sizeBytes, t.volblocksize, datasetSyncValue(ctx), ctx.profile);
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
    const rs = Number(prepared.datasetProperties.recordsize);
    if (t.kind === 'dataset' && ctx.profile.rw === 'randwrite' && rs === ctx.profile.blockSize) {
      notes.push(`records one write long (recordsize ${rs / 1024}K on the test dataset, 000's method): no record was read back or rewritten around a write; datasets with larger records (the 128K default) add that work`);
    }

    const runFio = (args: string[], onLine?: (l: string) => void, file: string = prepared!.filename): Promise<CommandResult> => {
      // Journaled before the process exists: a crash between spawn and any later write still
      // leaves a record that finds this fio by its file.
      const journalId = journalAdd(db, id, 'process', processJournalPath(file));
      return exec.stream('fio', args, {
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
    detail.commands = commandsFor(req, ctx, id, exec).map((c) => (c[0] === 'fio'
      ? c.map((a) => (a.startsWith('--filename=<mountpoint of ') ? `--filename=${prepared!.filename}` : a))
      : c));

    const lay = layoutArgs(ctx.profile, plan);
    if (abortReason) throw new RunFailure(abortReason, true);
    if (lay) {
      emit({ phase: 'layout', pct: 5, iops: null, latencyUs: null, elapsedS: elapsed() });
      const r = await runFio(lay);
      if (r.exitCode !== 0 || r.error) throw new RunFailure(failureOf(r, 'laying out the test file'), abortReason !== null);
      detail.layoutSeconds = round(r.durationMs / 1000, 2);
      // The layout's dirty data reaches the disks before the measurement starts (context.ts,
      // commandsFor). Best effort: a platform without `zpool sync` (zfs-fuse) measures as before.
      if (req.target.kind === 'dataset') await exec.run('zpool', ['sync', req.target.pool], { timeoutMs: 120_000 });
    }

    // fio's own threads wait in the kernel and count in the load average: N writers add up to N. The
    // allowance stops at the built-in profiles' 16, so a request for more writers (iodepth up to 256)
    // cannot switch the watch off.
    const own = Math.min(fioThreads(ctx.profile, plan), MAX_OWN_LOAD);
    // Watchers: load and iowait every second, pool latency where `zpool iostat -l` exists.
    system = startSystemSampler({ readLoad, ...deps.system }, t0, (x) => {
      detail.load.push({ tS: x.tS, load1: x.load1 });
      detail.system.push(x);
      if (x.load1 > maxLoad + own) stop(`1-minute load ${x.load1.toFixed(2)} rose above the limit ${maxLoad} plus ${own} for the run's own fio thread${own === 1 ? '' : 's'}. ${loadWayForward(x.load1, ctx.facts.limitsFrom ?? 'cli')}`);
    });
    const sampler = ctx.pool
      ? startLatencySampler(ctx.pool.name, t0, abort.signal, remainingMs(), (s) => {
        lastLatency = s;
        detail.poolLatency.samples.push(s);
        if (s.writeWaitNs !== null && s.writeWaitNs > req.maxPoolWriteWaitMs * 1e6) {
          stop(`pool write latency ${(s.writeWaitNs / 1e6).toFixed(1)} ms rose above the limit ${req.maxPoolWriteWaitMs} ms. ${poolLatencyWayForward(ctx.facts.limitsFrom ?? 'cli')}`);
        }
      }, exec)
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
    wallSeconds = round(r.durationMs / 1000, 2);
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
    if (system) systemKpi = system.stop(ctx.profile.readsFromDisk).kpi;
    deps.signal?.removeEventListener('abort', onOuterAbort);
  }

  emit({ phase: 'cleanup', pct: 96, iops: null, latencyUs: null, elapsedS: elapsed() });
  if (prepared) await killFioFor(prepared.filename); // an aborted/timed-out fio must not outlive the run
  const cleanup = await undoJournal(db, id, journalOpen(db, id), exec);
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
  const run: BenchmarkRun = { summary: summaryOf(id, req, ctx, startedAt, status, fio, wallSeconds, notes, { system: systemKpi, suiteId: deps.suiteId ?? null }), detail, message };
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


/**
 * The suite runner over single-run.ts:
 *
 *   planSuite(request)      → every cell's commands and guard verdicts, skipped cells with why,
 *                             the suite's own guards and an estimate; writes nothing
 *   runSuite(plan, deps)    → the runs one after another, each fully guarded and journaled, with a
 *                             pause between them (transaction groups flush), a total cap, live
 *                             progress with an ETA, cancel, and the zvol stall watch of 002
 *
 * A kill -9 mid-suite leaves one run's journal and a suite row marked running: the next start
 * (any bench command) removes the run's leftovers (recover.ts) and closes the suite as aborted.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import type { Database } from 'better-sqlite3';
import { dryRun, defaultMaxLoad1, targetLabel, wallCapOf } from './context.ts';
import { startBenchmark } from './single-run.ts';
import { CELL_GUARD_IDS, evaluateSuiteGuards, guardSentence, refusals } from './guards.ts';
import { recoverAbandoned } from './recover.ts';
import { liveProbe, selfIdentity } from './process-identity.ts';
import { cellLabel, cellSeconds, expandCells, getSuite, resolveSuite, type SuiteRequest } from './suites.ts';
import { finishSuite, insertSuite } from './suite-store.ts';
import type { PlannedRun, SkippedCell, SuitePlan, SuiteProgress, SuiteResult, SuiteRunResult } from './suite-types.ts';
import { realExec, type BenchExec } from './exec.ts';
import type { SystemSources } from './kpi.ts';
import type { CacheBound } from './read-honesty.ts';
import type { GuardVerdict } from './types.ts';
import { formatGain } from '../text/format.ts';

export interface PlanOptions { db?: Database | null; exec?: BenchExec; readLoad?: () => number; cacheBound?: CacheBound }

/**
 * The plan asks the pool once, not once per cell: every cell's dry run asks the same read-only
 * zpool/zfs questions (a 22-cell suite asked 88 times, half a minute on the lab guest). Each run
 * still reads fresh facts for its own guards when it starts (single-run.ts).
 */
export function askingOnce(exec: BenchExec): BenchExec {
  const answers = new Map<string, ReturnType<BenchExec['run']>>();
  return {
    ...exec,
    run: (program, args, opts) => {
      const key = JSON.stringify([program, args]);
      let answer = answers.get(key);
      if (!answer) { answer = exec.run(program, args, opts); answers.set(key, answer); }
      return answer;
    },
  };
}

export async function planSuite(req: SuiteRequest, o: PlanOptions = {}): Promise<{ ok: true; plan: SuitePlan } | { ok: false; message: string }> {
  const r = resolveSuite(req);
  if (!r.ok) return r;
  const s = r.suite;
  const runs: PlannedRun[] = [];
  const skipped: SkippedCell[] = [];
  const suiteWide = new Map<string, GuardVerdict>();
  const planning = { ...o, exec: askingOnce(o.exec ?? realExec) };
  const cellNotes = new Set<string>();
  for (const cell of expandCells(req, s)) {
    const d = await dryRun(cell.request, planning);
    for (const n of d.notes) cellNotes.add(n);
    const coords = { profile: cell.profile, sync: d.sync, io: d.io, iodepth: cell.iodepth, bs: cell.bs, targetKind: cell.targetKind };
    const label = cellLabel(coords);
    const cellRefusals = refusals(d.guards).filter((g) => CELL_GUARD_IDS.includes(g.id));
    if (cellRefusals.length > 0) {
      skipped.push({ ...coords, label, reason: cellRefusals.map((g) => g.message.replace(/^refused: /, '')).join('; ') });
      continue;
    }
    for (const g of refusals(d.guards)) suiteWide.set(`${g.id}:${g.message}`, g);
    runs.push({
      ...coords, label, target: targetLabel(cell.request, '<id>'), commands: d.commands, guards: d.guards,
      estimatedSeconds: cellSeconds(cell), request: cell.request,
    });
  }
  const estimatedSeconds = runs.reduce((a, x) => a + x.estimatedSeconds, 0) + s.pauseS * Math.max(0, runs.length - 1);
  const guards = [
    ...suiteWide.values(),
    ...evaluateSuiteGuards({ runCount: runs.length, skippedReasons: skipped.map((x) => x.reason), estimatedSeconds, maxTotalS: s.maxTotalS }),
  ];
  const notes: string[] = [];
  if (req.zvol && skipped.some((x) => x.targetKind === 'zvol')) {
    notes.push(`zvol runs are unsupported on this target: ${skipped.find((x) => x.targetKind === 'zvol')!.reason}`);
  }
  const maxLoad1 = req.maxLoad1 ?? defaultMaxLoad1();
  if (runs.some(stallWatched)) {
    notes.push(`zvol with buffered async writes: after each such run the suite compares wall time with fio's runtime (limit ${req.maxWallRatio}×) and the 1-minute load (limit ${maxLoad1}), and stops early when either is passed — the 002 study saw this combination stall the host`);
  }
  notes.push(...cellNotes);
  return {
    ok: true,
    plan: {
      suite: s.suite, title: s.title, reference: getSuite(req.suite)?.reference ?? null,
      on: req.target.kind === 'dataset' ? `pool ${req.target.pool}` : `directory ${req.target.dir}`,
      runs, skipped, guards, wouldRun: refusals(guards).length === 0, notes,
      runtimeS: s.runtimeS, sizeBytes: s.sizeBytes, pauseS: s.pauseS, maxTotalS: s.maxTotalS, maxWallRatio: req.maxWallRatio,
      estimatedSeconds,
    },
  };
}

/** 002's dangerous combination: a zvol written through the page cache without sync. */
function stallWatched(r: Pick<PlannedRun, 'targetKind' | 'io' | 'sync'>): boolean {
  return r.targetKind === 'zvol' && r.io === 'buffered' && r.sync !== 'always';
}

/** The plan as `bench suite --dry-run --json` prints it: exactly these keys. */
export function planJson(p: SuitePlan): { suite: string; runs: { profile: string; sync: string; io: string; iodepth: number; bs: number; target: string; commands: string[][] }[]; estimatedSeconds: number } {
  return {
    suite: p.suite,
    runs: p.runs.map((r) => ({ profile: r.profile, sync: r.sync, io: r.io, iodepth: r.iodepth, bs: r.bs, target: r.target, commands: r.commands })),
    estimatedSeconds: Math.round(p.estimatedSeconds),
  };
}

export interface SuiteDeps {
  db: Database;
  signal?: AbortSignal;
  onProgress?: (p: SuiteProgress) => void;
  exec?: BenchExec;
  readLoad?: () => number;
  system?: Omit<SystemSources, 'readLoad'>;
  cacheBound?: CacheBound;
  /** Called once the suite row exists (the API answers with the id before the suite ends). */
  onStart?: (suiteId: string) => void;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) { resolve(); return; }
    const t = setTimeout(done, ms);
    function done() { clearTimeout(t); signal?.removeEventListener('abort', done); resolve(); }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function runSuite(plan: SuitePlan, deps: SuiteDeps): Promise<SuiteResult> {
  const { db } = deps;
  const probe = await liveProbe();
  await recoverAbandoned(db, probe); // also closes suites whose process died
  const id = randomBytes(6).toString('hex');
  const t0 = Date.now();
  const startedAt = new Date(t0).toISOString();
  const elapsed = () => (Date.now() - t0) / 1000;
  const readLoad = deps.readLoad ?? (() => loadavg()[0]!);
  const runs: SuiteRunResult[] = [];
  const notes = [...plan.notes];
  let status: SuiteResult['status'] = 'completed';
  let stopReason: string | null = null;
  const n = plan.runs.length;
  const finish = (): SuiteResult => {
    const result: SuiteResult = {
      id, suite: plan.suite, title: plan.title, on: plan.on, status, stopReason, startedAt, endedAt: new Date().toISOString(),
      wallSeconds: Math.round(elapsed() * 10) / 10, runs, skipped: plan.skipped, notes, demo: false, citation: null,
    };
    finishSuite(db, id, result);
    return result;
  };
  insertSuite(db, id, plan, startedAt, selfIdentity(probe));
  deps.onStart?.(id);
  const emit = (i: number, step: SuiteProgress['step'], runPct: number, iops: number | null = null, latencyUs: number | null = null) => {
    deps.onProgress?.({
      suiteId: id, runIndex: i, runCount: n, label: plan.runs[i]?.label ?? '', step, runPct,
      pct: n === 0 ? 100 : Math.min(100, ((i + runPct / 100) / n) * 100), iops, latencyUs, elapsedS: Math.round(elapsed()), etaS: eta(i, runPct),
    });
  };
  // Remaining estimate, scaled by how long the finished runs took against their own estimates.
  const eta = (i: number, runPct: number): number | null => {
    const done = plan.runs.slice(0, i).reduce((a, r) => a + r.estimatedSeconds + plan.pauseS, 0);
    const scale = done > 0 ? elapsed() / done : 1;
    const left = plan.runs.slice(i).reduce((a, r) => a + r.estimatedSeconds, 0) - (plan.runs[i]?.estimatedSeconds ?? 0) * (runPct / 100)
      + plan.pauseS * Math.max(0, n - i - 1);
    return Math.max(0, Math.round(left * Math.min(Math.max(scale, 0.5), 3)));
  };

  if (!plan.wouldRun) {
    status = 'refused';
    stopReason = refusals(plan.guards).map(guardSentence).join(' ');
    return finish();
  }

  for (let i = 0; i < n; i++) {
    const p = plan.runs[i]!;
    if (deps.signal?.aborted) { status = 'canceled'; stopReason = 'canceled by request'; break; }
    const remaining = plan.maxTotalS - elapsed();
    if (remaining < p.estimatedSeconds) {
      status = 'stopped';
      stopReason = `the total cap of ${plan.maxTotalS} s was reached before run ${i + 1} of ${n} (${p.label}); ${n - i} run(s) not started`;
      break;
    }
    // The run's own hard cap never reaches past the suite's.
    const request = { ...p.request, wallCapS: Math.max(p.request.runtimeS, Math.min(wallCapOf(p.request), Math.floor(remaining))) };
    emit(i, 'guards', 0);
    const run = await startBenchmark(request, {
      db, signal: deps.signal, suiteId: id, exec: deps.exec, readLoad, system: deps.system, cacheBound: deps.cacheBound,
      onProgress: (e) => { if (e.phase !== 'done') emit(i, e.phase, e.pct, e.iops, e.latencyUs); },
    });
    const s = run.summary;
    runs.push({
      label: p.label, profile: p.profile, sync: p.sync, io: p.io, iodepth: p.iodepth, bs: p.bs, targetKind: p.targetKind,
      target: s.target, runId: s.id, result: s, message: run.message,
    });
    if (deps.signal?.aborted) { status = 'canceled'; stopReason = `canceled during run ${i + 1} of ${n} (${p.label}); its files were removed`; break; }
    if (s.status === 'refused') { status = 'stopped'; stopReason = `run ${i + 1} of ${n} was refused: ${run.message ?? 'a guard failed'}`; break; }
    // A run stopped by its own watch (load, pool latency, wall cap) says the host is in trouble: go no further.
    if (s.status === 'aborted') { status = 'stopped'; stopReason = `run ${i + 1} of ${n} was stopped: ${run.message ?? 'a limit was passed'}; ${n - i - 1} run(s) not started`; break; }
    if (stallWatched(p)) {
      const ratio = s.wallSeconds !== null && s.fioRuntimeSeconds ? s.wallSeconds / s.fioRuntimeSeconds : null;
      const load = s.system?.load1Max ?? null;
      const maxLoad = p.request.maxLoad1 ?? defaultMaxLoad1();
      notes.push(`${p.label}: wall/runtime ${ratio === null ? 'unknown' : formatGain(ratio)}, peak load1 ${load === null ? 'unknown' : load.toFixed(2)}`);
      const why = ratio !== null && ratio > plan.maxWallRatio
        ? `wall time was ${formatGain(ratio)} fio's runtime (limit ${plan.maxWallRatio}×)`
        : load !== null && load > maxLoad ? `the 1-minute load reached ${load.toFixed(2)} (limit ${maxLoad})` : null;
      if (why) {
        status = 'stopped';
        stopReason = `stopped early after ${p.label}: ${why} — a zvol written through the page cache without sync can stall the host (002); ${n - i - 1} run(s) not started`;
        break;
      }
    }
    if (i < n - 1 && plan.pauseS > 0) {
      emit(i, 'pause', 100);
      await abortableSleep(plan.pauseS * 1000, deps.signal);
    }
  }
  const result = finish();
  deps.onProgress?.({ suiteId: id, runIndex: Math.max(0, runs.length - 1), runCount: n, label: '', step: 'done', runPct: 100, pct: 100, iops: null, latencyUs: null, elapsedS: Math.round(elapsed()), etaS: 0 });
  return result;
}

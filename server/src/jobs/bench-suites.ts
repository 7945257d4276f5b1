/**
 * Benchmark suites started through the API: their live state and subscribers (SSE), cancel, and
 * one suite or single benchmark per host at a time (the runner's lock still guards every run).
 * The suite runner itself is server/src/bench/suite-runner.ts; finished suites are in the store.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { runSuite } from '../bench/suite-runner.ts';
import { suiteExport } from '../bench/compare.ts';
import { SuiteProgress, SuiteView, type SuitePlan } from '../bench/suite-types.ts';
import { JobError, type Logger } from '../model/jobs.ts';

export const SuiteRunView = z.object({
  jobId: z.string(),
  hostId: z.string(),
  /** The stored suite's id once it has one (GET …/suites lists it). */
  suiteId: z.string().nullable(),
  suite: z.string(),
  status: z.enum(['running', 'completed', 'stopped', 'canceled', 'failed', 'refused']),
  startedAt: z.string(),
  runCount: z.number(),
  estimatedSeconds: z.number(),
  progress: SuiteProgress.nullable(),
  result: SuiteView.nullable(),
  message: z.string().nullable(),
});
export type SuiteRunView = z.infer<typeof SuiteRunView>;

type Listener = (event: 'progress' | 'done', data: unknown) => void;

export function createBenchSuites(deps: { db: Database; logger: Logger; isHostBusy?: (hostId: string) => boolean }) {
  const jobs = new Map<string, { view: SuiteRunView; controller: AbortController; listeners: Set<Listener> }>();
  const activeByHost = new Map<string, string>();
  const emit = (s: { listeners: Set<Listener> }, event: 'progress' | 'done', data: unknown) => {
    for (const l of s.listeners) { try { l(event, data); } catch { /* a broken stream must not stop the suite */ } }
  };

  return {
    busy: (hostId: string) => activeByHost.has(hostId),
    start(hostId: string, plan: SuitePlan): SuiteRunView {
      const holder = activeByHost.get(hostId);
      if (holder || deps.isHostBusy?.(hostId)) throw new JobError('busy', `a benchmark or suite is already running on host "${hostId}"${holder ? ` (suite job ${holder})` : ''}`, 'Wait for it to end or cancel it on the Benchmarks page, then start again.');
      const jobId = randomUUID();
      const controller = new AbortController();
      const state = {
        view: {
          jobId, hostId, suiteId: null, suite: plan.suite, status: 'running' as const, startedAt: new Date().toISOString(),
          runCount: plan.runs.length, estimatedSeconds: Math.round(plan.estimatedSeconds), progress: null, result: null, message: null,
        } as SuiteRunView,
        controller,
        listeners: new Set<Listener>(),
      };
      jobs.set(jobId, state);
      activeByHost.set(hostId, jobId);
      runSuite(plan, {
        db: deps.db, signal: controller.signal,
        onStart: (suiteId) => { state.view = { ...state.view, suiteId }; },
        onProgress: (p) => { state.view = { ...state.view, progress: p }; emit(state, 'progress', p); },
      })
        .then((r) => { state.view = { ...state.view, status: r.status, result: suiteExport(r), message: r.stopReason }; })
        .catch((err: unknown) => {
          deps.logger.error('benchmark suite failed', { jobId, error: err instanceof Error ? err.message : String(err) });
          state.view = { ...state.view, status: 'failed', message: 'the suite failed; see the server log' };
        })
        .finally(() => {
          activeByHost.delete(hostId);
          emit(state, 'done', state.view);
          state.listeners.clear();
        });
      return state.view;
    },
    get: (jobId: string): SuiteRunView | null => jobs.get(jobId)?.view ?? null,
    cancel(jobId: string): SuiteRunView | null {
      const s = jobs.get(jobId);
      if (!s) return null;
      if (s.view.status === 'running') s.controller.abort(new Error('canceled by the user'));
      return s.view;
    },
    subscribe(jobId: string, listener: Listener): (() => void) | null {
      const s = jobs.get(jobId);
      if (!s) return null;
      if (s.view.status !== 'running') { listener('done', s.view); return () => {}; }
      s.listeners.add(listener);
      return () => { s.listeners.delete(listener); };
    },
    abortAll(): void {
      for (const s of jobs.values()) if (s.view.status === 'running') s.controller.abort(new Error('server shutting down'));
    },
  };
}
export type BenchSuites = ReturnType<typeof createBenchSuites>;

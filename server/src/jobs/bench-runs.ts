/**
 * Benchmark runs started through the API: their live state and subscribers (the SSE streams).
 * The runner itself (guards, journal, fio) is `server/src/bench/run.ts`; this keeps what the HTTP
 * side needs: one run per host at a time, progress fan-out, cancel. Finished runs stay queryable
 * until the server restarts (their results are in the store through the runner).
 */
import { randomUUID } from 'node:crypto';
import { JobError, type BenchProgress, type BenchRequest, type BenchRunView, type BenchStarter, type Logger } from '../model/jobs.ts';

type Listener = (event: 'progress' | 'done', data: unknown) => void;

interface RunState {
  view: BenchRunView;
  controller: AbortController;
  listeners: Set<Listener>;
}

export function createBenchRuns(deps: { bench: Pick<BenchStarter, 'start'>; logger: Logger; maxRuntimeSeconds: () => number }) {
  const runs = new Map<string, RunState>();
  const activeByHost = new Map<string, string>();

  const emit = (s: RunState, event: 'progress' | 'done', data: unknown) => {
    for (const l of s.listeners) {
      try { l(event, data); } catch { /* a broken stream must not stop the run */ }
    }
  };

  return {
    start(hostId: string, request: BenchRequest): BenchRunView {
      const holder = activeByHost.get(hostId);
      if (holder) throw new JobError('busy', `a benchmark is already running on host "${hostId}" (run ${holder})`, 'Wait for it to end or cancel it on the Benchmarks page, then start again.');
      const runId = randomUUID();
      const controller = new AbortController();
      const state: RunState = {
        view: { runId, hostId, profile: request.profile, status: 'running', startedAt: new Date().toISOString(), progress: null, summary: null, message: null },
        controller,
        listeners: new Set(),
      };
      runs.set(runId, state);
      activeByHost.set(hostId, runId);
      const cap = setTimeout(() => controller.abort(new Error('wall-clock cap reached')), deps.maxRuntimeSeconds() * 1000 + 60_000);
      cap.unref();
      deps.bench
        .start(request, {
          signal: controller.signal,
          onProgress: (e: BenchProgress) => {
            state.view = { ...state.view, progress: e };
            emit(state, 'progress', e);
          },
        })
        .then((r) => {
          const status = controller.signal.aborted ? 'canceled' : normaliseStatus(r.status);
          state.view = { ...state.view, status, summary: r.summary, message: r.message };
        })
        .catch((err: unknown) => {
          deps.logger.error('benchmark failed', { runId, error: err instanceof Error ? err.message : String(err) });
          state.view = { ...state.view, status: controller.signal.aborted ? 'canceled' : 'failed', message: 'the benchmark failed; see the server log' };
        })
        .finally(() => {
          clearTimeout(cap);
          activeByHost.delete(hostId);
          emit(state, 'done', state.view);
          state.listeners.clear();
        });
      return state.view;
    },
    /** A single benchmark is running on this host (suites wait for it: bench-suites.ts). */
    busy: (hostId: string): boolean => activeByHost.has(hostId),
    get: (runId: string): BenchRunView | null => runs.get(runId)?.view ?? null,
    cancel(runId: string): BenchRunView | null {
      const s = runs.get(runId);
      if (!s) return null;
      if (s.view.status === 'running') s.controller.abort(new Error('canceled by the user'));
      return s.view;
    },
    /** Subscribes to a run; returns null for an unknown run, and calls `done` at once for a finished one. */
    subscribe(runId: string, listener: Listener): (() => void) | null {
      const s = runs.get(runId);
      if (!s) return null;
      if (s.view.status !== 'running') {
        listener('done', s.view);
        return () => {};
      }
      s.listeners.add(listener);
      return () => { s.listeners.delete(listener); };
    },
    /** Aborts every running benchmark (server shutdown). */
    abortAll(): void {
      for (const s of runs.values()) if (s.view.status === 'running') s.controller.abort(new Error('server shutting down'));
    },
  };
}
export type BenchRuns = ReturnType<typeof createBenchRuns>;

function normaliseStatus(s: string): BenchRunView['status'] {
  return s === 'completed' || s === 'aborted' || s === 'failed' || s === 'refused' || s === 'canceled' ? s : 'completed';
}

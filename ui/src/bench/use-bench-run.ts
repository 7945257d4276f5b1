/**
 * Starts a guarded benchmark and follows its SSE stream into a `LiveRun`. Used by the
 * Benchmarks view, the Optane probe and the Optane page's blank-device test (one code path; the
 * last starts through its own route, `startVia`). When the stream breaks off before `done`, the
 * run's final state is fetched once.
 */
import { shallowRef, type ShallowRef } from 'vue';
import type { ApiClient, ApiResult } from '../api/client.ts';
import type { BenchRunView } from '../../../server/src/api/contract.ts';
import { applyEvent, idleRun, type BenchBody, type LiveRun } from './bench-view.ts';

export interface BenchRunner {
  run: ShallowRef<LiveRun>;
  start(hostId: string, request: BenchBody): Promise<LiveRun>;
  /** Starts a run through another route that answers with the run (e.g. the Optane device probe), then follows it. */
  startVia(begin: () => Promise<ApiResult<BenchRunView>>): Promise<LiveRun>;
  cancel(): Promise<void>;
  reset(): void;
}

export function useBenchRun(api: ApiClient): BenchRunner {
  const run = shallowRef<LiveRun>(idleRun());
  let controller: AbortController | null = null;

  const startVia = async (begin: () => Promise<ApiResult<BenchRunView>>): Promise<LiveRun> => {
    controller?.abort();
    controller = new AbortController();
    run.value = { ...idleRun(), phase: 'running' };
    const started = await begin();
    if (!started.ok) {
      run.value = { ...idleRun(), phase: 'error', message: started.message };
      return run.value;
    }
    run.value = { ...run.value, runId: started.value.runId, progress: started.value.progress };
    if (started.value.status !== 'running') run.value = applyEvent(run.value, 'done', started.value);
    else {
      const streamed = await api.stream('benchEvents', { params: { runId: started.value.runId }, signal: controller.signal }, (e) => {
        let data: unknown;
        try { data = JSON.parse(e.data); } catch { return; }
        run.value = applyEvent(run.value, e.event, data);
      });
      if (run.value.phase === 'running') {
        const last = await api.call('benchRun', { params: { runId: started.value.runId } });
        if (last.ok && last.value.status !== 'running') run.value = applyEvent(run.value, 'done', last.value);
        else if (!streamed.ok) run.value = { ...run.value, phase: 'error', message: streamed.message };
      }
    }
    return run.value;
  };
  const start = (hostId: string, request: BenchBody): Promise<LiveRun> => startVia(() => api.call('benchStart', { params: { hostId }, body: request }));

  return {
    run,
    start,
    startVia,
    async cancel() {
      const id = run.value.runId;
      if (!id) return;
      const r = await api.call('benchCancel', { params: { runId: id } });
      if (r.ok) run.value = applyEvent(run.value, 'done', r.value);
    },
    reset() {
      controller?.abort();
      run.value = idleRun();
    },
  };
}

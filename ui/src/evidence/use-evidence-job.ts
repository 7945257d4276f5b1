/**
 * Runs one evidence job: start → follow its event stream → final record; cancel on request.
 * When the stream breaks off before `done`, the job is read once more (it may have ended).
 */
import { shallowRef, type ShallowRef } from 'vue';
import type { ApiResult } from '../api/client.ts';
import type { SseEvent } from '../api/sse.ts';
import { applyJobEvent, fromRecord, idleJob, type JobRecordLike, type LiveJob } from './job.ts';

export interface JobOps<R> {
  start(): Promise<ApiResult<R>>;
  stream(id: number, signal: AbortSignal, onEvent: (e: SseEvent) => void): Promise<ApiResult<null>>;
  get(id: number): Promise<ApiResult<R>>;
  cancel(id: number): Promise<ApiResult<R>>;
}

export interface EvidenceJob<R extends JobRecordLike<P>, P> {
  job: ShallowRef<LiveJob<R, P>>;
  run(ops: JobOps<R>): Promise<LiveJob<R, P>>;
  cancel(): Promise<void>;
  /** Stops following (the job itself keeps running on the server). */
  detach(): void;
}

export function useEvidenceJob<R extends JobRecordLike<P>, P>(): EvidenceJob<R, P> {
  const job = shallowRef<LiveJob<R, P>>(idleJob());
  let controller: AbortController | null = null;
  let cancelOp: ((id: number) => Promise<ApiResult<R>>) | null = null;

  return {
    job,
    async run(ops) {
      controller?.abort();
      const mine = new AbortController();
      controller = mine;
      cancelOp = ops.cancel;
      job.value = { ...idleJob(), phase: 'running' };
      const started = await ops.start();
      if (!started.ok) {
        job.value = { ...idleJob(), phase: 'error', message: started.message };
        return job.value;
      }
      job.value = fromRecord(job.value, started.value);
      if (job.value.phase !== 'running') return job.value;
      const id = started.value.id;
      const streamed = await ops.stream(id, mine.signal, (e) => {
        let data: unknown;
        try { data = JSON.parse(e.data); } catch { return; }
        job.value = applyJobEvent(job.value, e.event, data);
      });
      if (mine.signal.aborted) return job.value;
      if (job.value.phase === 'running') {
        const last = await ops.get(id);
        if (last.ok) job.value = fromRecord(job.value, last.value);
        if (job.value.phase === 'running' && !streamed.ok) job.value = { ...job.value, phase: 'error', message: streamed.message };
      }
      return job.value;
    },
    async cancel() {
      const id = job.value.id;
      if (id === null || !cancelOp || job.value.phase !== 'running') return;
      const r = await cancelOp(id);
      if (r.ok) job.value = fromRecord(job.value, r.value);
    },
    detach() {
      controller?.abort();
    },
  };
}

/**
 * Background evidence jobs (workload observations, size walks) as the UI follows them: started
 * with a POST, followed over SSE (`progress`… then `done` with the final record), cancelable.
 * `applyJobEvent` is the pure part: one event in, the next state out. Both record kinds share
 * `{id, status, progress, message}`, so one reducer serves both.
 */
import type { EvidenceJobStatus } from '../../../server/src/api/contract.ts';

export interface JobRecordLike<P> {
  id: number;
  status: EvidenceJobStatus;
  progress: P | null;
  message: string | null;
}

export interface LiveJob<R extends JobRecordLike<P>, P> {
  phase: 'idle' | 'running' | 'completed' | 'failed' | 'canceled' | 'error';
  id: number | null;
  progress: P | null;
  /** The final record once the job ended (from `done`, the cancel answer or a re-read). */
  record: R | null;
  message: string | null;
}

export function idleJob<R extends JobRecordLike<P>, P>(): LiveJob<R, P> {
  return { phase: 'idle', id: null, progress: null, record: null, message: null };
}

/** The state a record puts the job in (a record still running keeps the job running). */
export function fromRecord<R extends JobRecordLike<P>, P>(j: LiveJob<R, P>, r: R): LiveJob<R, P> {
  if (r.status === 'running') return { ...j, phase: 'running', id: r.id, progress: r.progress ?? j.progress };
  return { phase: r.status, id: r.id, progress: r.progress ?? j.progress, record: r, message: r.message };
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * One SSE event. The server validated the data against the contract before sending it; this only
 * refuses what is not even an object, and ignores events of other names (keep-alives are comments).
 */
export function applyJobEvent<R extends JobRecordLike<P>, P>(j: LiveJob<R, P>, event: string, data: unknown): LiveJob<R, P> {
  if (!isObj(data)) return j;
  if (event === 'progress') return j.phase === 'running' ? { ...j, progress: data as P } : j;
  if (event === 'done' && typeof data.id === 'number' && typeof data.status === 'string') return fromRecord(j, data as unknown as R);
  return j;
}

/** Seconds as "42 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(s: number): string {
  const t = Math.max(0, Math.round(s));
  if (t < 60) return `${t} s`;
  if (t < 3600) return `${Math.floor(t / 60)} min${t % 60 ? ` ${t % 60} s` : ''}`;
  const m = Math.floor((t % 3600) / 60);
  return `${Math.floor(t / 3600)} h${m ? ` ${m} min` : ''}`;
}

/** Why the local measurements (observe, sizes) cannot run on this host, or null when they can. */
export function measureBlocked(host: { kind: string } | null, demo: boolean, what: string): string | null {
  if (!host) return 'No host is selected.';
  if (host.kind !== 'local') return `${what} run only on the machine this server runs on; this host is ${host.kind === 'demo' ? 'the bundled demo' : `a ${host.kind} host`}.`;
  if (demo) return `${what} need ZFS on this machine; it has none (the demo snapshot is shown).`;
  return null;
}

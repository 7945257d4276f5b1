/**
 * Suite view logic: the live state of a running suite (fed by its SSE stream), the request the
 * form describes, and the chart series of the napp-it style comparison. The wording (labels,
 * reasons, sync text) comes from the server; this only arranges it.
 */
import type { BodyOf, ResponseOf } from '../../../server/src/api/contract.ts';

export type SuiteBody = BodyOf<'benchSuiteStart'>;
export type SuiteJob = ResponseOf<'benchSuiteJob'>;
export type SuiteViewData = ResponseOf<'benchSuiteList'>[number];
export type SuiteProgressData = NonNullable<SuiteJob['progress']>;

export interface SuiteForm {
  suite: string;
  targetKind: 'dataset' | 'path';
  pool: string;
  dir: string;
  zvol: boolean;
  runtimeS: number | null;
  pauseS: number | null;
  /** Refuse or stop above this 1-minute load; null = the runner's default. */
  maxLoad1?: number | null;
}

/** The request the form describes, or null while it is incomplete (no pool, a relative directory). */
export function suiteRequest(f: SuiteForm): SuiteBody | null {
  const target = f.targetKind === 'dataset' ? (f.pool ? { kind: 'dataset' as const, pool: f.pool } : null) : (f.dir.startsWith('/') ? { kind: 'path' as const, dir: f.dir } : null);
  if (!target) return null;
  const body: Record<string, unknown> = { suite: f.suite, target, zvol: f.targetKind === 'dataset' && f.zvol };
  if (f.runtimeS !== null && Number.isFinite(f.runtimeS) && f.runtimeS >= 1) body.runtimeS = Math.min(600, Math.round(f.runtimeS));
  if (f.pauseS !== null && Number.isFinite(f.pauseS) && f.pauseS >= 0) body.pauseS = Math.min(600, f.pauseS);
  if (f.maxLoad1 !== undefined && f.maxLoad1 !== null && Number.isFinite(f.maxLoad1) && f.maxLoad1 > 0) body.maxLoad1 = f.maxLoad1;
  return body as SuiteBody;
}

export interface LiveSuite {
  phase: 'idle' | 'running' | 'done' | 'error';
  jobId: string | null;
  progress: SuiteProgressData | null;
  final: SuiteJob | null;
  message: string | null;
}

export const idleSuite = (): LiveSuite => ({ phase: 'idle', jobId: null, progress: null, final: null, message: null });

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Applies one SSE event (`progress` or `done`); anything else is ignored. */
export function applySuiteEvent(s: LiveSuite, event: string, data: unknown): LiveSuite {
  if (event === 'progress' && isObj(data) && typeof data.pct === 'number' && typeof data.runIndex === 'number') {
    return { ...s, phase: 'running', progress: data as unknown as SuiteProgressData };
  }
  if (event === 'done' && isObj(data) && typeof data.status === 'string' && typeof data.jobId === 'string') {
    const final = data as unknown as SuiteJob;
    return { ...s, phase: 'done', final, message: final.message, progress: s.progress ? { ...s.progress, pct: final.status === 'completed' ? 100 : s.progress.pct } : s.progress };
  }
  return s;
}

/** "run 2 of 8 · layout · 40 % · about 1 min 20 s left". */
export function progressText(p: SuiteProgressData | null): string {
  if (!p) return 'starting';
  if (p.step === 'done') return 'done';
  const eta = p.etaS === null ? '' : ` · about ${duration(p.etaS)} left`;
  return `run ${Math.min(p.runIndex + 1, p.runCount)} of ${p.runCount} · ${p.step === 'pause' ? 'pause (transaction groups flush)' : p.step} · ${Math.round(p.runPct)} %${eta}`;
}

export function duration(s: number | null | undefined): string {
  if (s === null || s === undefined) return '—';
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(Math.round(s - m * 60)).padStart(2, '0')} s`;
}

/** Grouped bars: for each pair, the first side (sync/direct/dataset) next to the second. */
export function pairSeries(pairs: SuiteViewData['pairs']['sync']): { labels: string[]; a: (number | null)[]; b: (number | null)[] } {
  return { labels: pairs.map((p) => p.shared), a: pairs.map((p) => p.a.iops), b: pairs.map((p) => p.b.iops) };
}

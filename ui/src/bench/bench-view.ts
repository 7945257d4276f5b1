/**
 * Benchmark view logic: whether a run may start (every guard passed), the live state fed by the
 * SSE stream, the result charts' series, and before/after deltas.
 */
import type { BenchProgress, BenchRunView, BodyOf, DryRunView } from '../../../server/src/api/contract.ts';
import type { BenchmarkSummary } from '../../../server/src/model/workload.ts';
import { runLatencyOf } from '../../../server/src/bench/sync-latency.ts';

export type Guard = DryRunView['guards'][number];

/** A run may start only when the dry run passed every guard (and there was at least one). */
export function guardsPass(guards: readonly Guard[]): boolean {
  return guards.length > 0 && guards.every((g) => g.ok);
}

export type BenchBody = BodyOf<'benchStart'>;

export interface BenchForm {
  profile: string;
  targetKind: 'dataset' | 'path';
  pool: string;
  dir: string;
  runtimeS: number;
  sizeMiB: number;
  /** Refuse (and abort) above this 1-minute load average; null = the runner's default. */
  maxLoad1?: number | null;
}

/** The request the form describes, or null while it is incomplete (no pool / relative dir). */
export function benchRequest(f: BenchForm): BenchBody | null {
  const target = f.targetKind === 'dataset' ? (f.pool ? { kind: 'dataset' as const, pool: f.pool } : null) : (f.dir.startsWith('/') ? { kind: 'path' as const, dir: f.dir } : null);
  if (!target) return null;
  return {
    profile: f.profile as BenchBody['profile'],
    target,
    runtimeS: Math.min(3600, Math.max(1, Math.round(f.runtimeS))),
    sizeBytes: Math.max(1, Math.round(f.sizeMiB)) * 1024 * 1024,
    ...(f.maxLoad1 !== undefined && f.maxLoad1 !== null && Number.isFinite(f.maxLoad1) && f.maxLoad1 > 0 ? { maxLoad1: f.maxLoad1 } : {}),
  };
}

const quote = (a: unknown) => (typeof a === 'string' && /[\s'"$`\\]/.test(a) ? `'${a.replace(/'/g, `'\\''`)}'` : String(a));

/** The dry run's commands (argv arrays) as printable shell-quoted lines. */
export function commandLines(commands: readonly unknown[]): string[] {
  return commands.map((c) => {
    if (typeof c === 'string') return c;
    if (Array.isArray(c)) return c.map(quote).join(' ');
    if (c && typeof c === 'object') {
      const o = c as { program?: unknown; args?: unknown; argv?: unknown; command?: unknown };
      if (typeof o.command === 'string') return o.command;
      const argv = Array.isArray(o.argv) ? o.argv : typeof o.program === 'string' ? [o.program, ...(Array.isArray(o.args) ? o.args : [])] : null;
      if (argv) return argv.map(quote).join(' ');
    }
    return JSON.stringify(c);
  });
}

export type RunPhase = 'idle' | 'running' | 'done' | 'error';

export interface LiveRun {
  phase: RunPhase;
  runId: string | null;
  progress: BenchProgress | null;
  /** (elapsed s, IOPS) samples for the live chart, one per progress event that carried IOPS. */
  samples: { t: number; iops: number; latencyUs: number | null }[];
  final: BenchRunView | null;
  message: string | null;
}

export const idleRun = (): LiveRun => ({ phase: 'idle', runId: null, progress: null, samples: [], final: null, message: null });

/** Applies one event of the run's SSE stream (`progress` or `done`). Unknown events are ignored. */
export function applyEvent(run: LiveRun, event: string, data: unknown): LiveRun {
  if (event === 'progress' && isProgress(data)) {
    const samples = data.iops !== null ? [...run.samples, { t: data.elapsedS, iops: data.iops, latencyUs: data.latencyUs }].slice(-600) : run.samples;
    return { ...run, phase: 'running', progress: data, samples };
  }
  if (event === 'done' && isRunView(data)) {
    const ok = data.status === 'completed';
    const progress = ok && run.progress ? { ...run.progress, pct: 100 } : (data.progress ?? run.progress);
    return { ...run, phase: ok ? 'done' : 'error', final: data, progress, message: data.message ?? (ok ? null : `run ${data.status}`) };
  }
  return run;
}

function isProgress(x: unknown): x is BenchProgress {
  if (!x || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  return typeof o.phase === 'string' && typeof o.pct === 'number' && typeof o.elapsedS === 'number'
    && (o.iops === null || typeof o.iops === 'number') && (o.latencyUs === null || typeof o.latencyUs === 'number');
}

function isRunView(x: unknown): x is BenchRunView {
  if (!x || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  return typeof o.runId === 'string' && typeof o.status === 'string';
}

/** Percent for the progress bar, clamped to 0–100 and rounded. */
export const pctOf = (p: BenchProgress | null): number => (p ? Math.max(0, Math.min(100, Math.round(p.pct))) : 0);

export interface ResultSeries {
  iops: { label: string; value: number }[];
  bandwidth: { label: string; value: number }[];
  /** Latency percentiles in µs, per direction; `write` is the run's own write latency (sync-latency.ts), named by `writeLabel`. */
  latency: { label: string; read: number | null; write: number | null }[];
  /** What `write` is: "sync latency (fsync)" for an fsync run (never fio's write() call), "write() latency (async, not durable)"…; null without one. */
  writeLabel: string | null;
}

const us = (ns: number | null | undefined) => (ns === null || ns === undefined ? null : ns / 1000);

export function resultSeries(s: BenchmarkSummary): ResultSeries {
  const rd = s.readIops > 0 || s.readBytesPerSec > 0;
  const wr = s.writeIops > 0 || s.writeBytesPerSec > 0;
  const iops = [...(rd ? [{ label: 'read', value: s.readIops }] : []), ...(wr ? [{ label: 'write', value: s.writeIops }] : [])];
  const bandwidth = [...(rd ? [{ label: 'read', value: s.readBytesPerSec }] : []), ...(wr ? [{ label: 'write', value: s.writeBytesPerSec }] : [])];
  const w = runLatencyOf(s);
  const wl = w && w.kind !== 'read' ? w : null;
  const pick = (k: 'meanNs' | 'p50Ns' | 'p99Ns' | 'p999Ns') => ({ read: us(s.readLatency?.[k]), write: us(wl?.[k]) });
  const latency = [
    { label: 'mean', ...pick('meanNs') }, { label: 'p50', ...pick('p50Ns') }, { label: 'p99', ...pick('p99Ns') }, { label: 'p99.9', ...pick('p999Ns') },
  ].filter((r) => r.read !== null || r.write !== null);
  return { iops, bandwidth, latency, writeLabel: wl?.label ?? null };
}

/** The headline IOPS of a result: writes for write profiles, reads otherwise, both summed for mixed. */
export const totalIops = (s: BenchmarkSummary): number => s.readIops + s.writeIops;

/** Relative change after vs before, e.g. 0.52 = +52 %; null when before is 0 or missing. */
export function change(before: number | null | undefined, after: number | null | undefined): number | null {
  if (before === null || before === undefined || after === null || after === undefined || before === 0) return null;
  return (after - before) / before;
}

export function signedPct(x: number | null): string {
  if (x === null) return '—';
  const p = Math.round(x * 100);
  return `${p > 0 ? '+' : ''}${p} %`;
}

/** Wall time vs fio runtime in words, for the mismatch flag. */
export function mismatchText(s: BenchmarkSummary): string | null {
  if (!s.wallTimeMismatch) return null;
  const w = s.wallSeconds !== null ? `${s.wallSeconds.toFixed(1)} s` : 'unknown';
  const f = s.fioRuntimeSeconds !== null ? `${s.fioRuntimeSeconds.toFixed(1)} s` : 'unknown';
  return `wall time ${w} vs fio runtime ${f}: the result may hide buffered writes or stalls`;
}

/**
 * The IOPS and latency a run card shows: the finished run's measured result once it has one (the
 * last progress event of a finished run carries none), else the live progress figures.
 */
export function shownFigures(run: LiveRun): { iops: number | null; latencyUs: number | null; final: boolean; latencyOf: string | null } {
  const s = run.final?.status === 'completed' ? run.final.summary : null;
  if (s) {
    const iops = s.readIops + s.writeIops;
    // The run's own latency (sync-latency.ts): for a sync-write run the time until a write was durable.
    const l = runLatencyOf(s);
    const lat = l?.p50Ns ?? l?.meanNs ?? null;
    return { iops: iops > 0 ? iops : null, latencyUs: lat !== null ? lat / 1000 : null, final: true, latencyOf: l ? `${l.label} p50` : null };
  }
  return { iops: run.progress?.iops ?? null, latencyUs: run.progress?.latencyUs ?? null, final: false, latencyOf: null };
}

/**
 * One meaning of sync latency (issue 34 §4): the time until a write is durable. For an fsync or
 * fdatasync workload that is the fsync's completion (fio's `sync` section) — the write() before it
 * returns from RAM and its latency says nothing about durability; for O_SYNC writes and writes
 * under sync=always it is the write itself. Every surface (the `bench` CLI, history and
 * before/after, the result page, the report in every format) reads a run's latency here, with the
 * words here, so a figure is never called "sync latency" in one place and fio's write() latency
 * in another. Pure; derived from the stored summary, so runs stored before `syncOpLatency` existed
 * read right too (an fsync run without it says its sync latency was not recorded).
 */
import type { BenchmarkSummary } from '../model/workload.ts';

/**
 * No zod here: the UI bundles this module, and zod probes `new Function` on first parse, which a
 * page's CSP without 'unsafe-eval' (Cockpit's, ours) reports as a violation. The schema that
 * validates these shapes is `bench/run-latency-schema.ts`; its type check keeps the two equal.
 */
export const RUN_LATENCY_KINDS = ['fsync', 'fdatasync', 'o-sync-write', 'sync-always-write', 'async-write', 'read'] as const;
export type RunLatencyKind = (typeof RUN_LATENCY_KINDS)[number];

/** The words every surface prints for a run's latency figure. */
export const RUN_LATENCY_LABEL: Record<RunLatencyKind, string> = {
  fsync: 'sync latency (fsync)',
  fdatasync: 'sync latency (fdatasync)',
  'o-sync-write': 'sync latency (O_SYNC write)',
  'sync-always-write': 'sync latency (sync=always write)',
  'async-write': 'write() latency (async, not durable)',
  read: 'read latency',
};

/** What a before/after or a table column of mixed runs calls the durable figure. */
export const SYNC_LATENCY = 'sync latency';

/** A run's latency as every surface shows it (the JSON report, `bench --json`, the before/after view carry it as is). */
export interface RunLatency {
  kind: RunLatencyKind;
  /** True when the figure is the time until a write was durable. */
  durable: boolean;
  /** The words every surface prints: "sync latency (fsync)", "sync latency (O_SYNC write)", "write() latency (async, not durable)"… */
  label: string;
  meanNs: number | null;
  p50Ns: number | null;
  p99Ns: number | null;
  p999Ns: number | null;
  /** Why the figures are null when the run wrote durably but did not record the durable latency; else null. */
  missing: string | null;
}

type Lat = { meanNs: number | null; p50Ns: number | null; p99Ns: number | null; p999Ns: number | null } | null | undefined;

function of(kind: RunLatencyKind, l: Lat, missing: string | null = null): RunLatency {
  return {
    kind, durable: kind !== 'async-write' && kind !== 'read', label: RUN_LATENCY_LABEL[kind],
    meanNs: l?.meanNs ?? null, p50Ns: l?.p50Ns ?? null, p99Ns: l?.p99Ns ?? null, p999Ns: l?.p999Ns ?? null,
    missing: l ? null : missing,
  };
}

type RunFields = Pick<BenchmarkSummary, 'syncMode' | 'writeIops' | 'readIops' | 'writeLatency' | 'readLatency'> & Partial<Pick<BenchmarkSummary, 'syncOpLatency' | 'writeBytesPerSec'>>;

const wrote = (s: RunFields) => s.writeIops > 0 || (s.writeBytesPerSec ?? 0) > 0;

/**
 * The time until a write was durable, or null when the run made no write durable per operation
 * (async writes, reads). An fsync run stored without its fsync figures gives null figures and a
 * `missing` reason, never the write()'s.
 */
export function syncLatencyOf(s: RunFields): RunLatency | null {
  const o = s.syncOpLatency;
  if (o) {
    if (o.source === 'sync') return of(o.operation === 'fdatasync' ? 'fdatasync' : 'fsync', o);
    return of(s.syncMode === 'property' ? 'sync-always-write' : 'o-sync-write', o);
  }
  if (!wrote(s)) return null;
  switch (s.syncMode) {
    case 'fio-fsync': return of('fsync', null, 'the fsync latency was not recorded for this run (stored before it was kept); fio\'s write() latency is not it');
    case 'fio-sync': return of('o-sync-write', s.writeLatency, 'fio reported no write latency');
    case 'property': return of('sync-always-write', s.writeLatency, 'fio reported no write latency');
    default: return null;
  }
}

/** The latency a run is shown with: its sync latency when it wrote durably, else its (labelled) write() or read latency. */
export function runLatencyOf(s: RunFields): RunLatency | null {
  const sync = syncLatencyOf(s);
  if (sync) return sync;
  if (wrote(s) && s.writeLatency) return of('async-write', s.writeLatency);
  if (s.readIops > 0 && s.readLatency) return of('read', s.readLatency);
  return null;
}

/** after ÷ before of two runs' p99, only when both measured the same thing (both durable, or the same kind). */
export function latencyP99Ratio(before: RunLatency | null, after: RunLatency | null): number | null {
  if (!before || !after || before.p99Ns === null || after.p99Ns === null || before.p99Ns <= 0) return null;
  if (before.durable !== after.durable || (!before.durable && before.kind !== after.kind)) return null;
  return after.p99Ns / before.p99Ns;
}

/** One label for a pair (before/after): the kind's own when both are the same, else the shared meaning. */
export function pairLabel(a: RunLatency | null, b: RunLatency | null): string | null {
  if (!a && !b) return null;
  if (!a || !b || a.kind === b.kind) return (a ?? b)!.label;
  return a.durable && b.durable ? `${SYNC_LATENCY} (${a.label.replace(/^sync latency \((.*)\)$/, '$1')} before, ${b.label.replace(/^sync latency \((.*)\)$/, '$1')} after)` : `${a.label} before, ${b.label} after`;
}

/**
 * Stored single runs: the history list and the before/after view of one profile on one pool
 * across topology changes (a fingerprint of the vdev tree tells "before" from "after").
 */
import type { Database } from 'better-sqlite3';
import type { BenchmarkSummary } from '../model/workload.ts';
import { listRuns, type HistoryFilter } from './store.ts';
import { latencyP99Ratio, pairLabel, runLatencyOf, type RunLatency } from './sync-latency.ts';

export function history(db: Database, filter: HistoryFilter = {}): ReturnType<typeof listRuns> {
  return listRuns(db, filter);
}

export interface BeforeAfter {
  pool: string;
  profile: string;
  /** One group per topology, oldest first; each with its runs, newest first. */
  groups: { topologyFingerprint: string | null; firstAt: string; lastAt: string; runs: BenchmarkSummary[] }[];
  before: BenchmarkSummary | null;
  after: BenchmarkSummary | null;
  /**
   * The latency of the two runs as sync-latency.ts reads it (for a sync profile the time until a
   * write was durable: the fsync's, never fio's write()), with one label for the pair.
   */
  latency: { label: string | null; before: RunLatency | null; after: RunLatency | null };
  /** after / before for the numbers that matter; null when there is no pair. `latencyP99`: of `latency`, null when the two measured different things. */
  ratios: { writeIops: number | null; readIops: number | null; latencyP99: number | null } | null;
}

export function beforeAfter(db: Database, pool: string, profile: string): BeforeAfter {
  const runs = listRuns(db, { pool, profile, status: 'completed', limit: 1000 })
    .map((r) => r.summary).filter((s): s is BenchmarkSummary => s !== null).reverse(); // oldest first
  const groups: BeforeAfter['groups'] = [];
  for (const s of runs) {
    const g = groups.at(-1);
    if (g && g.topologyFingerprint === s.topologyFingerprint) { g.runs.unshift(s); g.lastAt = s.startedAt; } else {
      groups.push({ topologyFingerprint: s.topologyFingerprint, firstAt: s.startedAt, lastAt: s.startedAt, runs: [s] });
    }
  }
  const before = groups.length >= 2 ? groups.at(-2)!.runs[0]! : null;
  const after = groups.length >= 1 ? groups.at(-1)!.runs[0]! : null;
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b != null && b > 0 ? a / b : null);
  const lb = before ? runLatencyOf(before) : null;
  const la = after ? runLatencyOf(after) : null;
  return {
    pool, profile, groups, before, after,
    latency: { label: pairLabel(lb, la), before: lb, after: la },
    ratios: before && after
      ? {
        writeIops: ratio(after.writeIops, before.writeIops),
        readIops: ratio(after.readIops, before.readIops),
        latencyP99: latencyP99Ratio(lb, la),
      }
      : null,
  };
}

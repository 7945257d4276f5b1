/**
 * Closing the loop, as a job (issue 34 §2): reads the stored verdicts with the inventories they
 * were given on, the newest inventory and this machine's benchmark runs, hands them to the pure
 * `loopOutcome()` (optane/outcome.ts), and records the pair once the re-probe has measured it.
 * The re-probe itself is an ordinary guarded benchmark (bench-runs.ts) on a throw-away dataset;
 * nothing here changes a pool.
 */
import { z } from 'zod';
import { JobError, type BenchRunView } from '../model/jobs.ts';
import { Pool } from '../model/inventory.ts';
import type { BenchmarkSummary } from '../model/workload.ts';
import { loopOutcome, outcomeRows, type LoopState, type LoopView, type ReprobeRequest, type StoredForecast } from '../optane/outcome.ts';
import type { HistoryRepo } from '../store/history-repo.ts';
import type { OutcomesRepo, StoredOutcome } from '../store/outcomes-repo.ts';
import { unpackJson } from '../store/compress.ts';
import type { BenchRuns } from './bench-runs.ts';

/** How many stored verdicts back the change is looked for (each costs one inventory read). */
export const LOOP_LOOKBACK = 12;

const PoolsOnly = z.object({ pools: z.array(Pool) });
const VerdictPart = z.object({
  pool: z.string().nullable(),
  verdict: z.string(),
  decisive: z.string().optional(),
  evidence: z.array(z.object({ label: z.string(), value: z.union([z.string(), z.number(), z.null()]) })).optional(),
  expected: z.object({ qd1: z.object({ now: z.object({ iops: z.number(), low: z.number(), high: z.number() }), withOptane: z.object({ iops: z.number(), low: z.number(), high: z.number() }) }) }).nullable(),
});

export interface LoopDeps {
  history: Pick<HistoryRepo, 'listAssessments' | 'assessmentSummary' | 'assessmentBlob' | 'snapshotBlob' | 'latestSnapshot'>;
  outcomes: OutcomesRepo;
  /** This machine's stored runs on a pool (empty for other hosts: their runs are not ours). */
  runsOf: (hostId: string, pool: string) => readonly BenchmarkSummary[];
}

export function createLoopOutcomes(deps: LoopDeps) {
  const pairsOf = (hostId: string): StoredOutcome[] => deps.outcomes.list(hostId);

  // Stored assessments and snapshots never change: each is read once (its pools and the verdict's
  // forecast), not on every request — on a large host a snapshot is megabytes of JSON.
  const cache = new Map<number, StoredForecast | null>();
  const CACHE_SIZE = 64;
  function storedForecast(hostId: string, assessmentId: number): StoredForecast | null {
    if (cache.has(assessmentId)) return cache.get(assessmentId)!;
    const meta = deps.history.assessmentSummary(assessmentId);
    const a = deps.history.assessmentBlob(hostId, assessmentId);
    const blob = meta?.snapshotId != null ? deps.history.snapshotBlob(hostId, meta.snapshotId) : null;
    let f: StoredForecast | null = null;
    if (meta && a && blob) {
      const inv = PoolsOnly.safeParse(unpackJson(blob.inventoryGz));
      const v = VerdictPart.safeParse((unpackJson(a.assessmentGz) as { optane?: unknown } | null)?.optane);
      if (inv.success) f = { assessmentId, generatedAt: a.generatedAt, snapshotId: meta.snapshotId, capturedAt: blob.capturedAt, pools: inv.data.pools, verdict: v.success ? v.data : null };
    }
    cache.set(assessmentId, f);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return f;
  }

  /** The stored verdicts, newest first, read lazily: the walk stops at the first one before the change. */
  function* forecasts(hostId: string): Generator<StoredForecast> {
    for (const s of deps.history.listAssessments(hostId, LOOP_LOOKBACK)) {
      const f = storedForecast(hostId, s.id);
      if (f) yield f;
    }
  }

  function state(hostId: string): LoopState {
    const snap = deps.history.latestSnapshot(hostId);
    if (!snap) return { state: 'no-change', sentence: 'No inventory yet: run an assessment first.' };
    // Runs of every pool of the newest inventory: the change is found first, the runs are filtered by its pool.
    const runs = snap.inventory.pools.flatMap((p) => deps.runsOf(hostId, p.name));
    return loopOutcome({ forecasts: forecasts(hostId), now: { snapshotId: snap.id, capturedAt: snap.capturedAt, pools: snap.inventory.pools }, runs });
  }

  /** Records the pair when the loop is measured (once per re-probe run); returns whether it did. */
  function recordIfMeasured(hostId: string, runId?: string): boolean {
    const loop = state(hostId);
    if (loop.state !== 'measured' || (runId !== undefined && loop.outcome.after.runId !== runId)) return false;
    deps.outcomes.record(hostId, loop.outcome);
    return true;
  }

  return {
    /**
     * The loop's state and the stored pairs; reads only (a GET never changes state). A pair
     * measured by a probe run outside the page (the CLI's `bench sync-write-4k-qd1`) shows here at
     * once and is stored by the next assessment (`recordIfMeasured`, called after each one).
     */
    view(hostId: string): LoopView {
      const loop = state(hostId);
      const pairs = pairsOf(hostId).map((p) => ({ id: p.id, recordedAt: p.recordedAt, outcome: p.outcome }));
      return {
        loop, rows: loop.state === 'measured' ? outcomeRows(loop.outcome) : null,
        stored: loop.state === 'measured' && pairs.some((p) => p.outcome.after.runId === loop.outcome.after.runId), pairs,
      };
    },
    recordIfMeasured: (hostId: string): boolean => recordIfMeasured(hostId),
    /** The request of the offered re-probe; refused when no log or special vdev appeared since a verdict. */
    reprobeRequest(hostId: string): ReprobeRequest {
      const loop = state(hostId);
      if (loop.state === 'no-change') throw new JobError('invalid', `nothing to re-measure on host "${hostId}": ${loop.sentence.replace(/\.$/, '')}`, 'Add the log or special vdev the verdict proposed (the app prints the commands; it never runs them), assess the host again, then re-measure');
      return loop.reprobe;
    },
    /** Records the pair when the re-probe `run` completes (its result is in the store by then). */
    recordWhenDone(hostId: string, runs: Pick<BenchRuns, 'subscribe'>, run: BenchRunView): void {
      runs.subscribe(run.runId, (event, data) => {
        const done = data as BenchRunView | null;
        // The stored run's own id (the runner's), not the live run's.
        if (event !== 'done' || done?.status !== 'completed' || !done.summary) return;
        recordIfMeasured(hostId, done.summary.id);
      });
    },
  };
}
export type LoopOutcomes = ReturnType<typeof createLoopOutcomes>;

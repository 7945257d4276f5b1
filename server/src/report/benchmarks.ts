/**
 * Benchmark results for the report: accepts what the callers have — plain `BenchmarkSummary`
 * values (API, tests) or the bench store's history rows (`{...run, summary}` with the requested
 * size and runtime) — and attaches the methodology a reader needs to judge the numbers.
 */
import { z } from 'zod';
import { BenchmarkSummary } from '../model/workload.ts';
import { getProfile } from '../bench/profiles.ts';
import { runLatencyOf } from '../bench/sync-latency.ts';
import type { ReportBenchmark } from './document.ts';

/** A history row of `bench --history --json` / `history(db)`: the run plus its summary. */
const HistoryRow = z.object({
  summary: BenchmarkSummary.nullable(),
  sizeBytes: z.number().nullable().optional(),
  runtimeS: z.number().nullable().optional(),
  message: z.string().nullable().optional(),
});

export interface BenchmarkInputOutcome {
  benchmarks: ReportBenchmark[];
  /** Entries that were neither a summary nor a history row with one (said in the report's gaps). */
  rejected: number;
}

const SYNC_MODE_TEXT: Record<BenchmarkSummary['syncMode'], string> = {
  property: 'sync=always on the temporary test dataset: every write is durable before it counts, so the numbers measure the ZIL path (SLOG or pool).',
  'fio-sync': 'fio opened its file with O_SYNC because the dataset\'s sync property could not be set: every write waits for the ZIL.',
  'fio-fsync': 'fio called fsync after every write because the dataset\'s sync property could not be set: every write waits for the ZIL.',
  async: 'asynchronous I/O: ZFS acknowledges writes from RAM and writes them out at transaction-group sync, so write numbers are a ceiling rather than what durable writes get.',
};

const NON_ZFS_SYNC_TEXT = 'fio made every write durable itself (O_SYNC or fsync after each write): each write waited until the file system or device had it on stable storage.';

function caveatsOf(s: BenchmarkSummary, runMessage: string | null): string[] {
  const c: string[] = [];
  if (s.status !== 'completed') c.push(`The run ${s.status}${runMessage ? `: ${runMessage}` : ''}; its numbers are partial or absent.`);
  if (s.wallTimeMismatch) {
    c.push(`Wall time (${s.wallSeconds ?? '?'} s) and fio's runtime (${s.fioRuntimeSeconds ?? '?'} s) differ by more than 10 %: the reported rate may hide stalls or caching (the 002 study's KPI).`);
  }
  if (s.pool === null) c.push(`Ran on ${s.target}, not on a ZFS dataset: it measures the device or file system there, not a pool.`);
  if (s.syncMode === 'fio-sync' || s.syncMode === 'fio-fsync') c.push('Sync semantics came from fio, not from the dataset property; results can differ slightly from sync=always.');
  const p = getProfile(s.profile);
  if (p?.readsFromDisk) c.push('Reads were kept out of the ARC (primarycache=metadata on the test dataset): they show disk speed, not cached speed.');
  if (s.topologyFingerprint === null) c.push('The pool layout at the time of the run was not recorded: compare it with later runs with care.');
  c.push(...s.notes);
  return c;
}

/** Runs stored before fio ran threads used posixaio's queue (one at a time per file on Linux). */
export function concurrencyOf(s: Pick<BenchmarkSummary, 'writers' | 'iodepth'>): string {
  if (s.writers === undefined) return `iodepth ${s.iodepth} (posixaio)`;
  return s.writers === 1 ? 'one thread (psync)' : `${s.writers} threads, one I/O each (psync, numjobs=${s.writers})`;
}

function withMethodology(s: BenchmarkSummary, sizeBytes: number | null, runtimeSeconds: number | null, message: string | null): ReportBenchmark {
  const p = getProfile(s.profile);
  return {
    summary: s,
    methodology: {
      profileTitle: p?.title ?? s.profile,
      question: p?.question ?? null,
      reference: p?.reference ?? null,
      rw: p?.rw ?? null,
      blockSize: s.blockSize,
      iodepth: s.iodepth,
      concurrency: concurrencyOf(s),
      sizeBytes,
      runtimeSeconds,
      syncMode: s.syncMode,
      // The runner's own sentence (it names the ZIL only when ZFS was underneath); older runs: by mode,
      // without the ZIL when the run was not on a pool.
      syncModeText: s.syncText ?? (s.pool === null && s.syncMode !== 'async' ? NON_ZFS_SYNC_TEXT : SYNC_MODE_TEXT[s.syncMode]),
      caveats: caveatsOf(s, message),
    },
    latency: runLatencyOf(s),
  };
}

/** Newest first, as the history shows them. */
export function reportBenchmarks(input: readonly unknown[] | undefined): BenchmarkInputOutcome {
  const out: ReportBenchmark[] = [];
  let rejected = 0;
  for (const item of input ?? []) {
    const plain = BenchmarkSummary.safeParse(item);
    if (plain.success) { out.push(withMethodology(plain.data, null, null, null)); continue; }
    const row = HistoryRow.safeParse(item);
    if (row.success && row.data.summary) {
      out.push(withMethodology(row.data.summary, row.data.sizeBytes ?? null, row.data.runtimeS ?? null, row.data.message ?? null));
    } else rejected++;
  }
  out.sort((a, b) => b.summary.startedAt.localeCompare(a.summary.startedAt) || a.summary.id.localeCompare(b.summary.id));
  return { benchmarks: out, rejected };
}

/**
 * The contracts of benchmark suites (CLI, API, UI, report): the plan a dry run prints, the live
 * progress, and the stored result with every run's summary side by side.
 */
import { z } from 'zod';
import { BenchmarkSummary } from '../model/workload.ts';
import { Citation } from '../model/finding.ts';
import { ProfileId } from './profiles.ts';
import { BenchRequest, GuardVerdict } from './types.ts';

const Cell = z.object({
  label: z.string(),
  profile: ProfileId,
  sync: z.enum(['always', 'standard', 'disabled']),
  io: z.enum(['direct', 'buffered']),
  iodepth: z.number(),
  bs: z.number(),
  targetKind: z.enum(['dataset', 'zvol', 'path']),
});

export const PlannedRun = Cell.extend({
  /** The target as the run will name it (`<id>` stands for the run id chosen at start). */
  target: z.string(),
  commands: z.array(z.array(z.string())),
  guards: z.array(GuardVerdict),
  estimatedSeconds: z.number(),
  request: BenchRequest,
});
export type PlannedRun = z.infer<typeof PlannedRun>;

export const SkippedCell = Cell.extend({ reason: z.string() });
export type SkippedCell = z.infer<typeof SkippedCell>;

export const SuitePlan = z.object({
  suite: z.string(),
  title: z.string(),
  reference: z.string().nullable(),
  /** The pool or directory the suite runs on. */
  on: z.string(),
  runs: z.array(PlannedRun),
  /** Cells this target cannot run (no zvols on zfs-fuse, no sync property on a directory, …), each with why. */
  skipped: z.array(SkippedCell),
  /** Suite-wide refusals (any guard that is not about one cell, and the suite's own guards). */
  guards: z.array(GuardVerdict),
  wouldRun: z.boolean(),
  notes: z.array(z.string()),
  runtimeS: z.number(),
  sizeBytes: z.number(),
  pauseS: z.number(),
  maxTotalS: z.number(),
  maxWallRatio: z.number(),
  estimatedSeconds: z.number(),
});
export type SuitePlan = z.infer<typeof SuitePlan>;

export const SuiteRunResult = Cell.extend({
  target: z.string(),
  runId: z.string().nullable(),
  result: BenchmarkSummary.nullable(),
  message: z.string().nullable(),
});
export type SuiteRunResult = z.infer<typeof SuiteRunResult>;

export const SuiteResult = z.object({
  id: z.string(),
  suite: z.string(),
  title: z.string(),
  on: z.string(),
  status: z.enum(['completed', 'stopped', 'canceled', 'failed', 'refused']),
  /** Why the suite ended early (total cap, load, zvol stall watch, cancel, refusal); null when it ran through. */
  stopReason: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string(),
  wallSeconds: z.number(),
  runs: z.array(SuiteRunResult),
  skipped: z.array(SkippedCell),
  notes: z.array(z.string()),
  /** Published measurements shown as an example (the demo host): never a measurement of this machine. */
  demo: z.boolean().default(false),
  citation: Citation.nullable().default(null),
});
export type SuiteResult = z.infer<typeof SuiteResult>;

export const SuiteProgress = z.object({
  suiteId: z.string(),
  runIndex: z.number(),
  runCount: z.number(),
  label: z.string(),
  step: z.enum(['guards', 'prepare', 'layout', 'run', 'cleanup', 'pause', 'done']),
  /** 0..100 over the current run, and over the whole suite. */
  runPct: z.number(),
  pct: z.number(),
  iops: z.number().nullable(),
  latencyUs: z.number().nullable(),
  elapsedS: z.number(),
  /** Seconds left by the plan's estimates, corrected by how the finished runs compared with theirs. */
  etaS: z.number().nullable(),
});
export type SuiteProgress = z.infer<typeof SuiteProgress>;

/** One row of a suite's comparison table (compare.ts), as every renderer shows it. */
export const SuiteRow = z.object({
  label: z.string(), profile: z.string(), targetKind: z.string(), bs: z.string(), iodepth: z.number(), io: z.string(), sync: z.string(),
  /** What fio did to make writes durable: "O_SYNC", "fsync per write", "end_fsync only", "plain writes" (the dataset's sync=always did it); null for a run that did not happen or only reads. */
  fioSync: z.string().nullable(),
  /** The temporary dataset's or zvol's `sync` property during the run ("sync=always", "sync=standard", "sync=disabled"); for a directory, that the run did not set one. */
  datasetSync: z.string(),
  status: z.string(), iops: z.number().nullable(), mibPerSec: z.number().nullable(),
  /** Which latency p50/p99 are, in the words of sync-latency.ts: "sync latency (fsync)", "sync latency (O_SYNC write)"… (the time until a write was durable), or for async runs "write() latency (async, not durable)". */
  latencyOf: z.string().nullable(), p50Us: z.number().nullable(), p99Us: z.number().nullable(),
  wallS: z.number().nullable(), fioRuntimeS: z.number().nullable(), wallRatio: z.number().nullable(),
  load1Max: z.number().nullable(), iowaitPct: z.number().nullable(), arcHitPct: z.number().nullable(), message: z.string().nullable(),
});
export type SuiteRow = z.infer<typeof SuiteRow>;

const PairSide = z.object({ label: z.string(), value: z.string(), iops: z.number().nullable(), p99Us: z.number().nullable() });
export const PairRow = z.object({
  dimension: z.enum(['sync', 'io', 'target']),
  /** What the two runs share ("sync-write-4k-qd1 · 4k · QD1 · buffered · path"). */
  shared: z.string(),
  a: PairSide,
  b: PairSide,
  /** a's IOPS ÷ b's IOPS (sync ÷ async, direct ÷ buffered, dataset ÷ zvol). */
  ratio: z.number().nullable(),
});
export type PairRow = z.infer<typeof PairRow>;

/** A suite with its table and pairs: what the UI, the report and the JSON export show. */
export const SuiteView = z.object({
  suite: SuiteResult,
  table: z.array(SuiteRow),
  pairs: z.object({ sync: z.array(PairRow), io: z.array(PairRow), target: z.array(PairRow) }),
});
export type SuiteView = z.infer<typeof SuiteView>;

const Side = z.object({ iops: z.number().nullable(), p99Us: z.number().nullable() });
export const SuiteComparison = z.object({
  before: z.string(),
  after: z.string(),
  rows: z.array(z.object({ label: z.string(), before: Side, after: Side, iopsRatio: z.number().nullable(), p99Ratio: z.number().nullable() })),
  onlyBefore: z.array(z.string()),
  onlyAfter: z.array(z.string()),
});
export type SuiteComparison = z.infer<typeof SuiteComparison>;

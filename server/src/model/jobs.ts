/**
 * What the work layer (`server/src/jobs/`) speaks: its records, the services it calls and the
 * errors it throws. A job never knows about HTTP: it throws a `JobError` that says what happened
 * (`reason`) and how to go on (`wayForward`); the API maps the kind to a status code
 * (`server/src/api/errors.ts`), the CLI prints the same two sentences.
 */
import { z } from 'zod';
import type { Assessment } from './finding.ts';
import { Severity } from './finding.ts';
import type { Inventory } from './inventory.ts';
import { BenchmarkSummary } from './workload.ts';
import { BenchRequest as RunnerBenchRequest, ProgressEvent } from '../bench/types.ts';

/**
 * - busy: the same kind of work already runs for this host (try again when it ends);
 * - unavailable: this build or machine cannot do it;
 * - refused: a guard or policy says no (the way forward names who may change it and how);
 * - invalid: the request itself is wrong;
 * - not-found: what it names does not exist.
 */
export type JobErrorKind = 'busy' | 'unavailable' | 'refused' | 'invalid' | 'not-found';

export class JobError extends Error {
  constructor(
    readonly kind: JobErrorKind,
    /** What happened, one sentence without a final full stop. */
    readonly reason: string,
    /** How to go on: who may change what (the exact setting or flag) and what that risks; null when there is nothing to do. */
    readonly wayForward: string | null = null,
  ) {
    super(wayForward ? `${reason}. ${wayForward}` : reason);
    this.name = 'JobError';
  }
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The server's log as the jobs see it (the implementation, with secret scrubbing, is `api/logger.ts`). */
export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Findings per severity. */
export const Counts = z.record(Severity, z.number().int().nonnegative());
export type Counts = z.infer<typeof Counts>;

export interface LoadedInventory {
  inventory: Inventory;
  /** The raw outputs the inventory was built from (kept, compressed, with the snapshot). */
  raw: unknown;
}

export interface AssessOutcome {
  assessment: Assessment;
  optane: unknown;
}

/** The runner's own request schema (profile, target {dataset|path|device}, size, runtime, caps). */
export const BenchRequest = RunnerBenchRequest;
export type BenchRequest = z.infer<typeof BenchRequest>;
export const BenchProgress = ProgressEvent;
export type BenchProgress = z.infer<typeof BenchProgress>;

export const BenchRunStatus = z.enum(['running', 'completed', 'aborted', 'failed', 'refused', 'canceled']);
export const BenchRunView = z.object({
  runId: z.string(),
  hostId: z.string(),
  profile: z.string(),
  status: BenchRunStatus,
  startedAt: z.string(),
  progress: BenchProgress.nullable(),
  summary: BenchmarkSummary.nullable(),
  message: z.string().nullable(),
});
export type BenchRunView = z.infer<typeof BenchRunView>;

/** What a benchmark job needs of the bench service: start a run, read the history. */
export interface BenchStarter {
  /** Resolves when the run ends (completed, refused, failed or aborted by `signal`). */
  start(request: BenchRequest, hooks: { onProgress(e: BenchProgress): void; signal: AbortSignal }): Promise<{ summary: BenchmarkSummary | null; status: string; message: string | null }>;
  history(filter: { pool?: string; profile?: string }): BenchmarkSummary[];
}

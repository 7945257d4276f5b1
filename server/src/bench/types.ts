/**
 * The contracts of the benchmark runner, shared by the CLI and the server (one code path):
 * the request, the guard verdicts, progress events, and the stored run (summary + detail).
 */
import { z } from 'zod';
import { BenchmarkSummary, LatencyPercentiles } from '../model/workload.ts';
import { ProfileId } from './profiles.ts';
import { FioResult } from './fio-result.ts';

export const BenchTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('dataset'), pool: z.string() }),
  z.object({ kind: z.literal('path'), dir: z.string() }),
  z.object({ kind: z.literal('device'), device: z.string(), confirmSerial: z.string() }),
  /** A temporary zvol on the pool (OpenZFS only); volblocksize always explicit (zvol.ts). */
  z.object({
    kind: z.literal('zvol'), pool: z.string(),
    volblocksize: z.number().int().min(512).max(128 * 1024).refine((n) => (n & (n - 1)) === 0, 'volblocksize must be a power of two').default(16 * 1024),
  }),
]);
export type BenchTarget = z.infer<typeof BenchTarget>;

export const BenchRequest = z.object({
  profile: ProfileId,
  target: BenchTarget,
  /** Size of the test file (bytes). */
  sizeBytes: z.number().int().positive().default(1024 * 1024 * 1024),
  runtimeS: z.number().int().positive().max(3600).default(30),
  /** Hard wall-clock cap for the measured run; default runtime × 3 + 60 s. */
  wallCapS: z.number().positive().optional(),
  /** Abort (and refuse to start) when the 1-minute load average is above this. */
  maxLoad1: z.number().nonnegative().optional(),
  /** Abort when the pool's write wait (zpool iostat -l) exceeds this, in ms. */
  maxPoolWriteWaitMs: z.number().positive().default(2000),
  /** A suite's matrix cell; absent = the profile's own choice (sync profiles: always, others: standard). */
  sync: z.enum(['always', 'standard', 'disabled']).optional(),
  /** O_DIRECT or the page cache; absent = the target's default (raw devices direct, files buffered). */
  io: z.enum(['direct', 'buffered']).optional(),
  iodepth: z.number().int().min(1).max(256).optional(),
  blockSize: z.number().int().min(512).max(16 * 1024 * 1024).optional(),
  /** Where the limits came from, for a refusal's way forward: the CLI's options, or the server's policy (absent: the CLI). */
  limitsFrom: z.enum(['cli', 'server']).optional(),
});
export type BenchRequest = z.infer<typeof BenchRequest>;
export type BenchRequestInput = z.input<typeof BenchRequest>;

export const GuardVerdict = z.object({
  id: z.string(), ok: z.boolean(), message: z.string(),
  /** A refusal's way forward: who may change the limit, the exact setting or flag, what it risks (bench/way-forward.ts). */
  wayForward: z.string().optional(),
});
export type GuardVerdict = z.infer<typeof GuardVerdict>;

export const ProgressEvent = z.object({
  phase: z.enum(['guards', 'prepare', 'layout', 'run', 'cleanup', 'done']),
  /** 0..100 over the whole benchmark. */
  pct: z.number(),
  iops: z.number().nullable(),
  latencyUs: z.number().nullable(),
  elapsedS: z.number(),
});
export type ProgressEvent = z.infer<typeof ProgressEvent>;

export const LoadSample = z.object({ tS: z.number(), load1: z.number() });
export const PoolLatencySample = z.object({
  tS: z.number(),
  readWaitNs: z.number().nullable(),
  writeWaitNs: z.number().nullable(),
  diskReadWaitNs: z.number().nullable(),
  diskWriteWaitNs: z.number().nullable(),
});
export type PoolLatencySample = z.infer<typeof PoolLatencySample>;

export const BenchmarkDetail = z.object({
  request: BenchRequest,
  commands: z.array(z.array(z.string())),
  guards: z.array(GuardVerdict),
  fio: FioResult.nullable(),
  /** fsync latency when the fio-fsync fallback was used (jobs[].sync.lat_ns). */
  syncLatency: LatencyPercentiles.nullable(),
  layoutSeconds: z.number().nullable(),
  load: z.array(LoadSample),
  poolLatency: z.object({ available: z.boolean(), note: z.string().nullable(), samples: z.array(PoolLatencySample) }),
  cpu: z.object({ usrPct: z.number().nullable(), sysPct: z.number().nullable() }),
  datasetProperties: z.record(z.string(), z.string()),
  cleanup: z.array(z.string()),
  /** Read profiles: which method kept reads off the cache (read-honesty.ts); null for write-only profiles and older runs. */
  readHonesty: z.object({
    method: z.enum(['primarycache-metadata', 'o-direct', 'size-above-cache', 'none']),
    fileBytes: z.number(),
    note: z.string(),
  }).nullable().default(null),
  /** load1 and CPU iowait once a second while fio ran (kpi.ts). */
  system: z.array(z.object({ tS: z.number(), load1: z.number(), iowaitPct: z.number().nullable() })).default([]),
});
export type BenchmarkDetail = z.infer<typeof BenchmarkDetail>;

export const BenchmarkRun = z.object({
  summary: BenchmarkSummary,
  detail: BenchmarkDetail,
  /** Why a run was refused, aborted or failed, in one sentence; null when it completed. */
  message: z.string().nullable(),
});
export type BenchmarkRun = z.infer<typeof BenchmarkRun>;

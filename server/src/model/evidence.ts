/**
 * Shapes of the measured evidence (the jobs and the API share them): workload observations (issue 10), size histograms
 * (issue 8) and the layout/add-vdev planner (issue 11). The artifacts themselves are the model's
 * (WorkloadFingerprint, SizeHistogram); these add the job records around them.
 *
 * The planner answers are the planner's own JSON (`server/src/planner/*`, TypeScript interfaces):
 * the key fields are named here and nested detail is passed through as the planner built it.
 */
import { z } from 'zod';
import { SizeHistogram, WorkloadFingerprint } from '../model/workload.ts';
import { VdevNode } from '../model/inventory.ts';
import { NativeWay } from '../model/finding.ts';
import { PlanInput } from '../planner/layouts.ts';

const IsoTime = z.string();
const IntId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const PoolName = z.string().regex(/^[A-Za-z][A-Za-z0-9_.:-]{0,255}$/, 'a pool name');

// ---------------------------------------------------------------------------------------------
// Settings (one group of the API's Settings)

export const ObservationSettings = z.object({
  /** Observe every local host this often; 0 = no scheduled observation (the default). */
  scheduleIntervalMinutes: z.number().int().min(0).max(30 * 24 * 60),
  /** Window of a scheduled observation. */
  durationSeconds: z.number().int().min(5).max(24 * 3600),
  /** Sample interval inside the window. */
  intervalSeconds: z.number().int().min(1).max(3600),
  /** An assessment uses the newest fingerprint only when it is younger than this. */
  maxAgeDays: z.number().int().min(1).max(365),
});
export type ObservationSettings = z.infer<typeof ObservationSettings>;

export const DEFAULT_OBSERVATION_SETTINGS: ObservationSettings = {
  scheduleIntervalMinutes: 0,
  durationSeconds: 600,
  intervalSeconds: 10,
  maxAgeDays: 7,
};

// ---------------------------------------------------------------------------------------------
// Background jobs (observations and size walks share status and progress shapes)

export const EvidenceJobStatus = z.enum(['running', 'completed', 'failed', 'canceled']);
export type EvidenceJobStatus = z.infer<typeof EvidenceJobStatus>;

// ---------------------------------------------------------------------------------------------
// Workload observations

export const ObservationRequest = z
  .object({
    /** Window length in seconds (counters are read at its start and end). */
    durationS: z.number().int().min(1).max(24 * 3600).default(600),
    /** Sample interval for the time series, seconds (≤ durationS). */
    intervalS: z.number().int().min(1).max(3600).default(10),
    /** Pools to observe (default: all). */
    pools: z.array(PoolName).max(64).optional(),
  })
  .strict()
  .refine((r) => r.intervalS <= r.durationS, { message: 'intervalS must not exceed durationS', path: ['intervalS'] });
export type ObservationRequest = z.infer<typeof ObservationRequest>;

/** Time-based: the window is a fixed duration, so elapsed ÷ duration is the honest percentage. */
export const ObservationProgress = z.object({
  phase: z.enum(['start', 'window', 'end', 'done']),
  pct: z.number().min(0).max(100),
  elapsedS: z.number(),
});
export type ObservationProgress = z.infer<typeof ObservationProgress>;

export const ObservationRecord = z.object({
  id: z.number().int(),
  hostId: z.string(),
  trigger: z.enum(['manual', 'scheduled']),
  status: EvidenceJobStatus,
  startedAt: IsoTime,
  endedAt: IsoTime.nullable(),
  durationS: z.number().int(),
  intervalS: z.number().int(),
  pools: z.array(z.string()).nullable(),
  /** Live progress while running (null once finished or after a restart). */
  progress: ObservationProgress.nullable(),
  fingerprint: WorkloadFingerprint.nullable(),
  /** The human reading of the fingerprint ("62 % of writes are synchronous…"). */
  summary: z.array(z.string()),
  /** Every command run, for the evidence trail. */
  commands: z.array(z.object({ command: z.string(), exitCode: z.number().int().nullable(), ms: z.number() })),
  message: z.string().nullable(),
});
export type ObservationRecord = z.infer<typeof ObservationRecord>;

export const ObservationParams = z.object({ observationId: IntId });

// ---------------------------------------------------------------------------------------------
// Size histograms

const DatasetName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*(\/[A-Za-z0-9_.: -]+)*$/, 'a dataset name');
const AbsolutePath = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^\//, 'an absolute path')
  .refine((p) => !p.split('/').includes('..'), 'no ".." segments');
const PowerOfTwo = z.number().int().min(512).max(16 * 1024 * 1024).refine((n) => (n & (n - 1)) === 0, 'a power of two');

export const SizesRequest = z
  .object({
    /** A directory on this machine, or… */
    path: AbsolutePath.optional(),
    /** …a dataset (resolved to its mountpoint with `zfs get`). */
    dataset: DatasetName.optional(),
    /** Default: the dataset's recordsize, else 128 KiB. */
    recordsize: PowerOfTwo.optional(),
    /** Default: the pool's data-vdev ashift from the newest inventory, else 12. */
    ashift: z.number().int().min(9).max(16).optional(),
    /** nice 19 + idle I/O class (a separate process, so the server itself keeps its priority). */
    lowPriority: z.boolean().default(false),
  })
  .strict()
  .refine((r) => (r.path === undefined) !== (r.dataset === undefined), { message: 'give exactly one of path or dataset', path: ['path'] });
export type SizesRequest = z.infer<typeof SizesRequest>;

export const SizesProgress = z.object({
  files: z.number().int().nullable(),
  dirs: z.number().int().nullable(),
  bytes: z.number().nullable(),
  elapsedS: z.number(),
});
export type SizesProgress = z.infer<typeof SizesProgress>;

/** A size table pasted into the Sizing page (sizes --from-histogram): the find|awk table, CSV, or zdb -bbb text. */
export const SizesFromTableRequest = z.object({
  text: z.string().min(1).max(60_000),
  recordsize: z.number().int().min(512).max(16 * 1024 * 1024).refine((n) => (n & (n - 1)) === 0, 'a power of two').optional(),
  ashift: z.number().int().min(9).max(16).optional(),
  /** OpenZFS version that wrote zdb output (its binning changed in 2.4). */
  zfsVersion: z.string().regex(/^\d{1,3}\.\d{1,3}(\.\d{1,3})?$/).optional(),
}).strict();
export type SizesFromTableRequest = z.infer<typeof SizesFromTableRequest>;

export const SizesFromTableView = z.object({
  histogram: SizeHistogram,
  source: z.object({ format: z.enum(['zdb', 'find-awk', 'two-column', 'csv']), skippedLines: z.array(z.object({ line: z.number().nullable(), message: z.string() })) }),
});
export type SizesFromTableView = z.infer<typeof SizesFromTableView>;

export const SizesRecord = z.object({
  id: z.number().int(),
  hostId: z.string(),
  status: EvidenceJobStatus,
  target: z.string(),
  path: z.string().nullable(),
  dataset: z.string().nullable(),
  pool: z.string().nullable(),
  recordsize: z.number().int().nullable(),
  ashift: z.number().int().nullable(),
  lowPriority: z.boolean(),
  startedAt: IsoTime,
  endedAt: IsoTime.nullable(),
  progress: SizesProgress.nullable(),
  histogram: SizeHistogram.nullable(),
  /** Walk statistics (symlinks, hard links, mount points skipped, errors). */
  stats: z.record(z.string(), z.unknown()).nullable(),
  message: z.string().nullable(),
});
export type SizesRecord = z.infer<typeof SizesRecord>;

export const SizesParams = z.object({ sizesId: IntId });

// ---------------------------------------------------------------------------------------------
// Planner (printed plans, never executed)

export const LayoutPlanRequest = PlanInput;

export const LayoutPlanView = z.looseObject({
  input: z.looseObject({ disks: z.number(), diskBytes: z.number(), media: z.string(), workload: z.string(), ashift: z.number() }),
  blockSize: z.number(),
  candidates: z.array(z.looseObject({
    id: z.string(), label: z.string(), rank: z.number(), score: z.number(), recommended: z.boolean(),
    disksUsed: z.number(), spareDisks: z.number(), fillGuidanceBytes: z.number(),
    space: z.looseObject({ usableBytes: z.number() }),
    reasons: z.array(z.string()), warnings: z.array(z.string()),
    /** What the rule catalog says about the layout once built (one entry per rule, vdevs counted). */
    findings: z.array(z.looseObject({ ruleId: z.string(), severity: z.string(), title: z.string(), count: z.number() })),
    rankNote: z.string().nullable(),
  })),
  assumptions: z.array(z.string()),
});
export type LayoutPlanView = z.infer<typeof LayoutPlanView>;

const DevicePath = z.string().min(1).max(512).regex(/^[A-Za-z0-9/][A-Za-z0-9/._:+@-]*$/, 'a device path such as /dev/disk/by-id/nvme-…');

export const AddVdevRequest = z
  .object({
    kind: z.enum(['slog', 'special']),
    /** Default: the only pool of the host. */
    pool: PoolName.optional(),
    devices: z.array(DevicePath).min(1).max(16),
    /** special: the threshold to set on the datasets (bytes). */
    specialSmallBlocks: z.number().int().min(0).max(16 * 1024 * 1024).optional(),
    /** special: datasets to receive special_small_blocks (default: the pool's file systems). */
    datasets: z.array(DatasetName).max(1000).optional(),
    /** Partition each device for several roles first (sgdisk). */
    partitions: z.array(z.object({ role: z.enum(['slog', 'special', 'l2arc']), sizeBytes: z.number().int().positive() }).strict()).max(4).optional(),
    /** special: print the plan although the vdev survives fewer failures than the data vdevs (adds -f, labelled loudly). */
    acceptLowerRedundancy: z.boolean().optional(),
    /** Allow a partition whose sibling partition already serves a pool. */
    sharedDisk: z.boolean().optional(),
  })
  .strict();
export type AddVdevRequest = z.infer<typeof AddVdevRequest>;

export const AddVdevPlanView = z.looseObject({
  pool: z.string(),
  kind: z.enum(['slog', 'special']),
  steps: z.array(z.object({ argv: z.array(z.string()), display: z.string(), reversible: z.string(), why: z.string() })),
  /** matched: survives as many failures as the data vdevs; acceptable + reason: whether the plan is sound anyway; summary: the sentence shown. */
  redundancy: z.looseObject({ matched: z.boolean(), acceptable: z.boolean(), reason: z.string(), summary: z.string() }),
  warnings: z.array(z.string()),
  /** TrueNAS: UI steps and API requests first, the steps above as the shell fallback; Proxmox VE: the shell is its way. */
  native: NativeWay.nullable().optional(),
  added: VdevNode,
  /** `zpool status` of the pool after the plan, from our own model (never `zpool add -n`). */
  preview: z.string(),
  previewVdevs: z.array(VdevNode),
  /** The inventory snapshot the plan was made from. */
  snapshotId: z.number().int(),
  capturedAt: IsoTime,
});
export type AddVdevPlanView = z.infer<typeof AddVdevPlanView>;

/**
 * Request/response shapes of the HTTP API that are not already in `server/src/model/*`.
 * The model schemas (Inventory, Finding, Assessment, BenchmarkSummary…) are reused as they are;
 * these add what only the API has: hosts as records, acknowledgements, settings, run history.
 *
 * Secrets are write-only: they appear in the *create/update* bodies and in no response schema.
 */
import { z } from 'zod';
import { FORUM_TARGETS } from '../report/forum-targets.ts';
import { Assessment, Finding, Severity } from '../model/finding.ts';
import { Dataset, Inventory } from '../model/inventory.ts';
import { BenchmarkSummary } from '../model/workload.ts';
import { Profile } from '../bench/profiles.ts';
import { BenchRequest as RunnerBenchRequest, GuardVerdict as RunnerGuardVerdict } from '../bench/types.ts';
import { RunLatency } from '../bench/run-latency-schema.ts';
import { Counts } from '../model/jobs.ts';
import { DEFAULT_OBSERVATION_SETTINGS, ObservationSettings } from './evidence-schemas.ts';
import { parsePveTokenId, PVE_TOKEN_ID_HINT } from '../remote/pve-ids.ts';

/** `USER@REALM!TOKENNAME` as Proxmox VE's own parser reads it (remote/pve-ids.ts). */
const PveTokenId = z.string().refine((s) => parsePveTokenId(s) !== null, PVE_TOKEN_ID_HINT);

// ---------------------------------------------------------------------------------------------
// Errors

export const ErrorCode = z.enum([
  'bad-request', 'unauthorized', 'forbidden', 'not-found', 'conflict', 'payload-too-large',
  'unsupported-media-type', 'rate-limited', 'unavailable', 'remote-error', 'internal', 'misdirected-request',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ApiError = z.object({
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    /** Validation problems, one per field (400 only). */
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    /** How to go on, also the end of `message`: who may change what, the exact setting or flag, and what it risks. */
    wayForward: z.string().optional(),
  }),
});
export type ApiError = z.infer<typeof ApiError>;

// ---------------------------------------------------------------------------------------------
// Common pieces

export const Id = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes');
export const IntId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const IsoTime = z.string();
export { Counts } from '../model/jobs.ts';

/** A host name or IP address, no scheme, no path: it is put into URLs we build. */
export const HostAddress = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|[0-9A-Fa-f:.]+)$/, 'a host name or IP address, without scheme or path');
export const Port = z.number().int().min(1).max(65535);

/** SHA-256 of the server certificate (DER), as hex pairs with or without colons. */
export const CertFingerprint = z
  .string()
  .transform((s) => s.trim().replace(/:/g, '').toUpperCase())
  .pipe(z.string().regex(/^[0-9A-F]{64}$/, 'a SHA-256 fingerprint: 64 hex digits (colons allowed)'))
  .transform((hex) => hex.match(/../g)!.join(':'));

const Name = z.string().trim().min(1).max(100);
/** TrueNAS API keys are `ID-64chars`; we only bound them. */
const Secret = z.string().min(1).max(512).regex(/^[\x21-\x7e]+$/, 'printable characters without spaces');

// ---------------------------------------------------------------------------------------------
// Hosts

export const HostKind = z.enum(['local', 'demo', 'truenas', 'proxmox']);
export type HostKind = z.infer<typeof HostKind>;

export const AssessmentSummary = z.object({
  id: z.number().int(),
  hostId: z.string(),
  generatedAt: IsoTime,
  trigger: z.enum(['manual', 'scheduled', 'startup']),
  counts: Counts,
  demo: z.boolean(),
});
export type AssessmentSummary = z.infer<typeof AssessmentSummary>;

export const HostView = z.object({
  id: z.string(),
  kind: HostKind,
  name: z.string(),
  address: z.string().nullable(),
  port: z.number().int().nullable(),
  /** Proxmox node name. */
  node: z.string().nullable(),
  verifyTls: z.boolean(),
  pinnedFingerprint: z.string().nullable(),
  /** Whether an API key/token is stored. The secret itself is never returned. */
  hasSecret: z.boolean(),
  createdAt: IsoTime,
  updatedAt: IsoTime,
  lastAssessment: AssessmentSummary.nullable(),
});
export type HostView = z.infer<typeof HostView>;

const TlsOptions = {
  /** Verify the certificate chain (default). Turning it off requires a pinned fingerprint. */
  verifyTls: z.boolean().default(true),
  /** Trust exactly this self-signed certificate (SHA-256). */
  pinnedFingerprint: CertFingerprint.nullable().optional(),
};

export const HostCreate = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local'), name: Name }).strict(),
  z.object({ kind: z.literal('demo'), name: Name }).strict(),
  z
    .object({
      kind: z.literal('truenas'),
      name: Name,
      address: HostAddress,
      port: Port.optional(),
      /** The user owning the API key (a read-only admin); `auth.login_ex` needs it. */
      username: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/, 'a TrueNAS user name'),
      /** API key of that user (write-only: never returned). */
      apiKey: Secret,
      ...TlsOptions,
    })
    .strict(),
  z
    .object({
      kind: z.literal('proxmox'),
      name: Name,
      address: HostAddress,
      port: Port.optional(),
      node: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/, 'a Proxmox node name'),
      /** `USER@REALM!TOKENID` (PVEAuditor role is enough). */
      tokenId: PveTokenId,
      /** The token's secret UUID (write-only: never returned). */
      tokenSecret: Secret,
      ...TlsOptions,
    })
    .strict(),
]);
export type HostCreate = z.infer<typeof HostCreate>;

export const HostUpdate = z
  .object({
    name: Name,
    address: HostAddress,
    port: Port.nullable(),
    node: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/),
    verifyTls: z.boolean(),
    pinnedFingerprint: CertFingerprint.nullable(),
    username: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/),
    apiKey: Secret,
    tokenId: PveTokenId,
    tokenSecret: Secret,
  })
  .partial()
  .strict();
export type HostUpdate = z.infer<typeof HostUpdate>;

export const HostParams = z.object({ hostId: Id });

export const ConnectionTest = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** SHA-256 of the certificate the host presented, to pin a self-signed one. */
  presentedFingerprint: z.string().nullable(),
});
export type ConnectionTest = z.infer<typeof ConnectionTest>;

// ---------------------------------------------------------------------------------------------
// Inventory, assessments, findings

export const InventoryRecord = z.object({
  snapshotId: z.number().int(),
  hostId: z.string(),
  capturedAt: IsoTime,
  inventory: Inventory,
});
export type InventoryRecord = z.infer<typeof InventoryRecord>;

/** A pool's name as zpool(8) allows it: a letter, then letters, digits, `_-:.` and spaces. */
const PoolName = z.string().regex(/^[A-Za-z][A-Za-z0-9_.: -]{0,255}$/, 'a pool name');
/** An opaque page position this server handed out in `nextCursor`. */
const Cursor = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a cursor from nextCursor');
export const PAGE_LIMIT_MAX = 1000;
const PageLimit = z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX);

export const InventoryQuery = z.object({
  /** Only this pool and its datasets (drives, ARC and ZIL stay whole). */
  pool: PoolName.optional(),
});

export const DatasetsQuery = z.object({
  pool: PoolName.optional(),
  limit: PageLimit.default(500),
  cursor: Cursor.optional(),
});

/** One page of a snapshot's datasets (and zvols), in `zfs get` order. */
export const DatasetsPage = z.object({
  snapshotId: z.number().int(),
  hostId: z.string(),
  capturedAt: IsoTime,
  /** Datasets matching the query in the whole snapshot. */
  total: z.number().int().nonnegative(),
  datasets: z.array(Dataset),
  /** Pass as `cursor` for the next page; null on the last. Pages always come from the same snapshot. */
  nextCursor: Cursor.nullable(),
});
export type DatasetsPage = z.infer<typeof DatasetsPage>;

/**
 * The Optane verdict as the API passes it through from `server/src/optane/verdict.ts`
 * (key fields named here, nested detail kept as sent).
 */
export const OptaneVerdictView = z.looseObject({
  verdict: z.enum(['yes', 'no', 'depends', 'replace']),
  headline: z.string(),
  reasons: z.array(z.unknown()),
  evidence: z.array(z.unknown()),
  expected: z.unknown(),
  candidates: z.array(z.unknown()),
  purchase: z.array(z.unknown()),
  layout: z.unknown(),
  unknowns: z.array(z.unknown()),
});
export type OptaneVerdictView = z.infer<typeof OptaneVerdictView>;

export const AssessmentRecord = AssessmentSummary.extend({
  snapshotId: z.number().int().nullable(),
  ruleCatalogVersion: z.string(),
  assessment: Assessment,
  optane: OptaneVerdictView.nullable(),
});
export type AssessmentRecord = z.infer<typeof AssessmentRecord>;

export const AssessmentParams = z.object({ assessmentId: IntId });

export const AckState = z.enum(['acknowledged', 'dismissed']);
export const Ack = z.object({ state: AckState, note: z.string().nullable(), createdAt: IsoTime });
export type Ack = z.infer<typeof Ack>;
export const AckBody = z.object({ state: AckState, note: z.string().max(1000).optional() }).strict();

export const FindingView = Finding.extend({
  ack: Ack.nullable(),
  /** When this exact fingerprint was first seen on this host. */
  firstSeenAt: IsoTime.nullable(),
});
export type FindingView = z.infer<typeof FindingView>;

export const FindingsQuery = z.object({
  severity: Severity.optional(),
  pool: z.string().max(256).optional(),
  /** open = without acknowledgement or dismissal (default: all, each with its `ack`). */
  status: z.enum(['all', 'open', 'acknowledged', 'dismissed']).default('all'),
  /** At most this many findings (default: all). */
  limit: PageLimit.optional(),
  cursor: Cursor.optional(),
});

export const FindingsList = z.object({
  assessmentId: z.number().int().nullable(),
  generatedAt: IsoTime.nullable(),
  demo: z.boolean(),
  findings: z.array(FindingView),
  /** Findings matching the query in the whole assessment (more than `findings` when paged). */
  total: z.number().int().nonnegative(),
  /** Pass as `cursor` for the next page; null on the last. Pages always come from the same assessment. */
  nextCursor: Cursor.nullable(),
});
export type FindingsList = z.infer<typeof FindingsList>;

export const FindingParams = HostParams.extend({ fingerprint: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/) });

// ---------------------------------------------------------------------------------------------
// Scheduled re-assessment history

export const RunRecord = z.object({
  id: z.number().int(),
  hostId: z.string(),
  startedAt: IsoTime,
  finishedAt: IsoTime.nullable(),
  status: z.enum(['ok', 'failed']),
  assessmentId: z.number().int().nullable(),
  newFingerprints: z.array(z.string()),
  resolvedFingerprints: z.array(z.string()),
  error: z.string().nullable(),
});
export type RunRecord = z.infer<typeof RunRecord>;

// ---------------------------------------------------------------------------------------------
// Settings

export const Settings = z.object({
  /** Re-assess every host this often; 0 turns the schedule off. */
  assessmentIntervalMinutes: z.number().int().min(0).max(7 * 24 * 60),
  retention: z.object({
    snapshotsPerHost: z.number().int().min(1).max(10_000),
    assessmentsPerHost: z.number().int().min(1).max(100_000),
    scheduledRunsPerHost: z.number().int().min(1).max(100_000),
    /** Generated reports kept per host (their bodies are stored compressed). */
    reportsPerHost: z.number().int().min(1).max(10_000),
  }),
  benchmark: z.object({
    /** Hard wall-clock cap for any run, seconds (runtime and wall cap of a request must fit). */
    maxRuntimeSeconds: z.number().int().min(5).max(3600),
    /** Highest 1-minute load a benchmark may start or go on at; null = max(4, 2 × CPUs). Requests may only lower it. */
    maxLoad1: z.number().positive().max(1000).nullable(),
    /** Highest pool write wait (ms) before a benchmark is aborted. Requests may only lower it. */
    maxPoolWriteWaitMs: z.number().positive().max(60_000),
  }),
  /** Scheduled workload observation and how old a fingerprint an assessment still uses. */
  observation: ObservationSettings,
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  assessmentIntervalMinutes: 0,
  retention: { snapshotsPerHost: 50, assessmentsPerHost: 200, scheduledRunsPerHost: 500, reportsPerHost: 30 },
  benchmark: { maxRuntimeSeconds: 600, maxLoad1: null, maxPoolWriteWaitMs: 2000 },
  observation: DEFAULT_OBSERVATION_SETTINGS,
};

export const SettingsPatch = z
  .object({
    assessmentIntervalMinutes: Settings.shape.assessmentIntervalMinutes,
    retention: Settings.shape.retention.partial().strict(),
    benchmark: Settings.shape.benchmark.partial().strict(),
    observation: Settings.shape.observation.partial().strict(),
  })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

// ---------------------------------------------------------------------------------------------
// Benchmarks (the runner is `server/src/bench/run.ts`; these are its HTTP shapes)

export { BenchRequest, BenchProgress, BenchRunStatus, BenchRunView } from '../model/jobs.ts';
/**
 * A benchmark request as the HTTP body: the runner's schema with every limit bounded and none
 * defaulted (bench-policy.ts checks them against the server's policy and fills them in).
 */
export const BenchRequestBody = RunnerBenchRequest.extend({
  wallCapS: z.number().positive().max(2 * 3600).optional(),
  maxLoad1: z.number().nonnegative().max(1000).optional(),
  maxPoolWriteWaitMs: z.number().positive().max(60_000).optional(),
});
export type BenchRequestBody = z.infer<typeof BenchRequestBody>;

/**
 * "Measure this device" (the blank-device test of an unused candidate): which drive of the newest
 * inventory (its id, /dev path or by-id path) and what the user typed to confirm it — its serial
 * (a device without one: its WWN, else NAME:BYTES), checked by the runner's device-serial guard.
 */
export const DeviceProbeRequest = z.object({
  drive: z.string().min(1).max(512),
  confirmSerial: z.string().min(1).max(256),
}).strict();
export type DeviceProbeRequest = z.infer<typeof DeviceProbeRequest>;

export const GuardVerdict = RunnerGuardVerdict;
export const DryRunView = z.object({
  profile: Profile,
  syncMode: z.string(),
  /** argv arrays, in order; `<id>` stands for the run id chosen at start. */
  commands: z.array(z.array(z.string())),
  guards: z.array(GuardVerdict),
  wouldRun: z.boolean(),
  /** What a person needs to read the commands (the temporary dataset's quota in words). */
  notes: z.array(z.string()).default([]),
});
export type DryRunView = z.infer<typeof DryRunView>;


export const BenchRunParams = z.object({ runId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export const BenchHistoryItem = BenchmarkSummary;
export const BenchHistoryQuery = z.object({ pool: z.string().max(256).optional(), profile: z.string().max(64).optional() });
export const BeforeAfterView = z.object({
  pool: z.string(),
  profile: z.string(),
  /** One group per pool topology, oldest first; each with its runs, newest first. */
  groups: z.array(z.object({ topologyFingerprint: z.string().nullable(), firstAt: IsoTime, lastAt: IsoTime, runs: z.array(BenchmarkSummary) })),
  /** Newest run of the previous topology and of the current one. */
  before: BenchmarkSummary.nullable(),
  after: BenchmarkSummary.nullable(),
  /** Both runs' latency as bench/sync-latency.ts reads it: for a sync profile the time until a write was durable. */
  latency: z.object({ label: z.string().nullable(), before: RunLatency.nullable(), after: RunLatency.nullable() }),
  ratios: z.object({ writeIops: z.number().nullable(), readIops: z.number().nullable(), latencyP99: z.number().nullable() }).nullable(),
});
export type BeforeAfterView = z.infer<typeof BeforeAfterView>;

// ---------------------------------------------------------------------------------------------
// Reports

export const ReportFormat = z.enum(['md', 'html', 'json', 'pdf']);
export type ReportFormat = z.infer<typeof ReportFormat>;
const BoolQuery = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
export const ReportQuery = z.object({
  host: Id.optional(),
  redact: BoolQuery.default(false),
  redactNames: BoolQuery.default(false),
  /** A post for a forum (report/forum.ts), from the Markdown report: only with format md. */
  for: z.enum(FORUM_TARGETS, { error: () => `must be one of ${FORUM_TARGETS.join(', ')} (the place the post is for)` }).optional(),
  /** With `for`: at most this many clickable links (the rest written as code); absent: the place's default. */
  links: z.string().regex(/^\d{1,4}$/, { error: 'must be a whole number of links, 0 to 1000' }).transform(Number)
    .pipe(z.number().int().max(1000, { error: 'must be a whole number of links, 0 to 1000' })).optional(),
  /** With `for`: no addresses at all (sources named, not listed). */
  noLinks: BoolQuery.default(false),
});

/** A report the server generated and kept (body stored compressed; `retention.reportsPerHost`). */
export const StoredReportView = z.object({
  id: z.number().int(),
  hostId: z.string(),
  /** The assessment the report was generated from. */
  assessmentId: z.number().int().nullable(),
  format: ReportFormat,
  redacted: z.boolean(),
  contentType: z.string(),
  fileName: z.string(),
  generatedAt: z.string(),
  /** Size of the body as served (uncompressed), bytes. */
  sizeBytes: z.number().int().nonnegative(),
  /** SHA-256 of the body as served, lower-case hex. */
  sha256: z.string(),
});
export type StoredReportView = z.infer<typeof StoredReportView>;
export const StoredReportParams = HostParams.extend({ reportId: IntId });

// ---------------------------------------------------------------------------------------------
// Service

export const Health = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number(),
});

export const AppInfo = z.object({
  version: z.string(),
  basePath: z.string(),
  authRequired: z.boolean(),
  /** True when this machine has no ZFS and the bundled demo snapshot is shown. */
  demo: z.boolean(),
  /** Container mode: benchmarks run only in this directory (path targets); null otherwise. */
  benchDir: z.string().nullable().optional(),
  features: z.object({ assess: z.boolean(), bench: z.boolean(), reports: z.boolean(), optane: z.boolean() }),
});
export type AppInfo = z.infer<typeof AppInfo>;

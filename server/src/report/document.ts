/**
 * The report document: everything a recommendations report says, built once and rendered to
 * JSON, Markdown, HTML and PDF. The JSON format *is* this document, so its schema is public
 * (`report-schema.json`, `GET /api/report-schema.json`) and versioned by `reportSchemaVersion`:
 * bump it on any change a consumer could notice (removed/renamed fields, changed meaning).
 */
import { z } from 'zod';
import { Finding, RuleCategory, RuleStatus, Severity } from '../model/finding.ts';
import { Gap, VdevNode } from '../model/inventory.ts';
import { BenchmarkSummary } from '../model/workload.ts';
import { RunLatency } from '../bench/run-latency-schema.ts';
import { OptaneVerdict } from '../optane/verdict.ts';
import { StoredPair } from '../optane/outcome.ts';

export const REPORT_SCHEMA_VERSION = 1;

export const ReportHost = z.object({
  hostname: z.string().nullable(),
  platform: z.string(),
  distribution: z.string(),
  distributionVersion: z.string().nullable(),
  kernel: z.string().nullable(),
  zfsVersion: z.string().nullable(),
  openzfs: z.string().nullable(),
  zfsFlavour: z.string(),
  memoryBytes: z.number().nullable(),
});
export type ReportHost = z.infer<typeof ReportHost>;

export const ReportPool = z.object({
  name: z.string(),
  state: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  allocBytes: z.number().nullable(),
  freeBytes: z.number().nullable(),
  capacityPct: z.number().nullable(),
  fragmentationPct: z.number().nullable(),
  dedupRatio: z.number().nullable(),
  ashift: z.number().nullable(),
  /** The `scan:` line as printed, null when the pool has none. */
  scan: z.string().nullable(),
  errors: z.string().nullable(),
  /** The vdev tree as indented text (one line per vdev, classes as in `zpool status`). */
  vdevTree: z.string(),
  vdevs: z.array(VdevNode),
  datasetCount: z.number().int(),
  findingCounts: z.record(Severity, z.number()),
});
export type ReportPool = z.infer<typeof ReportPool>;

export const ReportDrive = z.object({
  id: z.string(),
  path: z.string().nullable(),
  model: z.string().nullable(),
  serial: z.string().nullable(),
  wwn: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  media: z.string(),
  transport: z.string(),
  optane: z.string().nullable(),
  smartPassed: z.boolean().nullable(),
  wearPct: z.number().nullable(),
  temperatureC: z.number().nullable(),
});
export type ReportDrive = z.infer<typeof ReportDrive>;

export const ReportDataset = z.object({
  name: z.string(),
  type: z.string(),
  recordsize: z.number().nullable(),
  volblocksize: z.number().nullable(),
  sync: z.string().nullable(),
  compression: z.string().nullable(),
  usedBytes: z.number().nullable(),
  mountpoint: z.string().nullable(),
});
export type ReportDataset = z.infer<typeof ReportDataset>;

/** A rule that could not judge: what it needed and how to get it. */
export const ReportRuleNotRun = z.object({
  ruleId: z.string(),
  title: z.string(),
  category: RuleCategory,
  status: RuleStatus,
  message: z.string().nullable(),
  missing: z.array(z.object({ artifact: z.string(), howToGet: z.string() })),
});

export const BenchmarkMethodology = z.object({
  profileTitle: z.string(),
  question: z.string().nullable(),
  reference: z.string().nullable(),
  rw: z.string().nullable(),
  blockSize: z.number(),
  iodepth: z.number(),
  /** How fio made the outstanding I/Os, in words ("16 threads, one I/O each (psync)"). */
  concurrency: z.string(),
  /** Size of the test file in bytes, when the run recorded it. */
  sizeBytes: z.number().nullable(),
  /** Requested fio runtime in seconds, when recorded. */
  runtimeSeconds: z.number().nullable(),
  syncMode: BenchmarkSummary.shape.syncMode,
  /** What the sync mode means for the numbers, in a sentence. */
  syncModeText: z.string(),
  caveats: z.array(z.string()),
});

export const ReportBenchmark = z.object({
  summary: BenchmarkSummary,
  methodology: BenchmarkMethodology,
  /**
   * The run's latency as every surface shows it (bench/sync-latency.ts): for a sync-write run the
   * time until a write was durable — an fsync run's fsync, not `summary.writeLatency` (fio's
   * write() call, which returns before the data is durable) — with its label.
   */
  latency: RunLatency.nullable(),
});
export type ReportBenchmark = z.infer<typeof ReportBenchmark>;

/** One bar of a chart; `low`/`high` draw a range when known. */
export const ChartBar = z.object({
  label: z.string(),
  series: z.string(),
  value: z.number(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});
export const Chart = z.object({
  id: z.string(),
  title: z.string(),
  unit: z.string(),
  /** log when values span more than two orders of magnitude (HDD vs Optane sync IOPS). */
  scale: z.enum(['linear', 'log']),
  bars: z.array(ChartBar),
  /** One sentence saying what the chart shows, for text renderers and alt text. */
  description: z.string(),
});
export type Chart = z.infer<typeof Chart>;
export type ChartBar = z.infer<typeof ChartBar>;

export const RawOutputEntry = z.object({
  file: z.string(),
  command: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  text: z.string(),
  stderr: z.string(),
  error: z.string().nullable(),
  /** The text was cut to keep the report readable; `originalBytes` says how long it was. */
  truncated: z.boolean(),
  originalBytes: z.number().int(),
});
export type RawOutputEntry = z.infer<typeof RawOutputEntry>;

export const ReportDocument = z.object({
  reportSchemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  title: z.string(),
  generatedAt: z.string(),
  appVersion: z.string(),
  ruleCatalogVersion: z.string(),
  source: z.object({
    kind: z.string(),
    label: z.string(),
    capturedAt: z.string(),
    demo: z.boolean(),
  }),
  redaction: z.object({
    applied: z.boolean(),
    /** Pool and dataset names were replaced too. */
    names: z.boolean(),
    /** How many distinct values of each kind were replaced (SERIAL, WWN, HOST…). */
    replaced: z.record(z.string(), z.number()),
  }),
  host: ReportHost,
  pools: z.array(ReportPool),
  drives: z.array(ReportDrive),
  datasets: z.array(ReportDataset),
  optane: OptaneVerdict.nullable(),
  /** Closing the loop (optane/outcome.ts): each stored "forecast (range), measured" pair of this host, newest first. */
  outcomes: z.array(StoredPair).default([]),
  summary: z.object({ counts: z.record(Severity, z.number()), total: z.number().int() }),
  /** In the assessment's stable order: severity, pool, rule, subject. */
  findings: z.array(Finding),
  rulesNotRun: z.array(ReportRuleNotRun),
  benchmarks: z.array(ReportBenchmark),
  charts: z.array(Chart),
  gaps: z.array(Gap),
  rawOutputs: z.array(RawOutputEntry),
});
export type ReportDocument = z.infer<typeof ReportDocument>;

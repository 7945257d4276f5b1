/**
 * Builds the report document from what an assessment produced. Pure: the same input gives the
 * same document (generation time comes from the caller), which keeps snapshot tests exact.
 */
import { z } from 'zod';
import { SEVERITY_ORDER, type Assessment, type Severity } from '../model/finding.ts';
import type { Inventory } from '../model/inventory.ts';
import { OptaneVerdict } from '../optane/verdict.ts';
import { StoredPair } from '../optane/outcome.ts';
import { RawOutput, type RawSet } from '../snapshot/raw-set.ts';
import { reportBenchmarks } from './benchmarks.ts';
import { benchmarkChart, optaneChart } from './charts.ts';
import { suiteChart } from '../bench/report-suite.ts';
import type { SuiteView } from '../bench/suite-types.ts';
import { REPORT_SCHEMA_VERSION, type Chart, type RawOutputEntry, type ReportDocument } from './document.ts';
import { vdevTreeText } from './vdev-tree.ts';

export interface ReportInput {
  inventory: Inventory;
  /** The raw outputs the inventory was built from (a RawSet); anything else is reported as a gap. */
  raw: unknown;
  assessment: Assessment;
  /** The Optane verdict (OptaneVerdict); anything else leaves the verdict out with a gap. */
  optane: unknown;
  /** Stored "forecast (range), measured" pairs of this host (optane/outcome.ts StoredPair); anything else is left out. */
  outcomes?: readonly unknown[];
  /** BenchmarkSummary values or bench history rows. */
  benchmarks?: readonly unknown[];
  /** The latest benchmark suite (bench/report-suite.ts), shown as a chart beside the benchmarks. */
  suite?: SuiteView | null;
  appVersion: string;
  ruleCatalogVersion: string;
  generatedAt: string;
}

/** Outputs longer than this are cut in the appendix (a full `zfs get all` of a big host is megabytes). */
export const RAW_OUTPUT_LIMIT = 64 * 1024;

const RawSetSchema = z.record(z.string(), RawOutput);
const SEVERITIES = Object.keys(SEVERITY_ORDER) as Severity[];
const zeroCounts = (): Record<Severity, number> => ({ critical: 0, warning: 0, suggestion: 0, info: 0 });

function commandText(cmd: string[] | null): string | null {
  if (!cmd || cmd.length === 0) return null;
  if (cmd[0] === 'read' && cmd.length === 2) return `read ${cmd[1]}`;
  return cmd.join(' ');
}

function rawEntries(raw: RawSet): RawOutputEntry[] {
  return Object.keys(raw).sort().map((file) => {
    const r = raw[file]!;
    const bytes = Buffer.byteLength(r.text, 'utf8');
    const truncated = r.text.length > RAW_OUTPUT_LIMIT;
    return {
      file,
      command: commandText(r.command),
      exitCode: r.exitCode,
      text: truncated ? `${r.text.slice(0, RAW_OUTPUT_LIMIT)}\n` : r.text,
      stderr: r.stderr,
      error: r.error,
      truncated,
      originalBytes: bytes,
    };
  });
}

export function buildReportDocument(input: ReportInput): ReportDocument {
  const { inventory: inv, assessment } = input;
  const gaps = [...inv.gaps];

  const raw = input.raw === null || input.raw === undefined ? null : RawSetSchema.safeParse(input.raw);
  if (raw === null) gaps.push({ artifact: 'Report', source: 'raw outputs', message: 'the raw command outputs were not kept with this inventory: the appendix is empty', line: null, severity: 'info' });
  else if (!raw.success) gaps.push({ artifact: 'Report', source: 'raw outputs', message: 'the stored raw outputs are not in the expected form: the appendix is empty', line: null, severity: 'warning' });

  const optaneParsed = input.optane === null || input.optane === undefined ? null : OptaneVerdict.safeParse(input.optane);
  const optane = optaneParsed?.success ? optaneParsed.data : null;
  if (!optane) gaps.push({ artifact: 'Report', source: 'Optane verdict', message: 'no Optane verdict was computed for this assessment', line: null, severity: 'info' });

  const bench = reportBenchmarks(input.benchmarks);
  if (bench.rejected > 0) gaps.push({ artifact: 'Benchmarks', source: 'benchmark history', message: `${bench.rejected} benchmark record(s) were not readable and are left out`, line: null, severity: 'warning' });

  const counts = zeroCounts();
  for (const f of assessment.findings) counts[f.severity]++;
  const poolCounts = new Map(assessment.summary.pools.map((p) => [p.pool, p.counts]));

  const charts: Chart[] = [optaneChart(optane), benchmarkChart(bench.benchmarks), suiteChart(input.suite)].filter((c): c is Chart => c !== null);

  return {
    reportSchemaVersion: REPORT_SCHEMA_VERSION,
    title: `ZFS Advisor report: ${inv.source.label}`,
    generatedAt: input.generatedAt,
    appVersion: input.appVersion,
    ruleCatalogVersion: input.ruleCatalogVersion,
    source: { kind: inv.source.kind, label: inv.source.label, capturedAt: inv.source.capturedAt, demo: inv.source.demo },
    redaction: { applied: false, names: false, replaced: {} },
    host: {
      hostname: inv.host.hostname,
      platform: inv.host.platform,
      distribution: inv.host.distribution,
      distributionVersion: inv.host.distributionVersion,
      kernel: inv.host.kernel,
      zfsVersion: inv.host.zfs.kernel ?? inv.host.zfs.userland,
      openzfs: inv.host.zfs.openzfs,
      zfsFlavour: inv.host.zfs.flavour,
      memoryBytes: inv.host.memoryBytes,
    },
    pools: inv.pools.map((p) => ({
      name: p.name,
      state: p.state,
      sizeBytes: p.sizeBytes,
      allocBytes: p.allocBytes,
      freeBytes: p.freeBytes,
      capacityPct: p.capacityPct,
      fragmentationPct: p.fragmentationPct,
      dedupRatio: p.dedupRatio,
      ashift: p.ashift,
      scan: p.scan ? p.scan.raw : null,
      errors: p.errors,
      vdevTree: vdevTreeText(p.name, p.state, p.vdevs),
      vdevs: p.vdevs,
      datasetCount: inv.datasets.filter((d) => d.pool === p.name && d.type !== 'snapshot' && d.type !== 'bookmark').length,
      findingCounts: { ...zeroCounts(), ...(poolCounts.get(p.name) ?? {}) },
    })),
    drives: inv.drives.map((d) => ({
      id: d.id,
      path: d.byIdPath ?? d.devPath,
      model: d.model,
      serial: d.serial,
      wwn: d.wwn,
      sizeBytes: d.sizeBytes,
      media: d.media,
      transport: d.transport,
      optane: d.optane?.product ?? null,
      smartPassed: d.smartPassed,
      wearPct: d.wearPct,
      temperatureC: d.temperatureC,
    })),
    datasets: inv.datasets.filter((d) => d.type === 'filesystem' || d.type === 'volume').map((d) => ({
      name: d.name,
      type: d.type,
      recordsize: d.recordsize,
      volblocksize: d.volblocksize,
      sync: d.sync,
      compression: d.compression,
      usedBytes: d.usedBytes,
      mountpoint: d.mountpoint,
    })),
    optane,
    outcomes: (input.outcomes ?? []).flatMap((x) => { const p = StoredPair.safeParse(x); return p.success ? [p.data] : []; }),
    summary: { counts, total: assessment.findings.length },
    findings: [...assessment.findings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]),
    rulesNotRun: assessment.results
      .filter((r) => r.status === 'needs-artifact' || r.status === 'error')
      .map((r) => ({ ruleId: r.ruleId, title: r.title, category: r.category, status: r.status, message: r.message, missing: r.missing })),
    benchmarks: bench.benchmarks,
    charts,
    gaps,
    rawOutputs: raw?.success ? rawEntries(raw.data) : [],
  };
}

export { SEVERITIES };

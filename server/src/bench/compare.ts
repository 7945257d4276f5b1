/**
 * Comparing runs: one suite's runs side by side (one row a run), the pairs that differ in one
 * thing only — sync vs async at each block size (napp-it's page, 003), direct vs buffered and
 * dataset vs zvol (002) — each with a ratio, and two suites before/after a topology change.
 * Pure; CSV and JSON exports are made from the same rows.
 */
import type { BenchmarkSummary } from '../model/workload.ts';
import { cellLabel, sizeLabel } from './suites.ts';
import { runLatencyOf } from './sync-latency.ts';
import type { PairRow, SuiteResult, SuiteRow, SuiteRunResult, SuiteView } from './suite-types.ts';

const r1 = (x: number | null | undefined) => (x == null ? null : Math.round(x * 10) / 10);
const r2 = (x: number | null | undefined) => (x == null ? null : Math.round(x * 100) / 100);
const us = (ns: number | null | undefined) => (ns == null ? null : r1(ns / 1000));

/** The headline latency of a run in µs, with its words (sync-latency.ts: the durable one when the run wrote durably). */
export function headlineLatency(s: BenchmarkSummary): { of: string; p50Us: number | null; p99Us: number | null } | null {
  const l = runLatencyOf(s);
  return l ? { of: l.label, p50Us: us(l.p50Ns), p99Us: us(l.p99Ns) } : null;
}

/**
 * What fio itself did for durability (fio-args.ts): one of four, never the ZFS property's words —
 * "plain writes" under sync=always says fio asked for nothing; the dataset sync column says why
 * they were durable anyway (issue 27: two separate things).
 */
const FIO_SYNC: Record<BenchmarkSummary['syncMode'], string> = {
  property: 'plain writes',
  'fio-sync': 'O_SYNC',
  'fio-fsync': 'fsync per write',
  async: 'end_fsync only',
};

/** The `sync` property the run's writes met, as ZFS spells it: the temporary dataset's or zvol's; a directory keeps its dataset's own, unknown here. */
const datasetSyncOf = (r: SuiteRunResult): string =>
  r.targetKind === 'dataset' || r.targetKind === 'zvol' ? `sync=${r.result?.sync ?? r.sync}` : 'not set by the run (a directory: its dataset\'s own setting applies)';

export function rowOf(r: SuiteRunResult): SuiteRow {
  const s = r.result;
  const ok = s !== null && (s.status === 'completed' || s.writeIops + s.readIops > 0);
  const lat = ok && s ? headlineLatency(s) : null;
  return {
    label: r.label, profile: r.profile, targetKind: r.targetKind, bs: sizeLabel(r.bs), iodepth: r.iodepth, io: r.io, sync: r.sync,
    fioSync: s && s.writeIops + s.writeBytesPerSec > 0 ? FIO_SYNC[s.syncMode] : null,
    datasetSync: datasetSyncOf(r),
    status: s?.status ?? 'not run',
    iops: ok && s ? Math.round(s.writeIops + s.readIops) : null,
    mibPerSec: ok && s ? r1((s.writeBytesPerSec + s.readBytesPerSec) / 1048576) : null,
    latencyOf: lat?.of ?? null, p50Us: lat?.p50Us ?? null, p99Us: lat?.p99Us ?? null,
    wallS: r1(s?.wallSeconds), fioRuntimeS: r1(s?.fioRuntimeSeconds),
    wallRatio: s?.wallSeconds != null && s.fioRuntimeSeconds ? r2(s.wallSeconds / s.fioRuntimeSeconds) : null,
    load1Max: r2(s?.system?.load1Max), iowaitPct: r1(s?.system?.iowaitPctMean), arcHitPct: r1(s?.system?.arcHitPct),
    message: r.message,
  };
}

export function suiteTable(r: SuiteResult): SuiteRow[] {
  return r.runs.map(rowOf);
}

export type PairDimension = PairRow['dimension'];

const DIM_ORDER: Record<PairDimension, [string, string[]]> = {
  sync: ['always', ['standard', 'disabled']],
  io: ['direct', ['buffered']],
  target: ['dataset', ['zvol']],
};

function coord(row: SuiteRow, d: PairDimension): string {
  return d === 'sync' ? row.sync : d === 'io' ? row.io : row.targetKind;
}

function sharedOf(row: SuiteRow, d: PairDimension): string {
  const parts = [row.profile, row.bs, `QD${row.iodepth}`];
  if (d !== 'io') parts.push(row.io);
  if (d !== 'sync') parts.push(`sync=${row.sync}`);
  if (d !== 'target') parts.push(row.targetKind);
  return parts.join(' · ');
}

/** Every pair of runs that differ only in `d`, in run order. */
export function suitePairs(r: SuiteResult, d: PairDimension): PairRow[] {
  const rows = suiteTable(r);
  const [first, others] = DIM_ORDER[d];
  const out: PairRow[] = [];
  for (const a of rows.filter((x) => coord(x, d) === first)) {
    for (const b of rows.filter((x) => others.includes(coord(x, d)) && sharedOf(x, d) === sharedOf(a, d))) {
      out.push({
        dimension: d, shared: sharedOf(a, d),
        a: { label: a.label, value: coord(a, d), iops: a.iops, p99Us: a.p99Us },
        b: { label: b.label, value: coord(b, d), iops: b.iops, p99Us: b.p99Us },
        ratio: a.iops !== null && b.iops ? r2(a.iops / b.iops) : null,
      });
    }
  }
  return out;
}

export interface SuiteComparisonRow {
  label: string;
  before: { iops: number | null; p99Us: number | null };
  after: { iops: number | null; p99Us: number | null };
  /** after ÷ before. */
  iopsRatio: number | null;
  p99Ratio: number | null;
}

/** Two suites (before/after a topology change) matched cell by cell; cells only one of them ran are listed apart. */
export function compareSuites(before: SuiteResult, after: SuiteResult): { rows: SuiteComparisonRow[]; onlyBefore: string[]; onlyAfter: string[] } {
  const key = (x: SuiteRunResult) => cellLabel(x);
  const b = new Map(before.runs.map((x) => [key(x), rowOf(x)]));
  const a = new Map(after.runs.map((x) => [key(x), rowOf(x)]));
  const rows: SuiteComparisonRow[] = [];
  for (const [k, br] of b) {
    const ar = a.get(k);
    if (!ar) continue;
    rows.push({
      label: k, before: { iops: br.iops, p99Us: br.p99Us }, after: { iops: ar.iops, p99Us: ar.p99Us },
      iopsRatio: ar.iops !== null && br.iops ? r2(ar.iops / br.iops) : null,
      p99Ratio: ar.p99Us !== null && br.p99Us ? r2(ar.p99Us / br.p99Us) : null,
    });
  }
  return { rows, onlyBefore: [...b.keys()].filter((k) => !a.has(k)), onlyAfter: [...a.keys()].filter((k) => !b.has(k)) };
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  // Quote when needed; a leading = + - @ is neutralised so a spreadsheet never runs it as a formula.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const SUITE_CSV_COLUMNS: (keyof SuiteRow)[] = [
  'label', 'profile', 'targetKind', 'bs', 'iodepth', 'io', 'sync', 'fioSync', 'datasetSync', 'status', 'iops', 'mibPerSec', 'latencyOf', 'p50Us', 'p99Us',
  'wallS', 'fioRuntimeS', 'wallRatio', 'load1Max', 'iowaitPct', 'arcHitPct', 'message',
];

export function suiteCsv(r: SuiteResult): string {
  const lines = [SUITE_CSV_COLUMNS.join(',')];
  for (const row of suiteTable(r)) lines.push(SUITE_CSV_COLUMNS.map((c) => csvCell(row[c])).join(','));
  return `${lines.join('\n')}\n`;
}

/** The JSON export: the suite with its table and pairs, so a reader needs nothing else. */
export function suiteExport(r: SuiteResult): SuiteView {
  return {
    suite: r, table: suiteTable(r),
    pairs: { sync: suitePairs(r, 'sync'), io: suitePairs(r, 'io'), target: suitePairs(r, 'target') },
  };
}

export function comparisonCsv(c: ReturnType<typeof compareSuites>): string {
  const lines = ['label,before_iops,after_iops,iops_ratio,before_p99_us,after_p99_us,p99_ratio'];
  for (const r of c.rows) lines.push([r.label, r.before.iops, r.after.iops, r.iopsRatio, r.before.p99Us, r.after.p99Us, r.p99Ratio].map(csvCell).join(','));
  return `${lines.join('\n')}\n`;
}

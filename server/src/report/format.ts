/**
 * Small formatting helpers shared by the Markdown, HTML and PDF renderers, so the three say
 * the same thing in the same words.
 */
import type { Evidence, Finding, Severity } from '../model/finding.ts';
import { publicKbUrl } from '../kb/catalog.ts';
import { mergeCitations } from '../text/citations.ts';
import type { ReportBenchmark, ReportDocument } from './document.ts';
import { ABSENT, formatBytes, formatGain, formatCount, formatLatencyNs, formatPercent, formatValue, platformText, plural, severityCounts } from '../text/format.ts';

export const SEVERITY_LABEL: Record<Severity, string> = {
  critical: 'Critical', warning: 'Warning', suggestion: 'Suggestion', info: 'Info',
};
export const SEVERITIES: readonly Severity[] = ['critical', 'warning', 'suggestion', 'info'];

/** The one formatter's words, under the names the three renderers use. */
export const bytes = formatBytes;
export const pct = formatPercent;
export const orUnknown = (v: string | number | null | undefined): string => (v === null || v === undefined || v === '' ? ABSENT : typeof v === 'number' ? formatCount(v) : v);
export const int = formatCount;
export const latencyUs = formatLatencyNs;
export const gain = formatGain;

type Lat = { meanNs: number | null; p99Ns: number | null; p999Ns: number | null };
const meanP99P999 = (l: Lat | null | undefined): string => (l ? `${latencyUs(l.meanNs)} / ${latencyUs(l.p99Ns)} / ${latencyUs(l.p999Ns)}` : ABSENT);

/**
 * A benchmark's latency rows, the same in HTML and PDF: the run's own latency under its label
 * (bench/sync-latency.ts — for a sync-write run the time until a write was durable, an fsync run's
 * fsync and never fio's write() call), then the reads'.
 */
export function benchmarkLatencyRows(b: ReportBenchmark): [string, string][] {
  const l = b.latency;
  const rows: [string, string][] = [];
  if (l && l.kind !== 'read') rows.push([`${l.label} mean / p99 / p99.9`, l.missing ? `${ABSENT} (${l.missing})` : meanP99P999(l)]);
  rows.push(['read latency mean / p99 / p99.9', meanP99P999(b.summary.readLatency)]);
  return rows;
}

/** The Markdown table's one latency cell: "sync latency (fsync): 564 µs / 963 µs" (mean / p99). */
export function benchmarkLatencyCell(b: ReportBenchmark): string {
  const l = b.latency;
  if (!l) return ABSENT;
  return `${l.label}: ${l.missing ? `${ABSENT} (not recorded)` : `${latencyUs(l.meanNs)} / ${latencyUs(l.p99Ns)}`}`;
}
export { ABSENT, plural };

export function evidenceValue(e: Pick<Evidence, 'value'> & { unit?: string | null }): string {
  return formatValue(e.value, e.unit ?? null);
}

export function citationText(c: Finding['citations'][number]): string {
  return c.locator ? `${c.source}, ${c.locator}` : c.source;
}

/**
 * A finding's citations as a report shows them: each page once (text/citations.ts), knowledge-page
 * links turned into their public address (a report leaves the app).
 */
export function reportCitations(f: Finding): { text: string; url: string | null }[] {
  return mergeCitations(f.citations, publicKbUrl).map((e) => ({ text: e.locators.length ? `${e.source}, ${e.locators.join(', ')}` : e.source, url: e.url }));
}

/** Knowledge-page links inside finding text point at the public copy too. */
export const reportHref = (href: string): string => publicKbUrl(href);

export const REVERSIBLE_TEXT: Record<'yes' | 'no' | 'partly', string> = {
  yes: 'Reversible', no: 'Not reversible', partly: 'Partly reversible',
};

export const VERDICT_TEXT: Record<'yes' | 'no' | 'depends' | 'replace', string> = { yes: 'Yes', no: 'No', depends: 'It depends', replace: 'Replace the SLOG' };

/** Findings grouped by severity, most severe first; empty groups left out. */
export function findingsBySeverity(doc: ReportDocument): { severity: Severity; findings: Finding[] }[] {
  return SEVERITIES.map((severity) => ({ severity, findings: doc.findings.filter((f) => f.severity === severity) })).filter((g) => g.findings.length > 0);
}

export function subjectText(f: Finding): string {
  return `${f.subject.kind} ${f.subject.id}`;
}

export function countsLine(doc: ReportDocument): string {
  return severityCounts(doc.summary.counts);
}

export function hostLine(doc: ReportDocument): string {
  const h = doc.host;
  const dist = platformText(h);
  return `${dist}, ZFS ${orUnknown(h.zfsVersion)}${h.openzfs ? ` (OpenZFS ${h.openzfs})` : ''}, RAM ${bytes(h.memoryBytes)}`;
}

/** The longest run of backticks in `text` plus one, at least 3: a fence the text cannot close. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}


/**
 * A gap as a report line. A file the snapshot never captured (a demo, an older capture) is not
 * an error — nothing failed — so it is labelled as not captured instead of by its severity.
 */
export function gapLine(g: ReportDocument['gaps'][number]): string {
  const label = /^\S+ not captured\b/.test(g.message) ? 'not captured' : g.severity;
  return `${label}: ${g.artifact} from ${g.source}${g.line !== null ? ` line ${g.line}` : ''}: ${g.message}`;
}

/**
 * Small formatting helpers shared by the Markdown, HTML and PDF renderers, so the three say
 * the same thing in the same words.
 */
import type { Evidence, Finding, Severity } from '../model/finding.ts';
import { publicKbUrl } from '../kb/catalog.ts';
import type { ReportDocument } from './document.ts';

export const SEVERITY_LABEL: Record<Severity, string> = {
  critical: 'Critical', warning: 'Warning', suggestion: 'Suggestion', info: 'Info',
};
export const SEVERITIES: readonly Severity[] = ['critical', 'warning', 'suggestion', 'info'];

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return 'unknown';
  let v = n;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < UNITS.length - 1) { v /= 1024; i++; }
  return `${i === 0 ? v : v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${UNITS[i]}`;
}

export const pct = (n: number | null | undefined): string => (n === null || n === undefined ? 'unknown' : `${n} %`);
export const orUnknown = (v: string | number | null | undefined): string => (v === null || v === undefined || v === '' ? 'unknown' : String(v));
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');

export function evidenceValue(e: Evidence): string {
  if (e.value === null) return 'none';
  if (typeof e.value === 'boolean') return e.value ? 'yes' : 'no';
  if (typeof e.value === 'number' && e.unit === 'bytes') return `${bytes(e.value)} (${e.value} bytes)`;
  return e.unit ? `${e.value} ${e.unit}` : String(e.value);
}

export function citationText(c: Finding['citations'][number]): string {
  return c.locator ? `${c.source}, ${c.locator}` : c.source;
}

/**
 * A finding's citations as a report shows them: one per link (several facts can rest on the
 * same page), knowledge-page links turned into their public address (a report leaves the app).
 */
export function reportCitations(f: Finding): { text: string; url: string | null }[] {
  const seen = new Set<string>();
  const out: { text: string; url: string | null }[] = [];
  for (const c of f.citations) {
    const url = c.url ? publicKbUrl(c.url) : null;
    const key = url ?? citationText(c);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text: citationText(c), url });
  }
  return out;
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
  return SEVERITIES.map((s) => `${doc.summary.counts[s] ?? 0} ${s}`).join(', ');
}

export function hostLine(doc: ReportDocument): string {
  const h = doc.host;
  const dist = h.distribution === 'unknown' || h.distribution === 'other' ? h.platform : `${h.distribution}${h.distributionVersion ? ` ${h.distributionVersion}` : ''}`;
  return `${dist}, ZFS ${orUnknown(h.zfsVersion)}${h.openzfs ? ` (OpenZFS ${h.openzfs})` : ''}, RAM ${bytes(h.memoryBytes)}`;
}

/** The longest run of backticks in `text` plus one, at least 3: a fence the text cannot close. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

export function latencyUs(ns: number | null | undefined): string {
  return ns === null || ns === undefined ? '–' : `${(ns / 1000).toFixed(ns < 100_000 ? 1 : 0)} µs`;
}

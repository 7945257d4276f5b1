/**
 * Recommendations grouped the way the issue asks: by severity (critical first), then by pool
 * (host-wide findings last within a severity). Dismissed findings are hidden unless asked for.
 */
import type { FindingView } from '../../../server/src/api/contract.ts';
import type { Severity } from '../../../server/src/model/finding.ts';
import { formatValue } from '../../../server/src/text/format.ts';
import { mergeCitations, type CitationLike } from '../../../server/src/text/citations.ts';

export const SEVERITIES: readonly Severity[] = ['critical', 'warning', 'suggestion', 'info'];

export const SEVERITY_LABEL: Record<Severity, string> = { critical: 'Critical', warning: 'Warning', suggestion: 'Suggestion', info: 'Info' };

export interface PoolGroup {
  /** Pool name, or null for host/drive findings outside any pool. */
  pool: string | null;
  findings: FindingView[];
}
export interface SeverityGroup {
  severity: Severity;
  pools: PoolGroup[];
  count: number;
}

export interface GroupOptions {
  showDismissed: boolean;
}

export function groupFindings(findings: readonly FindingView[], opts: GroupOptions): SeverityGroup[] {
  const visible = findings.filter((f) => opts.showDismissed || f.ack?.state !== 'dismissed');
  return SEVERITIES.map((severity) => {
    const ofSev = visible.filter((f) => f.severity === severity);
    const names = [...new Set(ofSev.map((f) => f.subject.pool))].sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)));
    const pools = names.map((pool) => ({
      pool,
      findings: ofSev.filter((f) => f.subject.pool === pool).sort((a, b) => a.ruleId.localeCompare(b.ruleId) || a.subject.id.localeCompare(b.subject.id)),
    }));
    return { severity, pools, count: ofSev.length };
  }).filter((g) => g.count > 0);
}

export function countBySeverity(findings: readonly Pick<FindingView, 'severity' | 'ack'>[], includeDismissed = false): Record<Severity, number> {
  const c: Record<Severity, number> = { critical: 0, warning: 0, suggestion: 0, info: 0 };
  for (const f of findings) if (includeDismissed || f.ack?.state !== 'dismissed') c[f.severity] += 1;
  return c;
}

export const REVERSIBLE_LABEL: Record<'yes' | 'no' | 'partly', string> = {
  yes: 'Reversible',
  partly: 'Partly reversible',
  no: 'Irreversible',
};

/** Evidence value with its unit, as every view writes it (server/src/text/format.ts). */
export const evidenceText = (value: string | number | boolean | null, unit: string | null): string => formatValue(value, unit);

/** A citation as text: "zfs-facts.md § A3". */
export function citationText(c: { source: string; locator: string | null }): string {
  return c.locator ? `${c.source} § ${c.locator}` : c.source;
}

/** A finding's sources, each page once (text/citations.ts, as the reports list them): "zfs-facts.md § A3, A13". */
export function citationList(citations: readonly CitationLike[]): { text: string; url: string | null }[] {
  return mergeCitations(citations).map((c) => ({ text: citationText({ source: c.source, locator: c.locators.length ? c.locators.join(', ') : null }), url: c.url }));
}

/** Only http(s) links are rendered as links (a citation URL is data from the server, not trusted markup). */
export function safeUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

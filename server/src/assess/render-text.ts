/**
 * Plain-text views of an assessment and an Optane verdict for the terminal.
 */
import type { Assessment, Finding, Severity } from '../model/finding.ts';
import type { OptaneVerdict } from '../optane/verdict.ts';
import { publicKbUrl } from '../kb/catalog.ts';
import { nativeWayLines } from '../planner/native-way-text.ts';
import { reportCitations } from '../report/format.ts';
import { terminalText } from '../text/markdown.ts';
import { formatCount, formatEstimate, formatLatencyUs, formatSpeedup, formatValue, plural, severityCounts } from '../text/format.ts';
import { textTable as table } from '../text/table.ts';

/** Finding text is Markdown (code spans, links): the terminal gets it plain, links as "text <address>". */
const plain = (s: string): string => terminalText(s, publicKbUrl);

const ORDER: Severity[] = ['critical', 'warning', 'suggestion', 'info'];

/** "DEMO DATA: <label>" — the demo loader's labels already start with "Demo data: ", said once. */
export const demoBanner = (label: string): string => `DEMO DATA: ${label.replace(/^demo data:\s*/i, '')}`;

function renderFinding(f: Finding): string {
  const lines = [`  - ${plain(f.title)}  [${f.ruleId}, confidence ${f.confidence}]`];
  lines.push(`    evidence: ${f.evidence.map((e) => `${e.label}: ${plain(formatValue(e.value, e.unit))}`).join('; ')}`);
  lines.push(`    ${plain(f.explanation)}`);
  if (f.action) {
    lines.push(`    action: ${plain(f.action.summary)} (reversible: ${f.action.reversible} — ${plain(f.action.reversibleWhy)})`);
    if (f.action.native) lines.push(...nativeWayLines(f.action.native).map((l) => (l ? `      ${l}` : '')));
    for (const c of f.action.commands) lines.push(`      $ ${c}`);
  }
  lines.push('    sources:', ...reportCitations(f).map((c) => `      ${c.text}${c.url ? ` <${c.url}>` : ''}`));
  return lines.join('\n');
}

export function renderAssessment(a: Assessment, demoLabel: string | null): string {
  const out: string[] = [];
  if (demoLabel) out.push(demoBanner(demoLabel), '');
  const c = a.summary.counts;
  out.push(`Findings: ${severityCounts(c)}`);
  for (const sev of ORDER) {
    const fs = a.findings.filter((f) => f.severity === sev);
    if (fs.length === 0) continue;
    out.push('', `== ${sev.toUpperCase()} (${fs.length}) ==`);
    const pools = [...new Set(fs.map((f) => f.subject.pool ?? '(host)'))];
    for (const p of pools) {
      out.push(`pool ${p}:`);
      for (const f of fs.filter((x) => (x.subject.pool ?? '(host)') === p)) out.push(renderFinding(f));
    }
  }
  const needs = a.results.filter((r) => r.status === 'needs-artifact');
  if (needs.length > 0) {
    out.push('', `Not decided (missing evidence): ${plural(needs.length, 'rule')}`);
    for (const r of needs) out.push(`  - ${r.ruleId}: ${r.missing.map((m) => `${m.artifact} — ${m.howToGet}`).join(' | ')}`);
  }
  const errors = a.results.filter((r) => r.status === 'error');
  for (const r of errors) out.push(`  ! ${r.ruleId}: ${r.message}`);
  return `${out.join('\n')}\n`;
}

export function renderVerdict(v: OptaneVerdict, demoLabel: string | null): string {
  const out: string[] = [];
  if (demoLabel) out.push(demoBanner(demoLabel), '');
  out.push(`Should I add Optane? ${v.verdict.toUpperCase()} (confidence ${v.confidence})`, plain(v.headline), '');
  for (const r of v.reasons) out.push(`  * ${plain(r)}`);
  if (v.expected) {
    const e = v.expected;
    out.push('', 'Expected 4K sync-write IOPS (range):');
    out.push(table(['', 'now', 'with Optane SLOG', 'gain'], [
      ['QD1', formatEstimate(e.qd1.now), formatEstimate(e.qd1.withOptane), formatSpeedup(e.qd1.now.iops, e.qd1.withOptane.iops)],
      ['QD16', formatEstimate(e.qd16.now), formatEstimate(e.qd16.withOptane), formatSpeedup(e.qd16.now.iops, e.qd16.withOptane.iops)],
    ]).trimEnd().replace(/^/gm, '  '));
  }
  if (v.candidates.length > 0) {
    out.push('', 'Already in this host and unused:');
    for (const c of v.candidates) out.push(`  - ${c.product} at ${c.device}: ${plain(c.role)}; ${plain(c.layout)}`);
  }
  if (v.purchase.length > 0) {
    out.push('', 'To buy:');
    for (const p of v.purchase) out.push(`  - ${p.product}${p.capacityGb !== null ? ` (${p.capacityGb} GB)` : ''}: ${plain(p.why)}`);
  }
  if (v.layout.commands.length > 0) {
    out.push('', `Layout (reversible: ${v.layout.reversible}):`);
    for (const c of v.layout.commands) out.push(`  $ ${c}`);
  }
  if (v.unknowns.length > 0) {
    out.push('', 'Unknowns:');
    for (const u of v.unknowns) out.push(`  ? ${u.what}: ${u.howToMeasure}`);
  }
  const probes = v.deviceProbes ?? [];
  if (probes.length > 0) {
    out.push('', 'Measure an unused device (blank-device test: QD1 4 KiB sync writes on the raw drive, destroys its contents; type its serial to confirm):');
    for (const p of probes) {
      out.push(p.measured
        ? `  = ${p.product} at ${p.device}: measured ${formatLatencyUs(p.measured.latencyUs)} per write (${formatCount(p.measured.iops)} IOPS), run ${p.measured.runId}, ${p.measured.startedAt}; again: ${p.command}`
        : `  > ${p.product} at ${p.device}: ${p.command}`);
    }
  }
  return `${out.join('\n')}\n`;
}

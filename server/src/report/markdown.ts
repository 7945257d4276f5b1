/**
 * Markdown rendering: meant to be pasted into a GitHub issue or a TrueNAS/Proxmox (Discourse)
 * forum post. CommonMark only — headings, lists, pipe tables, fenced code — and no HTML, since
 * forums strip or escape it. Every command output sits in a fenced block whose fence it cannot
 * close; prose is backslash-escaped so `<`, `*`, `_` and `|` in values stay literal.
 */
import type { Finding, NativeWay } from '../model/finding.ts';
import { nativeWayText } from '../planner/native-way-text.ts';
import { parseInline } from '../text/markdown.ts';
import { formatEstimate, formatSpeedup, formatTime } from '../text/format.ts';
import type { OptaneVerdict } from '../optane/verdict.ts';
import { outcomeRows } from '../optane/outcome.ts';
import { chartText } from './charts.ts';
import type { ReportBenchmark, ReportDocument } from './document.ts';
import {
  ABSENT, REVERSIBLE_TEXT, gapLine, SEVERITY_LABEL, VERDICT_TEXT, bytes, gain, plural, countsLine, evidenceValue, fenceFor, findingsBySeverity,
  benchmarkLatencyCell, hostLine, int, orUnknown, pct, reportCitations, reportHref, subjectText,
} from './format.ts';

const escapeMd = (s: string): string => s.replace(/[\\`*_[\]<>|#~]/g, (c) => `\\${c}`);
const linkTarget = (href: string): string => reportHref(href).replace(/[()\s]/g, encodeURIComponent);
/**
 * Finding text is our small Markdown subset (server/src/text/markdown.ts): its code spans, links
 * and bold stay Markdown; everything else is escaped so `<`, `*`, `_` and `|` in names stay
 * literal (with `|` escaped inside code spans too, for tables).
 */
export const mdText = (s: string): string => parseInline(s.replace(/\r?\n/g, ' ')).map((t) => {
  switch (t.kind) {
    case 'text': return escapeMd(t.text);
    case 'code': return code(t.text).replace(/\|/g, '\\|');
    case 'strong': return `**${escapeMd(t.text)}**`;
    case 'link': return `[${escapeMd(t.text)}](${linkTarget(t.href)})`;
  }
}).join('');
const cell = (s: string): string => mdText(s).trim() || ' ';
function code(s: string): string {
  const fence = '`'.repeat(Math.max(1, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return fence.length > 1 || s.startsWith('`') || s.endsWith('`') ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}

function block(text: string, lang = 'text'): string[] {
  const body = text.replace(/\s+$/, '');
  const fence = fenceFor(body);
  return [`${fence}${lang}`, body === '' ? '(no output)' : body, fence];
}

function table(head: string[], rows: string[][]): string[] {
  return [`| ${head.map(cell).join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

function optaneSection(v: OptaneVerdict | null, doc: ReportDocument): string[] {
  const out = ['## Should I add Optane?', ''];
  if (!v) return [...out, 'No verdict was computed for this assessment.', ''];
  out.push(`**Verdict: ${VERDICT_TEXT[v.verdict]}** (confidence ${v.confidence}${v.pool ? `, pool ${mdText(v.pool)}` : ''})`, '', mdText(v.headline), '');
  if (v.reasons.length) out.push('Why:', '', ...v.reasons.map((r) => `- ${mdText(r)}`), '');
  if (v.evidence.length) out.push(...table(['Evidence', 'Value'], v.evidence.map((e) => [e.label, evidenceValue(e)])), '');
  if (v.expected) {
    const e = v.expected;
    out.push('Expected 4K sync-write IOPS (latency model; ranges in brackets):', '');
    out.push(...table(['Queue depth', 'Now', 'With Optane SLOG', 'Gain'], [
      ['QD1', formatEstimate(e.qd1.now), formatEstimate(e.qd1.withOptane), formatSpeedup(e.qd1.now.iops, e.qd1.withOptane.iops)],
      ['QD16', formatEstimate(e.qd16.now), formatEstimate(e.qd16.withOptane), formatSpeedup(e.qd16.now.iops, e.qd16.withOptane.iops)],
    ]), '');
    const chart = doc.charts.find((c) => c.id === 'chart-optane');
    if (chart) out.push(...block(chartText(chart)), '');
  }
  if (v.candidates.length) out.push('Candidates already in the machine:', '', ...v.candidates.map((c) => `- ${code(c.device)}: ${mdText(c.product)}, as ${mdText(c.role)} (${mdText(c.layout)})`), '');
  if (v.purchase.length) out.push('What to buy:', '', ...v.purchase.map((p) => `- ${mdText(p.product)}: ${mdText(p.why)}`), '');
  if (v.layout.commands.length) out.push(`Layout (${REVERSIBLE_TEXT[v.layout.reversible].toLowerCase()}; the first command is a dry run):`, '', ...block(v.layout.commands.join('\n'), 'sh'), '');
  if (v.unknowns.length) out.push('Still unknown:', '', ...v.unknowns.map((u) => `- ${mdText(u.what)}: ${code(u.howToMeasure)}`), '');
  return out;
}

/** Closing the loop: each stored pair, forecast beside measured (optane/outcome.ts writes the words). */
function outcomeSection(doc: ReportDocument): string[] {
  if (doc.outcomes.length === 0) return [];
  const out = ['### Forecast and measured', ''];
  for (const p of doc.outcomes) {
    out.push(`**${mdText(p.outcome.sentence)}**`, '', ...table(['', 'Forecast', 'Measured'], outcomeRows(p.outcome).map((r) => [r.what, r.forecast, r.measured])), '', `Recorded ${mdText(formatTime(p.recordedAt))}.`, '');
  }
  return out;
}

/** The platform's own way before the shell commands (TrueNAS: UI and API first; the commands are the fallback). */
function nativeWayMarkdown(n: NativeWay): string[] {
  const t = nativeWayText(n);
  const out = [`**${escapeMd(n.platformName)}:** ${mdText(n.summary)}`, ''];
  if (t.refused) out.push(`**Refused:** ${mdText(t.refused)}`, '');
  if (t.ui) out.push(`*${escapeMd(t.ui.heading)}:*`, '', ...t.ui.steps.map((s, i) => `${i + 1}. ${mdText(s)}`), '');
  if (t.api) {
    out.push(`*${escapeMd(t.api.heading)}:*`, '');
    for (const r of t.api.requests) out.push(`- ${mdText(r.purpose)}`, '', ...block([r.call && `# JSON-RPC\n${r.call}`, r.rest && `# REST\n${r.rest}`, `# on the TrueNAS shell\n${r.midclt}`].filter(Boolean).join('\n'), 'sh'), '');
  }
  out.push(`*${escapeMd(t.shellHeading)}:*`, '');
  return out;
}

function findingLines(f: Finding, n: number): string[] {
  const out = [`#### ${n}. ${mdText(f.title)}`, ''];
  out.push(`${SEVERITY_LABEL[f.severity]} · ${mdText(subjectText(f))} · rule ${code(f.ruleId)} · confidence ${f.confidence}`, '');
  if (f.evidence.length) out.push(...table(['Evidence', 'Value'], f.evidence.map((e) => [e.label, evidenceValue(e)])), '');
  out.push(`**Why it matters:** ${mdText(f.explanation)}`, '');
  if (f.action) {
    out.push(`**What to do:** ${mdText(f.action.summary)}`, '');
    if (f.action.native) out.push(...nativeWayMarkdown(f.action.native));
    if (f.action.commands.length) out.push(...block(f.action.commands.join('\n'), 'sh'), '');
    out.push(`**${REVERSIBLE_TEXT[f.action.reversible]}:** ${mdText(f.action.reversibleWhy)}`, '');
  } else out.push('**What to do:** nothing to run; this is for your information.', '');
  const cites = reportCitations(f);
  if (cites.length) out.push('**Sources:**', '', ...cites.map((c) => `- ${c.url ? `[${escapeMd(c.text)}](${linkTarget(c.url)})` : escapeMd(c.text)}`), '');
  return out;
}

/** One row per run: the numbers a reader compares; methodology and caveats stay in the JSON report. */
function benchmarkRow(b: ReportBenchmark): string[] {
  const s = b.summary;
  const m = b.methodology;
  return [
    `${m.profileTitle} (${s.profile})`, s.pool ?? s.target, formatTime(s.startedAt), s.status,
    `${int(s.writeIops)} / ${int(s.readIops)}`, benchmarkLatencyCell(b),
    `${m.rw ?? '?'} ${bytes(m.blockSize)} QD${m.iodepth}, ${m.syncMode}`,
  ];
}

/** Datasets beyond this many are counted, not listed: the JSON report has them all. */
export const MARKDOWN_DATASET_ROWS = 25;

export interface MarkdownOptions {
  /** Where the raw outputs were written (`--appendix FILE`), named in the summary; null: not written. */
  appendixFile?: string | null;
}

/** The raw outputs as their own Markdown file (`report --appendix FILE`). */
export function renderMarkdownAppendix(doc: ReportDocument): string {
  const out: string[] = [`# Raw command outputs: ${mdText(doc.title)}`, '', `Appendix to the report generated ${mdText(formatTime(doc.generatedAt))} (data captured ${mdText(formatTime(doc.source.capturedAt))}).`, ''];
  if (doc.rawOutputs.length === 0) out.push('No raw outputs were kept with this inventory.', '');
  for (const r of doc.rawOutputs) {
    out.push(`## ${code(r.file)}`, '');
    out.push(`Command: ${r.command ? code(r.command) : 'unknown'}${r.exitCode !== null ? `, exit code ${r.exitCode}` : ''}${r.error ? `, error: ${mdText(r.error)}` : ''}${r.truncated ? `, cut to the first 64 KiB of ${r.originalBytes} bytes` : ''}`, '');
    out.push(...block(r.text));
    if (r.stderr.trim()) out.push('', 'stderr:', '', ...block(r.stderr));
    out.push('');
  }
  return out.join('\n');
}

export function renderMarkdown(doc: ReportDocument, opts: MarkdownOptions = {}): string {
  const out: string[] = [`# ${mdText(doc.title)}`, ''];
  if (doc.source.demo) out.push('> **Demo data.** This report describes the bundled demo snapshot, not a real machine of yours.', '');
  if (doc.redaction.applied) {
    out.push(`> **Redacted.** Serial numbers, WWNs, GUIDs, host names and IP addresses${doc.redaction.names ? ', pool and dataset names' : ''} are replaced by tokens (SERIAL-1, HOST-1…), the same value always by the same token.`, '');
  }
  out.push(`Generated ${mdText(formatTime(doc.generatedAt))} by ZFS Advisor ${mdText(doc.appVersion)}, rule catalog ${mdText(doc.ruleCatalogVersion)}. Data captured ${mdText(formatTime(doc.source.capturedAt))} (${mdText(doc.source.kind)}).`, '');

  out.push('## Summary', '');
  out.push(`- Host: ${mdText(doc.host.hostname ?? 'unknown')} (${mdText(hostLine(doc))})`);
  out.push(`- Pools: ${doc.pools.length ? doc.pools.map((p) => `${mdText(p.name)} (${mdText(p.state ?? 'state unknown')}, ${bytes(p.sizeBytes)})`).join(', ') : 'none'}`);
  out.push(`- Findings: ${countsLine(doc)}`);
  if (doc.optane) out.push(`- Should I add Optane? **${VERDICT_TEXT[doc.optane.verdict]}**: ${mdText(doc.optane.headline)}`);
  out.push(`- Benchmarks: ${doc.benchmarks.length ? plural(doc.benchmarks.length, 'run') : 'none recorded'}`, '');

  out.push(...optaneSection(doc.optane, doc));
  out.push(...outcomeSection(doc));

  out.push('## Findings', '');
  if (doc.findings.length === 0) out.push('No rule found anything to change.', '');
  let n = 0;
  for (const g of findingsBySeverity(doc)) {
    out.push(`### ${SEVERITY_LABEL[g.severity]} (${g.findings.length})`, '');
    for (const f of g.findings) out.push(...findingLines(f, ++n));
  }
  if (doc.rulesNotRun.length) {
    out.push('### Rules that could not judge', '');
    for (const r of doc.rulesNotRun) {
      const need = r.missing.map((m) => `${m.artifact} (${m.howToGet})`).join('; ');
      out.push(`- ${code(r.ruleId)} ${mdText(r.title)}: ${mdText((r.message ?? r.status).replace(/\.+$/, ''))}${need ? `. Needs: ${mdText(need)}` : ''}`);
    }
    out.push('');
  }

  out.push('## Pools', '');
  if (doc.pools.length === 0) out.push('No pools were found.', '');
  for (const p of doc.pools) {
    // Only what is known: a line of "unknown"s says nothing (the gaps section says what was not read).
    const facts = [orUnknown(p.state), ...(p.sizeBytes !== null ? [`${bytes(p.sizeBytes)}, ${pct(p.capacityPct)} used`] : []),
      ...(p.fragmentationPct !== null ? [`fragmentation ${pct(p.fragmentationPct)}`] : []), ...(p.ashift !== null ? [`ashift ${p.ashift}`] : []),
      ...(p.datasetCount > 0 ? [plural(p.datasetCount, 'dataset or zvol', 'datasets and zvols')] : []), ...(p.dedupRatio !== null && p.dedupRatio !== 1 ? [`dedup ${gain(p.dedupRatio)}`] : [])];
    out.push(`**${mdText(p.name)}**: ${mdText(facts.join(' · '))}${p.scan ? `  \nLast scan: ${mdText(p.scan)}` : ''}${p.errors && !/^No known data errors/i.test(p.errors) ? `  \nErrors: ${mdText(p.errors)}` : ''}`, '');
    out.push(...block(p.vdevTree), '');
  }

  out.push('## Drives', '');
  if (doc.drives.length === 0) out.push('No drive details were read.', '');
  else out.push(...table(['Device', 'Model', 'Serial', 'Size', 'Type', 'SMART', 'Wear', 'Temp'], doc.drives.map((d) => [
    d.path ?? d.id, d.optane ?? d.model ?? ABSENT, d.serial ?? ABSENT, bytes(d.sizeBytes), `${d.media}/${d.transport}`,
    d.smartPassed === null ? ABSENT : d.smartPassed ? 'passed' : 'FAILED', pct(d.wearPct), d.temperatureC === null ? ABSENT : `${d.temperatureC} °C`,
  ])), '');

  out.push('## Benchmarks', '');
  if (doc.benchmarks.length === 0) out.push('No benchmark of this host is recorded. `zfs-advisor bench --list` shows the guarded profiles.', '');
  const bchart = doc.charts.find((c) => c.id === 'chart-benchmarks');
  if (bchart) out.push(...block(chartText(bchart)), '');
  const schart = doc.charts.find((c) => c.id === 'chart-suite');
  if (schart) out.push(...block(chartText(schart)), '');
  if (doc.benchmarks.length) {
    out.push(...table(['Profile', 'Pool or target', 'Started', 'Status', 'IOPS write / read', 'Latency mean / p99', 'fio job'], doc.benchmarks.map(benchmarkRow)), '');
    out.push('Methodology and caveats of each run: the JSON report (`--format json`).', '');
  }

  out.push('## Datasets', '');
  if (doc.datasets.length === 0) out.push('No datasets were read.', '');
  else out.push(...table(['Dataset', 'Type', 'recordsize / volblocksize', 'sync', 'compression', 'used'], doc.datasets.slice(0, MARKDOWN_DATASET_ROWS).map((d) => [
    d.name, d.type, d.type === 'volume' ? bytes(d.volblocksize) : bytes(d.recordsize), orUnknown(d.sync), orUnknown(d.compression), bytes(d.usedBytes),
  ])), '');
  if (doc.datasets.length > MARKDOWN_DATASET_ROWS) out.push(`${doc.datasets.length - MARKDOWN_DATASET_ROWS} more datasets are in the JSON report.`, '');

  if (doc.gaps.length) {
    out.push('## What could not be read', '');
    out.push(...doc.gaps.map((g) => `- ${mdText(gapLine(g))}`), '');
  }

  out.push('## Raw command outputs', '');
  if (doc.rawOutputs.length === 0) out.push('No raw outputs were kept with this inventory.', '');
  else if (opts.appendixFile) out.push(`The ${doc.rawOutputs.length} raw command outputs this report rests on are in ${code(opts.appendixFile)}, attached separately.`, '');
  else out.push(`${doc.rawOutputs.length} raw command outputs are left out to keep this report short: \`zfs-advisor report -o report.md --appendix\` writes them to a file of their own beside the report (report.appendix.md), and the JSON report contains them.`, '');
  out.push('---', '', `ZFS Advisor ${mdText(doc.appVersion)} · rule catalog ${mdText(doc.ruleCatalogVersion)} · report schema ${doc.reportSchemaVersion} · generated ${mdText(formatTime(doc.generatedAt))}`, '');
  return out.join('\n');
}

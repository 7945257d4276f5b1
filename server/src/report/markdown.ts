/**
 * Markdown rendering: meant to be pasted into a GitHub issue or a TrueNAS/Proxmox (Discourse)
 * forum post. CommonMark only — headings, lists, pipe tables, fenced code — and no HTML, since
 * forums strip or escape it. Every command output sits in a fenced block whose fence it cannot
 * close; prose is backslash-escaped so `<`, `*`, `_` and `|` in values stay literal.
 *
 * The walk over the document (`reportSections`) is written once against a `Markup` — the
 * syntax of one place — so the forum exports (forum.ts: Discourse, XenForo BBCode, reddit,
 * GitHub) say the same sentences as this report, in their own syntax.
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
import type { Severity } from '../model/finding.ts';

/** What a block of code holds: a command output or a chart (`output`), or commands to paste into a shell (`shell`). */
export type BlockKind = 'output' | 'shell';

/**
 * The syntax of one place. Inline functions take finding text (our Markdown subset: code spans,
 * links, bold) or plain text and return the place's markup; block functions return lines.
 */
export interface Markup {
  /** Finding text: its code spans, links and bold in the place's syntax, the rest escaped. */
  text(s: string): string;
  /** Plain text, escaped. */
  plain(s: string): string;
  code(s: string): string;
  /** Already rendered inline markup, made bold / italic. */
  strong(inline: string): string;
  em(inline: string): string;
  heading(level: 1 | 2 | 3 | 4, inline: string): string;
  /** Cells are finding text. */
  table(head: string[], rows: string[][]): string[];
  block(text: string, kind: BlockKind): string[];
  /** Items are rendered inline markup. */
  list(items: string[], ordered?: boolean): string[];
  /** A notice at the top (demo data, redaction): rendered inline markup. */
  quote(inline: string): string[];
  /** A line break inside a paragraph. */
  lineBreak: string;
  rule(): string[];
  /** A finding's citations under `label`. */
  citations(label: string, cites: { text: string; url: string | null }[]): string[];
  /** Long evidence a reader may open (GitHub's <details>); elsewhere the lines as they are. */
  collapsible(summary: string, lines: string[]): string[];
}

const escapeMd = (s: string): string => s.replace(/[\\`*_[\]<>|#~]/g, (c) => `\\${c}`);
const linkTarget = (href: string): string => reportHref(href).replace(/[()\s]/g, encodeURIComponent);

/** An inline code span whose fence the text cannot close. */
export function mdCode(s: string): string {
  const fence = '`'.repeat(Math.max(1, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return fence.length > 1 || s.startsWith('`') || s.endsWith('`') ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}

/**
 * Finding text is our small Markdown subset (server/src/text/markdown.ts): its code spans, links
 * and bold stay Markdown; everything else is escaped so `<`, `*`, `_` and `|` in names stay
 * literal (with `|` escaped inside code spans too, for tables). `escapeText` and `link` let a
 * forum dialect keep bare addresses from becoming links and gather the links in one list.
 */
export function mdInline(s: string, escapeText: (s: string) => string = escapeMd, link: (text: string, href: string) => string = (t, h) => `[${escapeMd(t)}](${linkTarget(h)})`): string {
  return parseInline(s.replace(/\r?\n/g, ' ')).map((t) => {
    switch (t.kind) {
      case 'text': return escapeText(t.text);
      case 'code': return mdCode(t.text).replace(/\|/g, '\\|');
      case 'strong': return `**${escapeText(t.text)}**`;
      case 'link': return link(t.text, t.href);
    }
  }).join('');
}
export const mdText = (s: string): string => mdInline(s);

/** Finding text as plain words (code spans, links and bold kept as their text): for `#` comments and preformatted tables. */
export function plainOf(s: string): string {
  return parseInline(s.replace(/\r?\n/g, ' ')).map((t) => t.text).join('');
}

export function mdBlock(text: string, lang: string): string[] {
  const body = text.replace(/\s+$/, '');
  const fence = fenceFor(body);
  return [`${fence}${lang}`, body === '' ? '(no output)' : body, fence];
}

export function mdTable(head: string[], rows: string[][], inline: (s: string) => string): string[] {
  const cell = (s: string): string => inline(s).trim() || ' ';
  return [`| ${head.map(cell).join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

/** Everything Markdown-like both the report and the Markdown forum exports share; `overrides` changes what a place needs. */
export function markdownMarkup(overrides: Partial<Markup> = {}): Markup {
  const base: Markup = {
    text: mdText,
    plain: escapeMd,
    code: mdCode,
    strong: (s) => `**${s}**`,
    em: (s) => `*${s}*`,
    heading: (level, s) => `${'#'.repeat(level)} ${s}`,
    table: (head, rows) => mdTable(head, rows, base.text),
    block: (text, kind) => mdBlock(text, kind === 'shell' ? 'sh' : 'text'),
    list: (items, ordered = false) => items.map((s, i) => `${ordered ? `${i + 1}.` : '-'} ${s}`),
    quote: (s) => [`> ${s}`],
    lineBreak: '  \n',
    rule: () => ['---'],
    citations: (label, cites) => [`**${label}:**`, '', ...base.list(cites.map((c) => (c.url ? `[${escapeMd(c.text)}](${linkTarget(c.url)})` : escapeMd(c.text))))],
    collapsible: (_summary, lines) => lines,
  };
  return Object.assign(base, overrides);
}

/** The unknowns of a verdict as one shell block: each question a `#` comment above the command that answers it. */
function unknownsBlock(v: OptaneVerdict): string {
  return v.unknowns.map((u) => `# ${plainOf(u.what).replace(/\s+/g, ' ')}\n${u.howToMeasure}`).join('\n');
}

function optaneSection(m: Markup, v: OptaneVerdict | null, doc: ReportDocument): string[] {
  const out = [m.heading(2, 'Should I add Optane?'), ''];
  if (!v) return [...out, 'No verdict was computed for this assessment.', ''];
  out.push(`${m.strong(`Verdict: ${VERDICT_TEXT[v.verdict]}`)} (confidence ${v.confidence}${v.pool ? `, pool ${m.text(v.pool)}` : ''})`, '', m.text(v.headline), '');
  if (v.reasons.length) out.push('Why:', '', ...m.list(v.reasons.map((r) => m.text(r))), '');
  if (v.evidence.length) out.push(...m.collapsible(`Evidence (${v.evidence.length})`, m.table(['Evidence', 'Value'], v.evidence.map((e) => [e.label, evidenceValue(e)]))), '');
  if (v.expected) {
    const e = v.expected;
    out.push('Expected 4K sync-write IOPS (latency model; ranges in brackets):', '');
    out.push(...m.table(['Queue depth', 'Now', 'With Optane SLOG', 'Gain'], [
      ['QD1', formatEstimate(e.qd1.now), formatEstimate(e.qd1.withOptane), formatSpeedup(e.qd1.now.iops, e.qd1.withOptane.iops)],
      ['QD16', formatEstimate(e.qd16.now), formatEstimate(e.qd16.withOptane), formatSpeedup(e.qd16.now.iops, e.qd16.withOptane.iops)],
    ]), '');
    const chart = doc.charts.find((c) => c.id === 'chart-optane');
    if (chart) out.push(...m.block(chartText(chart), 'output'), '');
  }
  if (v.candidates.length) out.push('Candidates already in the machine:', '', ...m.list(v.candidates.map((c) => `${m.code(c.device)}: ${m.text(c.product)}, as ${m.text(c.role)} (${m.text(c.layout)})`)), '');
  if (v.purchase.length) out.push('What to buy:', '', ...m.list(v.purchase.map((p) => `${m.text(p.product)}: ${m.text(p.why)}`)), '');
  if (v.layout.commands.length) out.push(`Layout (${REVERSIBLE_TEXT[v.layout.reversible].toLowerCase()}; the first command is a dry run):`, '', ...m.block(v.layout.commands.join('\n'), 'shell'), '');
  if (v.unknowns.length) out.push('Still unknown, and the command that measures it:', '', ...m.block(unknownsBlock(v), 'shell'), '');
  return out;
}

/** Closing the loop: each stored pair, forecast beside measured (optane/outcome.ts writes the words). */
function outcomeSection(m: Markup, doc: ReportDocument): string[] {
  if (doc.outcomes.length === 0) return [];
  const out = [m.heading(3, 'Forecast and measured'), ''];
  for (const p of doc.outcomes) {
    out.push(m.strong(m.text(p.outcome.sentence)), '', ...m.table(['', 'Forecast', 'Measured'], outcomeRows(p.outcome).map((r) => [r.what, r.forecast, r.measured])), '', `Recorded ${m.text(formatTime(p.recordedAt))}.`, '');
  }
  return out;
}

/**
 * The platform's own way before the shell commands (TrueNAS: UI and API first; the commands are
 * the fallback). API requests (JSON-RPC, REST) are not shell commands: they sit in a block of
 * their own, and only the midclt call, which is one, in a shell block.
 */
function nativeWaySection(m: Markup, n: NativeWay): string[] {
  const t = nativeWayText(n);
  const out = [`${m.strong(`${m.plain(n.platformName)}:`)} ${m.text(n.summary)}`, ''];
  if (t.refused) out.push(`${m.strong('Refused:')} ${m.text(t.refused)}`, '');
  if (t.ui) out.push(`${m.em(`${m.plain(t.ui.heading)}:`)}`, '', ...m.list(t.ui.steps.map((s) => m.text(s)), true), '');
  if (t.api) {
    out.push(`${m.em(`${m.plain(t.api.heading)}:`)}`, '');
    for (const r of t.api.requests) {
      out.push(...m.list([m.text(r.purpose)]), '');
      const api = [r.call && `JSON-RPC:\n${r.call}`, r.rest && `REST:\n${r.rest}`].filter(Boolean).join('\n');
      if (api) out.push(...m.block(api, 'output'), '');
      out.push(...m.block(`# on the TrueNAS shell\n${r.midclt}`, 'shell'), '');
    }
  }
  out.push(`${m.em(`${m.plain(t.shellHeading)}:`)}`, '');
  return out;
}

function findingLines(m: Markup, f: Finding, n: number): string[] {
  const out = [m.heading(4, `${n}. ${m.text(f.title)}`), ''];
  out.push(`${SEVERITY_LABEL[f.severity]} · ${m.text(subjectText(f))} · rule ${m.code(f.ruleId)} · confidence ${f.confidence}`, '');
  if (f.evidence.length) out.push(...m.collapsible(`Evidence (${f.evidence.length})`, m.table(['Evidence', 'Value'], f.evidence.map((e) => [e.label, evidenceValue(e)]))), '');
  out.push(`${m.strong('Why it matters:')} ${m.text(f.explanation)}`, '');
  if (f.action) {
    out.push(`${m.strong('What to do:')} ${m.text(f.action.summary)}`, '');
    if (f.action.native) out.push(...nativeWaySection(m, f.action.native));
    if (f.action.commands.length) out.push(...m.block(f.action.commands.join('\n'), 'shell'), '');
    out.push(`${m.strong(`${REVERSIBLE_TEXT[f.action.reversible]}:`)} ${m.text(f.action.reversibleWhy)}`, '');
  } else out.push(`${m.strong('What to do:')} nothing to run; this is for your information.`, '');
  const cites = reportCitations(f);
  if (cites.length) out.push(...m.citations('Sources', cites), '');
  return out;
}

/** One row per run: the numbers a reader compares; methodology and caveats stay in the JSON report. */
function benchmarkRow(b: ReportBenchmark): string[] {
  const s = b.summary;
  const mt = b.methodology;
  return [
    `${mt.profileTitle} (${s.profile})`, s.pool ?? s.target, formatTime(s.startedAt), s.status,
    `${int(s.writeIops)} / ${int(s.readIops)}`, benchmarkLatencyCell(b),
    `${mt.rw ?? '?'} ${bytes(mt.blockSize)} QD${mt.iodepth}, ${mt.syncMode}`,
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
    out.push(`## ${mdCode(r.file)}`, '');
    out.push(`Command: ${r.command ? mdCode(r.command) : 'unknown'}${r.exitCode !== null ? `, exit code ${r.exitCode}` : ''}${r.error ? `, error: ${mdText(r.error)}` : ''}${r.truncated ? `, cut to the first 64 KiB of ${r.originalBytes} bytes` : ''}`, '');
    out.push(...mdBlock(r.text, 'text'));
    if (r.stderr.trim()) out.push('', 'stderr:', '', ...mdBlock(r.stderr, 'text'));
    out.push('');
  }
  return out.join('\n');
}

/**
 * One part of the report. `cut` names the part a length-limited place may leave out (forum.ts
 * drops them in `CUT_ORDER`, and says which); parts without it always stay.
 */
export interface ReportSection {
  key: string;
  /** The name a reader is told when the part is left out; null: never left out. */
  cut: string | null;
  lines: string[];
}

export const CUT_ORDER = ['datasets', 'gaps', 'rules-not-run', 'findings-info', 'benchmarks', 'drives', 'findings-suggestion', 'pools', 'outcomes'] as const;

const FINDING_CUT: Record<Severity, string | null> = { critical: null, warning: null, suggestion: 'the suggestions', info: 'the informational findings' };

/** The report, part by part, in one place's syntax. */
export function reportSections(doc: ReportDocument, m: Markup, opts: MarkdownOptions = {}): ReportSection[] {
  const sections: ReportSection[] = [];
  const add = (key: string, cut: string | null, lines: string[]): void => { if (lines.length) sections.push({ key, cut, lines }); };
  const head: string[] = [m.heading(1, m.text(doc.title)), ''];
  if (doc.source.demo) head.push(...m.quote(`${m.strong('Demo data.')} This report describes the bundled demo snapshot, not a real machine of yours.`), '');
  if (doc.redaction.applied) {
    head.push(...m.quote(`${m.strong('Redacted.')} Serial numbers, WWNs, GUIDs, host names and IP addresses${doc.redaction.names ? ', pool and dataset names' : ''} are replaced by tokens (SERIAL-1, HOST-1…), the same value always by the same token.`), '');
  }
  head.push(`Generated ${m.text(formatTime(doc.generatedAt))} by ZFS Advisor ${m.text(doc.appVersion)}, rule catalog ${m.text(doc.ruleCatalogVersion)}. Data captured ${m.text(formatTime(doc.source.capturedAt))} (${m.text(doc.source.kind)}).`, '');
  add('head', null, head);

  add('summary', null, [m.heading(2, 'Summary'), '', ...m.list([
    `Host: ${m.text(doc.host.hostname ?? 'unknown')} (${m.text(hostLine(doc))})`,
    `Pools: ${doc.pools.length ? doc.pools.map((p) => `${m.text(p.name)} (${m.text(p.state ?? 'state unknown')}, ${bytes(p.sizeBytes)})`).join(', ') : 'none'}`,
    `Findings: ${countsLine(doc)}`,
    ...(doc.optane ? [`Should I add Optane? ${m.strong(VERDICT_TEXT[doc.optane.verdict])}: ${m.text(doc.optane.headline)}`] : []),
    `Benchmarks: ${doc.benchmarks.length ? plural(doc.benchmarks.length, 'run') : 'none recorded'}`,
  ]), '']);

  add('optane', null, optaneSection(m, doc.optane, doc));
  add('outcomes', 'the forecast and measured pairs', outcomeSection(m, doc));

  const findingsHead = [m.heading(2, 'Findings'), ''];
  if (doc.findings.length === 0) findingsHead.push('No rule found anything to change.', '');
  add('findings', null, findingsHead);
  let n = 0;
  for (const g of findingsBySeverity(doc)) {
    const lines = [m.heading(3, `${SEVERITY_LABEL[g.severity]} (${g.findings.length})`), ''];
    for (const f of g.findings) lines.push(...findingLines(m, f, ++n));
    add(`findings-${g.severity}`, FINDING_CUT[g.severity], lines);
  }
  if (doc.rulesNotRun.length) {
    add('rules-not-run', 'the rules that could not judge', [m.heading(3, 'Rules that could not judge'), '', ...m.collapsible(`Rules that could not judge (${doc.rulesNotRun.length})`, m.list(doc.rulesNotRun.map((r) => {
      const need = r.missing.map((x) => `${x.artifact} (${x.howToGet})`).join('; ');
      return `${m.code(r.ruleId)} ${m.text(r.title)}: ${m.text((r.message ?? r.status).replace(/\.+$/, ''))}${need ? `. Needs: ${m.text(need)}` : ''}`;
    }))), '']);
  }

  const pools = [m.heading(2, 'Pools'), ''];
  if (doc.pools.length === 0) pools.push('No pools were found.', '');
  for (const p of doc.pools) {
    // Only what is known: a line of "unknown"s says nothing (the gaps section says what was not read).
    const facts = [orUnknown(p.state), ...(p.sizeBytes !== null ? [`${bytes(p.sizeBytes)}, ${pct(p.capacityPct)} used`] : []),
      ...(p.fragmentationPct !== null ? [`fragmentation ${pct(p.fragmentationPct)}`] : []), ...(p.ashift !== null ? [`ashift ${p.ashift}`] : []),
      ...(p.datasetCount > 0 ? [plural(p.datasetCount, 'dataset or zvol', 'datasets and zvols')] : []), ...(p.dedupRatio !== null && p.dedupRatio !== 1 ? [`dedup ${gain(p.dedupRatio)}`] : [])];
    pools.push(`${m.strong(`${m.text(p.name)}`)}: ${m.text(facts.join(' · '))}${p.scan ? `${m.lineBreak}Last scan: ${m.text(p.scan)}` : ''}${p.errors && !/^No known data errors/i.test(p.errors) ? `${m.lineBreak}Errors: ${m.text(p.errors)}` : ''}`, '');
    pools.push(...m.block(p.vdevTree, 'output'), '');
  }
  add('pools', 'the pool trees', pools);

  const drives = [m.heading(2, 'Drives'), ''];
  if (doc.drives.length === 0) drives.push('No drive details were read.', '');
  else drives.push(...m.collapsible(`Drives (${doc.drives.length})`, m.table(['Device', 'Model', 'Serial', 'Size', 'Type', 'SMART', 'Wear', 'Temp'], doc.drives.map((d) => [
    d.path ?? d.id, d.optane ?? d.model ?? ABSENT, d.serial ?? ABSENT, bytes(d.sizeBytes), `${d.media}/${d.transport}`,
    d.smartPassed === null ? ABSENT : d.smartPassed ? 'passed' : 'FAILED', pct(d.wearPct), d.temperatureC === null ? ABSENT : `${d.temperatureC} °C`,
  ]))), '');
  add('drives', 'the drives table', drives);

  const bench = [m.heading(2, 'Benchmarks'), ''];
  if (doc.benchmarks.length === 0) bench.push(`No benchmark of this host is recorded. ${m.code('zfs-advisor bench --list')} shows the guarded profiles.`, '');
  const bchart = doc.charts.find((c) => c.id === 'chart-benchmarks');
  if (bchart) bench.push(...m.block(chartText(bchart), 'output'), '');
  const schart = doc.charts.find((c) => c.id === 'chart-suite');
  if (schart) bench.push(...m.block(chartText(schart), 'output'), '');
  if (doc.benchmarks.length) {
    bench.push(...m.table(['Profile', 'Pool or target', 'Started', 'Status', 'IOPS write / read', 'Latency mean / p99', 'fio job'], doc.benchmarks.map(benchmarkRow)), '');
    bench.push(`Methodology and caveats of each run: the JSON report (${m.code('--format json')}).`, '');
  }
  add('benchmarks', 'the benchmarks', bench);

  const datasets = [m.heading(2, 'Datasets'), ''];
  if (doc.datasets.length === 0) datasets.push('No datasets were read.', '');
  else datasets.push(...m.collapsible(`Datasets (${Math.min(doc.datasets.length, MARKDOWN_DATASET_ROWS)})`, m.table(['Dataset', 'Type', 'recordsize / volblocksize', 'sync', 'compression', 'used'], doc.datasets.slice(0, MARKDOWN_DATASET_ROWS).map((d) => [
    d.name, d.type, d.type === 'volume' ? bytes(d.volblocksize) : bytes(d.recordsize), orUnknown(d.sync), orUnknown(d.compression), bytes(d.usedBytes),
  ]))), '');
  if (doc.datasets.length > MARKDOWN_DATASET_ROWS) datasets.push(`${doc.datasets.length - MARKDOWN_DATASET_ROWS} more datasets are in the JSON report.`, '');
  add('datasets', 'the datasets table', datasets);

  if (doc.gaps.length) add('gaps', 'what could not be read', [m.heading(2, 'What could not be read'), '', ...m.list(doc.gaps.map((g) => m.text(gapLine(g)))), '']);

  const raw = [m.heading(2, 'Raw command outputs'), ''];
  if (doc.rawOutputs.length === 0) raw.push('No raw outputs were kept with this inventory.', '');
  else if (opts.appendixFile) raw.push(`The ${doc.rawOutputs.length} raw command outputs this report rests on are in ${m.code(opts.appendixFile)}, attached separately.`, '');
  else raw.push(`${doc.rawOutputs.length} raw command outputs are left out to keep this report short: ${m.code('zfs-advisor report -o report.md --appendix')} writes them to a file of their own beside the report (report.appendix.md), and the JSON report contains them.`, '');
  add('raw', null, raw);
  return sections;
}

/** The closing line of every rendering. */
export function footerLines(m: Markup, doc: ReportDocument): string[] {
  return [...m.rule(), '', `ZFS Advisor ${m.text(doc.appVersion)} · rule catalog ${m.text(doc.ruleCatalogVersion)} · report schema ${doc.reportSchemaVersion} · generated ${m.text(formatTime(doc.generatedAt))}`, ''];
}

export function renderMarkdown(doc: ReportDocument, opts: MarkdownOptions = {}): string {
  const m = markdownMarkup();
  return [...reportSections(doc, m, opts).flatMap((s) => s.lines), ...footerLines(m, doc)].join('\n');
}

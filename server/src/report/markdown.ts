/**
 * Markdown rendering: meant to be pasted into a GitHub issue or a TrueNAS/Proxmox (Discourse)
 * forum post. CommonMark only — headings, lists, pipe tables, fenced code — and no HTML, since
 * forums strip or escape it. Every command output sits in a fenced block whose fence it cannot
 * close; prose is backslash-escaped so `<`, `*`, `_` and `|` in values stay literal.
 */
import type { Finding } from '../model/finding.ts';
import type { OptaneVerdict } from '../optane/verdict.ts';
import { chartText } from './charts.ts';
import type { ReportBenchmark, ReportDocument } from './document.ts';
import {
  REVERSIBLE_TEXT, SEVERITY_LABEL, VERDICT_TEXT, bytes, citationText, countsLine, evidenceValue, fenceFor, findingsBySeverity,
  hostLine, int, latencyUs, orUnknown, pct, subjectText,
} from './format.ts';

const escapeMd = (s: string): string => s.replace(/[\\`*_[\]<>|#~]/g, (c) => `\\${c}`);
/**
 * Escapes CommonMark punctuation that would otherwise format, link or start HTML. Rule texts
 * mark commands as `code`: those spans stay code spans (with `|` escaped for tables).
 */
export const mdText = (s: string): string =>
  s.replace(/\r?\n/g, ' ').split(/(`[^`]+`)/).map((part, i) => (i % 2 === 1 ? part.replace(/\|/g, '\\|') : escapeMd(part))).join('');
const cell = (s: string): string => mdText(s).trim() || ' ';
const code = (s: string): string => {
  const fence = '`'.repeat(Math.max(1, ...[...s.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return fence.length > 1 || s.startsWith('`') || s.endsWith('`') ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
};

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
  if (v.evidence.length) out.push(...table(['Evidence', 'Value'], v.evidence.map((e) => [e.label, e.value === null ? 'unknown' : String(e.value)])), '');
  if (v.expected) {
    const e = v.expected;
    const range = (r: { iops: number; low: number; high: number }) => `${int(r.iops)} (${int(r.low)}–${int(r.high)})`;
    out.push('Expected 4K sync-write IOPS (latency model; ranges in brackets):', '');
    out.push(...table(['Queue depth', 'Now', 'With Optane SLOG'], [['QD1', range(e.qd1.now), range(e.qd1.withOptane)], ['QD16', range(e.qd16.now), range(e.qd16.withOptane)]]), '');
    const chart = doc.charts.find((c) => c.id === 'chart-optane');
    if (chart) out.push(...block(chartText(chart)), '');
  }
  if (v.candidates.length) out.push('Candidates already in the machine:', '', ...v.candidates.map((c) => `- ${code(c.device)}: ${mdText(c.product)}, as ${mdText(c.role)} (${mdText(c.layout)})`), '');
  if (v.purchase.length) out.push('What to buy:', '', ...v.purchase.map((p) => `- ${mdText(p.product)}: ${mdText(p.why)}`), '');
  if (v.layout.commands.length) out.push(`Layout (${REVERSIBLE_TEXT[v.layout.reversible].toLowerCase()}; the first command is a dry run):`, '', ...block(v.layout.commands.join('\n'), 'sh'), '');
  if (v.unknowns.length) out.push('Still unknown:', '', ...v.unknowns.map((u) => `- ${mdText(u.what)}: ${code(u.howToMeasure)}`), '');
  return out;
}

function findingLines(f: Finding, n: number): string[] {
  const out = [`#### ${n}. ${mdText(f.title)}`, ''];
  out.push(`${SEVERITY_LABEL[f.severity]} · ${mdText(subjectText(f))} · rule ${code(f.ruleId)} · confidence ${f.confidence}`, '');
  if (f.evidence.length) out.push(...table(['Evidence', 'Value'], f.evidence.map((e) => [e.label, evidenceValue(e)])), '');
  out.push(`**Why it matters:** ${mdText(f.explanation)}`, '');
  if (f.action) {
    out.push(`**What to do:** ${mdText(f.action.summary)}`, '');
    if (f.action.commands.length) out.push(...block(f.action.commands.join('\n'), 'sh'), '');
    out.push(`**${REVERSIBLE_TEXT[f.action.reversible]}:** ${mdText(f.action.reversibleWhy)}`, '');
  } else out.push('**What to do:** nothing to run; this is for your information.', '');
  if (f.citations.length) {
    out.push('**Sources:**', '', ...f.citations.map((c) => `- ${c.url ? `[${mdText(citationText(c))}](${c.url.replace(/[()\s]/g, encodeURIComponent)})` : mdText(citationText(c))}`), '');
  }
  return out;
}

function benchmarkLines(b: ReportBenchmark): string[] {
  const s = b.summary;
  const m = b.methodology;
  const out = [`### ${mdText(m.profileTitle)} on ${mdText(s.pool ?? s.target)} (${mdText(s.startedAt)})`, ''];
  out.push(...table(['Result', 'Value'], [
    ['status', s.status],
    ['write IOPS', int(s.writeIops)], ['read IOPS', int(s.readIops)],
    ['write throughput', `${bytes(s.writeBytesPerSec)}/s`], ['read throughput', `${bytes(s.readBytesPerSec)}/s`],
    ['write latency mean / p99 / p99.9', s.writeLatency ? `${latencyUs(s.writeLatency.meanNs)} / ${latencyUs(s.writeLatency.p99Ns)} / ${latencyUs(s.writeLatency.p999Ns)}` : '–'],
    ['read latency mean / p99 / p99.9', s.readLatency ? `${latencyUs(s.readLatency.meanNs)} / ${latencyUs(s.readLatency.p99Ns)} / ${latencyUs(s.readLatency.p999Ns)}` : '–'],
    ['wall time / fio runtime', `${orUnknown(s.wallSeconds)} s / ${orUnknown(s.fioRuntimeSeconds)} s`],
  ]), '');
  out.push('Methodology:', '');
  out.push(`- profile ${code(s.profile)}${m.question ? `: ${mdText(m.question)}` : ''}`);
  out.push(`- fio ${m.rw ? `rw=${m.rw}, ` : ''}block size ${bytes(m.blockSize)}, iodepth ${m.iodepth}, file size ${m.sizeBytes === null ? 'not recorded' : bytes(m.sizeBytes)}, runtime ${m.runtimeSeconds === null ? 'not recorded' : `${m.runtimeSeconds} s`}`);
  out.push(`- sync mode ${code(m.syncMode)}: ${mdText(m.syncModeText)}`);
  if (m.reference) out.push(`- method follows ${mdText(m.reference)}`);
  out.push('');
  if (m.caveats.length) out.push('Caveats:', '', ...m.caveats.map((c) => `- ${mdText(c)}`), '');
  return out;
}

export function renderMarkdown(doc: ReportDocument): string {
  const out: string[] = [`# ${mdText(doc.title)}`, ''];
  if (doc.source.demo) out.push('> **Demo data.** This report describes the bundled demo snapshot, not a real machine of yours.', '');
  if (doc.redaction.applied) {
    out.push(`> **Redacted.** Serial numbers, WWNs, GUIDs, host names and IP addresses${doc.redaction.names ? ', pool and dataset names' : ''} are replaced by tokens (SERIAL-1, HOST-1…), the same value always by the same token.`, '');
  }
  out.push(`Generated ${mdText(doc.generatedAt)} by ZFS Advisor ${mdText(doc.appVersion)}, rule catalog ${mdText(doc.ruleCatalogVersion)}. Data captured ${mdText(doc.source.capturedAt)} (${mdText(doc.source.kind)}).`, '');

  out.push('## Summary', '');
  out.push(`- Host: ${mdText(doc.host.hostname ?? 'unknown')} (${mdText(hostLine(doc))})`);
  out.push(`- Pools: ${doc.pools.length ? doc.pools.map((p) => `${mdText(p.name)} (${mdText(p.state ?? 'state unknown')}, ${bytes(p.sizeBytes)})`).join(', ') : 'none'}`);
  out.push(`- Findings: ${countsLine(doc)}`);
  if (doc.optane) out.push(`- Should I add Optane? **${VERDICT_TEXT[doc.optane.verdict]}**: ${mdText(doc.optane.headline)}`);
  out.push(`- Benchmarks: ${doc.benchmarks.length ? `${doc.benchmarks.length} run(s)` : 'none recorded'}`, '');

  out.push('## Pools', '');
  if (doc.pools.length === 0) out.push('No pools were found.', '');
  for (const p of doc.pools) {
    out.push(`### ${mdText(p.name)}`, '');
    out.push(...table(['Property', 'Value'], [
      ['state', orUnknown(p.state)], ['size', bytes(p.sizeBytes)], ['allocated', bytes(p.allocBytes)], ['free', bytes(p.freeBytes)],
      ['capacity', pct(p.capacityPct)], ['fragmentation', pct(p.fragmentationPct)], ['dedup ratio', p.dedupRatio === null ? 'unknown' : `${p.dedupRatio}x`],
      ['ashift', orUnknown(p.ashift)], ['datasets and zvols', String(p.datasetCount)], ['last scan', orUnknown(p.scan)], ['errors', orUnknown(p.errors)],
    ]), '');
    out.push(...block(p.vdevTree), '');
  }

  out.push(...optaneSection(doc.optane, doc));

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

  out.push('## Benchmarks', '');
  if (doc.benchmarks.length === 0) out.push('No benchmark has been run on this host. `zfs-advisor bench --list` shows the guarded profiles.', '');
  const bchart = doc.charts.find((c) => c.id === 'chart-benchmarks');
  if (bchart) out.push(...block(chartText(bchart)), '');
  for (const b of doc.benchmarks) out.push(...benchmarkLines(b));

  out.push('## Drives', '');
  if (doc.drives.length === 0) out.push('No drive details were read.', '');
  else out.push(...table(['Device', 'Model', 'Serial', 'Size', 'Type', 'SMART', 'Wear', 'Temp'], doc.drives.map((d) => [
    d.path ?? d.id, d.optane ?? d.model ?? 'unknown', d.serial ?? 'unknown', bytes(d.sizeBytes), `${d.media}/${d.transport}`,
    d.smartPassed === null ? 'unknown' : d.smartPassed ? 'passed' : 'FAILED', pct(d.wearPct), d.temperatureC === null ? 'unknown' : `${d.temperatureC} °C`,
  ])), '');

  out.push('## Datasets', '');
  if (doc.datasets.length === 0) out.push('No datasets were read.', '');
  else out.push(...table(['Dataset', 'Type', 'recordsize / volblocksize', 'sync', 'compression', 'used'], doc.datasets.map((d) => [
    d.name, d.type, d.type === 'volume' ? bytes(d.volblocksize) : bytes(d.recordsize), orUnknown(d.sync), orUnknown(d.compression), bytes(d.usedBytes),
  ])), '');

  if (doc.gaps.length) {
    out.push('## What could not be read', '');
    out.push(...doc.gaps.map((g) => `- ${g.severity}: ${mdText(g.artifact)} from ${code(g.source)}${g.line !== null ? ` line ${g.line}` : ''}: ${mdText(g.message)}`), '');
  }

  out.push('## Appendix: raw command outputs', '');
  if (doc.rawOutputs.length === 0) out.push('No raw outputs are attached.', '');
  for (const r of doc.rawOutputs) {
    out.push(`### ${code(r.file)}`, '');
    out.push(`Command: ${r.command ? code(r.command) : 'unknown'}${r.exitCode !== null ? `, exit code ${r.exitCode}` : ''}${r.error ? `, error: ${mdText(r.error)}` : ''}${r.truncated ? `, cut to the first 64 KiB of ${r.originalBytes} bytes` : ''}`, '');
    out.push(...block(r.text));
    if (r.stderr.trim()) out.push('', 'stderr:', '', ...block(r.stderr));
    out.push('');
  }
  out.push('---', '', `ZFS Advisor ${mdText(doc.appVersion)} · rule catalog ${mdText(doc.ruleCatalogVersion)} · report schema ${doc.reportSchemaVersion} · generated ${mdText(doc.generatedAt)}`, '');
  return out.join('\n');
}

/**
 * The HTML report: one self-contained file. Inline CSS, inline SVG charts, no script, no
 * external resource of any kind (fonts, images, styles), so it opens offline, can be attached
 * to a ticket and makes no request when opened. Citation links are plain anchors (navigation
 * only when clicked). The raw outputs sit in `<details>`; print CSS opens them and avoids
 * breaking findings across pages.
 */
import type { Finding, NativeWay } from '../model/finding.ts';
import { nativeWayText } from '../planner/native-way-text.ts';
import type { OptaneVerdict } from '../optane/verdict.ts';
import { outcomeRows } from '../optane/outcome.ts';
import type { ReportBenchmark, ReportDocument } from './document.ts';
import { formatEstimate, formatSpeedup, formatTime } from '../text/format.ts';
import {
  ABSENT, REVERSIBLE_TEXT, gapLine, SEVERITY_LABEL, VERDICT_TEXT, bytes, gain, plural, countsLine, evidenceValue, findingsBySeverity, hostLine, int,
  benchmarkLatencyRows, orUnknown, pct, reportCitations, reportHref, subjectText,
} from './format.ts';
import { inlineHtml } from '../text/markdown.ts';
import { chartSvg, escapeXml as esc } from './svg.ts';

const CSS = `
:root { color-scheme: light; --fg: #1b1b1b; --muted: #555; --line: #d8d8d8; --bg-code: #f5f5f3; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); margin: 0 auto; max-width: 60rem; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { font-size: 1.3rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; margin-top: 2rem; }
h3 { font-size: 1.1rem; margin-top: 1.5rem; } h4 { font-size: 1rem; margin: 0 0 .4rem; }
pre, code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: .85rem; }
pre { background: var(--bg-code); border: 1px solid var(--line); padding: .6rem .8rem; overflow-x: auto; white-space: pre; }
table { border-collapse: collapse; margin: .5rem 0 1rem; } th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f0f0ee; }
.meta { color: var(--muted); }
.banner { border: 2px solid #b07a00; background: #fff7e0; padding: .5rem .8rem; margin: .8rem 0; }
.finding { border: 1px solid var(--line); border-left: 6px solid #888; padding: .8rem 1rem; margin: 1rem 0; break-inside: avoid; }
.sev-critical { border-left-color: #a4161a; } .sev-warning { border-left-color: #c77700; } .sev-suggestion { border-left-color: #2b5ea7; } .sev-info { border-left-color: #6b6b6b; }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: 0 .4rem; border-radius: .2rem; color: #fff; background: #6b6b6b; }
.badge.sev-critical { background: #a4161a; } .badge.sev-warning { background: #c77700; } .badge.sev-suggestion { background: #2b5ea7; }
.verdict { font-size: 1.15rem; font-weight: 700; }
.chart { max-width: 100%; height: auto; display: block; margin: .5rem 0 1rem; }
nav ul { columns: 2; padding-left: 1.2rem; }
details { border: 1px solid var(--line); margin: .4rem 0; padding: .3rem .6rem; } summary { cursor: pointer; }
footer { margin-top: 2rem; border-top: 1px solid var(--line); padding-top: .5rem; color: var(--muted); font-size: .85rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  nav { display: none; }
  a { color: inherit; text-decoration: none; }
  pre { white-space: pre-wrap; word-break: break-all; }
  h2, h3, h4 { break-after: avoid; }
  details { border: none; padding: 0; }
  details::details-content { content-visibility: visible; display: block; }
  details > summary { list-style: none; font-weight: 600; }
}
`;

/** Finding text (our Markdown subset) as escaped HTML: code spans, links, bold. */
const prose = (s: string): string => inlineHtml(s, reportHref);
const p = (s: string) => `<p>${prose(s)}</p>`;

function table(head: string[], rows: string[][]): string {
  return `<table><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}
const kv = (rows: [string, string][]) => `<table><tbody>${rows.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table>`;
const pre = (text: string) => `<pre>${esc(text.replace(/\s+$/, '') || '(no output)')}</pre>`;
const ul = (items: string[]) => (items.length ? `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>` : '');
/** Only http(s) citation links become anchors; anything else stays text. */
const link = (url: string | null, text: string) => (url && /^https?:\/\/[^\s"'<>]+$/.test(url) ? `<a href="${esc(url)}" rel="noopener noreferrer">${esc(text)}</a>` : esc(text));

/** Closing the loop: each stored pair, forecast beside measured (optane/outcome.ts writes the words). */
function outcomeSection(doc: ReportDocument): string {
  if (doc.outcomes.length === 0) return '';
  return `<section id="outcomes"><h3>Forecast and measured</h3>${doc.outcomes.map((p) =>
    `<p><strong>${esc(p.outcome.sentence)}</strong></p>${table(['', 'Forecast', 'Measured'], outcomeRows(p.outcome).map((r) => [r.what, r.forecast, r.measured]))}<p>Recorded ${esc(formatTime(p.recordedAt))}.</p>`).join('')}</section>`;
}

function optaneSection(v: OptaneVerdict | null, doc: ReportDocument): string {
  const out = ['<section id="optane"><h2>Should I add Optane?</h2>'];
  if (!v) return `${out[0]}${p('No verdict was computed for this assessment.')}</section>`;
  out.push(`<p class="verdict">Verdict: ${esc(VERDICT_TEXT[v.verdict])} <span class="meta">(confidence ${esc(v.confidence)}${v.pool ? `, pool ${esc(v.pool)}` : ''})</span></p>`, p(v.headline));
  if (v.reasons.length) out.push('<h3>Why</h3>', ul(v.reasons.map(prose)));
  if (v.evidence.length) out.push(table(['Evidence', 'Value'], v.evidence.map((e) => [e.label, evidenceValue(e)])));
  if (v.expected) {
    const e = v.expected;
    const row = (label: string, q: typeof e.qd1) => [label, formatEstimate(q.now), formatEstimate(q.withOptane), formatSpeedup(q.now.iops, q.withOptane.iops)];
    out.push('<h3>Expected 4K sync-write IOPS</h3>', table(['Queue depth', 'Now', 'With Optane SLOG', 'Gain'], [row('QD1', e.qd1), row('QD16', e.qd16)]));
    const chart = doc.charts.find((c) => c.id === 'chart-optane');
    if (chart) out.push(`<figure>${chartSvg(chart)}<figcaption class="meta">${esc(chart.description)}</figcaption></figure>`);
  }
  if (v.candidates.length) out.push('<h3>Candidates already in the machine</h3>', ul(v.candidates.map((c) => `<code>${esc(c.device)}</code>: ${esc(c.product)}, as ${esc(c.role)} (${esc(c.layout)})`)));
  if (v.purchase.length) out.push('<h3>What to buy</h3>', ul(v.purchase.map((x) => `${esc(x.product)}: ${prose(x.why)}`)));
  if (v.layout.commands.length) out.push(`<h3>Layout</h3>${p(`${REVERSIBLE_TEXT[v.layout.reversible]}; the first command is a dry run.`)}${pre(v.layout.commands.join('\n'))}`);
  if (v.unknowns.length) out.push('<h3>Still unknown</h3>', ul(v.unknowns.map((u) => `${esc(u.what)}: <code>${esc(u.howToMeasure)}</code>`)));
  out.push('</section>');
  return out.join('');
}

/** The platform's own way before the shell commands, as the UI and Markdown give it (native-way-text.ts). */
function nativeWayHtml(w: NativeWay): string {
  const t = nativeWayText(w);
  const out = [`<div class="native-way"><p><strong>${esc(w.platformName)}:</strong> ${prose(w.summary)}</p>`];
  if (t.refused) out.push(`<p><strong>Refused:</strong> ${prose(t.refused)}</p>`);
  if (t.ui) out.push(`<p><em>${esc(t.ui.heading)}:</em></p><ol>${t.ui.steps.map((s) => `<li>${prose(s)}</li>`).join('')}</ol>`);
  if (t.api) {
    out.push(`<p><em>${esc(t.api.heading)}:</em></p>`);
    out.push(`<ol type="a">${t.api.requests.map((r) => `<li>${prose(r.purpose)}${pre([r.call && `# JSON-RPC\n${r.call}`, r.rest && `# REST\n${r.rest}`, `# on the TrueNAS shell\n${r.midclt}`].filter(Boolean).join('\n'))}</li>`).join('')}</ol>`);
  }
  out.push(`<p><em>${esc(t.shellHeading)}:</em></p></div>`);
  return out.join('');
}

function findingHtml(f: Finding, n: number): string {
  const out = [`<article class="finding sev-${f.severity}" id="finding-${n}">`];
  out.push(`<h4>${n}. ${prose(f.title)}</h4>`);
  out.push(`<p class="meta"><span class="badge sev-${f.severity}">${esc(SEVERITY_LABEL[f.severity])}</span> ${esc(subjectText(f))} · rule <code>${esc(f.ruleId)}</code> · confidence ${esc(f.confidence)}</p>`);
  if (f.evidence.length) out.push(table(['Evidence', 'Value'], f.evidence.map((e) => [e.label, evidenceValue(e)])));
  out.push(`<p><strong>Why it matters:</strong> ${prose(f.explanation)}</p>`);
  if (f.action) {
    out.push(`<p><strong>What to do:</strong> ${prose(f.action.summary)}</p>`);
    if (f.action.native) out.push(nativeWayHtml(f.action.native));
    if (f.action.commands.length) out.push(pre(f.action.commands.join('\n')));
    out.push(`<p><strong>${esc(REVERSIBLE_TEXT[f.action.reversible])}:</strong> ${prose(f.action.reversibleWhy)}</p>`);
  } else out.push(p('What to do: nothing to run; this is for your information.'));
  const cites = reportCitations(f);
  if (cites.length) out.push(`<p><strong>Sources:</strong></p>${ul(cites.map((c) => link(c.url, c.text)))}`);
  out.push('</article>');
  return out.join('');
}

function benchmarkHtml(b: ReportBenchmark, i: number): string {
  const s = b.summary;
  const m = b.methodology;
  return `<article class="finding" id="bench-${i + 1}"><h3>${esc(m.profileTitle)} on ${esc(s.pool ?? s.target)} <span class="meta">(${esc(formatTime(s.startedAt))})</span></h3>${
    kv([
      ['status', s.status], ['write IOPS', int(s.writeIops)], ['read IOPS', int(s.readIops)],
      ['write throughput', `${bytes(s.writeBytesPerSec)}/s`], ['read throughput', `${bytes(s.readBytesPerSec)}/s`],
      ...benchmarkLatencyRows(b),
      ['wall time / fio runtime', `${evidenceValue({ value: s.wallSeconds, unit: 's' })} / ${evidenceValue({ value: s.fioRuntimeSeconds, unit: 's' })}`],
    ])
  }<h4>Methodology</h4>${ul([
    `profile <code>${esc(s.profile)}</code>${m.question ? `: ${esc(m.question)}` : ''}`,
    esc(`fio ${m.rw ? `rw=${m.rw}, ` : ''}block size ${bytes(m.blockSize)}, ${m.concurrency}, file size ${m.sizeBytes === null ? 'not recorded' : bytes(m.sizeBytes)}, runtime ${m.runtimeSeconds === null ? 'not recorded' : `${m.runtimeSeconds} s`}`),
    `sync mode <code>${esc(m.syncMode)}</code>: ${esc(m.syncModeText)}`,
    ...(m.reference ? [`method follows ${prose(m.reference)}`] : []),
  ])}${m.caveats.length ? `<h4>Caveats</h4>${ul(m.caveats.map(prose))}` : ''}</article>`;
}

export function renderHtml(doc: ReportDocument): string {
  const b: string[] = [];
  b.push(`<header><h1>${esc(doc.title)}</h1>`);
  b.push(`<p class="meta">Generated ${esc(formatTime(doc.generatedAt))} by ZFS Advisor ${esc(doc.appVersion)}, rule catalog ${esc(doc.ruleCatalogVersion)}. Data captured ${esc(formatTime(doc.source.capturedAt))} (${esc(doc.source.kind)}).</p>`);
  if (doc.source.demo) b.push('<p class="banner"><strong>Demo data.</strong> This report describes the bundled demo snapshot, not a real machine of yours.</p>');
  if (doc.redaction.applied) b.push(`<p class="banner"><strong>Redacted.</strong> Serial numbers, WWNs, GUIDs, host names and IP addresses${doc.redaction.names ? ', pool and dataset names' : ''} are replaced by tokens (SERIAL-1, HOST-1…), the same value always by the same token.</p>`);
  b.push('</header>');
  b.push('<nav aria-label="Contents"><ul><li><a href="#summary">Summary</a></li><li><a href="#optane">Should I add Optane?</a></li><li><a href="#findings">Findings</a></li><li><a href="#pools">Pools</a></li><li><a href="#drives">Drives</a></li><li><a href="#benchmarks">Benchmarks</a></li><li><a href="#datasets">Datasets</a></li><li><a href="#raw">Raw outputs</a></li></ul></nav>');
  b.push('<main>');
  b.push(`<section id="summary"><h2>Summary</h2>${ul([
    esc(`Host: ${doc.host.hostname ?? 'unknown'} (${hostLine(doc)})`),
    esc(`Pools: ${doc.pools.length ? doc.pools.map((x) => `${x.name} (${x.state ?? 'state unknown'}, ${bytes(x.sizeBytes)})`).join(', ') : 'none'}`),
    esc(`Findings: ${countsLine(doc)}`),
    ...(doc.optane ? [`Should I add Optane? <strong>${esc(VERDICT_TEXT[doc.optane.verdict])}</strong>: ${prose(doc.optane.headline)}`] : []),
    esc(`Benchmarks: ${doc.benchmarks.length ? plural(doc.benchmarks.length, 'run') : 'none recorded'}`),
  ])}</section>`);

  b.push(optaneSection(doc.optane, doc));
  b.push(outcomeSection(doc));

  b.push('<section id="findings"><h2>Findings</h2>');
  if (doc.findings.length === 0) b.push(p('No rule found anything to change.'));
  let n = 0;
  for (const g of findingsBySeverity(doc)) {
    b.push(`<h3 id="severity-${g.severity}">${esc(SEVERITY_LABEL[g.severity])} (${g.findings.length})</h3>`);
    for (const f of g.findings) b.push(findingHtml(f, ++n));
  }
  if (doc.rulesNotRun.length) {
    b.push('<h3 id="rules-not-run">Rules that could not judge</h3>');
    b.push(ul(doc.rulesNotRun.map((r) => `<code>${esc(r.ruleId)}</code> ${esc(r.title)}: ${prose((r.message ?? r.status).replace(/\.+$/, ''))}${r.missing.length ? prose(`. Needs: ${r.missing.map((m) => `${m.artifact} (${m.howToGet})`).join('; ')}`) : ''}`)));
  }
  b.push('</section>');

  b.push('<section id="pools"><h2>Pools</h2>');
  if (doc.pools.length === 0) b.push(p('No pools were found.'));
  doc.pools.forEach((x, i) => {
    b.push(`<h3 id="pool-${i + 1}">${esc(x.name)}</h3>`);
    b.push(kv([
      ['state', orUnknown(x.state)], ['size', bytes(x.sizeBytes)], ['allocated', bytes(x.allocBytes)], ['free', bytes(x.freeBytes)],
      ['capacity', pct(x.capacityPct)], ['fragmentation', pct(x.fragmentationPct)], ['dedup ratio', gain(x.dedupRatio)],
      ['ashift', orUnknown(x.ashift)], ['datasets and zvols', int(x.datasetCount)], ['last scan', orUnknown(x.scan)], ['errors', orUnknown(x.errors)],
    ]));
    b.push(pre(x.vdevTree));
  });
  b.push('</section>');

  b.push('<section id="drives"><h2>Drives</h2>');
  b.push(doc.drives.length === 0 ? p('No drive details were read.') : table(['Device', 'Model', 'Serial', 'Size', 'Type', 'SMART', 'Wear', 'Temp'], doc.drives.map((d) => [
    d.path ?? d.id, d.optane ?? d.model ?? ABSENT, d.serial ?? ABSENT, bytes(d.sizeBytes), `${d.media}/${d.transport}`,
    d.smartPassed === null ? ABSENT : d.smartPassed ? 'passed' : 'FAILED', pct(d.wearPct), d.temperatureC === null ? ABSENT : `${d.temperatureC} °C`,
  ])));
  b.push('</section>');

  b.push('<section id="benchmarks"><h2>Benchmarks</h2>');
  if (doc.benchmarks.length === 0) b.push('<p>No benchmark has been run on this host. <code>zfs-advisor bench --list</code> shows the guarded profiles.</p>');
  const bchart = doc.charts.find((c) => c.id === 'chart-benchmarks');
  if (bchart) b.push(`<figure>${chartSvg(bchart)}<figcaption class="meta">${esc(bchart.description)}</figcaption></figure>`);
  const schart = doc.charts.find((c) => c.id === 'chart-suite');
  if (schart) b.push(`<figure>${chartSvg(schart)}<figcaption class="meta">${esc(schart.description)}</figcaption></figure>`);
  doc.benchmarks.forEach((x, i) => b.push(benchmarkHtml(x, i)));
  b.push('</section>');

  b.push('<section id="datasets"><h2>Datasets</h2>');
  b.push(doc.datasets.length === 0 ? p('No datasets were read.') : table(['Dataset', 'Type', 'recordsize / volblocksize', 'sync', 'compression', 'used'], doc.datasets.map((d) => [
    d.name, d.type, d.type === 'volume' ? bytes(d.volblocksize) : bytes(d.recordsize), orUnknown(d.sync), orUnknown(d.compression), bytes(d.usedBytes),
  ])));
  b.push('</section>');

  if (doc.gaps.length) {
    b.push(`<section id="gaps"><h2>What could not be read</h2>${ul(doc.gaps.map((g) => prose(gapLine(g))))}</section>`);
  }

  b.push('<section id="raw"><h2>Appendix: raw command outputs</h2>');
  if (doc.rawOutputs.length === 0) b.push(p('No raw outputs are attached.'));
  doc.rawOutputs.forEach((r, i) => {
    const meta = `${r.command ?? 'command unknown'}${r.exitCode !== null ? `, exit code ${r.exitCode}` : ''}${r.error ? `, error: ${r.error}` : ''}${r.truncated ? `, cut to the first 64 KiB of ${r.originalBytes} bytes` : ''}`;
    b.push(`<details id="raw-${i + 1}"><summary><code>${esc(r.file)}</code> <span class="meta">${esc(meta)}</span></summary>${pre(r.text)}${r.stderr.trim() ? `<p>stderr:</p>${pre(r.stderr)}` : ''}</details>`);
  });
  b.push('</section>');
  b.push('</main>');
  b.push(`<footer>ZFS Advisor ${esc(doc.appVersion)} · rule catalog ${esc(doc.ruleCatalogVersion)} · report schema ${doc.reportSchemaVersion} · generated ${esc(formatTime(doc.generatedAt))}</footer>`);

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="ZFS Advisor ${esc(doc.appVersion)}">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(doc.title)}</title>
<style>${CSS}</style>
</head>
<body>
${b.join('\n')}
</body>
</html>
`;
}

/**
 * The PDF report, written with pdfkit (pure JavaScript). Why not Chromium printing the HTML:
 * the server runs on NAS appliances (TrueNAS, Proxmox) that have no browser, and pulling one in
 * for a report is hundreds of megabytes; pdfkit works wherever Node does. Same content as the
 * other formats: summary, pools with vdev trees, the Optane verdict with its chart, findings with
 * evidence, commands and reversibility, benchmarks with methodology, the raw outputs.
 *
 * DejaVu Sans and Sans Mono are embedded (pdf-text.ts): the vdev trees' box-drawing glyphs and
 * the arrows print as they do in the other formats; text stays extractable by pdftotext.
 */
import PDFDocument from 'pdfkit';
import type { Finding, NativeWay } from '../model/finding.ts';
import { nativeWayText } from '../planner/native-way-text.ts';
import { chartAxis, valueLabelFrac } from './charts.ts';
import type { Chart, ReportBenchmark, ReportDocument } from './document.ts';
import {
  ABSENT, REVERSIBLE_TEXT, gapLine, SEVERITY_LABEL, VERDICT_TEXT, bytes, gain, plural, countsLine, evidenceValue, findingsBySeverity, hostLine, int,
  benchmarkLatencyRows, orUnknown, pct, reportCitations, reportHref, subjectText,
} from './format.ts';
import { inlinePlain, parseInline } from '../text/markdown.ts';
import { formatEstimate, formatSpeedup, formatTime } from '../text/format.ts';
import { PDF_FONTS, pdfSafe } from './pdf-text.ts';
import { outcomeRows } from '../optane/outcome.ts';
import { SERIES_COLOURS } from './svg.ts';

type Doc = PDFKit.PDFDocument;

const MARGIN = 50;
const SANS = 'sans';
const BOLD = 'bold';
const MONO = 'mono';
/** A monospaced glyph is wider than a proportional one: code spans are set smaller to read at the text's size. */
const CODE_SCALE = 0.88;
const SEVERITY_COLOUR: Record<string, string> = { critical: '#a4161a', warning: '#c77700', suggestion: '#2b5ea7', info: '#6b6b6b' };

/** Writing helpers bound to one document; every string goes through pdfSafe. */
function writer(doc: Doc) {
  const width = () => doc.page.width - MARGIN * 2;
  const bottom = () => doc.page.height - MARGIN;
  const ensure = (h: number) => { if (doc.y + h > bottom()) doc.addPage(); };
  const w = {
    heading(level: 1 | 2 | 3, text: string) {
      const size = level === 1 ? 18 : level === 2 ? 14 : 11.5;
      ensure(size * 3);
      if (level <= 2) doc.moveDown(0.6);
      doc.font(BOLD).fontSize(size).fillColor('#111').text(pdfSafe(inlinePlain(text, reportHref)), MARGIN, doc.y, { width: width() });
      if (level === 2) {
        const y = doc.y + 2;
        doc.moveTo(MARGIN, y).lineTo(MARGIN + width(), y).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
        doc.y = y + 4;
      }
      doc.moveDown(0.3);
    },
    /** Text in the finding-text Markdown subset: code spans in the mono font, links clickable, no markup characters left. */
    para(text: string, opts: { bold?: string; colour?: string; size?: number } = {}) {
      const colour = opts.colour ?? '#1b1b1b';
      doc.fontSize(opts.size ?? 10).fillColor(colour);
      const size = opts.size ?? 10;
      const segments: { font: string; text: string; link?: string }[] = [];
      if (opts.bold) segments.push({ font: BOLD, text: `${opts.bold} ` });
      for (const t of parseInline(text)) {
        if (t.kind === 'code') segments.push({ font: MONO, text: t.text });
        else if (t.kind === 'strong') segments.push({ font: BOLD, text: t.text });
        else if (t.kind === 'link') segments.push({ font: SANS, text: t.text, link: reportHref(t.href) });
        else segments.push({ font: SANS, text: t.text });
      }
      if (segments.length === 0) segments.push({ font: SANS, text: '' });
      segments.forEach((seg, i) => {
        const last = i === segments.length - 1;
        const o = { width: width(), continued: !last, link: seg.link ?? null, underline: Boolean(seg.link) };
        doc.font(seg.font).fontSize(seg.font === MONO ? size * CODE_SCALE : size).fillColor(seg.link ? '#1a4d8f' : colour);
        if (i === 0) doc.text(pdfSafe(seg.text), MARGIN, doc.y, o); else doc.text(pdfSafe(seg.text), o);
      });
      doc.fontSize(size).fillColor(colour);
      doc.moveDown(0.35);
    },
    bullets(items: string[]) {
      doc.font(SANS).fontSize(10).fillColor('#1b1b1b');
      for (const it of items) doc.text(pdfSafe(`•  ${inlinePlain(it, reportHref)}`), MARGIN + 8, doc.y, { width: width() - 8, indent: 0 });
      doc.moveDown(0.35);
    },
    /** Two columns: label and value, the label in bold. */
    pairs(rows: [string, string][]) {
      doc.fontSize(9.5).fillColor('#1b1b1b');
      const labelW = 150;
      for (const [k, v] of rows) {
        const valueText = pdfSafe(inlinePlain(v, reportHref));
        const labelText = pdfSafe(k);
        const h = Math.max(
          doc.font(SANS).heightOfString(valueText, { width: width() - labelW }),
          doc.font(BOLD).heightOfString(labelText, { width: labelW - 8 }),
          12,
        );
        ensure(h);
        const y = doc.y;
        doc.font(BOLD).text(labelText, MARGIN, y, { width: labelW - 8 });
        doc.font(SANS).text(valueText, MARGIN + labelW, y, { width: width() - labelW });
        doc.y = Math.max(doc.y, y + h);
      }
      doc.moveDown(0.4);
    },
    mono(text: string, size = 8) {
      const body = pdfSafe(text.replace(/\s+$/, '') || '(no output)');
      doc.font(MONO).fontSize(size);
      const h = doc.heightOfString(body, { width: width() - 12 });
      // Short blocks stay on one page; long ones (raw outputs) flow across pages.
      if (h < 300) ensure(h + 8);
      const startY = doc.y;
      const startPage = doc.bufferedPageRange().start + doc.bufferedPageRange().count;
      doc.fillColor('#222').text(body, MARGIN + 6, doc.y + 4, { width: width() - 12 });
      const endPage = doc.bufferedPageRange().start + doc.bufferedPageRange().count;
      if (startPage === endPage) {
        doc.rect(MARGIN, startY, width(), doc.y - startY + 4).lineWidth(0.5).strokeColor('#cccccc').stroke();
      }
      doc.y += 8;
      doc.x = MARGIN;
    },
    chart(chart: Chart) {
      const axis = chartAxis(chart);
      const rowH = 16;
      const labelW = 190;
      const valueW = 55;
      const plotW = width() - labelW - valueW;
      const h = chart.bars.length * rowH + 40;
      ensure(h + 20);
      doc.font(BOLD).fontSize(10).fillColor('#111').text(pdfSafe(`${chart.title} (${chart.unit}${chart.scale === 'log' ? ', log scale' : ''})`), MARGIN, doc.y, { width: width() });
      const top = doc.y + 4;
      const x = (v: number) => MARGIN + labelW + axis.frac(v) * plotW;
      const axisY = top + chart.bars.length * rowH;
      doc.lineWidth(0.5).strokeColor('#cccccc');
      for (const t of axis.ticks) {
        doc.moveTo(x(t), top).lineTo(x(t), axisY).stroke();
        doc.font(SANS).fontSize(7).fillColor('#444').text(int(t), x(t) - 20, axisY + 3, { width: 40, align: 'center', lineBreak: false });
      }
      chart.bars.forEach((b, i) => {
        const y = top + i * rowH;
        const label = chart.bars.some((o) => o.label === b.label && o.series !== b.series) ? `${b.label} (${b.series})` : b.label;
        doc.font(SANS).fontSize(8).fillColor('#222').text(pdfSafe(label), MARGIN, y + 4, { width: labelW - 8, align: 'right', lineBreak: false, ellipsis: true, height: rowH });
        doc.rect(MARGIN + labelW, y + 3, Math.max(1, x(b.value) - MARGIN - labelW), rowH - 6).fill(SERIES_COLOURS[b.series] ?? '#555555');
        if (b.low !== null && b.high !== null) {
          const cy = y + rowH / 2;
          doc.lineWidth(1).strokeColor('#111').moveTo(x(b.low), cy).lineTo(x(b.high), cy).stroke();
          for (const e of [b.low, b.high]) doc.moveTo(x(e), cy - 4).lineTo(x(e), cy + 4).stroke();
        }
        // The number at the bar's (or its whisker's) end: a small bar is plainly small, not missing.
        doc.font(SANS).fontSize(8).fillColor('#222').text(int(b.value), MARGIN + labelW + valueLabelFrac(axis, b) * plotW + 4, y + 4, { width: valueW - 4, lineBreak: false });
      });
      doc.y = axisY + 16;
      doc.x = MARGIN;
      w.para(chart.description, { size: 8.5, colour: '#555555' });
    },
  };
  return w;
}

type W = ReturnType<typeof writer>;

function optaneSection(w: W, d: ReportDocument): void {
  w.heading(2, 'Should I add Optane?');
  const v = d.optane;
  if (!v) { w.para('No verdict was computed for this assessment.'); return; }
  w.para(`${VERDICT_TEXT[v.verdict]} (confidence ${v.confidence}${v.pool ? `, pool ${v.pool}` : ''})`, { bold: 'Verdict:' });
  w.para(v.headline);
  if (v.reasons.length) { w.heading(3, 'Why'); w.bullets(v.reasons); }
  if (v.evidence.length) w.pairs(v.evidence.map((e) => [e.label, evidenceValue(e)]));
  if (v.expected) {
    const e = v.expected;
    const row = (q: typeof e.qd1) => `now ${formatEstimate(q.now)}, with Optane SLOG ${formatEstimate(q.withOptane)}: ${formatSpeedup(q.now.iops, q.withOptane.iops)}`;
    w.heading(3, 'Expected 4K sync-write IOPS');
    w.pairs([['QD1', row(e.qd1)], ['QD16', row(e.qd16)]]);
    const chart = d.charts.find((c) => c.id === 'chart-optane');
    if (chart) w.chart(chart);
  }
  if (v.candidates.length) { w.heading(3, 'Candidates already in the machine'); w.bullets(v.candidates.map((c) => `${c.device}: ${c.product}, as ${c.role} (${c.layout})`)); }
  if (v.purchase.length) { w.heading(3, 'What to buy'); w.bullets(v.purchase.map((x) => `${x.product}: ${x.why}`)); }
  if (v.layout.commands.length) { w.heading(3, 'Layout'); w.para(`${REVERSIBLE_TEXT[v.layout.reversible]}; the first command is a dry run.`); w.mono(v.layout.commands.join('\n'), 8.5); }
  if (v.unknowns.length) { w.heading(3, 'Still unknown'); w.bullets(v.unknowns.map((u) => `${u.what}: ${u.howToMeasure}`)); }
}

/** Closing the loop: each stored pair, forecast beside measured (optane/outcome.ts writes the words). */
function outcomeSection(w: W, d: ReportDocument): void {
  if (d.outcomes.length === 0) return;
  w.heading(3, 'Forecast and measured');
  for (const p of d.outcomes) {
    w.para(p.outcome.sentence);
    w.pairs(outcomeRows(p.outcome).map((r) => [r.what, r.measured ? `forecast ${r.forecast}; measured ${r.measured}` : `forecast ${r.forecast}`]));
    w.para(`Recorded ${formatTime(p.recordedAt)}.`, { size: 9 });
  }
}

/** The platform's own way before the shell commands, as the UI and Markdown give it (native-way-text.ts). */
function nativeWay(w: W, n: NativeWay): void {
  const t = nativeWayText(n);
  w.para(n.summary, { bold: `${n.platformName}:` });
  if (t.refused) w.para(t.refused, { bold: 'Refused:' });
  if (t.ui) { w.para('', { bold: `${t.ui.heading}:` }); w.bullets(t.ui.steps.map((s, i) => `${i + 1}. ${s}`)); }
  if (t.api) {
    w.para('', { bold: `${t.api.heading}:` });
    t.api.requests.forEach((r, i) => {
      w.para(`${String.fromCharCode(97 + i)}. ${r.purpose}`);
      w.mono([r.call && `# JSON-RPC\n${r.call}`, r.rest && `# REST\n${r.rest}`, `# on the TrueNAS shell\n${r.midclt}`].filter(Boolean).join('\n'), 8);
    });
  }
  w.para('', { bold: `${t.shellHeading}:` });
}

function finding(w: W, doc: Doc, f: Finding, n: number): void {
  w.heading(3, `${n}. ${f.title}`);
  w.para(`${SEVERITY_LABEL[f.severity]} · ${subjectText(f)} · rule ${f.ruleId} · confidence ${f.confidence}`, { colour: SEVERITY_COLOUR[f.severity], size: 9 });
  if (f.evidence.length) w.pairs(f.evidence.map((e) => [e.label, evidenceValue(e)]));
  w.para(f.explanation, { bold: 'Why it matters:' });
  if (f.action) {
    w.para(f.action.summary, { bold: 'What to do:' });
    if (f.action.native) nativeWay(w, f.action.native);
    if (f.action.commands.length) w.mono(f.action.commands.join('\n'), 8.5);
    w.para(f.action.reversibleWhy, { bold: `${REVERSIBLE_TEXT[f.action.reversible]}:` });
  } else w.para('nothing to run; this is for your information.', { bold: 'What to do:' });
  const cites = reportCitations(f);
  if (cites.length) w.para(cites.map((c) => (c.url ? `[${c.text.replace(/[[\]]/g, '')}](${c.url})` : c.text)).join('; '), { bold: 'Sources:', size: 9 });
  doc.moveDown(0.3);
}

function benchmark(w: W, b: ReportBenchmark): void {
  const s = b.summary;
  const m = b.methodology;
  w.heading(3, `${m.profileTitle} on ${s.pool ?? s.target} (${formatTime(s.startedAt)})`);
  w.pairs([
    ['status', s.status], ['write IOPS', int(s.writeIops)], ['read IOPS', int(s.readIops)],
    ['write throughput', `${bytes(s.writeBytesPerSec)}/s`], ['read throughput', `${bytes(s.readBytesPerSec)}/s`],
    ...benchmarkLatencyRows(b),
    ['wall time / fio runtime', `${evidenceValue({ value: s.wallSeconds, unit: 's' })} / ${evidenceValue({ value: s.fioRuntimeSeconds, unit: 's' })}`],
  ]);
  w.para('', { bold: 'Methodology' });
  w.bullets([
    `profile ${s.profile}${m.question ? `: ${m.question}` : ''}`,
    `fio ${m.rw ? `rw=${m.rw}, ` : ''}block size ${bytes(m.blockSize)}, ${m.concurrency}, file size ${m.sizeBytes === null ? 'not recorded' : bytes(m.sizeBytes)}, runtime ${m.runtimeSeconds === null ? 'not recorded' : `${m.runtimeSeconds} s`}`,
    `sync mode ${m.syncMode}: ${m.syncModeText}`,
    ...(m.reference ? [`method follows ${m.reference}`] : []),
  ]);
  if (m.caveats.length) { w.para('', { bold: 'Caveats' }); w.bullets(m.caveats); }
}

function body(doc: Doc, d: ReportDocument, opts: PdfOptions): void {
  const w = writer(doc);
  w.heading(1, d.title);
  w.para(`Generated ${formatTime(d.generatedAt)} by ZFS Advisor ${d.appVersion}, rule catalog ${d.ruleCatalogVersion}. Data captured ${formatTime(d.source.capturedAt)} (${d.source.kind}).`, { colour: '#555555', size: 9 });
  if (d.source.demo) w.para('This report describes the bundled demo snapshot, not a real machine of yours.', { bold: 'Demo data.', colour: '#8a5a00' });
  if (d.redaction.applied) w.para(`Serial numbers, WWNs, GUIDs, host names and IP addresses${d.redaction.names ? ', pool and dataset names' : ''} are replaced by tokens (SERIAL-1, HOST-1…), the same value always by the same token.`, { bold: 'Redacted.', colour: '#8a5a00' });

  w.heading(2, 'Summary');
  w.bullets([
    `Host: ${d.host.hostname ?? 'unknown'} (${hostLine(d)})`,
    `Pools: ${d.pools.length ? d.pools.map((x) => `${x.name} (${x.state ?? 'state unknown'}, ${bytes(x.sizeBytes)})`).join(', ') : 'none'}`,
    `Findings: ${countsLine(d)}`,
    ...(d.optane ? [`Should I add Optane? ${VERDICT_TEXT[d.optane.verdict]}: ${d.optane.headline}`] : []),
    `Benchmarks: ${d.benchmarks.length ? plural(d.benchmarks.length, 'run') : 'none recorded'}`,
  ]);

  optaneSection(w, d);
  outcomeSection(w, d);

  w.heading(2, 'Findings');
  if (d.findings.length === 0) w.para('No rule found anything to change.');
  let n = 0;
  for (const g of findingsBySeverity(d)) {
    w.para(`${SEVERITY_LABEL[g.severity]} (${g.findings.length})`, { bold: '', colour: SEVERITY_COLOUR[g.severity], size: 12 });
    for (const f of g.findings) finding(w, doc, f, ++n);
  }
  if (d.rulesNotRun.length) {
    w.heading(3, 'Rules that could not judge');
    w.bullets(d.rulesNotRun.map((r) => `${r.ruleId} ${r.title}: ${(r.message ?? r.status).replace(/\.+$/, '')}${r.missing.length ? `. Needs: ${r.missing.map((m) => `${m.artifact} (${m.howToGet})`).join('; ')}` : ''}`));
  }

  w.heading(2, 'Pools');
  if (d.pools.length === 0) w.para('No pools were found.');
  for (const p of d.pools) {
    w.heading(3, p.name);
    w.pairs([
      ['state', orUnknown(p.state)], ['size / allocated / free', `${bytes(p.sizeBytes)} / ${bytes(p.allocBytes)} / ${bytes(p.freeBytes)}`],
      ['capacity / fragmentation', `${pct(p.capacityPct)} / ${pct(p.fragmentationPct)}`], ['dedup ratio', gain(p.dedupRatio)],
      ['ashift', orUnknown(p.ashift)], ['datasets and zvols', int(p.datasetCount)], ['last scan', orUnknown(p.scan)], ['errors', orUnknown(p.errors)],
    ]);
    w.mono(p.vdevTree, 8.5);
  }

  w.heading(2, 'Drives');
  if (d.drives.length === 0) w.para('No drive details were read.');
  for (const x of d.drives) {
    // The same absent mark as the Markdown and HTML tables, each value after its label.
    const model = x.optane ?? x.model;
    w.para(`${model ?? `model ${ABSENT}`}, serial ${x.serial ?? ABSENT}, ${bytes(x.sizeBytes)}, ${x.media}/${x.transport}, SMART ${x.smartPassed === null ? ABSENT : x.smartPassed ? 'passed' : 'FAILED'}, wear ${pct(x.wearPct)}, temperature ${x.temperatureC === null ? ABSENT : `${x.temperatureC} °C`}`, { bold: `${x.path ?? x.id}:`, size: 9 });
  }

  w.heading(2, 'Benchmarks');
  if (d.benchmarks.length === 0) w.para('No benchmark has been run on this host. `zfs-advisor bench --list` shows the guarded profiles.');
  const bchart = d.charts.find((c) => c.id === 'chart-benchmarks');
  if (bchart) w.chart(bchart);
  const schart = d.charts.find((c) => c.id === 'chart-suite');
  if (schart) w.chart(schart);
  for (const b of d.benchmarks) benchmark(w, b);

  w.heading(2, 'Datasets');
  if (d.datasets.length === 0) w.para('No datasets were read.');
  for (const x of d.datasets) {
    w.para(`${x.type}, ${x.type === 'volume' ? `volblocksize ${bytes(x.volblocksize)}` : `recordsize ${bytes(x.recordsize)}`}, sync ${orUnknown(x.sync)}, compression ${orUnknown(x.compression)}, used ${bytes(x.usedBytes)}`, { bold: `${x.name}:`, size: 9 });
  }

  if (d.gaps.length) {
    w.heading(2, 'What could not be read');
    w.bullets(d.gaps.map((g) => gapLine(g)));
  }

  if (!opts.appendix) {
    w.heading(2, 'Raw command outputs');
    w.para(d.rawOutputs.length === 0 ? 'No raw outputs were kept with this inventory.'
      : `${d.rawOutputs.length} raw command outputs are left out to keep this report short: zfs-advisor report --format pdf -o report.pdf --appendix appends them, and the HTML and JSON reports contain them.`);
    return;
  }
  w.heading(2, 'Appendix: raw command outputs');
  if (d.rawOutputs.length === 0) w.para('No raw outputs are attached.');
  for (const r of d.rawOutputs) {
    w.heading(3, r.file);
    w.para(`${r.command ?? 'unknown'}${r.exitCode !== null ? `, exit code ${r.exitCode}` : ''}${r.error ? `, error: ${r.error}` : ''}${r.truncated ? `, cut to the first 64 KiB of ${r.originalBytes} bytes` : ''}`, { bold: 'Command:', size: 9 });
    w.mono(r.text, 7);
    if (r.stderr.trim()) { w.para('stderr:', { size: 9 }); w.mono(r.stderr, 7); }
  }
}

/** Page footers once the page count is known. */
function footers(doc: Doc, d: ReportDocument): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the margin must not open a new page
    doc.font(SANS).fontSize(7.5).fillColor('#777777').text(
      pdfSafe(`ZFS Advisor ${d.appVersion} · rule catalog ${d.ruleCatalogVersion} · generated ${formatTime(d.generatedAt)}${d.redaction.applied ? ' · redacted' : ''}${d.source.demo ? ' · demo data' : ''} · page ${i - range.start + 1} of ${range.count}`),
      MARGIN, doc.page.height - 30, { width: doc.page.width - MARGIN * 2, align: 'center', lineBreak: false },
    );
    doc.page.margins.bottom = bottom;
  }
}

export interface PdfOptions {
  /** Append the raw command outputs (many pages on a real host); without it the PDF ends with the summary. */
  appendix?: boolean;
}

export function renderPdf(d: ReportDocument, opts: PdfOptions = {}): Promise<Buffer> {
  const created = new Date(d.generatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    font: PDF_FONTS.sans,
    info: {
      Title: pdfSafe(d.title),
      Author: 'ZFS Advisor',
      Subject: 'ZFS recommendations report',
      Creator: pdfSafe(`ZFS Advisor ${d.appVersion}`),
      CreationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    },
  });
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      doc.registerFont(SANS, PDF_FONTS.sans).registerFont(BOLD, PDF_FONTS.bold).registerFont(MONO, PDF_FONTS.mono);
      body(doc, d, opts);
      footers(doc, d);
      doc.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

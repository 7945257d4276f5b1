/**
 * PDF: a real document that poppler renders page by page, whose text holds every finding's title,
 * the verdict, the vdev tree and the raw outputs.
 */
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfSafe } from '../../server/src/report/pdf-text.ts';
import { renderReport, reportDocument } from '../../server/src/report/render.ts';
import { pdfPages, pdfText, popplerAvailable, writeTemp } from './pdf-tools.ts';
import { benchHistory, loadDemo, reportInput } from './support.ts';

const poppler = await popplerAvailable();
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

describe('PDF report', () => {
  it('keeps arrows and box drawing (the embedded DejaVu has them), keeps a number with its unit, marks what no font covers', () => {
    expect(pdfSafe('≤ 2.3 → ~241× faster, 12 µs, 0 %, └─ da1, naïve, Dvořák, 漢')).toBe('≤ 2.3 → ~241× faster, 12\u00a0µs, 0\u00a0%, └─ da1, naïve, Dvořák, ?');
  });

  it.runIf(poppler)('demo 000 with --appendix: every page renders and the text holds every finding, the verdict and the raw outputs', async () => {
    const input = reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory());
    const doc = reportDocument(input);
    const out = await renderReport(input, { format: 'pdf', appendix: true });
    expect(out.contentType).toBe('application/pdf');
    const body = out.body as Buffer;
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { dir, file } = writeTemp(out.fileName, body);
    dirs.push(dir);
    const text = flat(await pdfText(file));
    for (const f of doc.findings) expect(text).toContain(flat(pdfSafe(f.title)));
    expect(text).toContain('Verdict: Yes');
    expect(text).toContain('zpool add -n bench-pool log /dev/nvd1');
    expect(text).toContain('Sync write 4k, QD1 on fiopool');
    expect(text).toContain('sync mode fio-fsync');
    expect(text).toContain('└─ mirror-0 ONLINE');
    expect(text).toContain('├─ da1 ONLINE');
    expect(text).toContain('"serial_number": "PHOC209200KC058A"'); // raw smartctl output in the appendix
    const pageCount = Number(/page 1 of (\d+)/.exec(text)?.[1]);
    const pages = await pdfPages(file, dir);
    expect(pages.length).toBe(pageCount);
    expect(pages.length).toBeGreaterThan(3);
    for (const p of pages) {
      const png = readFileSync(p);
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.length).toBeGreaterThan(2000); // a blank 50-dpi A4 page compresses to far less
    }
  });

  it.runIf(poppler)('demo 000 without --appendix: at most 6 pages ending with the summary, every finding, no raw output, no Markdown left', async () => {
    const input = reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory());
    const doc = reportDocument(input);
    const out = await renderReport(input, { format: 'pdf' });
    const { dir, file } = writeTemp('000-short.pdf', out.body as Buffer);
    dirs.push(dir);
    const text = flat(await pdfText(file));
    for (const f of doc.findings) expect(text).toContain(flat(pdfSafe(f.title)));
    expect(text).toContain('Verdict: Yes');
    expect(text).not.toContain('"serial_number"');
    expect(text).toContain('11 raw command outputs are left out');
    const pages = Number(/page 1 of (\d+)/.exec(text)?.[1]);
    expect(pages).toBeGreaterThan(0);
    expect(pages).toBeLessThanOrEqual(6);
    // Finding text is rendered, not printed as Markdown: no code-span backticks, no [text](url).
    expect(text).not.toContain('`');
    expect(text).toContain('→'); // arrows print as arrows, not "->"
    expect(text).not.toContain('->');
    expect(text).not.toMatch(/\]\(https?:/);
    for (const f of doc.findings) expect(text).toContain(flat(pdfSafe(f.explanation.replace(/`/g, ''))).slice(0, 60));
  });

  it.runIf(poppler)('demo 001: every finding title is in the text', async () => {
    const input = reportInput(await loadDemo('001-raidz2-12disk'));
    const doc = reportDocument(input);
    const out = await renderReport(input, { format: 'pdf' });
    const { dir, file } = writeTemp('001.pdf', out.body as Buffer);
    dirs.push(dir);
    const text = flat(await pdfText(file));
    expect(doc.findings.length).toBe(3);
    for (const f of doc.findings) expect(text).toContain(flat(pdfSafe(f.title)));
    expect((await pdfPages(file, dir)).length).toBe(Number(/page 1 of (\d+)/.exec(text)?.[1]));
  });
});

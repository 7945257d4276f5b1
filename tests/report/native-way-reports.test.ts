/**
 * The platform's own way in every report format (issue 36 §1): on the TrueNAS CORE demo (reference
 * 000), the slog-benefit finding's UI steps, the API heading, the request and the midclt line in
 * CORE 13's spelling come before the zpool fallback — in the Markdown, the HTML and the PDF alike,
 * from the one text (native-way-text.ts).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { nativeWayText } from '../../server/src/planner/native-way-text.ts';
import { renderReport, reportDocument } from '../../server/src/report/render.ts';
import { pdfText, popplerAvailable, writeTemp } from './pdf-tools.ts';
import { loadDemo, reportInput } from './support.ts';

const poppler = await popplerAvailable();
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();
const unHtml = (s: string): string => s.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#39;|&#x27;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

async function expected() {
  const input = reportInput(await loadDemo('000-hdd-mirror-optane'));
  const f = reportDocument(input).findings.find((x) => x.ruleId === 'slog-benefit')!;
  const t = nativeWayText(f.action!.native!);
  // In reading order: the UI's first step, the API heading, the update's midclt line, then the shell heading and zpool add.
  return { input, order: [t.ui!.steps[0]!, t.api!.heading, t.api!.requests[1]!.midclt, t.shellHeading, f.action!.commands.at(-1)!] };
}

function inOrder(text: string, parts: string[]): void {
  let at = -1;
  for (const p of parts) {
    const i = text.indexOf(flat(p), at + 1);
    expect(i, p).toBeGreaterThan(at);
    at = i;
  }
}

describe('TrueNAS\'s own way in the reports (CORE 13 demo)', () => {
  it('the order and the midclt spelling are the CORE client\'s', async () => {
    const { order } = await expected();
    expect(order[2]).toMatch(/^midclt call -job pool\.update "\$\(midclt call pool\.query /);
    expect(order[1]).toContain('REST');
    expect(order[4]).toMatch(/^zpool add /);
  });

  it('Markdown', async () => {
    const { input, order } = await expected();
    inOrder(flat((await renderReport(input, { format: 'md' })).body as string), order);
  });

  it('HTML', async () => {
    const { input, order } = await expected();
    inOrder(flat(unHtml((await renderReport(input, { format: 'html' })).body as string)), order);
  });

  it.runIf(poppler)('PDF', async () => {
    const { input, order } = await expected();
    const out = await renderReport(input, { format: 'pdf' });
    const { dir, file } = writeTemp(out.fileName, out.body as Buffer);
    dirs.push(dir);
    // pdftotext breaks long lines where the page does: compare without white space.
    const squeeze = (s: string) => s.replace(/\s+/g, '');
    const text = squeeze(await pdfText(file));
    let at = -1;
    for (const p of order) { const i = text.indexOf(squeeze(p), at + 1); expect(i, p).toBeGreaterThan(at); at = i; }
  });
});

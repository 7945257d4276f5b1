/**
 * Markdown: exact snapshots of the demo reports (fixed generation time) and the forum rules —
 * no HTML outside code, every output in a closed fence, table rows with the header's columns.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderMarkdownAppendix, mdText } from '../../server/src/report/markdown.ts';
import { renderReport, reportDocument } from '../../server/src/report/render.ts';
import { join } from 'node:path';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { benchHistory, FIXTURES, loadDemo, reportInput } from './support.ts';

/** Lines outside fenced code blocks; throws when a fence is left open. */
function proseLines(md: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of md.split('\n')) {
    const m = /^(`{3,})/.exec(line);
    if (fence === null && m) { fence = m[1]!; continue; }
    if (fence !== null) { if (line === fence) fence = null; continue; }
    out.push(line);
  }
  if (fence !== null) throw new Error('unclosed code fence');
  return out;
}

describe('Markdown report', () => {
  it('matches the snapshot for demo 000 with benchmarks', async () => {
    const md = (await renderReport(reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory()), { format: 'md' })).body as string;
    await expect(md).toMatchFileSnapshot('./__snapshots__/demo-000.md');
  });

  it('matches the snapshot for demo 001 (12-wide raidz2)', async () => {
    const md = (await renderReport(reportInput(await loadDemo('001-raidz2-12disk')), { format: 'md' })).body as string;
    await expect(md).toMatchFileSnapshot('./__snapshots__/demo-001.md');
  });

  it('follows the forum rules: no HTML in prose, closed fences, consistent tables, every finding present, raw outputs in the appendix only', async () => {
    const doc = reportDocument(reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory()));
    const md = renderMarkdown(doc);
    const prose = proseLines(md);
    // No raw HTML tags outside code (escaped `\<` is fine; inline code spans are stripped first).
    for (const line of prose) expect(line.replace(/`[^`]*`/g, ''), line).not.toMatch(/(?<!\\)<\/?[A-Za-z][^>]*>/);
    for (const f of doc.findings) expect(md).toContain(`. ${mdText(f.title)}`);
    const appendix = renderMarkdownAppendix(doc);
    expect(() => proseLines(appendix)).not.toThrow();
    for (const r of doc.rawOutputs) {
      expect(md).not.toContain(`\`${r.file}\``);
      expect(appendix).toContain(`## \`${r.file}\``);
    }
    expect(md).toContain(`${doc.rawOutputs.length} raw command outputs are left out`);
    expect(renderMarkdown(doc, { appendixFile: 'r.appendix.md' })).toContain('are in `r.appendix.md`, attached separately');
    // Tables: each row has as many cells as its header.
    let cols = 0;
    for (const line of prose) {
      if (!line.startsWith('|')) { cols = 0; continue; }
      const n = line.replace(/\\\|/g, '').split('|').length - 2;
      if (cols === 0) cols = n; else expect(n, line).toBe(cols);
    }
    expect(md).toContain('```sh\nzfs inherit recordsize bench-pool\nzfs get recordsize bench-pool\n```');
  });

  it('fits one forum post (30,000 characters): both demos, and a host with 4 pools and 24 drives made of real outputs', async () => {
    const LIMIT = 30_000;
    const demo000 = (await renderReport(reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory()), { format: 'md' })).body as string;
    const demo001 = (await renderReport(reportInput(await loadDemo('001-raidz2-12disk')), { format: 'md' })).body as string;
    expect(demo000.length).toBeLessThanOrEqual(LIMIT);
    expect(demo001.length).toBeLessThanOrEqual(LIMIT);
    const big = await loadSnapshotInventory(join(FIXTURES, 'host-4pools-24drives'));
    const doc = reportDocument(reportInput(big, benchHistory()));
    expect(doc.pools).toHaveLength(4);
    expect(doc.drives).toHaveLength(24);
    expect(doc.findings.length).toBeGreaterThan(2);
    const md = renderMarkdown(doc);
    expect(md.length).toBeLessThanOrEqual(LIMIT);
    // Everything a helper needs is still there: every finding, every pool's tree, every drive.
    for (const f of doc.findings) expect(md).toContain(`. ${mdText(f.title)}`);
    for (const p of doc.pools) expect(md).toContain(`\`\`\`text\n${p.vdevTree}\n\`\`\``);
    for (const d of doc.drives) expect(md).toContain(`| ${mdText(d.path ?? d.id)} |`);
    // The raw outputs are what made the old report too long: they are left out, and counted.
    const rawBytes = doc.rawOutputs.reduce((n, r) => n + r.text.length, 0);
    expect(rawBytes).toBeGreaterThan(LIMIT);
    expect(md).toContain(`${doc.rawOutputs.length} raw command outputs are left out`);
  });

  it('escapes Markdown in values and keeps a fence that an output cannot close', async () => {
    expect(mdText('a*b_c <b> [x](y) | `zpool status`')).toBe('a\\*b\\_c \\<b\\> \\[x\\](y) \\| `zpool status`');
    const loaded = await loadDemo('000-hdd-mirror-optane');
    loaded.raw['uname.txt'] = { ...loaded.raw['uname.txt']!, text: 'before\n```\n<script>x</script>\nafter\n' };
    const md = renderMarkdownAppendix(reportDocument(reportInput(loaded)));
    expect(md).toContain('````text\nbefore\n```\n<script>x</script>\nafter\n````');
    expect(() => proseLines(md)).not.toThrow();
  });
});

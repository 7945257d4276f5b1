/**
 * HTML: one self-contained file. Parsed with happy-dom (no scripts run, nothing fetched) and
 * checked structurally: doctype, lang, charset, title, unique ids, every fragment link resolves,
 * every SVG chart has a title, no script/iframe/object/img/link elements, no external URL in any
 * resource attribute or CSS url(), only http(s) citation anchors, headings without skipped levels.
 */
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../server/src/report/html.ts';
import { reportDocument, renderReport } from '../../server/src/report/render.ts';
import { validate } from './html-validate.ts';
import { benchHistory, loadDemo, reportInput } from './support.ts';

describe('HTML report', () => {
  it('validates for demo 000 with benchmarks and charts, and makes no external request', async () => {
    const out = await renderReport(reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory()), { format: 'html' });
    expect(out.contentType).toBe('text/html; charset=utf-8');
    const html = out.body as string;
    expect(validate(html)).toEqual([]);
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html.match(/<details id="raw-/g)).toHaveLength(11);
    expect(html).toContain('@media print');
    // The only http(s) URLs are citation anchors.
    const urls = [...html.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0].replace(/&amp;/g, '&'));
    const anchors = [...html.matchAll(/<a href="(https:[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    // https://HOST/… is the platform's API address written for the reader to fill in (native way), not a request.
    for (const u of urls.filter((x) => !x.startsWith('https://HOST/'))) expect(anchors, u).toContain(u);
  });

  it('validates for demo 001 and shows every finding title and the vdev tree', async () => {
    const doc = reportDocument(reportInput(await loadDemo('001-raidz2-12disk')));
    const html = renderHtml(doc);
    expect(validate(html)).toEqual([]);
    for (const f of doc.findings) expect(html).toContain(`. ${f.title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</h4>`);
    expect(html).toContain('└─ da11  ONLINE');
  });

  it('escapes hostile text from raw outputs', async () => {
    const loaded = await loadDemo('000-hdd-mirror-optane');
    loaded.raw['uname.txt'] = { ...loaded.raw['uname.txt']!, text: '<img src="https://evil.example/x.png"><script>alert(1)</script>' };
    const html = renderHtml(reportDocument(reportInput(loaded)));
    expect(validate(html)).toEqual([]);
    expect(html).toContain('&lt;img src=&quot;https://evil.example/x.png&quot;&gt;&lt;script&gt;');
  });

  it('the validator catches what it claims to catch', () => {
    const base = '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src \'none\'"><title>t</title></head><body><h1>x</h1>';
    expect(validate(`${base}<img src="https://a.example/i.png" alt=""></body></html>`)).toEqual(expect.arrayContaining(['<img> present', '<img src>']));
    expect(validate(`${base}<p id="a"></p><p id="a"></p><a href="#b">b</a></body></html>`)).toEqual(['duplicate id a', 'dangling link #b']);
    expect(validate(`${base}<div style="background:url(https://a.example/x)"></div><h3>skip</h3></body></html>`)).toEqual(['url() in style attribute', 'heading H3 after h1: skip']);
  });
});

/**
 * The report includes the latest suite: a chart of its pairs whose description carries the
 * ratios, in Markdown, HTML and the document's charts; no suite, no chart.
 */
import { describe, expect, it } from 'vitest';
import { reportDocument, renderReport } from '../../server/src/report/render.ts';
import { suiteChart } from '../../server/src/bench/report-suite.ts';
import { suiteExport } from '../../server/src/bench/compare.ts';
import { demoSuites } from '../../server/src/bench/demo-suite.ts';
import { loadDemo, reportInput } from '../report/support.ts';

describe('latest suite in the report', () => {
  it('adds a sync-vs-async chart with the ratio to every format', async () => {
    const suite = suiteExport(demoSuites().before);
    const input = { ...reportInput(await loadDemo('000-hdd-mirror-optane')), suite };
    const doc = reportDocument(input);
    const chart = doc.charts.find((c) => c.id === 'chart-suite')!;
    expect(chart.bars.map((b) => [b.series, b.value])).toEqual([['sync', 894], ['async', 48300]]);
    expect(chart.description).toMatch(/sync ÷ async = 0\.02×/);
    expect(chart.description).toMatch(/demo data/);
    const md = (await renderReport(input, { format: 'md' })).body.toString();
    expect(md).toContain('Latest suite: Reference 000');
    const html = (await renderReport(input, { format: 'html' })).body.toString();
    expect(html).toContain('sync ÷ async = 0.02×');
    expect(reportDocument(reportInput(await loadDemo('000-hdd-mirror-optane'))).charts.some((c) => c.id === 'chart-suite')).toBe(false);
    expect(suiteChart(null)).toBeNull();
  });
});

/**
 * Closing the loop in the report (issue 34 §2): a stored "forecast (range), measured" pair is
 * carried by every format — the JSON document (validated by its schema), Markdown (exact
 * snapshot of the section), HTML and PDF — and redacting pool names reaches it too. Without a
 * pair the section is absent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { renderReport, reportDocument } from '../../server/src/report/render.ts';
import { ReportDocument } from '../../server/src/report/document.ts';
import { loopOutcome, type LoopOutcome } from '../../server/src/optane/outcome.ts';
import { pdfSafe } from '../../server/src/report/pdf-text.ts';
import { inClass, leaf } from '../support/builders.ts';
import { probeRun, storedForecast, verdictFor } from '../optane/outcome-fixtures.ts';
import { loadDemo, reportInput } from './support.ts';
import { pdfText, popplerAvailable, writeTemp } from './pdf-tools.ts';

const poppler = await popplerAvailable();
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const flat = (s: string) => s.replace(/\s+/g, ' ');

async function input000(withPair: boolean) {
  const loaded = await loadDemo('000-hdd-mirror-optane');
  const plain = loaded.inventory.pools[0]!;
  const logged = { ...plain, vdevs: [...plain.vdevs, inClass('log', leaf('nvd1'))] };
  const T0 = '2026-11-28T09:00:00.000Z';
  const T1 = '2026-11-28T09:30:00.000Z';
  const s = loopOutcome({
    forecasts: [storedForecast(2, T1, [logged], verdictFor('bench-pool')), storedForecast(1, T0, [plain], verdictFor('bench-pool'))],
    now: { snapshotId: 2, capturedAt: T1, pools: [logged] },
    runs: [
      probeRun('b', '2026-11-28T08:55:00.000Z', 88, { pool: 'bench-pool' }),
      probeRun('a', '2026-11-28T09:40:00.000Z', 729, { pool: 'bench-pool', topologyFingerprint: 'fp-b' }),
    ],
  });
  if (s.state !== 'measured') throw new Error(s.state);
  const outcome: LoopOutcome = s.outcome;
  return { ...reportInput(loaded), outcomes: withPair ? [{ id: 1, hostId: 'local', recordedAt: '2026-11-28T09:41:00.000Z', outcome }] : [] };
}

const section = (md: string) => md.slice(md.indexOf('### Forecast and measured'), md.indexOf('## Findings'));

describe('the report carries the pair', () => {
  it('JSON: the document holds the pair with forecast range, basis, before/after and the change, and validates', async () => {
    const out = await renderReport(await input000(true), { format: 'json' });
    const doc = ReportDocument.parse(JSON.parse(out.body as string));
    expect(doc.outcomes).toHaveLength(1);
    const o = doc.outcomes[0]!.outcome;
    expect(o.forecast).toMatchObject({ with: { iops: 700, low: 400, high: 1200 }, now: { iops: 88 }, basis: 'Intel Optane P1600X (to buy): catalog figure' });
    expect([o.before?.iops, o.after.iops, o.versusRange]).toEqual([88, 729, 'within']);
    expect(o.change.added).toEqual([{ class: 'log', vdev: 'nvd1', type: 'disk', devices: ['nvd1'] }]);
  });

  it('Markdown: the section, exactly', async () => {
    const md = (await renderReport(await input000(true), { format: 'md' })).body as string;
    expect(section(md)).toContain('**bench-pool: forecast \\~700 (400–1,200) sync IOPS at QD1 with Intel Optane P1600X (to buy), measured 729, 1.37 ms per durable write (p50) — within the forecast range (before: 88, 8.3× measured vs 8.0× forecast), after adding log nvd1.**');
    await expect(section(md)).toMatchFileSnapshot('./__snapshots__/outcome-000.md');
  });

  it('no pair, no section (the demo reports stay as they were)', async () => {
    const md = (await renderReport(await input000(false), { format: 'md' })).body as string;
    expect(md).not.toContain('Forecast and measured');
    const html = (await renderReport(await input000(false), { format: 'html' })).body as string;
    expect(html).not.toContain('id="outcomes"');
  });

  it('HTML: the sentence and the table, escaped', async () => {
    const html = (await renderReport(await input000(true), { format: 'html' })).body as string;
    expect(html).toContain('<section id="outcomes"><h3>Forecast and measured</h3><p><strong>bench-pool: forecast ~700 (400–1,200) sync IOPS at QD1 with Intel Optane P1600X (to buy), measured 729');
    expect(html).toContain('<th scope="col">Forecast</th><th scope="col">Measured</th>');
    expect(html).toContain('<td>QD1 4 KiB sync IOPS after</td><td>700 (400–1,200)</td><td>729 (run a, 2026-11-28 09:40 UTC)</td>');
  });

  it('redacting pool names reaches the pair', async () => {
    const out = await renderReport(await input000(true), { format: 'json', redact: { poolNames: true } });
    const doc = ReportDocument.parse(JSON.parse(out.body as string));
    expect(JSON.stringify(doc.outcomes)).not.toContain('bench-pool');
    expect(doc.outcomes[0]!.outcome.sentence).toMatch(/^POOL-1: forecast ~700/);
  });

  it.runIf(poppler)('PDF: the text holds the sentence and the rows', async () => {
    const input = await input000(true);
    expect(reportDocument(input).outcomes).toHaveLength(1);
    const out = await renderReport(input, { format: 'pdf' });
    const { dir, file } = writeTemp(out.fileName, out.body as Buffer);
    dirs.push(dir);
    const text = flat(await pdfText(file));
    expect(text).toContain('Forecast and measured');
    expect(text).toContain(flat(pdfSafe('bench-pool: forecast ~700 (400–1,200) sync IOPS at QD1 with Intel Optane P1600X (to buy), measured 729')));
    expect(text).toContain('forecast 700 (400–1,200); measured 729 (run a');
  });
});

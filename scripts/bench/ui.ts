/**
 * UI benchmarks (issue 6): production bundle size of the first page (gzip JS, target ≤ 300 KB)
 * and time to first render on localhost (target < 1 s) in the Debian Chromium, against the real
 * server on the demo snapshot. Five cold-context loads; the median is reported.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { launchChromium } from '../../tests/e2e/support/browser.ts';
import { startServer } from '../../tests/e2e/support/server.ts';

const root = join(import.meta.dirname, '..', '..');
const dist = join(root, 'ui', 'dist');

/** JS the first page loads: the entry script and its modulepreloads (lazy view chunks excluded). */
function firstPageScripts(html: string): string[] {
  const srcs = [...html.matchAll(/<script[^>]+src="([^"]+)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]!);
  return [...new Set(srcs)].map((s) => join(dist, s.replace(/^\.\//, '')));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function uiBench(): Promise<string> {
  await build({ configFile: join(root, 'ui', 'vite.config.ts'), logLevel: 'warn' });
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = firstPageScripts(html);
  const sizes = files.map((f) => { const b = readFileSync(f); return { f: f.slice(dist.length + 1), raw: b.length, gz: gzipSync(b, { level: 9 }).length }; });
  const gzTotal = sizes.reduce((s, x) => s + x.gz, 0);
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => gzipSync(readFileSync(join(dist, m[1]!.replace(/^\.\//, ''))), { level: 9 }).length).reduce((a, b) => a + b, 0);

  const server = await startServer({ demo: true });
  const b = await launchChromium();
  const renders: number[] = [];
  const fcps: number[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await ctx.newPage();
      await page.goto(server.url, { waitUntil: 'commit' });
      await page.waitForSelector('[data-testid="pool-card"]', { timeout: 30_000 });
      // From navigation start to the first pool card in the DOM (data fetched and rendered).
      renders.push(await page.evaluate(() => performance.now()));
      fcps.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN));
      await ctx.close();
    }
  } finally {
    await b.close();
    await server.stop();
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  return [
    '## UI (app tab)',
    '',
    `| measure | value | target |`,
    `|---|---|---|`,
    `| first-page JS, gzip (${sizes.length} files) | **${kb(gzTotal)}** | ≤ 300 KB |`,
    `| first-page CSS, gzip | ${kb(css)} | — |`,
    `| time to first render (first pool card, demo, localhost), median of 5 | **${median(renders).toFixed(0)} ms** (${renders.map((r) => r.toFixed(0)).join(', ')}) | < 1000 ms |`,
    `| first contentful paint, median of 5 | ${median(fcps).toFixed(0)} ms | — |`,
    '',
    `First-page files: ${sizes.map((s) => `\`${s.f}\` ${kb(s.raw)} raw / ${kb(s.gz)} gzip`).join('; ')}. Views with charts (chart.js) are lazy chunks loaded on navigation.`,
    'Lighthouse: see its own section (`npm run bench -- lighthouse`).',
  ].join('\n');
}

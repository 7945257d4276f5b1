/**
 * Lighthouse on the app tab (issue 6, "if it works here"): the npm `lighthouse` CLI driving the
 * Debian Chromium against the real server on the demo snapshot. Lighthouse is large and not a
 * project dependency: install it anywhere (`npm i lighthouse@12` in a scratch directory) and
 * point LIGHTHOUSE_CLI at its `cli/index.js`; without it this section says it was not run.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../../tests/e2e/support/server.ts';

const run = promisify(execFile);
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));

interface LhReport {
  lighthouseVersion: string;
  categories: Record<string, { score: number }>;
  audits: Record<string, { displayValue?: string }>;
}

export default async function lighthouseBench(): Promise<string> {
  const cli = process.env.LIGHTHOUSE_CLI;
  if (!cli || !existsSync(cli) || !CHROMIUM) {
    return '## Lighthouse\n\nNot run: set LIGHTHOUSE_CLI to an installed lighthouse `cli/index.js` (it is not a project dependency) and install Debian chromium.';
  }
  const server = await startServer({ demo: true });
  const out = join(mkdtempSync(join(tmpdir(), 'lh-')), 'report.json');
  try {
    await run(process.execPath, [cli, server.url, '--quiet', '--output=json', `--output-path=${out}`,
      '--only-categories=performance,accessibility,best-practices',
      '--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run'],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, timeout: 180_000 });
  } finally {
    await server.stop();
  }
  const r = JSON.parse(readFileSync(out, 'utf8')) as LhReport;
  const score = (k: string) => Math.round((r.categories[k]?.score ?? 0) * 100);
  const a = (k: string) => r.audits[k]?.displayValue ?? 'n/a';
  return [
    '## Lighthouse (demo snapshot, default mobile profile with simulated throttling)',
    '',
    '| performance | accessibility | best practices | FCP | LCP | TBT | CLS | speed index |',
    '|---|---|---|---|---|---|---|---|',
    `| ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${a('first-contentful-paint')} | ${a('largest-contentful-paint')} | ${a('total-blocking-time')} | ${a('cumulative-layout-shift')} | ${a('speed-index')} |`,
    '',
    `Lighthouse ${r.lighthouseVersion} with the Debian Chromium. The timings are Lighthouse's simulated slow-4G mobile estimates, not this machine's localhost times (see the UI section for those).`,
  ].join('\n');
}

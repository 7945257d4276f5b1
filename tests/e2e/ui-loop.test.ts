/**
 * Closing the loop in the app tab (issue 34 §2), real Chromium against the real server on a live
 * zfs-fuse pool: the pool is probed and assessed; the owner adds a log vdev (the test runs
 * `zpool add`, as a person would — the app never does); asking "Should I add Optane?" again shows
 * the offered re-probe beside the decision; one click runs it, and the page shows "forecast X
 * (range), measured Y" with its rows, at 1366×800, and the Markdown report carries the pair.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, type BrowserHandle } from './support/browser.ts';
import { startServer, type ServerHandle } from './support/server.ts';
import { axeSeriousViolations, horizontalOverflow, screenshot, settle } from './support/ui-checks.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';
import { fioAvailable } from '../bench/support.ts';

const live = chromiumAvailable() && zfsFuseAvailable() && fioAvailable();
const POOL = 'loopui';

describe.runIf(live)('closing the loop in the UI (Chromium, live zfs-fuse pool)', () => {
  let zf: ZfsFuseHandle;
  let server: ServerHandle;
  let b: BrowserHandle;
  let page: Page;
  const json = { 'content-type': 'application/json' };

  beforeAll(async () => {
    zf = await startZfsFuse();
    await zf.createPool(POOL, [await zf.fileVdev('loopui-a', '256M')]);
    server = await startServer({ args: ['--bench-max-load', '1000'] });
    b = await launchChromium();
    page = await (await b.browser.newContext({ viewport: { width: 1366, height: 800 } })).newPage();
    await server.signIn(page);
  }, 600_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await zf?.stop();
  }, 120_000);

  async function ask() {
    await page.goto(`${server.url}optane`);
    await settle(page);
    await page.click('[data-testid="ask-optane"]');
    await page.waitForSelector('[data-testid="verdict-word"]', { timeout: 120_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="ask-optane"]')?.hasAttribute('disabled'), undefined, { timeout: 120_000 });
    await settle(page);
  }

  it('probe, add a log vdev, press the offered re-probe: forecast and measured side by side', async () => {
    expect((await server.fetch('api/settings', { method: 'PATCH', headers: json, body: JSON.stringify({ benchmark: { maxLoad1: 1000 } }) })).status).toBe(200);
    // The "before" probe, as the Benchmarks page or the CLI would run it.
    const start = await server.fetch('api/hosts/local/bench/runs', { method: 'POST', headers: json, body: JSON.stringify({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: POOL }, sizeBytes: 8 * 1024 * 1024, runtimeS: 2, maxLoad1: 1000 }) });
    expect(start.status, await start.clone().text()).toBe(202);
    const runId = ((await start.json()) as { runId: string }).runId;
    await expect.poll(async () => ((await (await server.fetch(`api/bench/runs/${runId}`)).json()) as { status: string }).status, { timeout: 120_000, interval: 500 }).toBe('completed');
    await ask();
    expect(await page.locator('[data-testid="outcome-panel"]').count()).toBe(0); // nothing was added yet

    await zf.must('zpool', ['add', POOL, 'log', await zf.fileVdev('loopui-log', '128M')]);
    await ask();
    const panel = page.locator('[data-testid="outcome-panel"]');
    await panel.waitFor({ timeout: 30_000 });
    expect(await panel.locator('[data-testid="outcome-sentence"]').textContent()).toContain(`${POOL} has a new log loopui-log.img`);
    await page.click('[data-testid="reprobe"]');
    await page.waitForSelector('[data-testid="outcome-rows"]', { timeout: 180_000 });
    await settle(page);
    const sentence = (await panel.locator('[data-testid="outcome-sentence"]').textContent()) ?? '';
    expect(sentence).toMatch(new RegExp(`^${POOL}: forecast ~[\\d,.]+ \\([\\d,.–]+\\) sync IOPS at QD1 with [^,]+, measured [\\d,.]+`));
    expect(sentence).toContain('after adding log loopui-log.img.');
    const after = await panel.locator('[data-testid="outcome-rows"] tbody tr').nth(1).locator('td').allTextContents();
    expect(after[0]).toMatch(/^[\d,.]+ \([\d,.–]+\)$/); // forecast with its range
    expect(after[1]).toMatch(/^[\d,.]+ \(run /); // measured, with the run
    expect(await page.locator('main .state.error').allTextContents()).toEqual([]);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(await axeSeriousViolations(page), 'axe on the Optane page with the pair').toEqual([]);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'live-optane-loop-closed-1366');

    const report = await server.fetch('api/reports/md?host=local', { method: 'POST', headers: json, body: '{}' });
    expect(report.status).toBe(200);
    const md = await report.text();
    expect(md).toContain('### Forecast and measured');
    expect(md).toContain('after adding log loopui-log.img.');
  }, 480_000);
});

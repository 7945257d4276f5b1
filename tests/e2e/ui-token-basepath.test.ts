/**
 * The deployment shapes a NAS uses: the server bound to 0.0.0.0 (so it requires its token) behind a
 * base path (`--base-path /zfs-advisor/`, as behind a reverse proxy). The UI asks for the token,
 * then works; every view loads under the prefix, and no asset or API request misses it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, type BrowserHandle } from './support/browser.ts';
import { startServer, type ServerHandle } from './support/server.ts';
import { headerIsOneRow, screenshot, settle, VIEW_PATHS } from './support/ui-checks.ts';

const live = chromiumAvailable();
const BASE = '/zfs-advisor/';

describe.runIf(live)('UI with a token and a base path (Chromium)', () => {
  let server: ServerHandle;
  let b: BrowserHandle;
  let ctx: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  /** Every request the page made, with its status (0 = failed to connect). */
  const requests: { url: string; status: number }[] = [];

  beforeAll(async () => {
    server = await startServer({ demo: true, host: '0.0.0.0', basePath: BASE });
    b = await launchChromium();
    ctx = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
    page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => requests.push({ url: r.url(), status: r.status() }));
    page.on('requestfailed', (r) => requests.push({ url: r.url(), status: 0 }));
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await b?.close();
    await server?.stop();
  }, 60_000);

  it('asks for the token, refuses a wrong one, then loads the overview', async () => {
    expect(server.url).toMatch(/\/zfs-advisor\/$/);
    await page.goto(server.url);
    await page.waitForSelector('#token-title');
    expect(await page.locator('#token-title').textContent()).toContain('needs its access token');
    expect(await headerIsOneRow(page)).toBe(true);
    await screenshot(page, 'token-prompt-phone');

    await page.locator('#token').fill('not-the-token');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.locator('main [role="alert"]').textContent()).toBeTruthy();
    expect(await page.locator('#token-title').count()).toBe(1);

    const token = readFileSync(join(server.dataDir, 'api-token'), 'utf8').trim();
    await page.locator('#token').fill(token);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.waitForSelector('[data-testid="pool-card"]', { timeout: 30_000 });
    await settle(page);
    expect(await page.locator('#token-title').count()).toBe(0);
    expect(await page.locator('[data-testid="pool-card"]').first().textContent()).toContain('1 × MIRROR | 2 wide');
  }, 90_000);

  it('loads every view under the base path, by navigation and by direct URL', async () => {
    for (const v of VIEW_PATHS) {
      // Direct load (a bookmark or a reload): the server answers the deep path with index.html.
      await page.goto(`${server.url}${v}`);
      await settle(page);
      expect(new URL(page.url()).pathname).toBe(`${BASE}${v}`);
      expect(await page.locator('#token-title').count(), `token asked again on ${v}`).toBe(0);
      expect(await page.locator('main .state.error').allTextContents(), `errors on ${v || 'overview'}`).toEqual([]);
      expect(await headerIsOneRow(page), `header wraps on ${v || 'overview'}`).toBe(true);
    }
    // In-app navigation keeps the prefix.
    await page.goto(server.url);
    await settle(page);
    await page.getByRole('link', { name: 'Planner' }).click();
    await settle(page);
    expect(new URL(page.url()).pathname).toBe(`${BASE}planner`);
    await page.waitForSelector('[data-testid="layout-row"]');

    const own = requests.filter((r) => new URL(r.url).host === new URL(server.url).host);
    expect(own.length).toBeGreaterThan(10);
    expect(own.filter((r) => !new URL(r.url).pathname.startsWith(BASE)), 'requests outside the base path').toEqual([]);
    // 401s belong to the token prompt (before the token was given); nothing else may fail.
    const failed = own.filter((r) => r.status === 0 || (r.status >= 400 && r.status !== 401));
    expect(failed).toEqual([]);
    expect(own.some((r) => /\/assets\/.+\.js$/.test(new URL(r.url).pathname) && r.status === 200)).toBe(true);
    expect(own.some((r) => new URL(r.url).pathname === `${BASE}api/plan/layouts` && r.status === 200)).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);
});

/**
 * The app tab in real Chromium against the real server on a live zfs-fuse pool (the local host):
 * every view with screenshots and axe, the Optane assessment, and a short guarded benchmark
 * whose live progress reaches 100 %.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, type BrowserHandle } from './support/browser.ts';
import { startServer, type ServerHandle } from './support/server.ts';
import { existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { axeSeriousViolations, docsScreenshot, horizontalOverflow, screenshot, settle, VIEW_PATHS, VIEWPORTS } from './support/ui-checks.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';

const live = chromiumAvailable() && zfsFuseAvailable();
interface LsblkNode { name: string; type: string; mountpoints?: (string | null)[]; children?: LsblkNode[] }
const POOL = 'h10ui';

describe.runIf(live)('UI on a live zfs-fuse pool (Chromium)', () => {
  let zf: ZfsFuseHandle;
  let server: ServerHandle;
  let b: BrowserHandle;
  let page: Page;

  beforeAll(async () => {
    zf = await startZfsFuse();
    const a = await zf.fileVdev('h10a');
    const c = await zf.fileVdev('h10b');
    await zf.createPool(POOL, ['mirror', a, c]);
    server = await startServer({ args: ['--bench-max-load', '1000'] });
    b = await launchChromium();
    page = await (await b.browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    await server.signIn(page);
  }, 600_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await zf?.stop();
  }, 120_000);

  it('shows the live pool in every view without the demo label', async () => {
    // The startup assessment may still run: wait until the overview has the pool.
    await page.goto(server.url);
    await expect.poll(async () => { await page.reload(); await settle(page); return page.locator('[data-testid="pool-card"]').count(); }, { timeout: 60_000, interval: 2000 }).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="pool-card"]').first().textContent()).toContain('1 × MIRROR | 2 wide');
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      for (const v of VIEW_PATHS) {
        await page.goto(`${server.url}${v}`);
        await settle(page);
        expect(await page.locator('[data-testid="demo-banner"]').count()).toBe(0);
        await screenshot(page, `live-${v || 'overview'}-${vp.name}`);
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        if (vp.name === 'desktop') expect(await axeSeriousViolations(page), `axe on ${v || 'overview'}`).toEqual([]);
      }
    }
  }, 300_000);

  it('runs the Optane assessment', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${server.url}optane`);
    await settle(page);
    await page.click('[data-testid="ask-optane"]');
    await page.waitForSelector('[data-testid="verdict-word"]', { timeout: 120_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="ask-optane"]')?.hasAttribute('disabled'), undefined, { timeout: 120_000 });
    expect(['Yes', 'No', 'It depends', 'Replace the SLOG']).toContain((await page.locator('[data-testid="verdict-word"]').textContent())?.trim());
    await screenshot(page, 'live-optane-answered-desktop');
  }, 180_000);

  it('shows the mounted root disk as in use on every screen, never as a choice (issue 38 §1)', async () => {
    // The block device that holds / on this machine, as lsblk sees it (the disk, or the disk of its partition).
    const tree = JSON.parse(execFileSync('lsblk', ['-J', '-o', 'NAME,TYPE,MOUNTPOINTS'], { encoding: 'utf8' })) as { blockdevices: LsblkNode[] };
    const holdsRoot = (n: LsblkNode): boolean => (n.mountpoints ?? []).includes('/') || (n.children ?? []).some(holdsRoot);
    const disk = tree.blockdevices.find((d) => d.type === 'disk' && holdsRoot(d));
    expect(disk, 'no disk holds / on this machine (lsblk)').toBeDefined();
    const inv = await (await server.fetch('api/hosts/local/inventory')).json() as { inventory: { drives: { devPath: string | null; byIdPath: string | null }[] } };
    const drive = inv.inventory.drives.find((d) => d.devPath === `/dev/${disk!.name}`);
    expect(drive, `the inventory has no drive /dev/${disk!.name}`).toBeDefined();
    const name = drive!.byIdPath?.replace(/^\/dev\/disk\/by-id\//, '') ?? drive!.devPath!;
    const IN_USE = /in use: system disk \(.*mounted at \/\)/;

    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(server.url);
    await settle(page);
    const row = page.locator('[data-testid="drive-row"]').filter({ has: page.locator('td.mono', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });
    expect(await row.count()).toBe(1);
    expect(await row.locator('[data-testid="drive-roles"]').textContent()).toMatch(IN_USE);
    expect(await row.locator('[data-testid="drive-roles"]').textContent()).not.toMatch(/^unused$/);

    await page.goto(`${server.url}planner`);
    await page.waitForSelector('[data-testid="in-use-device"]', { timeout: 60_000 });
    const held = page.locator('[data-testid="in-use-device"]').filter({ hasText: name });
    expect(await held.count()).toBe(1);
    expect(await held.textContent()).toMatch(IN_USE);
    const box = held.locator('input[type="checkbox"]');
    expect(await box.isDisabled()).toBe(true);
    await box.click({ force: true });
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('[data-testid="add-device"]').evaluateAll((els, n) => els.filter((e) => (e.parentElement?.textContent ?? '').includes(n)).length, name)).toBe(0);
    await screenshot(page, 'live-planner-in-use-desktop');

    await page.goto(`${server.url}optane`);
    await settle(page);
    if (await page.locator('[data-testid="verdict-word"]').count() === 0) {
      await page.click('[data-testid="ask-optane"]');
      await page.waitForSelector('[data-testid="verdict-word"]', { timeout: 120_000 });
    }
    await page.waitForSelector('[data-testid="held-device"]', { timeout: 60_000 });
    const offered = await page.locator('[data-testid="device-probe-offer"]').allTextContents();
    expect(offered.filter((t) => t.includes(name))).toEqual([]);
    expect((await page.locator('[data-testid="held-device"]').allTextContents()).filter((t) => t.includes(name)).join('\n')).toMatch(IN_USE);
    await page.setViewportSize({ width: 1280, height: 720 }); // the next tests take the docs' screenshots at 1280×720
  }, 300_000);

  it('runs a short guarded benchmark whose progress reaches 100 %', async () => {
    // The load limit is server policy (a request may only tighten it): the operator raises it for this busy machine.
    const policy = await server.fetch('api/settings', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ benchmark: { maxLoad1: 1000 } }) });
    expect(policy.status).toBe(200);
    await page.goto(`${server.url}benchmarks`);
    await settle(page);
    await page.getByLabel('Profile').selectOption('sync-write-4k-qd1');
    await page.getByLabel('Pool', { exact: true }).selectOption(POOL);
    await page.getByLabel('Runtime (s)').fill('3');
    await page.getByLabel('File size (MiB)').fill('16');
    // The CI machine is shared: accept a busy host here (the load guard itself is tested in tests/bench).
    await page.getByRole('region', { name: 'New run' }).getByLabel('Max load (1 min)').fill('64');
    await page.click('[data-testid="dry-run"]');
    await page.waitForSelector('[data-testid="guards"], main .state.error', { timeout: 120_000 });
    await screenshot(page, 'live-benchmarks-guards-desktop');
    expect(await page.locator('main .state.error').allTextContents(), 'dry run failed').toEqual([]);
    expect(await page.locator('[data-testid="guards"] h3').textContent()).toContain('all passed');
    await page.click('[data-testid="start-bench"]');
    await page.waitForSelector('[data-testid="live-progress"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="progress-pct"]')?.textContent?.trim() === '100 %', undefined, { timeout: 180_000 });
    await page.waitForSelector('[data-testid="bench-result"]', { timeout: 30_000 });
    await settle(page);
    // The finished run's card shows its measured IOPS and latency, not "—" (issue 27).
    expect((await page.locator('[data-testid="run-iops"]').textContent())?.trim()).toMatch(/^\d/);
    expect((await page.locator('[data-testid="run-latency"]').textContent())?.trim()).toMatch(/^\d/);
    await screenshot(page, 'live-benchmarks-done-desktop');
    expect(await page.locator('[data-testid="bench-history"] tbody tr').count()).toBeGreaterThan(0);
    await page.locator('[data-testid="bench-result"]').scrollIntoViewIfNeeded();
    await docsScreenshot(page, 'benchmarks');
  }, 300_000);

  it('after that QD1 probe, the Optane verdict uses it for "now" instead of asking for it (issue 27)', async () => {
    await page.goto(`${server.url}optane`);
    await settle(page);
    // On a busy machine an assessment started before the run was stored can still be the one that
    // answers the first ask: ask again (at most three times) — a verdict that never uses the run fails.
    let card = '';
    // "not measured on this host" (the model's "now") must not end the asking.
    const usesRun = (t: string) => /(?<!not )measured on this host/.test(t) && !t.includes('the "now" figures are a model estimate');
    for (let attempt = 0; attempt < 3 && !usesRun(card); attempt++) {
      await page.click('[data-testid="ask-optane"]');
      await page.waitForSelector('[data-testid="verdict-word"]', { timeout: 120_000 });
      await page.waitForFunction(() => !document.querySelector('[data-testid="ask-optane"]')?.hasAttribute('disabled'), undefined, { timeout: 120_000 });
      card = (await page.locator('[data-testid="verdict-card"]').textContent()) ?? '';
    }
    expect(card).toMatch(/(?<!not )measured on this host/);
    expect(card).not.toContain('the "now" figures are a model estimate');
  }, 420_000);

  it('walks the pool\'s dataset from the sizing view and shows the measured histogram', async () => {
    // Three files of known sizes on the pool's root dataset, wherever the inventory says it is mounted.
    const inv = await (await server.fetch('api/hosts/local/inventory')).json() as { inventory: { datasets: { name: string; mountpoint: string | null }[] } };
    const mount = inv.inventory.datasets.find((d) => d.name === POOL)?.mountpoint ?? `/${POOL}`;
    expect(existsSync(mount), `${mount} is not mounted`).toBe(true);
    writeFileSync(join(mount, 'small.bin'), Buffer.alloc(3000, 1));
    writeFileSync(join(mount, 'medium.bin'), Buffer.alloc(40_000, 2));
    writeFileSync(join(mount, 'large.bin'), Buffer.alloc(1_000_000, 3));
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${server.url}sizing`);
    await settle(page);
    expect(await page.locator('[data-testid="sizes-blocked"]').count()).toBe(0);
    await page.getByTestId('sizes-dataset').selectOption(POOL);
    await page.click('[data-testid="sizes-start"]');
    await page.waitForSelector('#hist-title', { timeout: 120_000 });
    await settle(page);
    expect(await page.locator('main .state.error').allTextContents()).toEqual([]);
    // The histogram is titled by what the user picked: the dataset name.
    expect(await page.locator('#hist-title').textContent()).toContain(POOL);
    expect(await page.locator('main').textContent()).toContain('3 files');
    expect(await page.locator('[data-testid="sizes-history"] tbody tr').first().textContent()).toContain('completed');
    await screenshot(page, 'live-sizing-measured-desktop');
  }, 180_000);

  it('observes the workload for 10 s from the Optane view, with progress, and shows the fingerprint', async () => {
    await page.goto(`${server.url}optane`);
    await settle(page);
    const card = page.locator('[data-testid="observe-workload"]');
    await card.getByLabel('Window').selectOption('10');
    await card.locator('[data-testid="observe-start"]').click();
    await page.waitForSelector('[data-testid="observe-pct"]', { timeout: 30_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid="observe-start"]')?.hasAttribute('disabled'), undefined, { timeout: 90_000 });
    await settle(page);
    expect(await card.locator('.state.error').allTextContents()).toEqual([]);
    // The stored fingerprint is read back once the job ends: the header names it a moment later.
    await expect.poll(async () => (await card.locator('header').textContent()) ?? '', { timeout: 30_000 }).toContain('for 10 s');
    expect(await card.locator('table tbody tr').first().textContent()).toContain(POOL);
    await screenshot(page, 'live-optane-observed-desktop');
  }, 150_000);
  it('after `zpool add` in a shell, the Overview shows the new tree by itself (no "Run assessment now")', async () => {
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(server.url);
    await settle(page);
    const card = page.locator('[data-testid="pool-card"]').first();
    expect(await card.textContent()).not.toContain('h10log');
    const before = ((await (await server.fetch('api/hosts/local/assessments/latest')).json()) as { id: number }).id;
    // The owner adds a log device from a shell; nobody presses anything in the app.
    await zf.must('zpool', ['add', POOL, 'log', await zf.fileVdev('h10log', '128M')]);
    await expect.poll(async () => (await card.textContent()) ?? '', { timeout: 120_000, interval: 1000 }).toContain('h10log');
    // The page says why it changed, in the server's words, and the new assessment is stored.
    expect(await page.locator('[data-testid="refreshed-note"]').textContent()).toMatch(new RegExp(`Re-assessed by itself at .* after: ${POOL}: log .*h10log.* added\\.`));
    const after = ((await (await server.fetch('api/hosts/local/assessments/latest')).json()) as { id: number }).id;
    expect(after).toBeGreaterThan(before);
    const f = (await (await server.fetch('api/hosts/local/freshness')).json()) as { state: string; changes: string[] };
    expect(f).toMatchObject({ state: 'current', changes: [] });
    expect(await axeSeriousViolations(page)).toEqual([]);
    await screenshot(page, 'live-overview-refreshed-by-itself-1366');
  }, 240_000);
});

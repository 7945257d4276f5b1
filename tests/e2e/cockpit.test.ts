/**
 * The Cockpit page for real: Debian's cockpit-ws on loopback, a throw-away user logging in through
 * Cockpit's login page in Chromium, the "ZFS Advisor" menu entry, and the app inside Cockpit's
 * iframe talking to the real server through Cockpit's bridge (no token of its own).
 *
 * - default mode (server on loopback, under a --base-path read from the config file): the overview
 *   renders, the Optane question is answered with one click, Cockpit's dark style reaches the page;
 * - token mode (server bound to 0.0.0.0): a limited Cockpit session is refused with a message that
 *   names administrative access; a session with administrative access reads the root-only token
 *   file through the privileged bridge and gets in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, type BrowserHandle } from './support/browser.ts';
import { cockpitAvailable, createTestUser, installPackageForUser, loginCockpit, startCockpitWs, writeUserFile, type CockpitHandle, type TestUser } from './support/cockpit.ts';
import { startServer, type ServerHandle } from './support/server.ts';
import { docsScreenshot, screenshot } from './support/ui-checks.ts';

const live = chromiumAvailable() && cockpitAvailable();
const FRAME = 'iframe[name="cockpit1:localhost/zfs-advisor"]';

/** Points the user's copy of the package at a config file of the test (Cockpit's manifest override). */
function configure(user: TestUser, conf: string, tokenFile?: string): void {
  const confPath = join(user.home, 'zfs-advisor.conf');
  writeUserFile(user, confPath, conf);
  writeUserFile(user, join(user.home, '.config', 'cockpit', 'zfs-advisor.override.json'),
    JSON.stringify({ config: { serverConf: confPath, ...(tokenFile ? { tokenFile } : {}) } }));
}

describe.runIf(live)('Cockpit page (cockpit-ws, Chromium, the real server through the bridge)', () => {
  let cockpit: CockpitHandle;
  let user: TestUser;
  let b: BrowserHandle;
  const servers: ServerHandle[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    user = await createTestUser(true);
    await installPackageForUser(user);
    cockpit = await startCockpitWs();
    b = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await b?.close();
    await cockpit?.stop();
    await user?.remove();
    for (const s of servers) await s.stop();
  }, 120_000);

  async function open(superuser: 'any' | 'none', hash = ''): Promise<{ page: Page; frame: FrameLocator; problems: string[] }> {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 720 } });
    contexts.push(ctx);
    const page = await ctx.newPage();
    const problems: string[] = [];
    // Errors of our page (CSP refusals, exceptions); Cockpit's own shell warnings are not ours.
    page.on('console', (m) => {
      if (m.type() === 'error' && (m.location().url.includes('/zfs-advisor/') || /Content Security Policy/i.test(m.text()))) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await loginCockpit(page, cockpit.url, user, superuser);
    await page.getByRole('link', { name: 'ZFS Advisor' }).click();
    await page.waitForURL(/\/zfs-advisor/);
    if (hash) await page.goto(`${cockpit.url}zfs-advisor#${hash}`);
    return { page, frame: page.frameLocator(FRAME), problems };
  }

  it('shows the overview inside Cockpit, answers the Optane question with one click, and follows Cockpit\'s style', async () => {
    // --open-loopback: this case is about the page without a token (a limited Cockpit session).
    // By default the server asks for a credential on loopback too, and Cockpit then gets in the
    // way the token-mode case below shows (an administrative session reads the token).
    const server = await startServer({ demo: true, basePath: '/zfsa', args: ['--open-loopback'] });
    servers.push(server);
    const port = new URL(server.url).port;
    configure(user, `# as /etc/zfs-advisor/zfs-advisor.conf\nZFS_ADVISOR_HOST=127.0.0.1\nZFS_ADVISOR_PORT=${port}\nZFS_ADVISOR_EXTRA_ARGS=--base-path /zfsa --open-loopback\n`);

    const { page, frame, problems } = await open('none');
    // The overview of the demo host, drawn from the server's answers through the bridge.
    await expect.poll(() => frame.locator('[data-testid="pool-card"]').first().textContent(), { timeout: 60_000 }).toContain('1 × MIRROR | 2 wide');
    expect(await frame.locator('[data-testid="drive-row"]').count()).toBe(3);
    expect(await frame.locator('[data-testid="demo-banner"]').isVisible()).toBe(true);
    // Cockpit's login is the authentication: no token prompt, no theme choice of its own.
    expect(await frame.locator('#token').count()).toBe(0);
    expect(await frame.locator('select[aria-label="Theme"]').count()).toBe(0);
    await docsScreenshot(page, 'cockpit-overview');

    // Cockpit's own style switcher (Session menu → Style → Dark) reaches the page in the iframe.
    await page.click('#toggle-menu');
    await page.click('button#dark');
    await expect.poll(() => frame.locator('html').getAttribute('data-theme')).toBe('dark');
    const bg = await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, bl] = (bg.match(/\d+/g) ?? ['255', '255', '255']).map(Number);
    expect((r! + g! + bl!) / 3, `body background ${bg}`).toBeLessThan(80);
    await page.keyboard.press('Escape');

    // The one-click Optane answer (a POST through the bridge, then the verdict), the route in Cockpit's URL.
    await frame.getByRole('link', { name: 'Should I add Optane?' }).click();
    await expect.poll(() => page.url()).toMatch(/\/zfs-advisor#\/optane$/);
    await frame.locator('[data-testid="ask-optane"]').click();
    await expect.poll(async () => (await frame.locator('[data-testid="verdict-word"]').textContent().catch(() => ''))?.trim(), { timeout: 60_000 })
      .toMatch(/^(Yes|No|It depends)$/);
    await expect.poll(() => frame.locator('[data-testid="ask-optane"]').isDisabled(), { timeout: 60_000 }).toBe(false);
    await frame.locator('[data-testid="verdict-word"]').evaluate((el) => el.closest('article, section')?.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'cockpit-optane-dark');
    await docsScreenshot(page, 'cockpit-optane');

    // A reload keeps the view (the hash route survives in Cockpit's URL).
    await page.reload();
    await expect.poll(() => frame.locator('[data-testid="ask-optane"]').count(), { timeout: 60_000 }).toBe(1);
    expect(problems).toEqual([]);
    // The server saw the bridge's requests as a local client without a token.
    expect(server.log()).not.toMatch(/unauthorized/);
  }, 240_000);

  it('token mode: a limited session is told to turn on administrative access; an administrative session reads the root-only token and gets in', async () => {
    const server = await startServer({ demo: true, host: '0.0.0.0' });
    servers.push(server);
    const port = new URL(server.url).port;
    const tokenFile = join(server.dataDir, 'api-token');
    configure(user, `ZFS_ADVISOR_HOST=0.0.0.0\nZFS_ADVISOR_PORT=${port}\n`, tokenFile);
    // Without the token the API refuses (the server really is in token mode).
    expect((await fetch(`${server.url}api/hosts`)).status).toBe(401);

    const limited = await open('none');
    const alert = limited.frame.locator('main [role="alert"]');
    await expect.poll(() => alert.textContent(), { timeout: 60_000 }).toContain('administrative access');
    expect(await alert.textContent()).toContain(tokenFile);
    expect(await limited.frame.locator('[data-testid="pool-card"]').count()).toBe(0);
    await screenshot(limited.page, 'cockpit-token-limited');

    const admin = await open('any');
    await admin.page.getByText('Administrative access').first().waitFor({ timeout: 60_000 });
    await expect.poll(() => admin.frame.locator('[data-testid="pool-card"]').first().textContent(), { timeout: 60_000 }).toContain('1 × MIRROR');
    expect(admin.problems).toEqual([]);
    await screenshot(admin.page, 'cockpit-token-admin');
  }, 240_000);
});

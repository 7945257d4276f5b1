/**
 * The Cockpit page for real: Debian's cockpit-ws on loopback, a throw-away user logging in through
 * Cockpit's login page in Chromium, the "ZFS Advisor" menu entry, and the app inside Cockpit's
 * iframe talking to the real server (run as root, asking for a credential on TCP) through
 * Cockpit's bridge and the server's Unix socket — no token, nothing over TCP (issue 35).
 *
 * - the user's group named as the socket's operator group: a limited Cockpit session gets in
 *   (under a --base-path read from the config file), the overview renders, the Optane question is
 *   answered with one click, Cockpit's dark style reaches the page — and a listener on the port
 *   the config names receives not one request;
 * - a root-only socket: a limited session is refused with a message that names administrative
 *   access and the group; a session with administrative access connects as root and gets in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, type BrowserHandle } from './support/browser.ts';
import { cockpitAvailable, createTestUser, installPackageForUser, openAdvisorInCockpit, startCockpitWs, writeUserFile, type CockpitHandle, type TestUser } from './support/cockpit.ts';
import { startServer, type ServerHandle } from './support/server.ts';
import { docsScreenshot, screenshot } from './support/ui-checks.ts';

const live = chromiumAvailable() && cockpitAvailable();

/** Points the user's copy of the package at a config file of the test (Cockpit's manifest override). */
function configure(user: TestUser, conf: string): void {
  const confPath = join(user.home, 'zfs-advisor.conf');
  writeUserFile(user, confPath, conf);
  writeUserFile(user, join(user.home, '.config', 'cockpit', 'zfs-advisor.override.json'), JSON.stringify({ config: { serverConf: confPath } }));
}

/** A socket path whose parent the test user can enter (the server makes the last directory itself). */
function socketPath(): { path: string; remove: () => void } {
  const d = mkdtempSync(join(tmpdir(), 'zfsa-cockpit-run-'));
  chmodSync(d, 0o755);
  return { path: join(d, 'zfs-advisor', 'api.sock'), remove: () => rmSync(d, { recursive: true, force: true }) };
}

/** A listener on 127.0.0.1 and [::1] of a free port, counting what reaches it (what the page of old would have used). */
async function recordingListener(): Promise<{ port: number; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const a: Server = createServer((req, res) => { requests.push(`${req.method} ${req.url}`); res.writeHead(401).end(); });
  await new Promise<void>((r) => a.listen(0, '127.0.0.1', () => r()));
  const port = (a.address() as { port: number }).port;
  const b: Server = createServer((req, res) => { requests.push(`${req.method} ${req.url}`); res.writeHead(401).end(); });
  await new Promise<void>((r) => { b.once('error', () => r()); b.listen(port, '::1', () => r()); });
  return { port, requests, close: async () => { await new Promise((r) => a.close(r)); await new Promise((r) => b.close(r)); } };
}

describe.runIf(live)('Cockpit page (cockpit-ws, Chromium, the real server through the bridge)', () => {
  let cockpit: CockpitHandle;
  let user: TestUser;
  let b: BrowserHandle;
  const servers: ServerHandle[] = [];
  const contexts: BrowserContext[] = [];
  const cleanups: (() => void)[] = [];

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
    for (const c of cleanups) c();
  }, 120_000);

  async function open(superuser: 'any' | 'none', hash = ''): Promise<{ page: Page; frame: FrameLocator; problems: string[] }> {
    const { ctx, page, frame, problems } = await openAdvisorInCockpit(b.browser, cockpit.url, user, superuser);
    contexts.push(ctx);
    if (hash) await page.goto(`${cockpit.url}zfs-advisor#${hash}`);
    return { page, frame, problems };
  }

  it('shows the overview inside Cockpit through the socket (a limited session in the operator group), answers the Optane question with one click, and follows Cockpit\'s style', async () => {
    // The server asks for a credential on TCP (the default); the page never needs one.
    const sock = socketPath();
    cleanups.push(sock.remove);
    const server = await startServer({ demo: true, basePath: '/zfsa', args: ['--socket', sock.path, '--socket-group', String(user.gid)] });
    servers.push(server);
    expect((await fetch(`${server.url}api/hosts`)).status).toBe(401);
    // The port the config names is someone else's listener: the page must not send it anything.
    const decoy = await recordingListener();
    configure(user, `# as /etc/zfs-advisor/zfs-advisor.conf\nZFS_ADVISOR_HOST=127.0.0.1\nZFS_ADVISOR_PORT=${decoy.port}\nZFS_ADVISOR_SOCKET=${sock.path}\nZFS_ADVISOR_SOCKET_GROUP=${user.name}\nZFS_ADVISOR_EXTRA_ARGS=--base-path /zfsa\n`);

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
    // Everything went through the socket: the server refused nothing, the decoy got nothing.
    expect(server.log().match(/"status":401/g) ?? []).toHaveLength(1); // the probe above, without a credential
    expect(decoy.requests).toEqual([]);
    await decoy.close();
  }, 240_000);

  it('root-only socket: a limited session is told to turn on administrative access or join the group; an administrative session connects as root and gets in', async () => {
    const sock = socketPath();
    cleanups.push(sock.remove);
    const server = await startServer({ demo: true, args: ['--socket', sock.path] });
    servers.push(server);
    configure(user, `ZFS_ADVISOR_SOCKET=${sock.path}\n`);

    const limited = await open('none');
    const alert = limited.frame.locator('main [role="alert"]');
    await expect.poll(() => alert.textContent(), { timeout: 60_000 }).toContain('administrative access');
    expect(await alert.textContent()).toContain(sock.path);
    expect(await alert.textContent()).toContain('ZFS_ADVISOR_SOCKET_GROUP');
    expect(await limited.frame.locator('[data-testid="pool-card"]').count()).toBe(0);
    await screenshot(limited.page, 'cockpit-token-limited');

    const admin = await open('any');
    await admin.page.getByText('Administrative access').first().waitFor({ timeout: 60_000 });
    await expect.poll(() => admin.frame.locator('[data-testid="pool-card"]').first().textContent(), { timeout: 60_000 }).toContain('1 × MIRROR');
    expect(admin.problems).toEqual([]);
    await screenshot(admin.page, 'cockpit-token-admin');
  }, 240_000);
});

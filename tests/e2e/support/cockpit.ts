/**
 * Debian's Cockpit for the e2e test: a throw-away Linux user (created here, removed after, with
 * its processes and home), `cockpit-ws` on a loopback port without TLS, our Cockpit package in
 * that user's ~/.local/share/cockpit/zfs-advisor (where Cockpit looks for a user's packages), and
 * a login through Cockpit's own login page. Needs root (useradd, cockpit-session's PAM login).
 */
import { chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { background, mustTool, tool } from '../../packaging/support/tool.ts';
import { freePort } from './server.ts';

const must = (cmd: string, args: string[], input?: string) => mustTool(cmd, args, { timeoutMs: 60_000, input });

export const COCKPIT_WS = '/usr/lib/cockpit/cockpit-ws';
const REPO = join(import.meta.dirname, '..', '..', '..');

/** Whether Cockpit can be driven here; under CI=true anything missing is an error. */
export function cockpitAvailable(): boolean {
  const missing = [COCKPIT_WS, '/usr/share/cockpit/base1', '/usr/share/cockpit/shell', '/usr/sbin/useradd', '/usr/bin/sudo'].filter((p) => !existsSync(p));
  const root = process.getuid?.() === 0;
  if ((missing.length > 0 || !root) && process.env.CI === 'true') {
    throw new Error(`the Cockpit e2e test needs root and Debian's cockpit-ws, cockpit-system and sudo (missing: ${missing.join(', ') || 'none'}; root: ${root})`);
  }
  return missing.length === 0 && root;
}

export interface TestUser {
  name: string;
  password: string;
  home: string;
  uid: number;
  gid: number;
  remove(): Promise<void>;
}

/** A user with a random name and password; `admin` puts it in the sudo group (Cockpit's administrative access). */
export async function createTestUser(admin: boolean): Promise<TestUser> {
  const name = `zfsack${randomBytes(3).toString('hex')}`;
  const password = `Pw-${randomBytes(12).toString('base64url')}`;
  await must('useradd', ['--create-home', '--shell', '/bin/bash', ...(admin ? ['--groups', 'sudo'] : []), name]);
  await must('chpasswd', [], `${name}:${password}\n`);
  const uid = Number((await must('id', ['-u', name])).trim());
  const gid = Number((await must('id', ['-g', name])).trim());
  return {
    name, password, home: `/home/${name}`, uid, gid,
    async remove() {
      // Cockpit's session processes end when cockpit-ws stops; wait for them, then end any left by pid.
      for (let i = 0; i < 40; i++) {
        const ps = await tool('ps', ['-o', 'pid=', '-u', name]);
        const pids = ps.stdout.split('\n').map((l) => Number(l.trim())).filter((n) => n > 0);
        if (pids.length === 0) break;
        if (i >= 20) for (const pid of pids) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
        await new Promise((r) => setTimeout(r, 250));
      }
      await tool('userdel', ['--remove', name], { timeoutMs: 60_000 });
    },
  };
}

/** Writes `file` (creating its directories) owned by the user, as a package or config file of theirs. */
export function writeUserFile(user: TestUser, path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text, { mode: 0o644 });
  for (let p = path; p.startsWith(`${user.home}/`); p = join(p, '..')) chownSync(p, user.uid, user.gid);
}

/** Builds the Cockpit package (plugin/cockpit/build-cockpit.mjs) into the user's own Cockpit package directory. */
export async function installPackageForUser(user: TestUser): Promise<string> {
  const dir = join(user.home, '.local', 'share', 'cockpit', 'zfs-advisor');
  await must(process.execPath, [join(REPO, 'plugin', 'cockpit', 'build-cockpit.mjs'), '--out', dir]);
  await must('chown', ['-R', `${user.uid}:${user.gid}`, join(user.home, '.local')]);
  return dir;
}

export interface CockpitHandle {
  url: string;
  log(): string;
  stop(): Promise<void>;
}

export async function startCockpitWs(): Promise<CockpitHandle> {
  const port = await freePort();
  const ws = background(COCKPIT_WS, ['--no-tls', '--address', '127.0.0.1', '--port', String(port)]);
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) { await ws.stop(); throw new Error(`cockpit-ws did not start:\n${ws.output()}`); }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    log: ws.output,
    stop: ws.stop,
  };
}

/**
 * Logs in through Cockpit's login page. `superuser: 'any'` is what Cockpit remembers after a user
 * chose administrative access once (localStorage `superuser:USER`): the login then starts the
 * privileged bridge with the same password through sudo.
 */
export async function loginCockpit(page: Page, url: string, user: Pick<TestUser, 'name' | 'password'>, superuser: 'any' | 'none', timeoutMs = 60_000): Promise<void> {
  await page.goto(url);
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [`superuser:${user.name}`, superuser]);
  await page.fill('#login-user-input', user.name);
  await page.fill('#login-password-input', user.password);
  await page.click('#login-button');
  try {
    await page.waitForURL(/\/system/, { timeout: timeoutMs });
  } catch (e) {
    // A refused login and a slow one both end here: say which.
    const said = (await page.locator('#login-error-message').textContent({ timeout: 1_000 }).catch(() => null))?.trim();
    throw new Error(`Cockpit did not log ${user.name} in within ${timeoutMs / 1000} s: ${said ? `its login page says "${said}"` : 'its login page shows no error'}`, { cause: e });
  }
}

/** The frame Cockpit opens our package in. */
export const ADVISOR_FRAME = 'iframe[name="cockpit1:localhost/zfs-advisor"]';

/**
 * A new browser context logged in to Cockpit at `url`, on the "ZFS Advisor" menu entry: its page,
 * the package's frame, and the errors our page logged meanwhile and later (its exceptions, console
 * errors from /zfs-advisor/ and CSP refusals; Cockpit's own shell warnings are not ours).
 */
export async function openAdvisorInCockpit(browser: Browser, url: string, user: Pick<TestUser, 'name' | 'password'>, superuser: 'any' | 'none', loginTimeoutMs?: number):
  Promise<{ ctx: BrowserContext; page: Page; frame: FrameLocator; problems: string[] }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await ctx.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (process.env.COCKPIT_CONSOLE) console.log(m.type(), m.location().url, JSON.stringify(m.text()));
    if (m.type() === 'error' && (m.location().url.includes('/zfs-advisor/') || /Content Security Policy/i.test(m.text()))) problems.push(`${m.text()} (${m.location().url}:${m.location().lineNumber})`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await loginCockpit(page, url, user, superuser, loginTimeoutMs);
  await page.getByRole('link', { name: 'ZFS Advisor' }).click({ timeout: 120_000 });
  await page.waitForURL(/\/zfs-advisor/);
  return { ctx, page, frame: page.frameLocator(ADVISOR_FRAME), problems };
}

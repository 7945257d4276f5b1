/**
 * `npm run cockpit` (plugin/cockpit/dev-cockpit.mjs): the Cockpit page from a checkout in one
 * command, for the current user — built, linked into the user's Cockpit package directory, pointed
 * at the server `npm start` runs, and the URL printed; run again it replaces only what it made,
 * never a package or an override of someone else; --unregister removes both.
 * Run with HOME and the XDG directories in a temporary directory: this user's own Cockpit is untouched.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const home = mkdtempSync(join(tmpdir(), 'zfsa-cockpit-dev-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cockpit(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.XDG_DATA_HOME; delete env.XDG_CONFIG_HOME; delete env.XDG_STATE_HOME; delete env.ZFS_ADVISOR_PORT;
  return spawnSync(process.execPath, [join(ROOT, 'plugin', 'cockpit', 'dev-cockpit.mjs'), ...args], { cwd: ROOT, env, encoding: 'utf8' });
}

describe('npm run cockpit', () => {
  const link = join(home, '.local', 'share', 'cockpit', 'zfs-advisor');
  const override = join(home, '.config', 'cockpit', 'zfs-advisor.override.json');

  it('is the package.json script', () => {
    expect((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.cockpit).toBe('node plugin/cockpit/dev-cockpit.mjs');
  });

  it('builds the page, links it for this user, points it at npm start\'s server and prints the URL', () => {
    const r = cockpit('--port', '8090');
    expect(r.status, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const pkg = readlinkSync(link);
    expect(pkg).toBe(join(ROOT, 'dist', 'cockpit', 'zfs-advisor'));
    // Cockpit's own scripts load first, then the app; the manifest names the page.
    expect(readFileSync(join(pkg, 'index.html'), 'utf8')).toMatch(/<script src="\.\.\/base1\/cockpit\.js"><\/script>[\s\S]*<script type="module"/);
    expect((JSON.parse(readFileSync(join(pkg, 'manifest.json'), 'utf8')) as { menu: { index: { label: string } } }).menu.index.label).toBe('ZFS Advisor');
    const o = JSON.parse(readFileSync(override, 'utf8')) as { config: Record<string, string> };
    expect(o.config).toEqual({ serverConf: join(ROOT, 'dist', 'cockpit', 'zfs-advisor.conf') });
    // The page talks to the Unix socket `npm start` listens on in the user's state directory (no token).
    expect(readFileSync(o.config.serverConf!, 'utf8')).toContain(`ZFS_ADVISOR_SOCKET=${join(home, '.local', 'state', 'zfs-advisor', 'api.sock')}\nZFS_ADVISOR_PORT=8090\n`);
    expect(r.stdout).toContain('Open https://localhost:9090/zfs-advisor');
    expect(r.stdout).toContain('npm start (with ZFS_ADVISOR_PORT=8090)');
    // Again: replaces its own link and override.
    expect(cockpit().status).toBe(0);
    expect(readFileSync(o.config.serverConf!, 'utf8')).toContain('ZFS_ADVISOR_PORT=8080');
  }, 300_000);

  it('leaves alone what it did not make, unless --force; --unregister removes its own', () => {
    writeFileSync(override, '{"config":{"serverConf":"/etc/zfs-advisor/zfs-advisor.conf"}}\n');
    const refused = cockpit();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('was not written by this script');
    expect(readFileSync(override, 'utf8')).toContain('/etc/zfs-advisor');
    expect(cockpit('--force').status).toBe(0);
    expect(cockpit('--port', 'banana').status).toBe(64);
    const un = cockpit('--unregister');
    expect(un.status).toBe(0);
    expect(existsSync(link)).toBe(false);
    expect(existsSync(override)).toBe(false);
    mkdirSync(link, { recursive: true });
    expect(cockpit().stderr).toContain('was not made by this script');
    expect(lstatSync(link).isDirectory()).toBe(true);
  }, 300_000);
});

/**
 * The Proxmox VE / Debian package, end to end on this (plain Debian) machine: build it with
 * plugin/debian/build-deb.sh, lint it (lintian, systemd-analyze verify, shellcheck), check the
 * one-line installer's checksum gate, install it with dpkg -i, start the INSTALLED server
 * without systemd, GET /api/health, purge it and check that nothing is left.
 *
 * Needs root, dpkg, lintian, shellcheck and systemd-analyze; outside CI it is skipped when one is
 * missing, under CI=true a missing tool fails. It refuses to run where zfs-advisor is already
 * installed or /var/lib/zfs-advisor exists (it would purge someone's data).
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, runStreaming } from '../../server/src/exec/runner.ts';

const REPO = join(import.meta.dirname, '..', '..');
const DEB_DIR = join(REPO, 'plugin', 'debian');
const BUILD = join(DEB_DIR, 'build-deb.sh');
const INSTALLER = join(REPO, 'plugin', 'install.sh');
const TOOLS = ['dpkg', 'dpkg-deb', 'lintian', 'shellcheck', 'systemd-analyze'] as const;

async function has(program: string): Promise<boolean> {
  const r = await runCommand(program, ['--version'], { timeoutMs: 20_000 });
  return r.error === null;
}

const toolsPresent = (await Promise.all(TOOLS.map(has))).every(Boolean);
const isRoot = process.getuid?.() === 0;
const installed = (await runCommand('dpkg-query', ['-W', 'zfs-advisor'])).exitCode === 0;
const canRun = toolsPresent && isRoot && !installed && !existsSync('/var/lib/zfs-advisor');
if (process.env.CI === 'true' && !canRun) {
  throw new Error(`packaging test needs root, ${TOOLS.join(', ')}, and no zfs-advisor installed (tools: ${toolsPresent}, root: ${isRoot}, installed: ${installed})`);
}

describe.runIf(canRun)('Debian package (build, lint, install, purge)', () => {
  let out = '';
  let deb = '';
  let sha = '';

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'zfs-advisor-deb-test-'));
    const args = ['--fast', '--out', out];
    if (!existsSync(join(REPO, 'ui', 'dist', 'index.html'))) args.push('--no-ui');
    const r = await runCommand(BUILD, args, { timeoutMs: 300_000, env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' } });
    expect(r.error, r.stderr).toBeNull();
    expect(r.exitCode, r.stderr).toBe(0);
    const m = /^built (.+\.deb)$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    deb = m![1]!;
    sha = readFileSync(`${deb}.sha256`, 'utf8').split(' ')[0]!;
  }, 320_000);

  afterAll(async () => {
    // Leave the machine as it was even when an assertion failed half-way.
    if ((await runCommand('dpkg-query', ['-W', 'zfs-advisor'])).exitCode === 0) await runCommand('dpkg', ['--purge', 'zfs-advisor'], { timeoutMs: 120_000 });
    if (out) rmSync(out, { recursive: true, force: true });
  }, 130_000);

  it('shellcheck accepts the maintainer scripts, the CLI wrapper, build-deb.sh and install.sh', async () => {
    const files = ['postinst', 'prerm', 'postrm', 'zfs-advisor.sh', 'build-deb.sh'].map((f) => join(DEB_DIR, f));
    const r = await runCommand('shellcheck', [...files, INSTALLER, join(REPO, 'plugin', 'docker', 'entrypoint.sh')]);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });

  it('the unit runs the bundled server; the CLI wrapper stays on tsx', () => {
    const unit = readFileSync(join(DEB_DIR, 'zfs-advisor.service'), 'utf8');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \/usr\/lib\/zfs-advisor\/dist\/server\.mjs serve /m);
    expect(readFileSync(join(DEB_DIR, 'zfs-advisor.sh'), 'utf8')).toMatch(/^exec \/usr\/bin\/node \/usr\/lib\/zfs-advisor\/server\/bin\/zfs-advisor\.js "\$@"$/m);
  });

  it('systemd-analyze verify accepts the unit', async () => {
    const r = await runCommand('systemd-analyze', ['verify', join(DEB_DIR, 'zfs-advisor.service')], { timeoutMs: 60_000 });
    expect(r.stderr.trim()).toBe('');
    expect(r.exitCode).toBe(0);
  });

  it('control data: dependencies, conffile, and nothing in Proxmox VE\'s own paths', async () => {
    const info = await runCommand('dpkg-deb', ['-f', deb]);
    expect(info.stdout).toMatch(/^Package: zfs-advisor$/m);
    expect(info.stdout).toMatch(/^Depends: nodejs \(>= 20\), nodejs \(<< \d+\), fio, libc6/m);
    expect(info.stdout).toMatch(/^Recommends: smartmontools, nvme-cli$/m);
    const conffiles = await runCommand('dpkg-deb', ['--ctrl-tarfile', deb], { maxBytes: 16 * 1024 * 1024 });
    expect(conffiles.stdout).toContain('/etc/zfs-advisor/zfs-advisor.conf');
    const list = await runCommand('dpkg-deb', ['-c', deb], { maxBytes: 256 * 1024 * 1024 });
    const paths = list.stdout.split('\n').map((l) => l.slice(l.indexOf('./') + 1).split(' -> ')[0]!).filter(Boolean);
    expect(paths).toContain('/usr/lib/zfs-advisor/server/bin/zfs-advisor.js');
    expect(paths).toContain('/usr/lib/zfs-advisor/dist/server.mjs');
    expect(paths).toContain('/usr/lib/zfs-advisor/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(paths).toContain('/usr/bin/zfs-advisor');
    expect(paths.some((p) => /\/systemd\/system\/zfs-advisor\.service$/.test(p))).toBe(true);
    expect(paths.filter((p) => p.startsWith('/etc/pve') || p.startsWith('/usr/share/pve-manager'))).toEqual([]);
    // Production dependencies only: no test runner, bundler or type checker in the package.
    for (const dev of ['vitest', 'vite', 'eslint', 'playwright-core']) expect(paths).not.toContain(`/usr/lib/zfs-advisor/node_modules/${dev}/`);
    // Every file is owned by root (dpkg-deb --root-owner-group).
    const owners = new Set(list.stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/)[1]));
    expect([...owners]).toEqual(['root/root']);
  });

  it('lintian reports no errors (warnings listed, overrides with reasons in plugin/debian/lintian-overrides)', async () => {
    const r = await runCommand('lintian', ['--tag-display-limit', '0', deb], { timeoutMs: 300_000 });
    expect(r.error).toBeNull();
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('E:'));
    expect(errors).toEqual([]);
  }, 310_000);

  it('install.sh verifies the checksum before anything else (dry run), and refuses a tampered package', async () => {
    const ok = await runCommand(INSTALLER, ['--dry-run', '--deb', deb, '--sha256', sha], { timeoutMs: 60_000 });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('checksum OK');
    expect(ok.stdout).toContain('dry run: nothing was changed');
    const tampered = join(out, 'zfs-advisor_0.0.0-1_amd64.deb');
    copyFileSync(deb, tampered);
    writeFileSync(tampered, Buffer.from('x'), { flag: 'a' });
    const bad = await runCommand(INSTALLER, ['--dry-run', '--deb', tampered, '--sha256', sha], { timeoutMs: 60_000 });
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/SHA-256 mismatch/);
    const none = await runCommand(INSTALLER, ['--dry-run', '--deb', deb], { timeoutMs: 60_000 });
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toMatch(/no valid SHA-256/);
    // The release copy written by build-deb.sh carries this build's name and checksum.
    const release = readFileSync(join(out, 'install.sh'), 'utf8');
    expect(release).toContain(`DEB_SHA256="${sha}"`);
  });

  it('installs with dpkg -i, the installed server answers /api/health, and purge leaves nothing', async () => {
    const install = await runCommand('dpkg', ['-i', deb], { timeoutMs: 180_000 });
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout).toMatch(/Web UI: +http:\/\/127\.0\.0\.1:8077\//);
    const token = readFileSync('/var/lib/zfs-advisor/api-token', 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(install.stdout).toContain(`Token:    ${token}`);
    expect(existsSync('/etc/zfs-advisor/zfs-advisor.conf')).toBe(true);

    // The bundle resolves its files in the installed tree, never in the build's staging copy.
    const bundleFiles = readdirSync('/usr/lib/zfs-advisor/dist', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'));
    expect(bundleFiles).toContain('server.mjs');
    expect(bundleFiles.filter((f) => readFileSync(join('/usr/lib/zfs-advisor/dist', f), 'utf8').includes('zfs-advisor-deb.'))).toEqual([]);
    expect(readFileSync('/usr/lib/zfs-advisor/dist/server.mjs', 'utf8')).toContain('/usr/lib/zfs-advisor/server/src/');

    // The installed copy, not the checkout, run as the unit runs it (ExecStart): the bundled
    // server on /usr/lib/zfs-advisor, data in /var/lib.
    const abort = new AbortController();
    let url = '';
    const server = runStreaming('node', ['/usr/lib/zfs-advisor/dist/server.mjs', 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', '/var/lib/zfs-advisor'], {
      cwd: '/', timeoutMs: 120_000, signal: abort.signal,
      onStdoutLine: (line) => { const m = /running at (http:\/\/\S+)/.exec(line); if (m) url = m[1]!; },
    });
    let health: unknown = null;
    for (let i = 0; i < 90 && health === null; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      if (!url) continue;
      const res = await fetch(new URL('api/health', url)).catch(() => null);
      if (res?.ok) health = await res.json();
    }
    abort.abort();
    const ended = await server;
    expect(health, ended.stderr.slice(-2000)).toMatchObject({ status: 'ok', version: expect.any(String) });
    expect(existsSync('/var/lib/zfs-advisor/zfs-advisor.db') || (await runCommand('find', ['/var/lib/zfs-advisor', '-name', '*.db'])).stdout !== '').toBe(true);

    const purge = await runCommand('dpkg', ['--purge', 'zfs-advisor'], { timeoutMs: 120_000 });
    expect(purge.exitCode, purge.stderr).toBe(0);
    for (const p of ['/usr/lib/zfs-advisor', '/usr/bin/zfs-advisor', '/etc/zfs-advisor', '/var/lib/zfs-advisor', '/lib/systemd/system/zfs-advisor.service',
      '/usr/lib/systemd/system/zfs-advisor.service', '/usr/share/doc/zfs-advisor', '/etc/systemd/system/multi-user.target.wants/zfs-advisor.service',
      '/etc/systemd/system/zfs-advisor.service', '/var/lib/systemd/deb-systemd-helper-enabled/zfs-advisor.service.dsh-also',
      '/var/lib/systemd/deb-systemd-helper-enabled/multi-user.target.wants/zfs-advisor.service']) {
      expect(existsSync(p), p).toBe(false);
    }
    expect((await runCommand('dpkg-query', ['-W', 'zfs-advisor'])).exitCode).not.toBe(0);
    expect(readFileSync('/etc/passwd', 'utf8')).not.toMatch(/^zfs-advisor:/m);
  }, 400_000);
});

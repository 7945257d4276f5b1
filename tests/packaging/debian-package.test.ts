/**
 * The Proxmox VE / Debian package, end to end: build it with plugin/debian/build-deb.sh, lint it
 * (lintian, systemd-analyze verify, shellcheck), check the one-line installer's checksum gate,
 * install it with apt in a CLEAN Debian 12 root (debootstrap minbase from Debian's mirror, no
 * nodejs anywhere: the package carries its Node), start the INSTALLED server without systemd,
 * GET /api/health, purge it and check that nothing is left. This machine's own system is not touched.
 *
 * Needs root, dpkg, lintian, shellcheck, systemd-analyze and debootstrap (and Debian's mirror);
 * outside CI it is skipped when one is missing, under CI=true a missing tool fails.
 */
import { SHIPPED_NODE_VERSION } from './support/node-runtime.ts';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/src/exec/runner.ts';
import { freePort } from '../e2e/support/server.ts';
import { unpackChroot } from './support/debian-rootfs.ts';
import { background, tool } from './support/tool.ts';

const REPO = join(import.meta.dirname, '..', '..');
const DEB_DIR = join(REPO, 'plugin', 'debian');
const BUILD = join(DEB_DIR, 'build-deb.sh');
const INSTALLER = join(REPO, 'plugin', 'install.sh');
const TOOLS = ['dpkg', 'dpkg-deb', 'lintian', 'shellcheck', 'systemd-analyze'] as const;

async function has(program: string): Promise<boolean> {
  const r = await runCommand(program, ['--version'], { timeoutMs: 20_000 });
  return r.error === null;
}

const toolsPresent = (await Promise.all(TOOLS.map(has))).every(Boolean) && existsSync('/usr/sbin/debootstrap');
const isRoot = process.getuid?.() === 0;
const canRun = toolsPresent && isRoot;
if (process.env.CI === 'true' && !canRun) {
  throw new Error(`packaging test needs root, ${TOOLS.join(', ')} and debootstrap (tools: ${toolsPresent}, root: ${isRoot})`);
}

describe.runIf(canRun)('Debian package (build, lint, install, purge)', () => {
  let out = '';
  let deb = '';
  let sha = '';

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'zfs-advisor-deb-test-'));
    const args = ['--fast', '--out', out];
    if (!existsSync(join(REPO, 'ui', 'dist', 'index.html'))) args.push('--no-ui');
    // The build fetches the shipped Node once (cached) and compiles better-sqlite3 for it.
    const r = await runCommand(BUILD, args, { timeoutMs: 900_000, env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' } });
    expect(r.error, r.stderr).toBeNull();
    expect(r.exitCode, r.stderr).toBe(0);
    const m = /^built (.+\.deb)$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    deb = m![1]!;
    sha = readFileSync(`${deb}.sha256`, 'utf8').split(' ')[0]!;
  }, 920_000);

  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('shellcheck accepts the maintainer scripts, the CLI wrapper, build-deb.sh and install.sh', async () => {
    const files = ['postinst', 'prerm', 'postrm', 'zfs-advisor.sh', 'build-deb.sh'].map((f) => join(DEB_DIR, f));
    const r = await runCommand('shellcheck', [...files, INSTALLER, join(REPO, 'plugin', 'docker', 'entrypoint.sh')]);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });

  it('the unit runs the bundled server on the carried Node; the CLI wrapper too', () => {
    const unit = readFileSync(join(DEB_DIR, 'zfs-advisor.service'), 'utf8');
    expect(unit).toMatch(/^ExecStart=\/usr\/lib\/zfs-advisor\/bin\/node \/usr\/lib\/zfs-advisor\/dist\/server\.mjs serve /m);
    expect(readFileSync(join(DEB_DIR, 'zfs-advisor.sh'), 'utf8')).toMatch(/^exec \/usr\/lib\/zfs-advisor\/bin\/node \/usr\/lib\/zfs-advisor\/server\/bin\/zfs-advisor\.js "\$@"$/m);
    expect(unit).not.toMatch(/\/usr\/bin\/node/);
  });

  it('systemd-analyze verify accepts the unit', async () => {
    // verify also checks that ExecStart's program exists on THIS machine; the carried node only
    // exists once the package is installed (the clean-root test below runs it), so a copy of the
    // unit names this machine's node in its place and every other directive is checked as shipped.
    const unit = readFileSync(join(DEB_DIR, 'zfs-advisor.service'), 'utf8');
    const copy = join(out, 'zfs-advisor.service');
    writeFileSync(copy, unit.replace(/^ExecStart=\/usr\/lib\/zfs-advisor\/bin\/node /m, `ExecStart=${process.execPath} `));
    expect(readFileSync(copy, 'utf8')).not.toBe(unit);
    const r = await runCommand('systemd-analyze', ['verify', copy], { timeoutMs: 60_000 });
    expect(r.stderr.trim()).toBe('');
    expect(r.exitCode).toBe(0);
  });

  it('control data: dependencies, conffile, and nothing in Proxmox VE\'s own paths', async () => {
    const info = await runCommand('dpkg-deb', ['-f', deb]);
    expect(info.stdout).toMatch(/^Package: zfs-advisor$/m);
    // Self-contained: no nodejs (Debian 12 has only 18), only Debian's own fio and C/C++ runtime.
    expect(info.stdout).toMatch(/^Depends: fio, libc6 \(>= [\d.]+\), libgcc-s1 \(>= [\d.]+\), libstdc\+\+6 \(>= [\d.]+\)$/m);
    expect(info.stdout).not.toMatch(/^(Pre-)?Depends:.*nodejs/m);
    expect(info.stdout).toMatch(/^Recommends: smartmontools, nvme-cli$/m);
    expect(info.stdout).toMatch(/^Suggests: zfsutils-linux, cockpit$/m);
    expect(info.stdout).toMatch(/^Maintainer: ZFS Advisor maintainers <zfs-advisor@users\.noreply\.github\.com>$/m);
    expect(info.stdout).toMatch(/^Homepage: https:\/\/github\.com\/zfs-advisor\/zfs-advisor$/m);
    const conffiles = await runCommand('dpkg-deb', ['--ctrl-tarfile', deb], { maxBytes: 16 * 1024 * 1024 });
    expect(conffiles.stdout).toContain('/etc/zfs-advisor/zfs-advisor.conf');
    const list = await runCommand('dpkg-deb', ['-c', deb], { maxBytes: 256 * 1024 * 1024 });
    const paths = list.stdout.split('\n').map((l) => l.slice(l.indexOf('./') + 1).split(' -> ')[0]!).filter(Boolean);
    expect(paths).toContain('/usr/lib/zfs-advisor/server/bin/zfs-advisor.js');
    expect(paths).toContain('/usr/lib/zfs-advisor/dist/server.mjs');
    expect(paths).toContain('/usr/lib/zfs-advisor/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(paths).toContain('/usr/bin/zfs-advisor');
    expect(paths).toContain('/usr/lib/zfs-advisor/bin/node');
    // The manual page and completions generated from the CLI's command definitions, and the
    // knowledge pages findings cite (served from /usr/lib/zfs-advisor/docs/kb).
    for (const p of ['/usr/share/man/man1/zfs-advisor.1.gz', '/usr/share/bash-completion/completions/zfs-advisor', '/usr/share/zsh/vendor-completions/_zfs-advisor']) expect(paths).toContain(p);
    for (const page of readdirSync(join(REPO, 'docs', 'kb')).filter((f) => f.endsWith('.md'))) expect(paths).toContain(`/usr/lib/zfs-advisor/docs/kb/${page}`);
    // The Cockpit page, when the UI was built (plugin/cockpit).
    if (existsSync(join(REPO, 'ui', 'dist', 'index.html'))) {
      expect(paths).toContain('/usr/share/cockpit/zfs-advisor/manifest.json');
      expect(paths).toContain('/usr/share/cockpit/zfs-advisor/index.html');
    }
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
    // …and the release location from plugin/release.env (the one place it is set).
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect(release).toContain(`RELEASE_URL="https://github.com/zfs-advisor/zfs-advisor/releases/download/v${version}"`);
  });

  it('installs in a clean Debian 12 root from Debian\'s own mirror (no nodejs), answers /api/health, and purge leaves nothing', async () => {
    const root = await unpackChroot(join(out, 'clean-root'));
    try {
      const name = basename(deb);
      copyFileSync(deb, join(root.dir, 'tmp', name));
      const update = await root.run(['apt-get', 'update', '-qq']);
      expect(update.code, update.stderr).toBe(0);
      // apt resolves the dependencies (fio, the C/C++ runtime) from Debian's repository alone.
      const install = await root.run(['apt-get', 'install', '-y', '--no-install-recommends', `/tmp/${name}`], 600_000);
      expect(install.code, install.stderr.slice(-3000)).toBe(0);
      expect(install.stdout).toMatch(/Web UI: +http:\/\/127\.0\.0\.1:8077\//);
      // Self-contained: no nodejs package came with it and there is no node on the PATH.
      expect((await root.run(['dpkg-query', '-W', 'nodejs'])).code).not.toBe(0);
      for (const p of ['usr/bin/node', 'usr/bin/nodejs', 'usr/local/bin/node']) expect(existsSync(join(root.dir, p)), p).toBe(false);
      const token = readFileSync(join(root.dir, 'var/lib/zfs-advisor/api-token'), 'utf8').trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Where the token is, never the token: postinst output lands in apt's logs.
      expect(install.stdout).not.toContain(token);
      expect(install.stdout).toContain('Token:    created in /var/lib/zfs-advisor/api-token (root only)');
      expect(existsSync(join(root.dir, 'etc/zfs-advisor/zfs-advisor.conf'))).toBe(true);

      // The bundle resolves its files in the installed tree, never in the build's staging copy.
      const dist = join(root.dir, 'usr/lib/zfs-advisor/dist');
      const bundleFiles = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'));
      expect(bundleFiles).toContain('server.mjs');
      expect(bundleFiles.filter((f) => readFileSync(join(dist, f), 'utf8').includes('zfs-advisor-deb.'))).toEqual([]);
      // The bundle is relocatable (issue 26): no chunk names an absolute source path, neither the
      // build tree's nor the installed tree's; files are found relative to the bundle itself.
      expect(bundleFiles.filter((f) => { const t = readFileSync(join(dist, f), 'utf8'); return t.includes('/usr/lib/zfs-advisor/server/src/') || t.includes(`${REPO}/server/src/`); })).toEqual([]);

      // The CLI and the service's command line, inside the clean root, on the carried Node.
      const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
      const cli = await root.run(['zfs-advisor', '--version'], 120_000);
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stdout.trim()).toContain(version);
      // The carried runtime is the supported LTS of plugin/release.env, and the app runs on it.
      const carried = await root.run(['/usr/lib/zfs-advisor/bin/node', '-v']);
      expect(carried.stdout.trim()).toBe(`v${SHIPPED_NODE_VERSION}`);
      const assess = await root.run(['zfs-advisor', 'assess', '--demo'], 120_000);
      expect(assess.code, assess.stderr).toBe(0);
      expect(assess.stdout).toMatch(/Findings: \d+ critical/);
      // The manual page is a valid roff page for man(1) (zcat it and check the header).
      const man = await tool('zcat', [join(root.dir, 'usr/share/man/man1/zfs-advisor.1.gz')]);
      expect(man.stdout).toMatch(/^\.TH ZFS\\-ADVISOR 1 /m);
      const port = await freePort();
      const server = background('chroot', [root.dir, '/usr/lib/zfs-advisor/bin/node', '/usr/lib/zfs-advisor/dist/server.mjs', 'serve',
        '--host', '127.0.0.1', '--port', String(port), '--data-dir', '/var/lib/zfs-advisor'], { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root' } });
      let health: unknown = null;
      for (let i = 0; i < 90 && health === null; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
        if (res?.ok) health = await res.json();
      }
      await server.stop();
      expect(health, server.output().slice(-2000)).toMatchObject({ status: 'ok', version });
      expect(readdirSync(join(root.dir, 'var/lib/zfs-advisor')).some((f) => f.endsWith('.db'))).toBe(true);

      const files = (await root.run(['dpkg', '-L', 'zfs-advisor'])).stdout.split('\n').filter((f) => f.startsWith('/usr/lib/zfs-advisor') || f.startsWith('/usr/share/cockpit/zfs-advisor'));
      expect(files.length).toBeGreaterThan(100);
      const purge = await root.run(['apt-get', 'purge', '-y', 'zfs-advisor'], 300_000);
      expect(purge.code, purge.stderr).toBe(0);
      for (const p of [...files, '/usr/lib/zfs-advisor', '/usr/bin/zfs-advisor', '/etc/zfs-advisor', '/var/lib/zfs-advisor', '/lib/systemd/system/zfs-advisor.service',
        '/usr/lib/systemd/system/zfs-advisor.service', '/usr/share/doc/zfs-advisor', '/usr/share/cockpit/zfs-advisor', '/etc/systemd/system/multi-user.target.wants/zfs-advisor.service',
        '/etc/systemd/system/zfs-advisor.service', '/var/lib/systemd/deb-systemd-helper-enabled/zfs-advisor.service.dsh-also',
        '/var/lib/systemd/deb-systemd-helper-enabled/multi-user.target.wants/zfs-advisor.service']) {
        expect(existsSync(join(root.dir, p)), p).toBe(false);
      }
      // Nothing named after the package anywhere in the root, apart from the .deb file itself.
      const left = await tool('find', [root.dir, '-xdev', '-name', '*zfs-advisor*', '!', '-path', join(root.dir, 'tmp', name)]);
      expect(left.stdout.trim()).toBe('');
      expect((await root.run(['dpkg-query', '-W', 'zfs-advisor'])).code).not.toBe(0);
      expect(readFileSync(join(root.dir, 'etc/passwd'), 'utf8')).not.toMatch(/^zfs-advisor:/m);
    } finally {
      await root.remove();
    }
  }, 900_000);
});

/**
 * lab/host-mirror.sh: the Debian archive the lab's and the packaging tests' debootstrap use is the one
 * this machine's own apt uses (deb822 `URIs:` first, then a one-line sources.list), never a name
 * written into the code; DEBIAN_MIRROR overrides it. Example archives here are made-up names.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../lab/host-mirror.sh');
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** An apt configuration directory with the given files (relative path → content). */
function aptDir(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), 'host-mirror-'));
  dirs.push(d);
  mkdirSync(join(d, 'sources.list.d'));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(d, f), text);
  return d;
}
const run = (dir: string, env: Record<string, string> = {}) => spawnSync('bash', [SCRIPT], {
  encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOST_MIRROR_APT_DIR: dir, ...env },
});

describe('lab/host-mirror.sh', () => {
  it('takes the first deb822 source that is enabled, of type deb, and not a security suite', () => {
    const d = aptDir({
      'sources.list.d/a.sources': [
        'Types: deb', 'URIs: http://security.example/debian-security', 'Suites: trixie-security', 'Components: main', '',
        '# a comment', 'Types: deb-src', 'URIs: http://src.example/debian', 'Suites: trixie', '',
        'Types: deb', 'URIs: http://off.example/debian', 'Suites: trixie', 'Enabled: no', '',
        'Types: deb deb-src', 'URIs: http://archive.example/debian/ http://second.example/debian', 'Suites: trixie trixie-updates', 'Components: main', '',
      ].join('\n'),
      'sources.list': 'deb http://oneline.example/debian bookworm main\n',
    });
    const r = run(d);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('http://archive.example/debian\n');
  });

  it('falls back to a one-line sources.list, options in brackets skipped, security lines passed over', () => {
    const d = aptDir({ 'sources.list': '# deb http://commented.example/debian trixie main\ndeb http://security.example/debian-security trixie-security main\ndeb [arch=amd64 signed-by=/k.gpg] http://oneline.example/debian trixie main contrib\n' });
    expect(run(d).stdout).toBe('http://oneline.example/debian\n');
  });

  it('DEBIAN_MIRROR overrides the apt configuration', () => {
    const d = aptDir({ 'sources.list': 'deb http://oneline.example/debian trixie main\n' });
    expect(run(d, { DEBIAN_MIRROR: 'http://override.example/debian/' }).stdout).toBe('http://override.example/debian\n');
  });

  it('no usable source: exit 1 with a reason that names the override', () => {
    const d = aptDir({ 'sources.list': 'deb-src http://src.example/debian trixie main\n' });
    const r = run(d);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no Debian archive .* \(set DEBIAN_MIRROR\)/);
  });

  it('on this machine: an http(s) archive from its own apt configuration', () => {
    expect(execFileSync('bash', [SCRIPT], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } })).toMatch(/^https?:\/\/\S+\n$/);
  });
});

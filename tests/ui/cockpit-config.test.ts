/**
 * The pure parts of the Cockpit transport (ui/src/api/cockpit.ts): where the server listens, read
 * from the unit's EnvironmentFile as systemd reads it, the package config from Cockpit's manifest,
 * and Cockpit's style mapped onto the page's theme; and, on a fake bridge, that every request goes to
 * the Unix socket (never a TCP port) without a token, and what a refused connection says. The
 * transport itself runs against real Cockpit in
 * tests/e2e/cockpit.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cockpitOf, createCockpitFetch, DEFAULT_PACKAGE_CONFIG, DEFAULT_SOCKET, endpointFromConf, packageConfigOf, SOCKET_REFUSED_CHECK, type Cockpit } from '../../ui/src/api/cockpit.ts';
import { themeFromCockpitStyle } from '../../ui/src/state/theme.ts';

const REPO = join(import.meta.dirname, '..', '..');

describe('endpointFromConf', () => {
  it('reads the shipped config file as the defaults: the service\'s socket, no group, no base path', () => {
    const shipped = readFileSync(join(REPO, 'plugin', 'debian', 'zfs-advisor.conf'), 'utf8');
    expect(endpointFromConf(shipped)).toEqual({ socket: DEFAULT_SOCKET, group: null, basePath: '/' });
    expect(endpointFromConf(null)).toEqual({ socket: DEFAULT_SOCKET, group: null, basePath: '/' });
  });

  it('takes the last assignment, quotes, a base path in EXTRA_ARGS, the socket and its group', () => {
    const conf = [
      'ZFS_ADVISOR_SOCKET=/run/a.sock', '# ZFS_ADVISOR_SOCKET=/x', 'ZFS_ADVISOR_SOCKET="/run/zfsa/api.sock"', 'ZFS_ADVISOR_SOCKET_GROUP=storage-ops',
      "ZFS_ADVISOR_EXTRA_ARGS='--public-name nas.lan --base-path=/zfs'",
    ].join('\n');
    expect(endpointFromConf(conf)).toEqual({ socket: '/run/zfsa/api.sock', group: 'storage-ops', basePath: '/zfs/' });
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path /a/b/\n').basePath).toBe('/a/b/');
  });

  it('falls back to the defaults for values that are not a plain absolute path or a group name', () => {
    for (const sock of ['relative.sock', '/run/../tmp/x', '/run/a b', '']) expect(endpointFromConf(`ZFS_ADVISOR_SOCKET=${sock}`).socket).toBe(DEFAULT_SOCKET);
    expect(endpointFromConf('ZFS_ADVISOR_SOCKET_GROUP=a b').group).toBeNull();
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path /x?y=<script>').basePath).toBe('/');
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path ../up').basePath).toBe('/');
  });
});

describe('package config and detection', () => {
  const fake = (config: unknown): Cockpit => ({ http: () => { throw new Error('unused'); }, file: () => { throw new Error('unused'); }, manifests: { 'zfs-advisor': { config } } });

  it('uses the manifest config, keeping only absolute paths', () => {
    expect(packageConfigOf(fake({ serverConf: '/srv/a.conf' }))).toEqual({ serverConf: '/srv/a.conf' });
    expect(packageConfigOf(fake({ serverConf: 'relative.conf' }))).toEqual(DEFAULT_PACKAGE_CONFIG);
    expect(packageConfigOf(fake(undefined))).toEqual(DEFAULT_PACKAGE_CONFIG);
    const manifest = JSON.parse(readFileSync(join(REPO, 'plugin', 'cockpit', 'manifest.json'), 'utf8')) as { config: unknown };
    expect(packageConfigOf(fake(manifest.config))).toEqual(DEFAULT_PACKAGE_CONFIG);
  });

  it('finds Cockpit only when cockpit.js defined it', () => {
    expect(cockpitOf({})).toBeNull();
    expect(cockpitOf({ cockpit: { http: 1 } })).toBeNull();
    const c = fake(undefined);
    expect(cockpitOf({ cockpit: c })).toBe(c);
  });

  it('maps Cockpit\'s style onto the page theme', () => {
    expect(themeFromCockpitStyle('dark')).toBe('dark');
    expect(themeFromCockpitStyle('light')).toBe('light');
    expect(themeFromCockpitStyle('auto')).toBe('system');
    expect(themeFromCockpitStyle(null)).toBe('system');
  });
});

describe('every request goes to the Unix socket, without a token', () => {
  type Answer = { status: number; headers: Record<string, string>; body: string } | { problem: string };
  /** A Cockpit whose bridge answers with `serve` and whose files are `files`; records every channel's options. */
  function fakeCockpit(files: Record<string, string>, serve: (path: string) => Answer) {
    const seen: { opts: Record<string, unknown>; path: string; headers: Record<string, string> }[] = [];
    const later = (f: () => void, ms: number) => { setTimeout(f, ms); };
    const ck: Cockpit = {
      http: (opts) => ({
        request: ({ path, headers }) => {
          seen.push({ opts: { ...opts }, path, headers });
          const a = serve(path);
          const req = {
            response(cb: (s: number, h: Record<string, string>) => void) { if ('status' in a) later(() => cb(a.status, a.headers), 0); return req; },
            stream(cb: (c: Uint8Array) => void) { if ('status' in a && a.status < 300) later(() => cb(new TextEncoder().encode(a.body)), 1); return req; },
            then(ok: (v: Uint8Array) => void, fail: (e: { status?: number; problem?: string }, b?: string) => void) {
              later(() => ('problem' in a ? fail({ problem: a.problem }) : a.status < 300 ? ok(new Uint8Array()) : fail({ status: a.status }, a.body)), 2);
              return undefined;
            },
            close() { /* nothing to close */ },
          };
          return req;
        },
      }),
      file: (path) => ({
        read: () => ({ then: (ok: (t: string | null) => void, fail: (e: { problem: string }) => void) => { if (path in files) ok(files[path]!); else fail({ problem: 'not-found' }); } }),
        close: () => undefined,
      }),
    };
    return { ck, seen };
  }
  const config = { serverConf: '/etc/zfs-advisor/zfs-advisor.conf' };

  it('asks the bridge for the configured socket (superuser: try), under the base path, and sends no credential', async () => {
    const files = { [config.serverConf]: 'ZFS_ADVISOR_SOCKET=/run/zfsa/api.sock\nZFS_ADVISOR_PORT=8077\nZFS_ADVISOR_EXTRA_ARGS=--base-path /zfs\n' };
    const { ck, seen } = fakeCockpit(files, () => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: '[]' }));
    const res = await createCockpitFetch(ck, config)('/api/hosts', { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('[]');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.opts).toEqual({ unix: '/run/zfsa/api.sock', superuser: 'try', binary: true });
    expect(seen[0]!.path).toBe('/zfs/api/hosts');
    expect(seen[0]!.headers.Authorization).toBeUndefined();
    expect(seen[0]!.headers['Content-Type']).toBe('application/json');
  });

  it('a refused connection says to turn on administrative access or join the named group; a missing service says so', async () => {
    const files = { [config.serverConf]: 'ZFS_ADVISOR_SOCKET_GROUP=storage-ops\n' };
    const denied = await createCockpitFetch(fakeCockpit(files, () => ({ problem: 'access-denied' })).ck, config)('/api/hosts', {});
    expect(denied.status).toBe(403);
    const msg = ((await denied.json()) as { error: { message: string } }).error.message;
    expect(msg).toContain(DEFAULT_SOCKET);
    expect(msg).toContain('administrative access');
    expect(msg).toContain('storage-ops');
    const down = await createCockpitFetch(fakeCockpit(files, () => ({ problem: 'not-found' })).ck, config)('/api/hosts', {});
    expect(down.status).toBe(502);
    expect(((await down.json()) as { error: { message: string } }).error.message).toMatch(/nothing answers on \/run\/zfs-advisor\/api\.sock .*systemctl status zfs-advisor/);
  });

  it('Debian 13\'s Cockpit says "not-found" for a refused connection too: a socket the user cannot reach means access, a missing one a service that is down', async () => {
    const files = { [config.serverConf]: '' };
    const withSocket = (exists: boolean) => {
      const { ck } = fakeCockpit(files, () => ({ problem: 'not-found' }));
      const asked: string[][] = [];
      ck.spawn = (argv) => { asked.push(argv); return { then: (ok: (s: string) => void, fail: (e: { problem?: string }) => void) => { if (exists) ok(''); else fail({ problem: 'not-found' }); } }; };
      return { ck, asked };
    };
    const there = withSocket(true);
    const refused = await createCockpitFetch(there.ck, config)('/api/hosts', {});
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('administrative access');
    expect(there.asked).toEqual([['sh', '-c', SOCKET_REFUSED_CHECK, 'sh', DEFAULT_SOCKET]]);
    const gone = await createCockpitFetch(withSocket(false).ck, config)('/api/hosts', {});
    expect(gone.status).toBe(502);
    expect(((await gone.json()) as { error: { message: string } }).error.message).toContain('systemctl status zfs-advisor');
  });
});

describe('SOCKET_REFUSED_CHECK, run by sh as an unprivileged account (what the limited Cockpit session runs)', () => {
  const root = process.getuid?.() === 0;
  if (process.env.CI === 'true' && !root) throw new Error('this test needs root (it makes a root-only socket directory and runs the check as nobody)');
  it.runIf(root)('the service\'s root-only directory, the operator group\'s, a stopped service: access twice, down once', async () => {
    const base = mkdtempSync(join(tmpdir(), 'zfsa-sockcheck-'));
    chmodSync(base, 0o755);
    const servers: NetServer[] = [];
    const sockIn = async (dir: string, mode: number): Promise<string> => {
      mkdirSync(dir, { mode });
      chmodSync(dir, mode);
      const path = join(dir, 'api.sock');
      const srv = createNetServer();
      servers.push(srv);
      await new Promise<void>((r) => srv.listen(path, r));
      chmodSync(path, 0o600);
      return path;
    };
    const asNobody = (path: string) => spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'sh', '-c', SOCKET_REFUSED_CHECK, 'sh', path]).status;
    try {
      expect(asNobody(await sockIn(join(base, 'root-only'), 0o700))).toBe(0); // 0700 root: refused
      expect(asNobody(await sockIn(join(base, 'visible'), 0o755))).toBe(0); // seen, 0600: refused
      mkdirSync(join(base, 'stopped'), { mode: 0o755 });
      expect(asNobody(join(base, 'stopped', 'api.sock'))).toBe(1); // nothing there: the service is down
    } finally {
      for (const srv of servers) srv.close();
      rmSync(base, { recursive: true, force: true });
    }
  });
});

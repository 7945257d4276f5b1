/**
 * The pure parts of the Cockpit transport (ui/src/api/cockpit.ts): where the server listens, read
 * from the unit's EnvironmentFile as systemd reads it, the package config from Cockpit's manifest,
 * and Cockpit's style mapped onto the page's theme; and, on a fake bridge, that the token is sent only
 * to a server proving it holds it. The transport itself runs against real Cockpit in
 * tests/e2e/cockpit.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cockpitOf, createCockpitFetch, DEFAULT_PACKAGE_CONFIG, endpointFromConf, packageConfigOf, type Cockpit } from '../../ui/src/api/cockpit.ts';
import { tokenProof } from '../../server/src/api/security.ts';
import { themeFromCockpitStyle } from '../../ui/src/state/theme.ts';

const REPO = join(import.meta.dirname, '..', '..');

describe('endpointFromConf', () => {
  it('reads the shipped config file as the defaults: localhost, 8077, no base path', () => {
    const shipped = readFileSync(join(REPO, 'plugin', 'debian', 'zfs-advisor.conf'), 'utf8');
    expect(endpointFromConf(shipped)).toEqual({ address: null, port: 8077, basePath: '/' });
    expect(endpointFromConf(null)).toEqual({ address: null, port: 8077, basePath: '/' });
  });

  it('takes the last assignment, quotes, a base path in EXTRA_ARGS, and a specific bind address', () => {
    const conf = [
      'ZFS_ADVISOR_PORT=8077', '# ZFS_ADVISOR_PORT=1', 'ZFS_ADVISOR_PORT="9001"', 'ZFS_ADVISOR_HOST=192.168.7.2',
      "ZFS_ADVISOR_EXTRA_ARGS='--public-name nas.lan --base-path=/zfs'",
    ].join('\n');
    expect(endpointFromConf(conf)).toEqual({ address: '192.168.7.2', port: 9001, basePath: '/zfs/' });
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path /a/b/\n').basePath).toBe('/a/b/');
  });

  it('connects to loopback when the server listens on every address', () => {
    for (const host of ['0.0.0.0', '::', 'localhost', '127.0.0.1']) expect(endpointFromConf(`ZFS_ADVISOR_HOST=${host}`).address).toBeNull();
    expect(endpointFromConf('ZFS_ADVISOR_HOST=::1').address).toBe('::1');
  });

  it('falls back to the defaults for values that are not a port or a plain path', () => {
    for (const port of ['0', '65536', 'http', '80.5', '']) expect(endpointFromConf(`ZFS_ADVISOR_PORT=${port}`).port).toBe(8077);
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path /x?y=<script>').basePath).toBe('/');
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path ../up').basePath).toBe('/');
  });
});

describe('package config and detection', () => {
  const fake = (config: unknown): Cockpit => ({ http: () => { throw new Error('unused'); }, file: () => { throw new Error('unused'); }, manifests: { 'zfs-advisor': { config } } });

  it('uses the manifest config, keeping only absolute paths', () => {
    expect(packageConfigOf(fake({ serverConf: '/srv/a.conf', tokenFile: 'relative/token' }))).toEqual({ serverConf: '/srv/a.conf', tokenFile: DEFAULT_PACKAGE_CONFIG.tokenFile });
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

describe('the token goes only to a server that proves it holds it', () => {
  const TOKEN = 'T'.repeat(43);
  type Answer = { status: number; headers: Record<string, string>; body: string };
  /** A Cockpit whose bridge reaches `serve` (a function of the request) and whose files are `files`. */
  function fakeCockpit(files: Record<string, string>, serve: (path: string, headers: Record<string, string>) => Answer) {
    const seen: { path: string; headers: Record<string, string> }[] = [];
    const later = (f: () => void, ms: number) => { setTimeout(f, ms); };
    const ck: Cockpit = {
      http: () => ({
        request: ({ path, headers }) => {
          seen.push({ path, headers });
          const a = serve(path, headers);
          const req = {
            response(cb: (s: number, h: Record<string, string>) => void) { later(() => cb(a.status, a.headers), 0); return req; },
            stream(cb: (c: Uint8Array) => void) { if (a.status < 300) later(() => cb(new TextEncoder().encode(a.body)), 1); return req; },
            then(ok: (v: Uint8Array) => void, fail: (e: { status?: number }, b?: string) => void) { later(() => (a.status < 300 ? ok(new Uint8Array()) : fail({ status: a.status }, a.body)), 2); return undefined; },
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
  const config = { serverConf: '/etc/zfs-advisor/zfs-advisor.conf', tokenFile: '/var/lib/zfs-advisor/api-token' };
  const files = { [config.tokenFile]: `${TOKEN}\n` };
  const unauthorized: Answer = { status: 401, headers: {}, body: '{"error":{"code":"unauthorized","message":"x"}}' };

  it('an impostor on the port (401, but no proof) never receives the token', async () => {
    const { ck, seen } = fakeCockpit(files, (path) => (path.startsWith('/api/health') ? { status: 200, headers: { 'X-ZFS-Advisor-Proof': 'ab'.repeat(32) }, body: '{}' } : unauthorized));
    const res = await createCockpitFetch(ck, config)('/api/hosts', {});
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/did not prove it is this machine's ZFS Advisor .* the token was not sent/);
    expect(seen.some((r) => r.headers.Authorization !== undefined)).toBe(false);
  });

  it('the real server (an HMAC of the fresh challenge under the token) gets it', async () => {
    const { ck, seen } = fakeCockpit(files, (path, headers) => {
      if (path.startsWith('/api/health?challenge=')) {
        const challenge = path.split('=')[1]!;
        return { status: 200, headers: { 'X-ZFS-Advisor-Proof': tokenProof(TOKEN, challenge) }, body: '{}' };
      }
      return headers.Authorization === `Bearer ${TOKEN}` ? { status: 200, headers: { 'Content-Type': 'application/json' }, body: '[]' } : unauthorized;
    });
    const res = await createCockpitFetch(ck, config)('/api/hosts', {});
    expect(res.status).toBe(200);
    expect(seen.filter((r) => r.headers.Authorization !== undefined).map((r) => r.path)).toEqual(['/api/hosts']);
  });
});

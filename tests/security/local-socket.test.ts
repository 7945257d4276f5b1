/**
 * Issue 35's findings, each played by a real unprivileged local account (created for the test,
 * commands run through setpriv) against the server running as root:
 *
 * - High, the relay: the account listens on [::1]:PORT beside the service's 127.0.0.1:PORT and
 *   relays `/api/health?challenge=` to get the token from Cockpit's page. Now health signs nothing,
 *   the page uses the Unix socket (tests/e2e/cockpit.test.ts), a loopback bind holds both
 *   addresses, and a server whose other address is taken refuses to start: the fake listener gets
 *   nothing;
 * - Medium, `--host localhost` served [::1] only: both are bound now;
 * - the Unix socket: no token there, and only root (or the named group) can connect — the CLI's
 *   `login-link` as root works, as the account it is refused;
 * - the failure budget: spent by the account, it no longer keeps a credential-less request from its
 *   401 nor a credentialed client or the socket out;
 * - the connection flood: idle connections of the account are closed for new ones, health answers;
 * - a planted data directory or token file is refused, and the token file is never chmod'ed through a link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../../server/src/api/server.ts';
import { addressesFor } from '../../server/src/api/listen.ts';
import { canPlayLocalUser, createLocalUser, run, type LocalUser } from './support/local-user.ts';

const SUPPORT = join(import.meta.dirname, 'support');
const CLIENT = join(SUPPORT, 'http-client.mjs');
const UNIX_CLIENT = join(SUPPORT, 'unix-client.mjs');
const FAKE = join(SUPPORT, 'fake-listener.mjs');
const HOLD = join(SUPPORT, 'hold-connections.mjs');
const CLI = join(import.meta.dirname, '..', '..', 'server', 'bin', 'zfs-advisor.js');
const live = canPlayLocalUser();
const dirs: string[] = [];
/** A directory the account can enter (0755) and one it can write (1777, like /tmp). */
const tmp = (p: string, mode = 0o755) => { const d = mkdtempSync(join(tmpdir(), p)); chmodSync(d, mode); dirs.push(d); return d; };

let user: LocalUser;
beforeAll(async () => { if (live) user = await createLocalUser(); }, 60_000);
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await user?.remove();
});

async function serve(extra: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp('zfsa-sock-data-'), 'data'), demo: true, uiDir: null, assessOnStart: false, loopbackAuth: true, logSink: () => {}, ...extra });
  if (!r.ok) throw new Error(r.message);
  return r.server;
}

/** A request over the Unix socket as root (this process). */
function viaSocket(socketPath: string, method: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path, headers: { 'Content-Type': 'application/json', ...headers } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.on('error', reject);
    req.end();
  });
}

async function asUser(argv: string[]): Promise<Record<string, unknown>> {
  const r = await user.run(['node', ...argv]);
  if (r.exitCode !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** A port free on both 127.0.0.1 and ::1. */
async function freeDualPort(): Promise<number> {
  for (;;) {
    const a = createServer();
    await new Promise<void>((r) => a.listen(0, '127.0.0.1', () => r()));
    const port = (a.address() as { port: number }).port;
    const b = createServer();
    const ok = await new Promise<boolean>((r) => { b.once('error', () => r(false)); b.listen(port, '::1', () => r(true)); });
    await new Promise<void>((r) => a.close(() => r()));
    if (ok) { await new Promise<void>((r) => b.close(() => r())); return port; }
  }
}

const waitFor = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 1200 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
};

/** Starts the fake listener as the account; resolves once it has bound (or failed). */
async function fakeListener(address: string, port: number): Promise<{ status: () => string; stop: () => Promise<void> }> {
  const d = tmp('zfsa-relay-', 0o1777);
  const statusFile = join(d, 'status');
  const stopFile = join(d, 'stop');
  const done = user.run(['node', FAKE, address, String(port), statusFile, stopFile], { timeoutMs: 120_000 });
  await waitFor(() => existsSync(statusFile) && readFileSync(statusFile, 'utf8').length > 0, 'the fake listener');
  return { status: () => readFileSync(statusFile, 'utf8'), stop: async () => { writeFileSync(stopFile, ''); await done; } };
}

describe('which addresses a --host means (pure)', () => {
  const names = (m: Record<string, string[]>) => async (n: string) => { if (!(n in m)) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' }); return m[n]!; };
  it('loopback is both families; a wildcard IPv4 bind holds [::] too; a name is every address it resolves to', async () => {
    const only = async (host: string, m: Record<string, string[]> = {}) => {
      const r = await addressesFor(host, names(m));
      return r.ok ? r.addresses.map((a) => `${a.address}${a.ipv6Only ? '/v6only' : ''}${a.optional ? '?' : ''}`) : r.message;
    };
    expect(await only('127.0.0.1')).toEqual(['127.0.0.1', '::1?']);
    expect(await only('localhost')).toEqual(['127.0.0.1', '::1?']);
    expect(await only('::1')).toEqual(['127.0.0.1?', '::1']);
    expect(await only('127.0.0.5')).toEqual(['127.0.0.5', '127.0.0.1', '::1?']);
    expect(await only('0.0.0.0')).toEqual(['0.0.0.0', '::/v6only?']);
    expect(await only('::')).toEqual(['::']);
    expect(await only('192.168.7.2')).toEqual(['192.168.7.2']);
    expect(await only('nas.lan', { 'nas.lan': ['192.168.7.2', 'fd00::2', '127.0.1.1'] })).toEqual(['192.168.7.2', 'fd00::2', '127.0.1.1', '127.0.0.1', '::1?']);
    expect(await only('nowhere.lan')).toMatch(/^--host nowhere\.lan: the name does not resolve \(ENOTFOUND\)/);
  });
});

describe.runIf(live)('issue 35: a local account cannot stand in for the service', () => {
  it('the relay: health signs nothing; a fake [::1] listener makes the server refuse to start, and once it runs no account can take either loopback address', async () => {
    const port = await freeDualPort();
    const fake = await fakeListener('::1', port);
    try {
      expect(fake.status()).toBe('listening\n');
      const r = await startServer({ host: '127.0.0.1', port, dataDir: join(tmp('zfsa-relay-data-'), 'data'), demo: true, uiDir: null, assessOnStart: false, loopbackAuth: true, logSink: () => {} });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/^cannot listen on \[::1\]:\d+: EADDRINUSE: another program holds \[::1\]:\d+ — the server refuses to share its port/);
      expect(fake.status()).toBe('listening\n'); // not one request reached it
    } finally { await fake.stop(); }

    const s = await serve({ port });
    try {
      expect(s.addresses.sort()).toEqual(['127.0.0.1', '::1']);
      for (const address of ['::1', '127.0.0.1']) {
        const late = await fakeListener(address, port);
        expect(late.status(), address).toBe('error EADDRINUSE\n');
        await late.stop();
      }
      // Health answers the challenge of old with no proof at all, from either address.
      for (const base of [`http://127.0.0.1:${port}/`, `http://[::1]:${port}/`]) {
        const res = await asUser([CLIENT, base, 'GET', `/api/health?challenge=${'c'.repeat(32)}`]);
        expect(res.status).toBe(200);
        const h = await fetch(`${base}api/health?challenge=${'c'.repeat(32)}`);
        expect(h.headers.get('x-zfs-advisor-proof')).toBeNull();
      }
    } finally { await s.close(); }
  }, 120_000);

  it('--host localhost and a wildcard bind hold every address of the port (IPv4 and IPv6)', async () => {
    const s = await serve({ host: 'localhost' });
    try {
      expect(s.addresses.sort()).toEqual(['127.0.0.1', '::1']);
      expect((await fetch(`http://[::1]:${s.port}/api/health`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${s.port}/api/health`)).status).toBe(200);
    } finally { await s.close(); }
    const w = await serve({ host: '0.0.0.0' });
    try {
      expect(w.addresses.sort()).toEqual(['0.0.0.0', '::']);
      const late = await fakeListener('::1', w.port);
      expect(late.status()).toBe('error EADDRINUSE\n');
      await late.stop();
    } finally { await w.close(); }
  }, 60_000);

  it('the Unix socket: no token for root; the account cannot connect (nor with the CLI), unless the admin named its group', async () => {
    const sock = join(tmp('zfsa-run-'), 'zfs-advisor', 'api.sock');
    const s = await serve({ socket: sock });
    try {
      expect(statSync(sock).mode & 0o777).toBe(0o600);
      expect(statSync(join(sock, '..')).mode & 0o777).toBe(0o700);
      expect(await viaSocket(sock, 'GET', '/api/hosts')).toBe(200);
      // As Cockpit's bridge sends it (cockpit-bridge 287: the socket's path, escaped, as Host).
      expect(await viaSocket(sock, 'GET', '/api/hosts', { Host: encodeURIComponent(sock) })).toBe(200);
      expect((await fetch(new URL('api/hosts', s.url))).status).toBe(401);
      expect(await asUser([UNIX_CLIENT, sock, 'GET', '/api/hosts'])).toEqual({ error: 'EACCES' });

      // The CLI over the socket: root gets a working one-time link; the account is told why not.
      const asRoot = await run(process.execPath, [CLI, 'login-link', '--socket', sock], { timeoutMs: 120_000 });
      expect(asRoot.exitCode, asRoot.stderr).toBe(0);
      const link = asRoot.stdout.split('\n')[0]!;
      expect(link).toMatch(new RegExp(`^${s.url}login\\?code=[A-Za-z0-9_-]{43}$`));
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
      const refused = await user.run(['node', CLI, 'login-link', '--socket', sock], { timeoutMs: 120_000 });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(/^zfs-advisor login-link: not allowed to connect to .*api\.sock: only root, or members of the operator group/);
    } finally { await s.close(); }
    expect(existsSync(sock)).toBe(false);

    const g = await serve({ socket: sock, socketGroup: String(user.gid) });
    try {
      expect(statSync(sock).mode & 0o777).toBe(0o660);
      expect(statSync(sock).gid).toBe(user.gid);
      expect(statSync(join(sock, '..')).mode & 0o777).toBe(0o750);
      const r = await user.run(['node', UNIX_CLIENT, sock, 'GET', '/api/hosts']);
      expect(JSON.parse(r.stdout).status).toBe(200);
    } finally { await g.close(); }
  }, 180_000);

  it('a socket directory the account made, or a socket path it planted, is refused', async () => {
    const shared = tmp('zfsa-shared-', 0o1777);
    const planted = join(shared, 'planted');
    expect((await user.run(['mkdir', '-m', '0777', planted])).exitCode).toBe(0);
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp('zfsa-d-'), 'data'), demo: true, uiDir: null, assessOnStart: false, loopbackAuth: true, logSink: () => {}, socket: join(planted, 'api.sock') });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^refused: the socket directory .*planted cannot be trusted: .*owned by uid \d+/);
  });

  it('the failure budget, spent by the account, keeps nobody out: a request without a credential still gets its 401, the token and the socket get in', async () => {
    const sock = join(tmp('zfsa-run-'), 'zfs-advisor', 'api.sock');
    const s = await serve({ socket: sock, authFailuresPerMinute: 5 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) statuses.push((await fetch(new URL('api/hosts', s.url), { headers: { Authorization: `Bearer ${'x'.repeat(43)}` } })).status);
      expect(statuses.slice(-10)).toEqual(Array(10).fill(429));
      // The account's own wrong guesses are refused too.
      const r = await user.run(['node', '-e', `fetch(${JSON.stringify(`${s.url}api/hosts`)}, { headers: { Authorization: 'Bearer ${'y'.repeat(43)}' } }).then((r) => process.stdout.write(String(r.status)))`]);
      expect(r.stdout).toBe('429');
      const bare = await asUser([CLIENT, s.url, 'GET', '/api/hosts']);
      expect(bare.status).toBe(401); // what the UI's first request must see to ask for a credential
      expect((await fetch(new URL('api/hosts', s.url), { headers: { Authorization: `Bearer ${s.token}` } })).status).toBe(200);
      expect(await viaSocket(sock, 'GET', '/api/hosts')).toBe(200);
    } finally { await s.close(); }
  }, 60_000);

  it('the connection flood: idle connections of the account are closed for new ones; health and the socket answer', async () => {
    const sock = join(tmp('zfsa-run-'), 'zfs-advisor', 'api.sock');
    const s = await serve({ socket: sock, connectionCap: 64 });
    const d = tmp('zfsa-flood-', 0o1777);
    const ready = join(d, 'ready');
    const stop = join(d, 'stop');
    const flood = user.run(['node', HOLD, '127.0.0.1', String(s.port), '400', ready, stop], { timeoutMs: 120_000 });
    try {
      await waitFor(() => existsSync(ready), 'the flood');
      expect((await fetch(new URL('api/health', s.url))).status).toBe(200);
      expect((await fetch(new URL('api/hosts', s.url), { headers: { Authorization: `Bearer ${s.token}` } })).status).toBe(200);
      expect(await viaSocket(sock, 'GET', '/api/health')).toBe(200);
    } finally {
      writeFileSync(stop, '');
      const out = JSON.parse((await flood).stdout) as { connected: number; closedByServer: number };
      expect(out.connected).toBe(400);
      expect(out.closedByServer).toBeGreaterThanOrEqual(400 - 64);
      await s.close();
    }
  }, 120_000);

  it('a data directory the account owns, with a planted token, is refused; a token file that is a link is neither read nor chmod\'ed', async () => {
    const shared = tmp('zfsa-shared-', 0o1777);
    const planted = join(shared, 'data');
    expect((await user.run(['mkdir', planted])).exitCode).toBe(0);
    expect((await user.run(['node', '-e', `require('fs').writeFileSync(${JSON.stringify(join(planted, 'api-token'))}, '${'P'.repeat(43)}\\n')`])).exitCode).toBe(0);
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: planted, demo: true, uiDir: null, assessOnStart: false, loopbackAuth: true, logSink: () => {} });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^refused: the data directory .*data cannot be trusted: .* is owned by uid \d+/);

    // Root's own directory, with the token file swapped for a link to a file the account wants made private.
    const dataDir = join(tmp('zfsa-own-'), 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const victim = join(tmp('zfsa-victim-'), 'shared.conf');
    writeFileSync(victim, 'x\n', { mode: 0o644 });
    symlinkSync(victim, join(dataDir, 'api-token'));
    const l = await startServer({ host: '127.0.0.1', port: 0, dataDir, demo: true, uiDir: null, assessOnStart: false, loopbackAuth: true, logSink: () => {} });
    expect(l.ok).toBe(false);
    if (!l.ok) expect(l.message).toMatch(/token file .* is a symlink/);
    expect(statSync(victim).mode & 0o777).toBe(0o644);

    // A token file of another account in root's directory (hard-linked or chowned there) is refused too.
    rmSync(join(dataDir, 'api-token'));
    writeFileSync(join(dataDir, 'api-token'), `${'Q'.repeat(43)}\n`, { mode: 0o600 });
    chownSync(join(dataDir, 'api-token'), user.uid, user.gid);
    const o = await startServer({ host: '127.0.0.1', port: 0, dataDir, demo: true, uiDir: null, assessOnStart: false, loopbackAuth: true, logSink: () => {} });
    expect(o.ok).toBe(false);
    if (!o.ok) expect(o.message).toMatch(/token file .* belongs to uid \d+, not to this server's user/);
  }, 60_000);
});

/**
 * A credential on loopback too (issue 25 §1): `serve` asks every client for one unless
 * `--open-loopback`. A browser gets in through the one-time link `serve` prints: it sets an HttpOnly,
 * SameSite=Strict session cookie and redirects, so the code does not stay in the address bar; the
 * link works once. Scripts send the API token (root-only file). A local account without either —
 * played by a real unprivileged user through setpriv — is refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { canPlayLocalUser, createLocalUser } from './support/local-user.ts';

const CLIENT = join(import.meta.dirname, 'support', 'http-client.mjs');
const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-login-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

async function serve(loopbackAuth: boolean): Promise<{ s: RunningServer; announced: string[]; logs: string[]; dataDir: string }> {
  const announced: string[] = [];
  const logs: string[] = [];
  const dataDir = join(tmp(), 'data');
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir, demo: true, uiDir: null, assessOnStart: false, loopbackAuth, logSink: (l) => logs.push(l), announce: (l) => announced.push(l) });
  if (!r.ok) throw new Error(r.message);
  return { s: r.server, announced, logs, dataDir };
}

describe('credential on loopback', () => {
  it('refuses a client without a credential; the one-time link signs a browser in once, with a strict HttpOnly cookie and a redirect', async () => {
    const { s, announced, logs, dataDir } = await serve(true);
    try {
      expect((await fetch(new URL('api/hosts', s.url))).status).toBe(401);
      expect((await fetch(new URL('api/health', s.url))).status).toBe(200);
      const line = announced.find((l) => l.startsWith('Sign in from a browser with this one-time link: '))!;
      const link = line.split(': ')[1]!;
      expect(link).toMatch(new RegExp(`^${s.url}login\\?code=[A-Za-z0-9_-]{43}$`));
      // Only the terminal that ran serve gets it: not the log (journald, which the adm group reads);
      // the token itself is in no announced line or log.
      expect(logs.join('\n')).not.toContain(link.split('code=')[1]!);
      expect([...announced, ...logs].join('\n')).not.toContain(s.token!);
      expect(statSync(join(dataDir, 'api-token')).mode & 0o777).toBe(0o600);

      const signIn = await fetch(link, { redirect: 'manual' });
      expect(signIn.status).toBe(303);
      expect(signIn.headers.get('location')).toBe('/');
      const cookie = signIn.headers.get('set-cookie')!;
      expect(cookie).toMatch(new RegExp(`^zfs-advisor-session-${s.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/; Max-Age=\\d+$`));
      const session = cookie.split(';')[0]!;
      expect((await fetch(new URL('api/hosts', s.url), { headers: { Cookie: session } })).status).toBe(200);
      // Once only; a made-up code or session gets nothing.
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(403);
      expect((await fetch(new URL(`login?code=${'A'.repeat(43)}`, s.url), { redirect: 'manual' })).status).toBe(403);
      expect((await fetch(new URL('api/hosts', s.url), { headers: { Cookie: `zfs-advisor-session-${s.port}=${'A'.repeat(43)}` } })).status).toBe(401);
      // Scripts: the token as a bearer.
      expect((await fetch(new URL('api/hosts', s.url), { headers: { Authorization: `Bearer ${s.token}` } })).status).toBe(200);
    } finally { await s.close(); }
  });

  it.runIf(canPlayLocalUser())('a local account without the link or the token is refused, and cannot read the token file', async () => {
    const { s, dataDir } = await serve(true);
    const user = await createLocalUser();
    try {
      for (const [method, path, body] of [['GET', '/api/hosts'], ['GET', '/api/settings'], ['PATCH', '/api/settings', '{"retention":{"reportsPerHost":1}}'], ['POST', '/api/hosts/demo/bench/dry-run', '{}']] as const) {
        const argv = ['node', CLIENT, s.url, method, path, ...(body ? [body] : [])];
        const r = await user.run(argv);
        expect(JSON.parse(r.stdout).status, `${method} ${path}`).toBe(401);
      }
      const read = await user.run(['cat', join(dataDir, 'api-token')]);
      expect(read.exitCode).not.toBe(0);
    } finally { await s.close(); await user.remove(); }
  });

  it('--open-loopback keeps the old behaviour and says so loudly', async () => {
    const { s, announced, logs } = await serve(false);
    try {
      expect((await fetch(new URL('api/hosts', s.url))).status).toBe(200);
      expect(announced.join('\n')).toContain('WARNING --open-loopback: no credential is asked for; EVERY local account');
      expect(logs.some((l) => l.includes('"level":"warn"') && l.includes('--open-loopback'))).toBe(true);
    } finally { await s.close(); }
  });
});

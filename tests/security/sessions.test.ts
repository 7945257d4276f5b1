/**
 * Issue 35 §5, sessions: a HEAD of the login link (a chat app's preview, a mail scanner) does not
 * spend it; logout ends one session and "sign out everywhere" all of them and every unused link;
 * the cookie is Secure when the browser came over TLS (a proxy saying X-Forwarded-Proto: https) and
 * is named after the server's port, so another server on this host cannot overwrite it by name;
 * Origin is compared with its scheme; the login link of a service whose output is the journal goes
 * to a 0600 file beside the token, never to the log.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../../server/src/api/server.ts';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

async function serve(extra: Partial<ServeOptions> = {}): Promise<{ s: RunningServer; announced: string[]; logs: string[]; dataDir: string }> {
  const d = mkdtempSync(join(tmpdir(), 'zfsa-sessions-'));
  dirs.push(d);
  const announced: string[] = [];
  const logs: string[] = [];
  const dataDir = join(d, 'data');
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir, demo: true, uiDir: null, assessOnStart: false, loopbackAuth: true, logSink: (l) => logs.push(l), announce: (l) => announced.push(l), ...extra });
  if (!r.ok) throw new Error(r.message);
  return { s: r.server, announced, logs, dataDir };
}
const linkOf = (announced: string[]) => announced.find((l) => l.startsWith('Sign in from a browser with this one-time link: '))!.split(': ')[1]!;
const cookieOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0]!;

describe('sessions', () => {
  it('HEAD does not spend the code; logout ends that session only; sign out everywhere ends all and voids unused links', async () => {
    const { s, announced } = await serve();
    const hosts = (cookie: string) => fetch(new URL('api/hosts', s.url), { headers: { Cookie: cookie } }).then((r) => r.status);
    try {
      const link = linkOf(announced);
      expect((await fetch(link, { method: 'HEAD', redirect: 'manual' })).status).toBe(204);
      expect((await fetch(link, { method: 'HEAD', redirect: 'manual' })).status).toBe(204);
      const first = await fetch(link, { redirect: 'manual' });
      expect(first.status).toBe(303);
      const a = cookieOf(first);
      expect(a.startsWith(`zfs-advisor-session-${s.port}=`)).toBe(true);
      const auth = { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' };
      const newLink = async () => ((await (await fetch(new URL('api/login-links', s.url), { method: 'POST', headers: auth })).json()) as { url: string }).url;
      const b = cookieOf(await fetch(await newLink(), { redirect: 'manual' }));
      expect([await hosts(a), await hosts(b)]).toEqual([200, 200]);

      const out = await fetch(new URL('api/session/logout', s.url), { method: 'POST', headers: { Cookie: a, 'Content-Type': 'application/json' } });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(new RegExp(`^zfs-advisor-session-${s.port}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0$`));
      expect([await hosts(a), await hosts(b)]).toEqual([401, 200]);

      const unused = await newLink();
      const all = await fetch(new URL('api/sessions/end-all', s.url), { method: 'POST', headers: { Cookie: b, 'Content-Type': 'application/json' } });
      expect(await all.json()).toEqual({ sessionsEnded: 1, linksVoided: 1 });
      expect(await hosts(b)).toBe(401);
      expect((await fetch(unused, { redirect: 'manual' })).status).toBe(403);
      // The token is not a session: it still works.
      expect((await fetch(new URL('api/hosts', s.url), { headers: auth })).status).toBe(200);
    } finally { await s.close(); }
  });

  it('the cookie is Secure behind a proxy that says https; Origin must match the scheme the request came over', async () => {
    const { s, announced } = await serve();
    try {
      const res = await fetch(linkOf(announced), { redirect: 'manual', headers: { 'X-Forwarded-Proto': 'https' } });
      expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Strict; Path=\/; Secure; Max-Age=\d+$/);
      const cookie = cookieOf(res);
      const host = new URL(s.url).host;
      const patch = (headers: Record<string, string>) => fetch(new URL('api/settings', s.url), { method: 'PATCH', headers: { Cookie: cookie, 'Content-Type': 'application/json', ...headers }, body: '{}' }).then((r) => r.status);
      expect(await patch({ Origin: `http://${host}` })).toBe(200);
      expect(await patch({ Origin: `https://${host}` })).toBe(403); // another origin: same host and port, other scheme
      expect(await patch({ Origin: `https://${host}`, 'X-Forwarded-Proto': 'https' })).toBe(200);
      expect(await patch({ Origin: `http://${host}`, 'X-Forwarded-Proto': 'https' })).toBe(403);
    } finally { await s.close(); }
  });

  it('a service whose output is the journal writes the link 0600 beside the token and prints only where it is', async () => {
    const { s, announced, logs, dataDir } = await serve({ loginLink: 'file' });
    try {
      const file = join(dataDir, 'login-link');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const link = readFileSync(file, 'utf8').trim();
      expect(link).toMatch(new RegExp(`^${s.url}login\\?code=[A-Za-z0-9_-]{43}$`));
      const code = link.split('code=')[1]!;
      expect([...announced, ...logs].join('\n')).not.toContain(code);
      expect(announced.join('\n')).toContain(`The one-time login link for a browser is in ${file}`);
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
    } finally { await s.close(); }
  });
});

describe('where serve sends the login link', () => {
  it('knows its output is the journal only when JOURNAL_STREAM names its own stdout', async () => {
    const { fstatSync } = await import('node:fs');
    const { stdoutIsJournal } = await import('../../server/src/cli/commands/serve.ts');
    const st = fstatSync(1);
    expect(stdoutIsJournal({ JOURNAL_STREAM: `${st.dev}:${st.ino}` })).toBe(true);
    expect(stdoutIsJournal({ JOURNAL_STREAM: `${st.dev}:${st.ino + 1}` })).toBe(false);
    expect(stdoutIsJournal({})).toBe(false);
  });
});

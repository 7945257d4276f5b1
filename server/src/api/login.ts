/**
 * Browser sign-in without a token in the URL (the Jupyter pattern, one-time): `serve` gives a
 * login link `…/login?code=C` to whoever started it (its terminal, or a 0600 file beside the token
 * when its output goes to the journal; `zfs-advisor login-link` asks the running service for a new
 * one over the Unix socket). Opening it with GET consumes C (once, within LINK_TTL_MS), sets a
 * session cookie and redirects (303) to the UI, so neither code nor token stays in the address bar.
 * HEAD (link previews, mail scanners) is answered without spending the code.
 *
 * The cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page makes the
 * browser send it), Path = the base path, named after the server's port (browsers keep cookies per
 * host, not per port: another server on this host cannot overwrite this one's session by name),
 * and Secure when the request came over TLS or through a proxy that says it did
 * (`X-Forwarded-Proto: https`; adding Secure only ever narrows where the cookie goes).
 * A session ends at logout, at "sign out everywhere", after SESSION_TTL_MS, or at a restart.
 *
 * Codes and sessions live in this process's memory only. Each is 32 random bytes, compared after
 * hashing (a Map lookup by the hash).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'zfs-advisor-session';
const LINK_TTL_MS = 24 * 3600_000;
const SESSION_TTL_MS = 12 * 3600_000;
const MAX_SESSIONS = 1000;
const MAX_CODES = 100;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** The session cookie's name for the port the request arrived on (`zfs-advisor-session-8077`). */
export function sessionCookieName(req: Pick<Request, 'socket'>): string {
  const port = req.socket.localPort;
  return typeof port === 'number' && port > 0 ? `${SESSION_COOKIE}-${port}` : SESSION_COOKIE;
}

/** Whether the browser reached us over TLS: a TLS socket, or a proxy in front that says so. */
export function overTls(req: Pick<Request, 'socket' | 'headers'>): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted === true) return true;
  const proto = req.headers['x-forwarded-proto'];
  return typeof proto === 'string' && proto.split(',')[0]!.trim().toLowerCase() === 'https';
}

export interface Logins {
  /** A new one-time login code. */
  newCode(): { code: string; expiresAt: number };
  /** Whether the request carries a live session cookie. */
  hasSession(req: Request): boolean;
  /** GET /login?code=…: consumes the code, sets the cookie and redirects; false when the code is not valid. HEAD spends nothing. */
  signIn(req: Request, res: Response, basePath: string): boolean;
  /** Ends the request's session (if any) and clears its cookie. */
  logout(req: Request, res: Response, basePath: string): void;
  /** Ends every session and voids every unused code. */
  endAll(): { sessionsEnded: number; linksVoided: number };
}

export function createLogins(now: () => number = Date.now): Logins {
  const codes = new Map<string, number>();
  const sessions = new Map<string, number>();
  const sweep = (m: Map<string, number>) => { const t = now(); for (const [k, exp] of m) if (exp <= t) m.delete(k); };
  const cookieAttrs = (req: Request, basePath: string) => `HttpOnly; SameSite=Strict; Path=${basePath}${overTls(req) ? '; Secure' : ''}`;
  return {
    newCode() {
      sweep(codes);
      if (codes.size >= MAX_CODES) codes.delete(codes.keys().next().value!);
      const code = randomBytes(32).toString('base64url');
      const expiresAt = now() + LINK_TTL_MS;
      codes.set(digest(code), expiresAt);
      return { code, expiresAt };
    },
    hasSession(req) {
      const id = cookieOf(req, sessionCookieName(req));
      if (id === null) return false;
      const exp = sessions.get(digest(id));
      return exp !== undefined && exp > now();
    },
    signIn(req, res, basePath) {
      const code = typeof req.query.code === 'string' ? req.query.code : '';
      const key = digest(code);
      const exp = codes.get(key);
      if (!/^[A-Za-z0-9_-]{43}$/.test(code) || exp === undefined || exp <= now()) return false;
      res.setHeader('Cache-Control', 'no-store');
      if (req.method === 'HEAD') {
        // A preview of the link (chat apps, mail scanners) must not use it up.
        res.status(204).end();
        return true;
      }
      codes.delete(key); // one time
      sweep(sessions);
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      const id = randomBytes(32).toString('base64url');
      sessions.set(digest(id), now() + SESSION_TTL_MS);
      res.setHeader('Set-Cookie', `${sessionCookieName(req)}=${id}; ${cookieAttrs(req, basePath)}; Max-Age=${SESSION_TTL_MS / 1000}`);
      res.redirect(303, basePath === '/' ? '/' : `${basePath}/`);
      return true;
    },
    logout(req, res, basePath) {
      const id = cookieOf(req, sessionCookieName(req));
      if (id !== null) sessions.delete(digest(id));
      res.setHeader('Set-Cookie', `${sessionCookieName(req)}=; ${cookieAttrs(req, basePath)}; Max-Age=0`);
    },
    endAll() {
      const out = { sessionsEnded: sessions.size, linksVoided: codes.size };
      sessions.clear();
      codes.clear();
      return out;
    },
  };
}

function cookieOf(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const v = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,128}$/.test(v) ? v : null;
    }
  }
  return null;
}

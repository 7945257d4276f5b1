/**
 * Browser sign-in without a token in the URL (the Jupyter pattern, one-time): `serve` prints a
 * login link `…/login?code=C`; opening it consumes C (once, within LINK_TTL_MS), sets a session
 * cookie — HttpOnly (no script reads it), SameSite=Strict (no other site's page makes the browser
 * send it), Path = the base path — and redirects (303) to the UI, so neither code nor token stays
 * in the address bar or history. The token itself (root-only file) still works as a bearer for
 * scripts and in the UI's token prompt.
 *
 * Codes and sessions live in this process's memory only: a restart prints a new link and ends
 * every session. Each is 32 random bytes, compared after hashing (a Map lookup by the hash).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'zfs-advisor-session';
const LINK_TTL_MS = 24 * 3600_000;
const SESSION_TTL_MS = 12 * 3600_000;
const MAX_SESSIONS = 1000;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

export interface Logins {
  /** A new one-time login code. */
  newCode(): string;
  /** Whether the request carries a live session cookie. */
  hasSession(req: Request): boolean;
  /** GET /login?code=…: consumes the code, sets the cookie and redirects; false when the code is not valid. */
  signIn(req: Request, res: Response, basePath: string): boolean;
}

export function createLogins(now: () => number = Date.now): Logins {
  const codes = new Map<string, number>();
  const sessions = new Map<string, number>();
  const sweep = (m: Map<string, number>) => { const t = now(); for (const [k, exp] of m) if (exp <= t) m.delete(k); };
  return {
    newCode() {
      sweep(codes);
      const code = randomBytes(32).toString('base64url');
      codes.set(digest(code), now() + LINK_TTL_MS);
      return code;
    },
    hasSession(req) {
      const id = cookieOf(req, SESSION_COOKIE);
      if (id === null) return false;
      const exp = sessions.get(digest(id));
      return exp !== undefined && exp > now();
    },
    signIn(req, res, basePath) {
      const code = typeof req.query.code === 'string' ? req.query.code : '';
      const key = digest(code);
      const exp = codes.get(key);
      if (!/^[A-Za-z0-9_-]{43}$/.test(code) || exp === undefined || exp <= now()) return false;
      codes.delete(key); // one time
      sweep(sessions);
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      const id = randomBytes(32).toString('base64url');
      sessions.set(digest(id), now() + SESSION_TTL_MS);
      res.setHeader('Set-Cookie', `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=${basePath}; Max-Age=${SESSION_TTL_MS / 1000}`);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, basePath === '/' ? '/' : `${basePath}/`);
      return true;
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

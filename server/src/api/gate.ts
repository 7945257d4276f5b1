/**
 * THE GATE: the one place that decides who may call what. It runs before every router, on the
 * path as a hostile client could spell it, and denies by default:
 *
 *   0. the Host and Origin rules (origin-policy.ts) hold in every mode on TCP: a foreign Host is 421
 *      (DNS rebinding), a state-changing request from a foreign Origin is 403 (not on the Unix
 *      socket, which no browser reaches; Cockpit's bridge names the socket's path as Host there);
 *   1. the request target is reduced to one canonical form — percent-decoded (repeatedly, so
 *      `%252f` is a slash too), backslashes as slashes, empty and `.` segments dropped, `..`
 *      resolved, case-folded — so `/API/info`, `//api/info`, `/%61pi/info`, `/api%2finfo`,
 *      `/x/../api/info/` and `/zfs/API/info` all mean `/api/info` here;
 *   2. a path outside the base path is 404 at once (nothing is served there);
 *   3. the short PUBLIC list (`GET|HEAD` of the health check, the UI shell and its assets, the
 *      knowledge pages under /docs/kb, and the one-time login link /login, which carries its own code)
 *      passes without the token — and only when the request spelled the path plainly (no
 *      encoding, no dot segments), so an encoded API path can never pass as a UI asset;
 *   4. a request that came through the Unix socket (`--socket`) needs nothing more: the kernel let
 *      only root or the operator group connect (listen.ts), and no failure budget applies to it;
 *   5. everything else needs the bearer token, or a session cookie from the login link (login.ts),
 *      when the server has a token — which `serve` has on loopback too unless `--open-loopback`.
 *      Only a credential that was presented and is wrong counts against the failure budgets: a
 *      request with none gets its 401 whatever the budgets say, so a stranger who spends them
 *      cannot keep the owner's first, credential-less request (a browser's, the UI's) from
 *      learning that a credential is wanted, and a valid credential is never refused.
 *
 * The routers behind it are strict and case-sensitive: whatever is not exactly a known route is
 * 404 *after* the gate, so a spelling can only ever lose access, never gain it.
 */
import type { NextFunction, Request, Response } from 'express';
import { HttpError } from './errors.ts';
import { bearerOf, tokensEqual, type RateLimiter } from './security.ts';
import type { createOriginPolicy } from './origin-policy.ts';
import { sessionCookieName, overTls, type Logins } from './login.ts';

/** Client-side views of the UI (ui/src/router.ts VIEWS): a bookmark of one loads the shell. */
export const UI_VIEW_PATHS = ['/recommendations', '/optane', '/benchmarks', '/sizing', '/planner', '/reports', '/hosts'] as const;

/** The paths (relative to the base path, canonical) that never need the token. */
export function isPublicPath(method: string, rel: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (rel === '/api/health') return true;
  // The one-time login link: it carries its own credential (login.ts).
  if (rel === '/login') return true;
  // The knowledge pages are static text about ZFS, shipped with the app: no host data.
  if (/^\/docs\/kb(\/[a-z0-9-]+)?$/.test(rel)) return true;
  // The UI shell holds no data: it must load without the token so it can ask for it.
  return rel === '/' || rel === '/index.html' || (UI_VIEW_PATHS as readonly string[]).includes(rel) || /^\/assets\/[^/]+$/.test(rel);
}

/** Why a request target cannot be read at all (then it is refused with 400). */
export class BadTarget extends Error {}

/**
 * The canonical form of a request path: decoded until stable, dot segments resolved, no empty
 * segments, lower case, no trailing slash ('/' for the root). Throws BadTarget on a malformed
 * escape or a control character.
 */
export function canonicalPath(rawPath: string): string {
  let p = rawPath;
  for (let i = 0; i < 8 && p.includes('%'); i++) {
    let next: string;
    try { next = decodeURIComponent(p); } catch { throw new BadTarget('the path has a malformed percent escape'); }
    if (next === p) break;
    p = next;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(p)) throw new BadTarget('the path has a control character');
  const out: string[] = [];
  for (const seg of p.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`.toLowerCase();
}

/** The path part of a request target in origin form (`/path?query`); absolute forms are refused. */
export function pathOfTarget(url: string): string {
  if (!url.startsWith('/')) throw new BadTarget('the request target must be a path (origin form)');
  const q = url.search(/[?#]/);
  return q < 0 ? url : url.slice(0, q);
}

export interface GateConfig {
  /** '/' or '/prefix' as the app normalised it. */
  basePath: string;
  /** Bearer token required outside the public list; null = no token (loopback only). */
  token: string | null;
  authFailures: RateLimiter;
  /**
   * One budget for ALL failed attempts, whatever their source: a local user has 16 M loopback
   * addresses (and IPv6 more), so a per-address count alone bounds nothing.
   */
  authFailuresGlobal?: RateLimiter;
  /** Browser sessions from the one-time login link (login.ts): a valid session cookie counts like the token. */
  logins?: Pick<Logins, 'hasSession'>;
  /** Host and Origin rules (origin-policy.ts), applied before anything else in every mode. */
  policy: ReturnType<typeof createOriginPolicy>;
  /** Whether the request came through the server's Unix socket (its connection was accepted there). */
  viaLocalSocket?: (req: Request) => boolean;
}

/** What the gate decided, for the request log and for tests. */
export interface GateDecision {
  /** Canonical path relative to the base path, or null when outside it. */
  rel: string | null;
  access: 'public' | 'token' | 'session' | 'open' | 'socket';
}

/** Where the request's path sits relative to the base path (canonical), or null when outside. */
export function relativeToBase(canonical: string, basePath: string): string | null {
  const base = basePath === '/' ? '' : basePath.toLowerCase();
  if (base === '') return canonical;
  if (canonical === base) return '/';
  return canonical.startsWith(`${base}/`) ? canonical.slice(base.length) : null;
}

const GLOBAL_KEY = '*';

export function createGate(cfg: GateConfig) {
  return (req: Request, res: Response, next: NextFunction): void => {
    let raw: string;
    let rel: string | null;
    try {
      raw = pathOfTarget(req.originalUrl);
      rel = relativeToBase(canonicalPath(raw), cfg.basePath);
    } catch (err) {
      if (err instanceof BadTarget) return next(new HttpError('bad-request', `bad request target: ${err.message}`));
      throw err;
    }
    // The Host and Origin rules are about browsers (rebinding, cross-site writes), which cannot reach
    // the Unix socket; Cockpit's bridge sends `Host: %2Frun%2F…api.sock` there.
    const local = cfg.viaLocalSocket?.(req) === true;
    const verdict = local ? { ok: true as const } : cfg.policy.check(req.method, req.headers, overTls(req) ? 'https' : 'http');
    if (!verdict.ok) {
      const code = verdict.status === 421 ? 'misdirected-request' : verdict.status === 403 ? 'forbidden' : 'bad-request';
      return next(new HttpError(code, verdict.message));
    }
    if (rel === null) return next(new HttpError('not-found', `no route ${req.method} ${raw}`));

    // Public only when spelled plainly: the raw path, case and one trailing slash aside, must
    // already be canonical, so what the UI router sees is exactly what was judged here.
    const plain = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
    const canonicalWithBase = cfg.basePath === '/' ? rel : rel === '/' ? cfg.basePath.toLowerCase() : `${cfg.basePath.toLowerCase()}${rel}`;
    if (isPublicPath(req.method, rel) && plain.toLowerCase() === canonicalWithBase) {
      res.locals.gate = { rel, access: 'public' } satisfies GateDecision;
      return next();
    }
    if (local) {
      res.locals.gate = { rel, access: 'socket' } satisfies GateDecision;
      return next();
    }
    if (cfg.token === null) {
      res.locals.gate = { rel, access: 'open' } satisfies GateDecision;
      return next();
    }
    // The token is checked first and only failures are counted (security.ts explains why).
    const presented = bearerOf(req);
    if (presented !== null && tokensEqual(presented, cfg.token)) {
      res.locals.gate = { rel, access: 'token' } satisfies GateDecision;
      return next();
    }
    if (cfg.logins?.hasSession(req)) {
      res.locals.gate = { rel, access: 'session' } satisfies GateDecision;
      return next();
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="zfs-advisor"');
    const presentedCookie = typeof req.headers.cookie === 'string' && req.headers.cookie.includes(`${sessionCookieName(req)}=`);
    if (presented === null && !presentedCookie) return next(new HttpError('unauthorized', 'this server requires a credential: the API token (Authorization: Bearer …) or a session from a one-time login link'));
    const client = req.socket.remoteAddress ?? 'unknown';
    const perAddress = cfg.authFailures.hit(client);
    const global = cfg.authFailuresGlobal ? cfg.authFailuresGlobal.hit(GLOBAL_KEY) : true;
    if (!perAddress || !global) {
      res.setHeader('Retry-After', String(perAddress ? cfg.authFailuresGlobal!.retryAfterSeconds(GLOBAL_KEY) : cfg.authFailures.retryAfterSeconds(client)));
      return next(new HttpError('rate-limited', 'too many failed authentication attempts; try again later'));
    }
    next(new HttpError('unauthorized', presented === null ? 'the session has ended or is not valid: open a new one-time login link, or give the API token' : 'wrong token'));
  };
}

/**
 * Authentication, rate limits and security headers.
 *
 * - Bearer token: compared in constant time (both sides hashed to 32 bytes first, so the
 *   comparison does not leak the length either). The only cookie is the session of the one-time
 *   login link (login.ts): SameSite=Strict, so no other site's request carries it, and writes
 *   still pass the Origin rule (origin-policy.ts).
 * - Rate limits: a fixed-window counter per client address and purpose; instances are created
 *   per app (no global state).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export function tokensEqual(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}

export function bearerOf(req: Request): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer ([\x21-\x7e]{1,512})$/.exec(h.trim());
  return m ? m[1]! : null;
}

export interface RateLimiter {
  /** Counts one event for `key`; returns false when the limit for the window is exceeded. */
  hit(key: string): boolean;
  /** Whether `key` is currently over the limit (without counting). */
  blocked(key: string): boolean;
  retryAfterSeconds(key: string): number;
}

export function createRateLimiter(limit: number, windowMs: number, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string) => {
    const t = now();
    let w = windows.get(key);
    if (!w || t - w.start >= windowMs) {
      w = { start: t, count: 0 };
      windows.set(key, w);
      // Keep the map small: forget finished windows now and then.
      if (windows.size > 10_000) for (const [k, v] of windows) if (t - v.start >= windowMs) windows.delete(k);
    }
    return w;
  };
  return {
    hit: (key) => {
      const w = current(key);
      w.count += 1;
      return w.count <= limit;
    },
    blocked: (key) => current(key).count >= limit,
    retryAfterSeconds: (key) => Math.max(1, Math.ceil((current(key).start + windowMs - now()) / 1000)),
  };
}

/*
 * How the gate (gate.ts) uses the token and the failure limiter: the token is checked FIRST and
 * only failures are counted, so a request with the valid token is never refused by the failure
 * limiter. This matters behind a reverse proxy: the app does not trust `X-Forwarded-For` (`trust
 * proxy` is off, since a header anyone can send would let a client pick its own rate-limit key),
 * so every client arrives from the proxy's address and shares one failure counter. Were that
 * counter consulted before the token, one client sending bad tokens would lock every other client
 * out; as it is, only requests without a valid token get 429 while the window lasts. The limiter
 * bounds the cost of failures (log lines, hashing), it is not what stops guessing: the token has
 * 256 random bits.
 */

/** Headers for every response; the UI's CSP allows only same-origin scripts, styles and data. */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  );
  res.removeHeader('X-Powered-By');
  next();
}

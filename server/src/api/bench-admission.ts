/**
 * One admission for every benchmark start over HTTP (a run, a suite, the Optane page's device probe
 * and its re-probe): the per-client start limit, counted before anything else runs so typed
 * confirmations cannot be tried faster than runs start; then, for a single run, no suite running on
 * the host (the runner itself allows one run per host).
 */
import type { Request, Response } from 'express';
import type { AppContext } from './context.ts';
import { HttpError } from './errors.ts';

export function admitBenchStart(ctx: Pick<AppContext, 'benchLimiter' | 'benchSuites'>, hostId: string, req: Request, res: Response, kind: 'run' | 'suite' = 'run'): void {
  const client = req.socket.remoteAddress ?? 'unknown';
  if (!ctx.benchLimiter.hit(client)) {
    const wait = ctx.benchLimiter.retryAfterSeconds(client);
    res.setHeader('Retry-After', String(wait));
    throw new HttpError('rate-limited', 'too many benchmark starts from this client in the last minute', undefined,
      `Start again in ${wait} s. The limit is fixed per client so that typed device confirmations cannot be guessed faster than runs start; nobody can raise it over HTTP`);
  }
  if (kind === 'run' && ctx.benchSuites.busy(hostId)) {
    throw new HttpError('conflict', `a benchmark suite is running on host "${hostId}"`, undefined, 'Wait for the suite to end or cancel it on the Benchmarks page, then start again: one benchmark runs per host at a time, so that runs do not measure each other');
  }
}

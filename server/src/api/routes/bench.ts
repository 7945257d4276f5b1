/**
 * Benchmarks on this machine: profiles, dry run, start (rate-limited, one per host), progress
 * (poll or Server-Sent Events), cancel, stored history, before/after.
 */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError, notFound } from '../errors.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { applyBenchPolicy, benchPolicy, type ApiBenchRequest } from '../bench-policy.ts';

export function benchRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { getHost, requireBench, requireLocal, confine, benchRuns, benchLimiter, settings } = ctx;
  /** The server's limits, then container confinement: what the runner gets. */
  const withPolicy = (body: ApiBenchRequest) => {
    const p = applyBenchPolicy(body, benchPolicy(settings.get().benchmark));
    if (!p.ok) throw new HttpError('bad-request', p.message);
    return confine(p.request);
  };

  bindRoute(r, routes.benchProfiles, () => requireBench().bench.listProfiles());
  bindRoute(r, routes.benchDryRun, async ({ params, body }) => {
    const h = getHost(params.hostId);
    requireLocal(h);
    return requireBench().bench.dryRun(withPolicy(body));
  });
  bindRoute(r, routes.benchStart, ({ params, body, req, res }) => {
    const h = getHost(params.hostId);
    requireLocal(h);
    const { runs } = requireBench();
    const request = withPolicy(body);
    const client = req.socket.remoteAddress ?? 'unknown';
    if (!benchLimiter.hit(client)) {
      res.setHeader('Retry-After', String(benchLimiter.retryAfterSeconds(client)));
      throw new HttpError('rate-limited', 'too many benchmark starts; try again later');
    }
    return runs.start(h.id, request);
  });
  bindRoute(r, routes.benchRun, ({ params }) => {
    const v = benchRuns?.get(params.runId);
    if (!v) throw notFound(`benchmark run ${params.runId}`);
    return v;
  });
  bindRoute(r, routes.benchCancel, ({ params }) => {
    const v = benchRuns?.cancel(params.runId);
    if (!v) throw notFound(`benchmark run ${params.runId}`);
    return v;
  });
  bindRoute(r, routes.benchEvents, ({ params, req, res }) => {
    if (!benchRuns) throw notFound(`benchmark run ${params.runId}`);
    const send = (event: string, data: unknown) => { res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); };
    let started = false;
    const unsubscribe = benchRuns.subscribe(params.runId, (event, data) => {
      if (!started) return;
      send(event, data);
      if (event === 'done') res.end();
    });
    if (!unsubscribe) throw notFound(`benchmark run ${params.runId}`);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    started = true;
    const view = benchRuns.get(params.runId);
    if (view && view.status !== 'running') {
      send('done', view);
      res.end();
      return;
    }
    if (view?.progress) send('progress', view.progress);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    keepAlive.unref();
    req.on('close', () => { clearInterval(keepAlive); unsubscribe(); });
    return undefined;
  });
  // The stored runs are this machine's: other hosts (demo, TrueNAS, Proxmox) have none.
  bindRoute(r, routes.benchHistory, ({ params, query }) => {
    const h = getHost(params.hostId);
    const { bench } = requireBench();
    return h.kind === 'local' ? bench.history({ pool: query.pool, profile: query.profile }) : [];
  });
  bindRoute(r, routes.benchBeforeAfter, ({ params, query }) => {
    const h = getHost(params.hostId);
    const { bench } = requireBench();
    if (h.kind !== 'local') return { pool: query.pool, profile: query.profile, groups: [], before: null, after: null, ratios: null };
    return bench.beforeAfter(query.pool, query.profile);
  });
  return r;
}

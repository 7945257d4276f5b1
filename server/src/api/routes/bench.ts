/**
 * Benchmarks on this machine: profiles, dry run, start (rate-limited, one per host), progress
 * (poll or Server-Sent Events), cancel, stored history, before/after; and suites of them
 * (suiteRoutes below: plan, start, progress, cancel, stored suites, compare, export).
 */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { admitBenchStart } from '../bench-admission.ts';
import { HttpError, notFound } from '../errors.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { applyBenchPolicy, benchPolicy, clampToPolicy, raiseLimitSentence, type ApiBenchRequest } from '../bench-policy.ts';
import type { Router, Response, Request } from 'express';
import { SUITES, type SuiteRequest } from '../../bench/suites.ts';
import { planSuite } from '../../bench/suite-runner.ts';
import { listSuites, getSuiteRow } from '../../bench/suite-store.ts';
import { compareSuites, suiteCsv, suiteExport } from '../../bench/compare.ts';
import { demoSuites } from '../../bench/demo-suite.ts';
import type { SuiteResult } from '../../bench/suite-types.ts';

export function benchRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { getHost, requireBench, requireLocal, confine, benchRuns, settings } = ctx;
  /** The server's limits, then container confinement: what the runner gets. */
  const withPolicy = (body: ApiBenchRequest) => {
    const p = applyBenchPolicy(body, benchPolicy(settings.get().benchmark, ctx.benchCeiling));
    if (!p.ok) throw new HttpError('bad-request', p.message, undefined, 'wayForward' in p ? p.wayForward : null);
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
    admitBenchStart(ctx, h.id, req, res);
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
    if (h.kind !== 'local') return { pool: query.pool, profile: query.profile, groups: [], before: null, after: null, latency: { label: null, before: null, after: null }, ratios: null };
    return bench.beforeAfter(query.pool, query.profile);
  });
  suiteRoutes(r, ctx);
  return r;
}

/** Server-Sent Events of a live job: `progress` events, then `done` with the final view. */
function sse(req: Request, res: Response, subscribe: (l: (event: string, data: unknown) => void) => (() => void) | null, current: { status: string; progress: unknown } | null, what: string): undefined {
  const send = (event: string, data: unknown) => { res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); };
  let started = false;
  const unsubscribe = subscribe((event, data) => {
    if (!started) return;
    send(event, data);
    if (event === 'done') res.end();
  });
  if (!unsubscribe) throw notFound(what);
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  started = true;
  if (current && current.status !== 'running') { send('done', current); res.end(); return undefined; }
  if (current?.progress) send('progress', current.progress);
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  keepAlive.unref();
  req.on('close', () => { clearInterval(keepAlive); unsubscribe(); });
  return undefined;
}

function suiteRoutes(r: Router, ctx: AppContext): void {
  const { getHost, requireLocal, settings, benchDir, store, benchSuites } = ctx;
  /** Path targets only in the operator's places; container mode: nothing else, no zvols (ctx.confine decides). */
  const confineSuite = (req: SuiteRequest): SuiteRequest => {
    if (benchDir !== null && req.zvol) throw new HttpError('bad-request', `this server benchmarks only directories inside ${benchDir}; zvol runs are refused`);
    if (benchDir === null && req.target.kind !== 'path') return req;
    const c = ctx.confine({ profile: 'sync-write-4k-qd1', target: req.target, sizeBytes: 1, runtimeS: 1, maxPoolWriteWaitMs: 2000 });
    return { ...req, target: c.target as SuiteRequest['target'] };
  };
  const plan = async (hostId: string, body: SuiteRequest) => {
    requireLocal(getHost(hostId));
    // Server policy (bench-policy.ts): the caller may only tighten the load limit; each cell's
    // limits are then brought within the policy.
    const policy = benchPolicy(settings.get().benchmark, ctx.benchCeiling);
    if (body.maxLoad1 !== undefined && body.maxLoad1 > policy.maxLoad1) {
      throw new HttpError('bad-request', `maxLoad1 ${body.maxLoad1} is above this server's limit of ${policy.maxLoad1} (settings.benchmark.maxLoad1); a request may only tighten it`, undefined, raiseLimitSentence('maxLoad1', body.maxLoad1));
    }
    const p = await planSuite(confineSuite({ ...body, maxLoad1: body.maxLoad1 ?? policy.maxLoad1, limitsFrom: 'server' }), { db: store.db });
    if (!p.ok) throw new HttpError('bad-request', p.message);
    const cap = policy.maxRuntimeSeconds;
    if (p.plan.runtimeS > cap) throw new HttpError('bad-request', `runtimeS ${p.plan.runtimeS} is above the configured cap of ${cap} s (settings.benchmark.maxRuntimeSeconds)`, undefined, raiseLimitSentence('maxRuntimeSeconds', p.plan.runtimeS));
    return { ...p.plan, runs: p.plan.runs.map((run) => ({ ...run, request: clampToPolicy(run.request, policy) })) };
  };
  const stored = (hostId: string): SuiteResult[] => {
    const h = getHost(hostId);
    if (h.kind === 'demo') { const d = demoSuites(); return [d.after, d.before]; }
    if (h.kind !== 'local') return [];
    return listSuites(store.db).map((x) => x.result).filter((x): x is SuiteResult => x !== null);
  };
  const find = (hostId: string, id: string): SuiteResult => {
    const s = stored(hostId).find((x) => x.id === id) ?? (getHost(hostId).kind === 'local' ? getSuiteRow(store.db, id)?.result ?? null : null);
    if (!s) throw notFound(`suite ${id}`);
    return s;
  };

  bindRoute(r, routes.benchSuiteDefs, () => SUITES.map((x) => ({ ...x, profiles: [...x.profiles], matrix: { ...x.matrix } as Record<string, (string | number)[]> })));
  bindRoute(r, routes.benchSuitePlan, ({ params, body }) => plan(params.hostId, body));
  bindRoute(r, routes.benchSuiteStart, async ({ params, body, req, res }) => {
    const p = await plan(params.hostId, body);
    admitBenchStart(ctx, params.hostId, req, res, 'suite');
    return benchSuites.start(params.hostId, p);
  });
  bindRoute(r, routes.benchSuiteJob, ({ params }) => benchSuites.get(params.jobId) ?? (() => { throw notFound(`suite job ${params.jobId}`); })());
  bindRoute(r, routes.benchSuiteCancel, ({ params }) => benchSuites.cancel(params.jobId) ?? (() => { throw notFound(`suite job ${params.jobId}`); })());
  bindRoute(r, routes.benchSuiteEvents, ({ params, req, res }) => sse(req, res, (l) => benchSuites.subscribe(params.jobId, l), benchSuites.get(params.jobId), `suite job ${params.jobId}`));
  bindRoute(r, routes.benchSuiteList, ({ params }) => stored(params.hostId).map(suiteExport));
  bindRoute(r, routes.benchSuiteCompare, ({ params, query }) => ({ before: query.before, after: query.after, ...compareSuites(find(params.hostId, query.before), find(params.hostId, query.after)) }));
  bindRoute(r, routes.benchSuiteExport, ({ params, query, res }) => {
    const s = find(params.hostId, params.suiteId);
    res.status(200);
    res.setHeader('Content-Type', query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="suite-${s.suite}-${s.id}.${query.format}"`);
    res.send(query.format === 'csv' ? suiteCsv(s) : `${JSON.stringify(suiteExport(s), null, 2)}\n`);
    return undefined;
  });
}

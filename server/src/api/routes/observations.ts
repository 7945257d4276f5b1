/** Workload observations: a background job reading counters only, with SSE progress, poll and cancel. */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { notFound } from '../errors.ts';
import { requireMeasurable } from '../measurable.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { streamJob } from '../sse.ts';

export function observationRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { evidence, observeJob } = ctx;
  bindRoute(r, routes.startObservation, ({ params, body }) => {
    const h = ctx.getHost(params.hostId);
    requireMeasurable(h, ctx.config.demo, 'observations');
    return observeJob.start(h, body, 'manual');
  });
  bindRoute(r, routes.listObservations, ({ params, query }) => {
    ctx.getHost(params.hostId);
    return evidence.listObservations(params.hostId, query.limit).map((x) => observeJob.view(x.id) ?? x);
  });
  bindRoute(r, routes.getObservation, ({ params }) => {
    const x = observeJob.view(params.observationId);
    if (!x) throw notFound(`observation ${params.observationId}`);
    return x;
  });
  bindRoute(r, routes.cancelObservation, ({ params }) => {
    const x = observeJob.cancel(params.observationId);
    if (!x) throw notFound(`observation ${params.observationId}`);
    return x;
  });
  bindRoute(r, routes.observationEvents, ({ params, req, res }) => {
    const first = observeJob.view(params.observationId);
    if (!first) throw notFound(`observation ${params.observationId}`);
    streamJob(req, res, observeJob, params.observationId, () => observeJob.view(params.observationId) ?? first);
    return undefined;
  });
  return r;
}

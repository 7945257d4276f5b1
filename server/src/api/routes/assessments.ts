/** Inventories, assessments (run now, list, newest, one) and the scheduler's run records. */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError, notFound } from '../errors.ts';
import { apiRouter, bindRoute } from '../route.ts';

export function assessmentRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { history, getHost } = ctx;
  bindRoute(r, routes.getInventory, ({ params }) => {
    getHost(params.hostId);
    const s = history.latestSnapshot(params.hostId);
    if (!s) throw new HttpError('not-found', `no inventory of host "${params.hostId}" yet: run an assessment (POST ${routes.runAssessment.path})`);
    return { snapshotId: s.id, hostId: s.hostId, capturedAt: s.capturedAt, inventory: s.inventory };
  });
  bindRoute(r, routes.runAssessment, async ({ params }) => ctx.recordView((await ctx.job.run(getHost(params.hostId), 'manual')).record));
  bindRoute(r, routes.listAssessments, ({ params }) => {
    getHost(params.hostId);
    return history.listAssessments(params.hostId);
  });
  bindRoute(r, routes.latestAssessment, ({ params }) => {
    getHost(params.hostId);
    const a = history.latestAssessment(params.hostId);
    if (!a) throw new HttpError('not-found', `host "${params.hostId}" has no assessment yet`);
    return ctx.recordView(a);
  });
  bindRoute(r, routes.getAssessment, ({ params }) => {
    const a = history.getAssessment(params.assessmentId);
    if (!a) throw notFound(`assessment ${params.assessmentId}`);
    return ctx.recordView(a);
  });
  bindRoute(r, routes.listRuns, ({ params }) => {
    getHost(params.hostId);
    return history.listRuns(params.hostId);
  });
  return r;
}

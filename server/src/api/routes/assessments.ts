/** Inventories, assessments (run now, list, newest, one, how current), and the scheduler's run records. */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError, notFound } from '../errors.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { pageStart } from '../read-views.ts';

export function assessmentRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { history, getHost } = ctx;
  const noInventory = (hostId: string) => new HttpError('not-found', `no inventory of host "${hostId}" yet: run an assessment (POST ${routes.runAssessment.path})`);
  /** The read request for one stored snapshot of this host (read on a cache miss only). */
  const snapshotOf = (hostId: string, snapshotId: number) => {
    const blob = history.snapshotBlob(hostId, snapshotId);
    if (!blob) throw new HttpError('not-found', 'the snapshot this cursor pages through is no longer kept: start again without cursor');
    return { snap: { snapshotId, hostId, capturedAt: blob.capturedAt }, gz: blob.inventoryGz };
  };
  // How current the newest assessment is: a page asks before it shows the stored tree, and a changed
  // layout starts a re-assessment (jobs/freshness.ts).
  bindRoute(r, routes.hostFreshness, ({ params }) => ctx.freshness.check(getHost(params.hostId), { refresh: true }));
  // Inventories and dataset pages are built by the read worker and kept per snapshot and query
  // (read-thread.ts): a large host's inventory is tens of MB of JSON.
  bindRoute(r, routes.getInventory, ({ params, query }) => {
    getHost(params.hostId);
    const ref = history.latestSnapshotRef(params.hostId);
    if (!ref) throw noInventory(params.hostId);
    const pool = query.pool ?? null;
    return ctx.reader.get(`${params.hostId}/i/${ref.id}/${pool ?? ''}`, () => ({ op: 'inventory', ...snapshotOf(params.hostId, ref.id), pool }));
  });
  bindRoute(r, routes.listDatasets, ({ params, query }) => {
    getHost(params.hostId);
    const at = pageStart('d', query.cursor, () => history.latestSnapshotRef(params.hostId));
    if (!at) throw noInventory(params.hostId);
    const pool = query.pool ?? null;
    return ctx.reader.get(`${params.hostId}/d/${at.id}/${pool ?? ''}/${at.offset}/${query.limit}`, () => ({
      op: 'datasets', ...snapshotOf(params.hostId, at.id), pool, offset: at.offset, limit: query.limit,
    }));
  });
  /** A whole assessment record (the findings with their evidence: megabytes on a large host). */
  const record = (hostId: string, id: number) => ctx.reader.get(`${hostId}/a/${id}`, () => {
    const summary = history.assessmentSummary(id);
    const blob = summary && history.assessmentBlob(hostId, id);
    if (!summary || !blob) throw notFound(`assessment ${id}`);
    return { op: 'record', summary, gz: blob.assessmentGz };
  });
  bindRoute(r, routes.runAssessment, async ({ params }) => record(params.hostId, (await ctx.job.run(getHost(params.hostId), 'manual')).record.id));
  bindRoute(r, routes.listAssessments, ({ params }) => {
    getHost(params.hostId);
    return history.listAssessments(params.hostId);
  });
  bindRoute(r, routes.latestAssessment, ({ params }) => {
    getHost(params.hostId);
    const a = history.latestAssessmentRef(params.hostId);
    if (!a) throw new HttpError('not-found', `host "${params.hostId}" has no assessment yet`);
    return record(params.hostId, a.id);
  });
  bindRoute(r, routes.getAssessment, ({ params }) => {
    const a = history.assessmentSummary(params.assessmentId);
    if (!a) throw notFound(`assessment ${params.assessmentId}`);
    return record(a.hostId, a.id);
  });
  bindRoute(r, routes.listRuns, ({ params }) => {
    getHost(params.hostId);
    return history.listRuns(params.hostId);
  });
  return r;
}

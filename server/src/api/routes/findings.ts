/**
 * Findings of the newest assessment with their acknowledgements (a page at a time with
 * ?limit=/?cursor=); acknowledge and withdraw. Lists are built by the read worker and kept per
 * assessment, query and acknowledgement state (read-thread.ts).
 */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError, notFound } from '../errors.ts';
import { apiRouter, bindRoute, prepareJson } from '../route.ts';
import { pageStart } from '../read-views.ts';

export function findingRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { history, getHost, reader } = ctx;
  bindRoute(r, routes.listFindings, ({ params, query }) => {
    getHost(params.hostId);
    const { limit, cursor, ...rest } = query;
    const filter = { severity: rest.severity, pool: rest.pool, status: rest.status };
    // A cursor names the assessment its first page came from: later pages come from it too.
    // (Keys by id are safe: ids are reused only after a host's rows are all deleted, and
    // deleting a host forgets its answers.)
    const at = pageStart('f', cursor, () => history.latestAssessmentRef(params.hostId));
    if (!at) return prepareJson(routes.listFindings, { assessmentId: null, generatedAt: null, demo: false, findings: [], total: 0, nextCursor: null });
    const key = `${params.hostId}/f/${at.id}/${JSON.stringify(filter)}/${at.offset}/${limit ?? 'all'}`;
    return reader.get(key, () => {
      const blob = history.assessmentBlob(params.hostId, at.id);
      if (!blob) throw new HttpError('not-found', 'the assessment this cursor pages through is no longer kept: start again without cursor');
      return {
        op: 'findings', ref: { assessmentId: at.id, generatedAt: blob.generatedAt, demo: blob.demo }, gz: blob.assessmentGz, filter,
        offset: at.offset, limit: limit ?? null, acks: [...history.acks(params.hostId)], firstSeen: [...history.firstSeen(params.hostId)],
      };
    });
  });
  bindRoute(r, routes.ackFinding, ({ params, body }) => {
    getHost(params.hostId);
    if (!history.knowsFingerprint(params.hostId, params.fingerprint)) throw notFound(`finding ${params.fingerprint} on host "${params.hostId}"`);
    const ack = history.setAck(params.hostId, params.fingerprint, body.state, body.note ?? null);
    reader.forget(`${params.hostId}/f/`);
    return ack;
  });
  bindRoute(r, routes.unackFinding, ({ params }) => {
    getHost(params.hostId);
    const cleared = history.clearAck(params.hostId, params.fingerprint);
    reader.forget(`${params.hostId}/f/`);
    if (!cleared) throw notFound(`acknowledgement of ${params.fingerprint}`);
    return undefined;
  });
  return r;
}

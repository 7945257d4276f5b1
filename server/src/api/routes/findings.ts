/** Findings of the newest assessment with their acknowledgements; acknowledge and withdraw. */
import { SEVERITY_ORDER } from '../../model/finding.ts';
import type { AppContext } from '../context.ts';
import { routes, type FindingView } from '../contract.ts';
import { notFound } from '../errors.ts';
import { apiRouter, bindRoute, prepareJson } from '../route.ts';

export function findingRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { history, getHost, findingsCache } = ctx;
  // Served from findingsCache (validated and serialised once per host state and query).
  bindRoute(r, routes.listFindings, ({ params, query }) => {
    getHost(params.hostId);
    const latest = history.latestAssessment(params.hostId);
    return findingsCache.get(params.hostId, latest, query, () => {
      if (!latest) return prepareJson(routes.listFindings, { assessmentId: null, generatedAt: null, demo: false, findings: [] });
      const acks = history.acks(params.hostId);
      const firstSeen = history.firstSeen(params.hostId);
      const findings: FindingView[] = latest.assessment.findings
        .filter((f) => (query.severity ? f.severity === query.severity : true))
        .filter((f) => (query.pool ? f.subject.pool === query.pool : true))
        .map((f) => ({ ...f, ack: acks.get(f.fingerprint) ?? null, firstSeenAt: firstSeen.get(f.fingerprint) ?? null }))
        .filter((f) => query.status === 'all' || (query.status === 'open' ? f.ack === null : f.ack?.state === query.status))
        .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
      return prepareJson(routes.listFindings, { assessmentId: latest.id, generatedAt: latest.generatedAt, demo: latest.demo, findings });
    });
  });
  bindRoute(r, routes.ackFinding, ({ params, body }) => {
    getHost(params.hostId);
    if (!history.knowsFingerprint(params.hostId, params.fingerprint)) throw notFound(`finding ${params.fingerprint} on host "${params.hostId}"`);
    const ack = history.setAck(params.hostId, params.fingerprint, body.state, body.note ?? null);
    findingsCache.invalidate(params.hostId);
    return ack;
  });
  bindRoute(r, routes.unackFinding, ({ params }) => {
    getHost(params.hostId);
    const cleared = history.clearAck(params.hostId, params.fingerprint);
    findingsCache.invalidate(params.hostId);
    if (!cleared) throw notFound(`acknowledgement of ${params.fingerprint}`);
    return undefined;
  });
  return r;
}

/** Prometheus metrics of every host (text exposition format). */
import { APP_VERSION } from '../../version.ts';
import { renderMetrics, newestPerPoolAndProfile } from '../../metrics/prometheus.ts';
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { apiRouter } from '../route.ts';

export function metricsRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { services, hosts, history } = ctx;
  r.get(routes.metrics.path, (_req, res, next) => {
    try {
      const bench = services.bench ? newestPerPoolAndProfile(ctx.safeHistory(services.bench)) : [];
      const body = renderMetrics(
        hosts.list().map((h) => ({
          hostId: h.id,
          inventory: history.latestSnapshot(h.id)?.inventory ?? null,
          counts: history.latestAssessmentSummary(h.id)?.counts ?? null,
          // Benchmarks run on the server's own machine: they belong to its local host.
          benchmarks: h.kind === 'local' ? bench : [],
        })),
        { version: APP_VERSION },
      );
      res.setHeader('Content-Type', routes.metrics.response.contentType);
      res.send(body);
    } catch (err) {
      next(err);
    }
  });
  return r;
}

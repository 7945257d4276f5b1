/**
 * Prometheus metrics of every host (text exposition format), rendered by the read worker: it
 * reads each host's newest inventory, tens of MB of JSON on a large host. The server's own
 * event-loop delay since the previous scrape is measured here and exported with them.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { APP_VERSION } from '../../version.ts';
import { newestPerPoolAndProfile } from '../../metrics/prometheus.ts';
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { apiRouter } from '../route.ts';

export function metricsRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { services, hosts, history } = ctx;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  ctx.onClose(() => loop.disable());
  r.get(routes.metrics.path, (_req, res, next) => {
    const bench = services.bench ? newestPerPoolAndProfile(ctx.safeHistory(services.bench)) : [];
    // Histogram values are nanoseconds; a scrape starts the next window.
    const eventLoop = { p50: loop.percentile(50) / 1e9, p99: loop.percentile(99) / 1e9, max: loop.max / 1e9 };
    loop.reset();
    ctx.reader.once({
      op: 'metrics', version: APP_VERSION, eventLoop,
      hosts: hosts.list().map((h) => {
        const ref = history.latestSnapshotRef(h.id);
        const blob = ref ? history.snapshotBlob(h.id, ref.id) : null;
        return {
          hostId: h.id,
          snap: ref && blob ? { snap: { snapshotId: ref.id, hostId: h.id, capturedAt: blob.capturedAt }, gz: blob.inventoryGz } : null,
          counts: history.latestAssessmentSummary(h.id)?.counts ?? null,
          // Benchmarks run on the server's own machine: they belong to its local host.
          benchmarks: h.kind === 'local' ? bench : [],
        };
      }),
    }).then((body) => {
      res.setHeader('Content-Type', routes.metrics.response.contentType);
      res.send(body);
    }, next);
  });
  return r;
}

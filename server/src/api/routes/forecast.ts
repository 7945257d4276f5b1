/**
 * The sync-write forecast for a pool of the host's newest inventory: now, and with an unused drive
 * of the box or a device named by model text (server/src/forecast/), using what this machine
 * measured (probes, blank-device tests, observations). Computed, never executed.
 */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError } from '../errors.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { artifactsFromInventory } from '../../model/artifacts.ts';
import { runForecast } from '../../forecast/request.ts';
import { evidenceArtifacts } from '../../jobs/evidence-artifacts.ts';

export function forecastRoutes(ctx: AppContext) {
  const r = apiRouter();
  bindRoute(r, routes.forecast, ({ params, body }) => {
    const h = ctx.getHost(params.hostId);
    const snap = ctx.history.latestSnapshot(params.hostId);
    if (!snap) throw new HttpError('not-found', `no inventory of host "${params.hostId}" yet: run an assessment first (POST ${routes.runAssessment.path})`);
    // Measure before forecasting: this machine's probes and blank-device tests, as the assessment gets them.
    const measured = evidenceArtifacts(h, {
      evidence: ctx.evidence, bench: ctx.services.bench, observation: () => ctx.settings.get().observation, demo: ctx.config.demo,
      onError: (what, err) => ctx.logger.warn(`${what} unavailable for the forecast`, { error: err instanceof Error ? err.message : String(err) }),
    });
    const out = runForecast({ ...artifactsFromInventory(snap.inventory), ...measured }, body);
    if (!out.ok) throw new HttpError(out.message.startsWith('no pool') || out.message.startsWith('no drive') ? 'not-found' : 'bad-request', out.message);
    return out.result;
  });
  return r;
}

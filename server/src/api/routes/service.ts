/** The service routes: health (public), info, the OpenAPI document. */
import { APP_VERSION } from '../../version.ts';
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { lazy } from '../lazy.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { PROOF_HEADER, tokenProof } from '../security.ts';

export function serviceRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { config, services, basePath, benchDir } = ctx;
  bindRoute(r, routes.health, ({ query, res }) => {
    // Proof of holding the token, for a client about to send it (Cockpit): an HMAC of the caller's
    // fresh challenge, which reveals nothing about the token and cannot be replayed.
    if (query.challenge && config.token) res.setHeader(PROOF_HEADER, tokenProof(config.token, query.challenge));
    return { status: 'ok', version: APP_VERSION, uptimeSeconds: Math.round(process.uptime()) };
  });
  bindRoute(r, routes.info, () => ({
    version: APP_VERSION, basePath, authRequired: config.token !== null, demo: config.demo, benchDir,
    features: { assess: services.assess !== null && services.loadInventory !== null, bench: services.bench !== null && !config.snapshot, reports: services.renderReport !== null, optane: services.assess !== null },
  }));
  // Generated from the zod schemas on first request (then kept): building it at start costs memory
  // on every server, and most never serve it.
  const openapi = lazy(async () => (await import('../openapi.ts')).buildOpenApiDocument({ basePath }));
  bindRoute(r, routes.openapi, () => openapi());
  return r;
}

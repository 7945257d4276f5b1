/** The service routes: health (public), info, the OpenAPI document; login links and sessions. */
import { APP_VERSION } from '../../version.ts';
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError } from '../errors.ts';
import { lazy } from '../lazy.ts';
import type { Logins } from '../login.ts';
import { apiRouter, bindRoute } from '../route.ts';

export function serviceRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { config, services, basePath, benchDir } = ctx;
  // Health signs nothing (issue 35: a `?challenge=` answered with an HMAC under the token let any
  // local account relay it from a port of its own and receive the token from Cockpit's page).
  bindRoute(r, routes.health, () => ({ status: 'ok', version: APP_VERSION, uptimeSeconds: Math.round(process.uptime()) }));
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

/**
 * Login links and sessions (login.ts). `loginBase()` is the URL browsers open (known once the
 * server listens), null when the server asks for no credential.
 */
export function sessionRoutes(logins: Logins, basePath: string, loginBase: () => string | null) {
  const r = apiRouter();
  bindRoute(r, routes.newLoginLink, ({ res }) => {
    const base = loginBase();
    if (base === null) throw new HttpError('conflict', 'this server asks for no credential (--open-loopback): there is nothing to sign in to');
    const { code, expiresAt } = logins.newCode();
    res.status(201).setHeader('Cache-Control', 'no-store');
    return { url: `${base}login?code=${code}`, expiresAt: new Date(expiresAt).toISOString() };
  });
  bindRoute(r, routes.logout, ({ req, res }) => {
    logins.logout(req, res, basePath);
    res.status(204).end();
  });
  bindRoute(r, routes.endAllSessions, () => logins.endAll());
  return r;
}

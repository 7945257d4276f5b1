/** Settings: schedule, retention, benchmark limits. */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { apiRouter, bindRoute } from '../route.ts';

export function settingsRoutes(ctx: AppContext) {
  const r = apiRouter();
  bindRoute(r, routes.getSettings, () => ctx.settings.get());
  bindRoute(r, routes.updateSettings, ({ body }) => ctx.settings.update(body));
  return r;
}

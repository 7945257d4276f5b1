/** Settings: schedule, retention, benchmark limits (only at or below the operator's ceiling: bench-policy.ts). */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { HttpError } from '../errors.ts';
import { settingsAboveCeiling } from '../bench-policy.ts';

export function settingsRoutes(ctx: AppContext) {
  const r = apiRouter();
  bindRoute(r, routes.getSettings, () => ctx.settings.get());
  bindRoute(r, routes.updateSettings, ({ body }) => {
    const above = settingsAboveCeiling(body, ctx.benchCeiling);
    if (above) throw new HttpError('forbidden', `refused: ${above}`);
    return ctx.settings.update(body);
  });
  return r;
}

/** "Should I add Optane?": the verdict of the newest assessment. */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError } from '../errors.ts';
import { OptaneVerdictView } from '../schemas.ts';
import { apiRouter, bindRoute } from '../route.ts';

export function optaneRoutes(ctx: AppContext) {
  const r = apiRouter();
  bindRoute(r, routes.optane, ({ params }) => {
    ctx.getHost(params.hostId);
    const a = ctx.history.latestAssessment(params.hostId);
    if (!a) throw new HttpError('not-found', `host "${params.hostId}" has no assessment yet: run one first (POST ${routes.runAssessment.path})`);
    const v = OptaneVerdictView.safeParse(a.optane);
    if (!v.success) throw new HttpError('unavailable', 'this assessment has no Optane verdict (the verdict module is missing from this build)');
    return v.data;
  });
  return r;
}

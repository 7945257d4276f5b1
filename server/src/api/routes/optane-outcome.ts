/**
 * Closing the loop over HTTP (issue 34 §2): GET the loop's state and the stored pairs; POST the
 * one-click re-probe — the same probe as the stored "before" run, through the same guarded
 * benchmark as every other run (bench policy, confinement, rate limit, one run per host, the
 * runner's guards). The pair is recorded when the run completes (jobs/loop-outcome.ts).
 */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError } from '../errors.ts';
import { admitBenchStart } from '../bench-admission.ts';
import { guardSentence } from '../../bench/guards.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { BenchRequestBody } from '../schemas.ts';
import { applyBenchPolicy, benchPolicy } from '../bench-policy.ts';

export function optaneOutcomeRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { loop } = ctx;
  bindRoute(r, routes.optaneOutcome, ({ params }) => {
    ctx.getHost(params.hostId);
    return loop.view(params.hostId);
  });
  bindRoute(r, routes.optaneOutcomeProbe, async ({ params, req, res }) => {
    const h = ctx.getHost(params.hostId);
    ctx.requireLocal(h);
    const { bench, runs } = ctx.requireBench();
    const wanted = BenchRequestBody.safeParse(loop.reprobeRequest(h.id));
    if (!wanted.success) throw new HttpError('conflict', `the stored "before" run cannot be repeated as it was: ${wanted.error.issues[0]?.message ?? 'unknown profile'}`);
    const policy = applyBenchPolicy(wanted.data, benchPolicy(ctx.settings.get().benchmark, ctx.benchCeiling));
    if (!policy.ok) throw new HttpError('bad-request', policy.message, undefined, policy.wayForward);
    const request = ctx.confine(policy.request);
    admitBenchStart(ctx, h.id, req, res);
    // The guards first, so a refusal answers with its reasons instead of a refused run.
    const refused = (await bench.dryRun(request)).guards.filter((g) => !g.ok);
    if (refused.length > 0) throw new HttpError('conflict', refused.map(guardSentence).join(' '));
    const view = runs.start(h.id, request);
    loop.recordWhenDone(h.id, runs, view);
    return view;
  });
  return r;
}

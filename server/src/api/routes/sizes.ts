/** Size measurements (file and block size histograms): a background walk with SSE progress, poll and cancel. */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError, notFound } from '../errors.ts';
import { requireMeasurable } from '../measurable.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { streamJob } from '../sse.ts';

export function sizesRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { evidence, sizesJob } = ctx;
  bindRoute(r, routes.startSizes, async ({ params, body }) => {
    const h = ctx.getHost(params.hostId);
    requireMeasurable(h, ctx.config.demo, 'size measurements');
    return sizesJob.start(h, body);
  });
  bindRoute(r, routes.listSizes, ({ params, query }) => {
    ctx.getHost(params.hostId);
    return evidence.listSizes(params.hostId, query.limit).map((x) => sizesJob.view(x.id) ?? x);
  });
  bindRoute(r, routes.getSizes, ({ params }) => {
    const x = sizesJob.view(params.sizesId);
    if (!x) throw notFound(`size measurement ${params.sizesId}`);
    return x;
  });
  bindRoute(r, routes.sizesFromTable, async ({ body }) => {
    // Pure computation on the pasted text (loaded on first use, like the planner).
    const { histogramFromText } = await import('../../sizing/from-table.ts');
    const out = histogramFromText(body.text, { recordsize: body.recordsize ?? 131072, ashift: body.ashift ?? 12, source: 'pasted table', capturedAt: new Date().toISOString(), zfsVersion: body.zfsVersion ?? null });
    if (!out.ok) throw new HttpError('bad-request', `${out.line ? `line ${out.line}: ` : ''}${out.message}: paste the \`find … | awk\` size table, a "size,count" CSV, or zdb -bbb output`);
    return { histogram: out.histogram, source: { format: out.kind, skippedLines: out.skipped.map((i) => ({ line: i.line, message: i.message })) } };
  });
  bindRoute(r, routes.cancelSizes, ({ params }) => {
    const x = sizesJob.cancel(params.sizesId);
    if (!x) throw notFound(`size measurement ${params.sizesId}`);
    return x;
  });
  bindRoute(r, routes.sizesEvents, ({ params, req, res }) => {
    const first = sizesJob.view(params.sizesId);
    if (!first) throw notFound(`size measurement ${params.sizesId}`);
    streamJob(req, res, sizesJob, params.sizesId, () => sizesJob.view(params.sizesId) ?? first);
    return undefined;
  });
  return r;
}

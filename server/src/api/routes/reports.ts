/** Reports: generate (md, html, json, pdf; optionally redacted) and keep, list, fetch a kept one; the JSON report's schema. */
import type { Response } from 'express';
import { runsForReport } from '../../report/evidence-scope.ts';
import { APP_VERSION } from '../../version.ts';
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError, notFound } from '../errors.ts';
import { lazy } from '../lazy.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { latestSuiteView } from '../../bench/report-suite.ts';
import { createOutcomesRepo } from '../../store/outcomes-repo.ts';

/** Sends a generated document as a download (headers set before the body: `send` ends the response). */
function sendDocument(res: Response, contentType: string, fileName: string, body: Buffer): void {
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  res.send(body);
}

export function reportRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { services, hosts, history, reports, settings, getHost } = ctx;

  bindRoute(r, routes.report, async ({ params, query, res }) => {
    if (query.for === undefined && (query.links !== undefined || query.noLinks)) throw new HttpError('bad-request', `${query.links !== undefined ? 'links' : 'noLinks'} sets the links of a forum post: add for=truenas-forum|proxmox-forum|reddit|github`);
    if (query.for !== undefined && params.format !== 'md') throw new HttpError('bad-request', `for=${query.for} makes a post from the Markdown report: use /api/reports/md`);
    if (query.links !== undefined && query.noLinks) throw new HttpError('bad-request', 'links and noLinks exclude each other: give one');
    if (!services.renderReport) throw new HttpError('unavailable', `reports are not available in this build (${services.missing.renderReport ?? 'renderer missing'})`);
    const hostId = query.host ?? hosts.list()[0]?.id;
    if (!hostId) throw new HttpError('not-found', 'no host yet');
    const host = getHost(hostId);
    const a = history.latestAssessment(hostId);
    if (!a || a.snapshotId === null) throw new HttpError('not-found', `host "${hostId}" has no assessment yet`);
    const snap = history.latestSnapshot(hostId);
    if (!snap) throw new HttpError('not-found', `host "${hostId}" has no inventory yet`);
    const generatedAt = new Date().toISOString();
    const out = await services.renderReport(
      {
        inventory: snap.inventory, raw: history.snapshotRaw(a.snapshotId), assessment: a.assessment, optane: a.optane,
        // Benchmarks run on the server's own machine: only a live report of it carries them, and
        // only runs measured on it (evidence-scope.ts); a demo, snapshot, TrueNAS or Proxmox
        // report — or the demo shown on a machine without ZFS — never shows this machine's runs.
        benchmarks: host.kind === 'local' && services.bench ? runsForReport(ctx.store.db, snap.inventory, ctx.safeHistory(services.bench)) : [], appVersion: APP_VERSION,
        suite: host.kind === 'local' && services.bench ? latestSuiteView(ctx.store.db) : null,
        outcomes: createOutcomesRepo(ctx.store.db).list(hostId),
        ruleCatalogVersion: a.ruleCatalogVersion, generatedAt,
      },
      {
        format: params.format, redact: query.redact ? (query.redactNames ? { poolNames: true } : true) : false,
        forum: query.for === undefined ? undefined : { target: query.for, links: query.links, addresses: !query.noLinks },
      },
    );
    const body = typeof out.body === 'string' ? Buffer.from(out.body, 'utf8') : Buffer.from(out.body);
    const fileName = out.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
    const stored = reports.add(
      { hostId, assessmentId: a.id, format: params.format, redacted: query.redact, contentType: out.contentType, fileName, generatedAt, body },
      settings.get().retention.reportsPerHost,
    );
    res.setHeader('X-Report-Id', String(stored.id));
    sendDocument(res, stored.contentType, stored.fileName, body);
    return undefined;
  });
  bindRoute(r, routes.listReports, ({ params }) => {
    getHost(params.hostId);
    return reports.list(params.hostId);
  });
  bindRoute(r, routes.getStoredReport, ({ params, res }) => {
    getHost(params.hostId);
    const kept = reports.get(params.hostId, params.reportId);
    if (!kept) throw notFound(`report ${params.reportId} of host "${params.hostId}"`);
    sendDocument(res, kept.report.contentType, kept.report.fileName, kept.body);
    return undefined;
  });

  // The JSON report's schema, published beside the OpenAPI document (pure: no service needed),
  // generated on first request like the OpenAPI document.
  const reportSchema = lazy(async () => (await import('../../report/schema.ts')).reportJsonSchema());
  bindRoute(r, routes.reportSchema, () => reportSchema());
  return r;
}

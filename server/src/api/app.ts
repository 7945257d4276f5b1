/**
 * The Express 5 app. `createApp(deps)` builds it from explicit dependencies (store, secrets,
 * services, logger, config) — nothing global — and returns it with its background parts
 * (scheduler, benchmark runs) so the caller decides when they start and stop.
 *
 * Order: security headers → request log → auth (health open) → JSON body (64 KiB) → API routes
 * → UI → 404 → error handler (HttpError → its status; anything else → generic 500, logged).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import { APP_VERSION } from '../version.ts';
import { SEVERITY_ORDER } from '../model/finding.ts';
import type { Store } from '../store/db.ts';
import type { SecretStore, HostSecret } from '../store/secrets.ts';
import { createHostsRepo, type HostRow } from '../store/hosts-repo.ts';
import { createHistoryRepo, type StoredAssessment } from '../store/history-repo.ts';
import { createSettingsRepo } from '../store/settings-repo.ts';
import { createReportsRepo } from '../store/reports-repo.ts';
import { createAssessmentJob } from '../jobs/assessment-job.ts';
import { createScheduler } from '../jobs/scheduler.ts';
import { createBenchRuns, type BenchRuns } from '../jobs/bench-runs.ts';
import { renderMetrics, newestPerPoolAndProfile } from '../metrics/prometheus.ts';
import { routes, type AssessmentRecord, type FindingView, type HostCreate, type HostView } from './contract.ts';
import { OptaneVerdictView, type BenchRequest } from './schemas.ts';
import { bindRoute, prepareJson } from './route.ts';
import { createFindingsCache } from './findings-cache.ts';
import { HttpError, notFound } from './errors.ts';
import type { Logger } from './logger.ts';
import type { LoadedInventory, Services } from './services.ts';
import { createRateLimiter, requireToken, securityHeaders } from './security.ts';
import { uiRouter } from './ui.ts';
import { bindEvidenceRoutes } from './routes-evidence.ts';
import { createEvidenceRepo } from '../store/evidence-repo.ts';
import { createObserveJob, type Observer } from '../jobs/observe-job.ts';
import { createSizesJob } from '../jobs/sizes-job.ts';
import { evidenceArtifacts } from '../jobs/evidence-artifacts.ts';
import type { RemoteClients } from '../remote/clients.ts';
import { lazyRemoteClients } from './lazy-remote.ts';
import { lazy } from './lazy.ts';
import { confineToBenchDir } from './bench-confinement.ts';
import { minimalLocalInventory } from './container-inventory.ts';

export interface AppConfig {
  /** '/' or '/prefix' (no trailing slash). */
  basePath: string;
  /** Bearer token required on every route but health; null = no auth (loopback only). */
  token: string | null;
  /** Built UI directory (ui/dist), or null. */
  uiDir: string | null;
  /** The machine has no ZFS: the local host shows the demo snapshot. */
  demo: boolean;
  /**
   * Whether this machine answers `zpool` (default `!demo`). False while `demo` is false means no
   * demo either (container mode or `--no-demo`): the local host gets a minimal inventory that says
   * there is no zpool here, or the inventory of the configured TrueNAS host.
   */
  localZfs?: boolean;
  /**
   * Container mode: benchmarks are confined to this directory (a realpath; the dataset mounted at
   * /bench) — path targets only, at or below it. A local host exists even without ZFS.
   */
  benchDir?: string | null;
  /** Never add the Demo host (`--no-demo` / ZFS_ADVISOR_NO_DEMO=1). */
  noDemo?: boolean;
  /** Benchmark starts allowed per client per minute. */
  benchStartsPerMinute?: number;
  /** Failed token attempts allowed per client per minute. */
  authFailuresPerMinute?: number;
  jsonLimit?: string;
}

export interface AppDeps {
  store: Store;
  secrets: SecretStore;
  services: Services;
  logger: Logger;
  config: AppConfig;
  remote?: RemoteClients;
  /** Replaces the live counter reader of workload observations (tests replay recorded counters). */
  observe?: Observer;
}

export function normaliseBasePath(p: string | undefined): string {
  if (!p || p === '/') return '/';
  const trimmed = `/${p.replace(/^\/+|\/+$/g, '')}`;
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) throw new Error(`invalid base path "${p}": use letters, digits and . _ ~ - between slashes`);
  return trimmed;
}

export function createApp(deps: AppDeps) {
  const { store, secrets, services, logger, config } = deps;
  const remote = deps.remote ?? lazyRemoteClients();
  const hosts = createHostsRepo(store.db);
  const history = createHistoryRepo(store.db);
  const settings = createSettingsRepo(store.db);
  const reports = createReportsRepo(store.db);
  const basePath = normaliseBasePath(config.basePath);

  const benchDir = config.benchDir ?? null;
  const localZfs = config.localZfs ?? !config.demo;
  const collect = async (host: HostRow): Promise<LoadedInventory> => {
    if (host.kind === 'local' && !config.demo && !localZfs) return localWithoutZfs();
    if (host.kind === 'local' || host.kind === 'demo') {
      if (!services.loadInventory) throw new HttpError('unavailable', `collecting inventories is not available in this build (${services.missing.loadInventory ?? 'loadInventory() missing'})`);
      return services.loadInventory(host.kind === 'demo' || config.demo ? { demo: true } : {});
    }
    const secret = secrets.get(host.id);
    if (!secret) throw new HttpError('conflict', `host "${host.id}" has no stored credentials; set them with PATCH ${routes.updateHost.path}`);
    return remote.collect(host, secret);
  };

  /**
   * The local host on a machine without `zpool` (a container): the pools are the hosting
   * machine's, so its TrueNAS host's inventory is used when one is configured; otherwise (or when
   * it cannot be reached) a minimal inventory whose gaps say so. Never the demo data.
   */
  const localWithoutZfs = async (): Promise<LoadedInventory> => {
    const capturedAt = new Date().toISOString();
    const nas = hosts.list().find((h) => h.kind === 'truenas' && h.hasSecret);
    const secret = nas ? secrets.get(nas.id) : null;
    if (!nas || !secret) return { inventory: minimalLocalInventory({ capturedAt, benchDir }), raw: {} };
    try {
      const loaded = await remote.collect(nas, secret);
      loaded.inventory.gaps.unshift({
        artifact: 'Host', source: `TrueNAS host "${nas.id}"`, line: null, severity: 'info',
        message: `this container has no zpool: the inventory is the TrueNAS host "${nas.name}" read through its API`,
      });
      return loaded;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      logger.warn('local inventory through the TrueNAS host failed', { host: nas.id, error: why });
      return {
        inventory: minimalLocalInventory({
          capturedAt, benchDir,
          extraGaps: [{ artifact: 'Host', source: `TrueNAS host "${nas.id}"`, line: null, severity: 'warning', message: `the TrueNAS host "${nas.name}" could not be read: ${why}` }],
        }),
        raw: {},
      };
    }
  };

  const evidence = createEvidenceRepo(store.db);
  const interrupted = evidence.interruptRunning(new Date().toISOString());
  if (interrupted > 0) logger.warn('evidence jobs interrupted by a restart', { count: interrupted });
  const observeJob = createObserveJob({ evidence, logger, observe: deps.observe });
  const sizesJob = createSizesJob({ evidence, logger, inventoryOf: (id) => history.latestSnapshot(id)?.inventory ?? null });
  const job = createAssessmentJob({
    history, services, collect, retention: () => settings.get().retention,
    evidence: (host) => evidenceArtifacts(host, {
      evidence, bench: services.bench, observation: () => settings.get().observation, demo: config.demo,
      onError: (what, err) => logger.warn(`${what} unavailable for the assessment`, { error: err instanceof Error ? err.message : String(err) }),
    }),
  });
  const scheduler = createScheduler({
    hosts, history, job, intervalMinutes: () => settings.get().assessmentIntervalMinutes, logger,
    alsoOnTick: () => observeJob.scheduledTick(hosts.list(), settings.get().observation, { demo: config.demo }),
  });
  const benchRuns: BenchRuns | null = services.bench
    ? createBenchRuns({ bench: services.bench, logger, maxRuntimeSeconds: () => settings.get().benchmark.maxRuntimeSeconds })
    : null;
  const benchLimiter = createRateLimiter(config.benchStartsPerMinute ?? 6, 60_000);
  const authLimiter = createRateLimiter(config.authFailuresPerMinute ?? 20, 60_000);

  const findingsCache = createFindingsCache();
  const hostView = (h: HostRow): HostView => ({ ...h, lastAssessment: history.latestAssessmentSummary(h.id) });
  const getHost = (id: string): HostRow => {
    const h = hosts.get(id);
    if (!h) throw notFound(`host "${id}"`);
    return h;
  };
  const recordView = (r: StoredAssessment): AssessmentRecord => {
    const optane = OptaneVerdictView.safeParse(r.optane);
    return { ...r, optane: optane.success ? optane.data : null };
  };
  const requireBench = () => {
    if (!services.bench || !benchRuns) throw new HttpError('unavailable', `benchmarks are not available in this build (${services.missing.bench ?? 'runner missing'})`);
    return { bench: services.bench, runs: benchRuns };
  };
  const requireLocal = (h: HostRow) => {
    if (h.kind !== 'local') throw new HttpError('conflict', `benchmarks run only on the machine the server runs on; host "${h.id}" is ${h.kind}`);
  };
  /** In container mode the request is rewritten to the resolved directory (or refused). */
  const confine = (request: BenchRequest): BenchRequest => {
    if (benchDir === null) return request;
    const c = confineToBenchDir(request, benchDir);
    if (!c.ok) throw new HttpError('bad-request', c.message);
    return c.request;
  };

  const api = express.Router();

  bindRoute(api, routes.health, () => ({ status: 'ok', version: APP_VERSION, uptimeSeconds: Math.round(process.uptime()) }));
  bindRoute(api, routes.info, () => ({
    version: APP_VERSION, basePath, authRequired: config.token !== null, demo: config.demo, benchDir,
    features: { assess: services.assess !== null && services.loadInventory !== null, bench: services.bench !== null, reports: services.renderReport !== null, optane: services.assess !== null },
  }));
  // Generated from the zod schemas on first request (then kept): building it at start costs memory
  // on every server, and most never serve it.
  const openapi = lazy(async () => (await import('./openapi.ts')).buildOpenApiDocument({ basePath }));
  bindRoute(api, routes.openapi, () => openapi());

  // ---- hosts
  bindRoute(api, routes.listHosts, () => hosts.list().map(hostView));
  bindRoute(api, routes.createHost, ({ body }) => {
    const b = body as HostCreate;
    const id = uniqueHostId(b.name, (x) => hosts.get(x) !== null);
    const now = new Date().toISOString();
    const row: HostRow = {
      id, kind: b.kind, name: b.name,
      address: 'address' in b ? b.address : null,
      port: 'port' in b && b.port !== undefined ? b.port : null,
      node: b.kind === 'proxmox' ? b.node : null,
      verifyTls: 'verifyTls' in b ? b.verifyTls : true,
      pinnedFingerprint: 'pinnedFingerprint' in b ? b.pinnedFingerprint ?? null : null,
      hasSecret: b.kind === 'truenas' || b.kind === 'proxmox',
      createdAt: now, updatedAt: now,
    };
    if ((b.kind === 'truenas' || b.kind === 'proxmox') && !row.verifyTls && !row.pinnedFingerprint) {
      throw new HttpError('bad-request', 'verifyTls may only be turned off together with a pinnedFingerprint (the certificate to trust)');
    }
    if (b.kind === 'truenas') secrets.set(id, { kind: 'truenas', username: b.username, apiKey: b.apiKey });
    if (b.kind === 'proxmox') secrets.set(id, { kind: 'proxmox', tokenId: b.tokenId, tokenSecret: b.tokenSecret });
    hosts.insert(row);
    logger.info('host added', { host: id, kind: b.kind });
    return hostView(row);
  });
  bindRoute(api, routes.getHost, ({ params }) => hostView(getHost(params.hostId)));
  bindRoute(api, routes.updateHost, ({ params, body }) => {
    const h = getHost(params.hostId);
    const remoteKind = h.kind === 'truenas' || h.kind === 'proxmox';
    if (!remoteKind && Object.keys(body).some((k) => k !== 'name')) throw new HttpError('bad-request', `only the name of a ${h.kind} host can change`);
    const next: HostRow = {
      ...h,
      name: body.name ?? h.name,
      address: body.address ?? h.address,
      port: body.port !== undefined ? body.port : h.port,
      node: h.kind === 'proxmox' ? body.node ?? h.node : h.node,
      verifyTls: body.verifyTls ?? h.verifyTls,
      pinnedFingerprint: body.pinnedFingerprint !== undefined ? body.pinnedFingerprint : h.pinnedFingerprint,
      updatedAt: new Date().toISOString(),
    };
    if (remoteKind && !next.verifyTls && !next.pinnedFingerprint) throw new HttpError('bad-request', 'verifyTls may only be turned off together with a pinnedFingerprint');
    let secret: HostSecret | null = null;
    if (h.kind === 'truenas' && (body.apiKey || body.username)) {
      const old = secrets.get(h.id);
      const username = body.username ?? (old?.kind === 'truenas' ? old.username : undefined);
      const apiKey = body.apiKey ?? (old?.kind === 'truenas' ? old.apiKey : undefined);
      if (!username || !apiKey) throw new HttpError('bad-request', 'a TrueNAS host needs both username and apiKey');
      secret = { kind: 'truenas', username, apiKey };
    }
    if (h.kind === 'proxmox' && (body.tokenId || body.tokenSecret)) {
      const old = secrets.get(h.id);
      const tokenId = body.tokenId ?? (old?.kind === 'proxmox' ? old.tokenId : undefined);
      const tokenSecret = body.tokenSecret ?? (old?.kind === 'proxmox' ? old.tokenSecret : undefined);
      if (!tokenId || !tokenSecret) throw new HttpError('bad-request', 'a Proxmox host needs both tokenId and tokenSecret');
      secret = { kind: 'proxmox', tokenId, tokenSecret };
    }
    if (h.kind === 'local' || h.kind === 'demo') {
      if (body.apiKey || body.username || body.tokenId || body.tokenSecret) throw new HttpError('bad-request', 'local hosts take no credentials');
    }
    if (secret) {
      secrets.set(h.id, secret);
      next.hasSecret = true;
    }
    hosts.update(next);
    remote.forget(h.id);
    return hostView(next);
  });
  bindRoute(api, routes.deleteHost, ({ params }) => {
    getHost(params.hostId);
    hosts.delete(params.hostId);
    findingsCache.invalidate(params.hostId);
    secrets.delete(params.hostId);
    remote.forget(params.hostId);
    logger.info('host removed', { host: params.hostId });
    return undefined;
  });
  bindRoute(api, routes.testHost, async ({ params }) => {
    const h = getHost(params.hostId);
    if (h.kind === 'local' || h.kind === 'demo') return { ok: true, message: `${h.kind} host: nothing to connect to`, presentedFingerprint: null };
    const secret = secrets.get(h.id);
    if (!secret) return { ok: false, message: 'no credentials stored for this host', presentedFingerprint: null };
    return remote.test(h, secret);
  });

  // ---- inventory & assessments
  bindRoute(api, routes.getInventory, ({ params }) => {
    getHost(params.hostId);
    const s = history.latestSnapshot(params.hostId);
    if (!s) throw new HttpError('not-found', `no inventory of host "${params.hostId}" yet: run an assessment (POST ${routes.runAssessment.path})`);
    return { snapshotId: s.id, hostId: s.hostId, capturedAt: s.capturedAt, inventory: s.inventory };
  });
  bindRoute(api, routes.runAssessment, async ({ params }) => recordView((await job.run(getHost(params.hostId), 'manual')).record));
  bindRoute(api, routes.listAssessments, ({ params }) => {
    getHost(params.hostId);
    return history.listAssessments(params.hostId);
  });
  bindRoute(api, routes.latestAssessment, ({ params }) => {
    getHost(params.hostId);
    const r = history.latestAssessment(params.hostId);
    if (!r) throw new HttpError('not-found', `host "${params.hostId}" has no assessment yet`);
    return recordView(r);
  });
  bindRoute(api, routes.getAssessment, ({ params }) => {
    const r = history.getAssessment(params.assessmentId);
    if (!r) throw notFound(`assessment ${params.assessmentId}`);
    return recordView(r);
  });
  bindRoute(api, routes.listRuns, ({ params }) => {
    getHost(params.hostId);
    return history.listRuns(params.hostId);
  });

  // ---- findings
  // Served from findingsCache (validated and serialised once per host state and query).
  bindRoute(api, routes.listFindings, ({ params, query }) => {
    getHost(params.hostId);
    const latest = history.latestAssessment(params.hostId);
    return findingsCache.get(params.hostId, latest, query, () => {
      if (!latest) return prepareJson(routes.listFindings, { assessmentId: null, generatedAt: null, demo: false, findings: [] });
      const acks = history.acks(params.hostId);
      const firstSeen = history.firstSeen(params.hostId);
      const findings: FindingView[] = latest.assessment.findings
        .filter((f) => (query.severity ? f.severity === query.severity : true))
        .filter((f) => (query.pool ? f.subject.pool === query.pool : true))
        .map((f) => ({ ...f, ack: acks.get(f.fingerprint) ?? null, firstSeenAt: firstSeen.get(f.fingerprint) ?? null }))
        .filter((f) => query.status === 'all' || (query.status === 'open' ? f.ack === null : f.ack?.state === query.status))
        .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
      return prepareJson(routes.listFindings, { assessmentId: latest.id, generatedAt: latest.generatedAt, demo: latest.demo, findings });
    });
  });
  bindRoute(api, routes.ackFinding, ({ params, body }) => {
    getHost(params.hostId);
    if (!history.knowsFingerprint(params.hostId, params.fingerprint)) throw notFound(`finding ${params.fingerprint} on host "${params.hostId}"`);
    const ack = history.setAck(params.hostId, params.fingerprint, body.state, body.note ?? null);
    findingsCache.invalidate(params.hostId);
    return ack;
  });
  bindRoute(api, routes.unackFinding, ({ params }) => {
    getHost(params.hostId);
    const cleared = history.clearAck(params.hostId, params.fingerprint);
    findingsCache.invalidate(params.hostId);
    if (!cleared) throw notFound(`acknowledgement of ${params.fingerprint}`);
    return undefined;
  });

  // ---- Optane
  bindRoute(api, routes.optane, ({ params }) => {
    getHost(params.hostId);
    const r = history.latestAssessment(params.hostId);
    if (!r) throw new HttpError('not-found', `host "${params.hostId}" has no assessment yet: run one first (POST ${routes.runAssessment.path})`);
    const v = OptaneVerdictView.safeParse(r.optane);
    if (!v.success) throw new HttpError('unavailable', 'this assessment has no Optane verdict (the verdict module is missing from this build)');
    return v.data;
  });

  // ---- benchmarks
  bindRoute(api, routes.benchProfiles, () => requireBench().bench.listProfiles());
  bindRoute(api, routes.benchDryRun, async ({ params, body }) => {
    const h = getHost(params.hostId);
    requireLocal(h);
    return requireBench().bench.dryRun(confine(body));
  });
  bindRoute(api, routes.benchStart, ({ params, body, req, res }) => {
    const h = getHost(params.hostId);
    requireLocal(h);
    const { runs } = requireBench();
    const request = confine(body);
    const cap = settings.get().benchmark.maxRuntimeSeconds;
    if (body.runtimeS > cap) throw new HttpError('bad-request', `runtimeS ${body.runtimeS} is above the configured cap of ${cap} s (settings.benchmark.maxRuntimeSeconds)`);
    const client = req.socket.remoteAddress ?? 'unknown';
    if (!benchLimiter.hit(client)) {
      res.setHeader('Retry-After', String(benchLimiter.retryAfterSeconds(client)));
      throw new HttpError('rate-limited', 'too many benchmark starts; try again later');
    }
    return runs.start(h.id, request);
  });
  bindRoute(api, routes.benchRun, ({ params }) => {
    const v = benchRuns?.get(params.runId);
    if (!v) throw notFound(`benchmark run ${params.runId}`);
    return v;
  });
  bindRoute(api, routes.benchCancel, ({ params }) => {
    const v = benchRuns?.cancel(params.runId);
    if (!v) throw notFound(`benchmark run ${params.runId}`);
    return v;
  });
  bindRoute(api, routes.benchEvents, ({ params, req, res }) => {
    if (!benchRuns) throw notFound(`benchmark run ${params.runId}`);
    const send = (event: string, data: unknown) => { res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); };
    let started = false;
    const unsubscribe = benchRuns.subscribe(params.runId, (event, data) => {
      if (!started) return;
      send(event, data);
      if (event === 'done') res.end();
    });
    if (!unsubscribe) throw notFound(`benchmark run ${params.runId}`);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    started = true;
    const view = benchRuns.get(params.runId);
    if (view && view.status !== 'running') {
      send('done', view);
      res.end();
      return;
    }
    if (view?.progress) send('progress', view.progress);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    keepAlive.unref();
    req.on('close', () => { clearInterval(keepAlive); unsubscribe(); });
    return undefined;
  });
  // The stored runs are this machine's: other hosts (demo, TrueNAS, Proxmox) have none.
  bindRoute(api, routes.benchHistory, ({ params, query }) => {
    const h = getHost(params.hostId);
    const { bench } = requireBench();
    return h.kind === 'local' ? bench.history({ pool: query.pool, profile: query.profile }) : [];
  });
  bindRoute(api, routes.benchBeforeAfter, ({ params, query }) => {
    const h = getHost(params.hostId);
    const { bench } = requireBench();
    if (h.kind !== 'local') return { pool: query.pool, profile: query.profile, groups: [], before: null, after: null, ratios: null };
    return bench.beforeAfter(query.pool, query.profile);
  });

  // ---- measured evidence (observations, size histograms) and the planner
  bindEvidenceRoutes(api, { getHost, evidence, history, observeJob, sizesJob, demo: config.demo });

  // ---- reports
  bindRoute(api, routes.report, async ({ params, query, res }) => {
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
        // Benchmarks run on the server's own machine: only its local host's report carries them
        // (as in /metrics); a demo, TrueNAS or Proxmox report must not show this machine's runs.
        benchmarks: host.kind === 'local' && services.bench ? safeHistory(services.bench) : [], appVersion: APP_VERSION,
        ruleCatalogVersion: a.ruleCatalogVersion, generatedAt,
      },
      { format: params.format, redact: query.redact ? (query.redactNames ? { poolNames: true } : true) : false },
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
  bindRoute(api, routes.listReports, ({ params }) => {
    getHost(params.hostId);
    return reports.list(params.hostId);
  });
  bindRoute(api, routes.getStoredReport, ({ params, res }) => {
    getHost(params.hostId);
    const r = reports.get(params.hostId, params.reportId);
    if (!r) throw notFound(`report ${params.reportId} of host "${params.hostId}"`);
    sendDocument(res, r.report.contentType, r.report.fileName, r.body);
    return undefined;
  });

  // The JSON report's schema, published beside the OpenAPI document (pure: no service needed),
  // generated on first request like the OpenAPI document.
  const reportSchema = lazy(async () => (await import('../report/schema.ts')).reportJsonSchema());
  bindRoute(api, routes.reportSchema, () => reportSchema());

  // ---- settings
  bindRoute(api, routes.getSettings, () => settings.get());
  bindRoute(api, routes.updateSettings, ({ body }) => settings.update(body));

  const safeHistory = (bench: NonNullable<Services['bench']>) => {
    try { return bench.history({}); } catch (err) {
      logger.warn('benchmark history unavailable', { error: err instanceof Error ? err.message : String(err) });
      return [];
    }
  };

  // ---- metrics
  api.get(routes.metrics.path, (_req, res, next) => {
    try {
      const bench = services.bench ? newestPerPoolAndProfile(safeHistory(services.bench)) : [];
      const body = renderMetrics(
        hosts.list().map((h) => ({
          hostId: h.id,
          inventory: history.latestSnapshot(h.id)?.inventory ?? null,
          counts: history.latestAssessmentSummary(h.id)?.counts ?? null,
          // Benchmarks run on the server's own machine: they belong to its local host.
          benchmarks: h.kind === 'local' ? bench : [],
        })),
        { version: APP_VERSION },
      );
      res.setHeader('Content-Type', routes.metrics.response.contentType);
      res.send(body);
    } catch (err) {
      next(err);
    }
  });

  // ---- assembly
  const inner = express.Router();
  inner.use(requestLog(logger));
  // The UI shell (index.html, scripts, styles) holds no data and must load without the token so it
  // can ask for it; the API and the metrics need the token.
  const tokenGate = requireToken(config.token, authLimiter, new Set([routes.health.path]));
  inner.use((req, res, next) => (req.path === '/api' || req.path.startsWith('/api/') || req.path === '/metrics' ? tokenGate(req, res, next) : next()));
  inner.use(express.json({ limit: config.jsonLimit ?? '64kb', strict: true }));
  inner.use(api);
  inner.use('/api', (req, _res, next) => next(new HttpError('not-found', `no route ${req.method} ${req.baseUrl}${req.path}`)));
  inner.use(uiRouter(config.uiDir, basePath));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('query parser', 'simple');
  app.use(securityHeaders);
  app.use(basePath, inner);
  app.use((req, _res, next) => next(new HttpError('not-found', `no route ${req.method} ${req.path}`)));
  app.use(errorHandler(logger));

  return {
    app,
    scheduler,
    benchRuns,
    hosts,
    history,
    settings,
    evidence,
    observeJob,
    sizesJob,
    /**
     * Adds the default host when the store has none: the local host (ZFS here), else the demo host
     * (unless `noDemo`). In container mode (`benchDir`) a local host is added whenever none exists,
     * even beside other hosts: it is the one benchmarks run on.
     */
    ensureDefaultHost(): HostRow | null {
      const existing = hosts.list();
      const wantLocal = benchDir !== null ? !existing.some((h) => h.kind === 'local') : existing.length === 0 && !config.demo && localZfs;
      const wantDemo = existing.length === 0 && config.demo && !config.noDemo;
      if (!wantLocal && !wantDemo) return null;
      const now = new Date().toISOString();
      const kind = wantLocal ? 'local' : 'demo';
      const name = wantDemo ? 'Demo (no ZFS on this machine)' : localZfs ? 'This machine' : 'This container (benchmarks)';
      const row: HostRow = {
        id: uniqueHostId(kind, (x) => hosts.get(x) !== null), kind, name,
        address: null, port: null, node: null, verifyTls: true, pinnedFingerprint: null, hasSecret: false, createdAt: now, updatedAt: now,
      };
      hosts.insert(row);
      return row;
    },
    runAssessment: (hostId: string, trigger: 'manual' | 'scheduled' | 'startup') => job.run(getHost(hostId), trigger),
    close(): void {
      scheduler.stop();
      benchRuns?.abortAll();
      observeJob.abortAll();
      sizesJob.abortAll();
      remote.closeAll();
    },
  };
}
export type AppHandle = ReturnType<typeof createApp>;

/** A readable, unique id from the host's name: "My NAS" → "my-nas", "my-nas-2", … */
export function uniqueHostId(name: string, taken: (id: string) => boolean): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48) || 'host';
  if (!taken(base)) return base;
  for (let i = 2; i < 10_000; i++) if (!taken(`${base}-${i}`)) return `${base}-${i}`;
  return `${base}-${randomUUID().slice(0, 8)}`;
}

/** Sends a generated document as a download (headers set before the body: `send` ends the response). */
function sendDocument(res: Response, contentType: string, fileName: string, body: Buffer): void {
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  res.send(body);
}

function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info('request', {
        method: req.method, path: req.baseUrl + req.path, status: res.statusCode,
        ms: Number((process.hrtime.bigint() - start) / 1000n) / 1000,
      });
    });
    next();
  };
}

function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    let status = 500;
    let body: { error: { code: string; message: string; issues?: { path: string; message: string }[] } };
    const e = err as { type?: string; status?: number; expose?: boolean };
    if (err instanceof HttpError) {
      status = err.status;
      body = { error: { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) } };
    } else if (e?.type === 'entity.too.large') {
      status = 413;
      body = { error: { code: 'payload-too-large', message: 'the request body is too large' } };
    } else if (e?.type === 'entity.parse.failed') {
      status = 400;
      body = { error: { code: 'bad-request', message: 'the request body is not valid JSON' } };
    } else if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
      status = e.status;
      body = { error: { code: 'bad-request', message: 'bad request' } };
    } else {
      const id = randomUUID();
      logger.error('internal error', {
        id, method: req.method, path: req.path,
        error: err instanceof Error ? err.message : String(err),
        stack: err instanceof Error ? err.stack?.split('\n').slice(0, 6).join(' | ') : undefined,
      });
      body = { error: { code: 'internal', message: `internal error (reference ${id}); details are in the server log` } };
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(status).json(body);
  };
}

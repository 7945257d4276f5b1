/**
 * The Express 5 app. `createApp(deps)` builds it from explicit dependencies (store, secrets,
 * services, logger, config) — nothing global — and returns it with its background parts
 * (scheduler, benchmark runs) so the caller decides when they start and stop.
 *
 * Order: security headers → request log → THE GATE (gate.ts: who may call what, on the canonical path) →
 * JSON body (64 KiB) → one router per resource (routes/, strict and
 * case-sensitive) → UI → 404 → error handler (HttpError → its status; anything else → generic
 * 500, logged).
 *
 * Adding a resource: write `routes/<resource>.ts` exporting `(ctx) => Router` (see routes/settings.ts)
 * and add it to ROUTERS below. It is behind the gate by construction; the gate needs no change
 * unless the new routes must be public (then it belongs in `isPublicPath`, and in its tests).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { HostRow } from '../store/hosts-repo.ts';
import { createAppContext, type AppContext, type AppDeps } from './context.ts';
import { HttpError, httpErrorOf } from './errors.ts';
import { JobError } from '../model/jobs.ts';
import { createLogins } from './login.ts';
import { createGate } from './gate.ts';
import { createOriginPolicy } from './origin-policy.ts';
import type { Logger } from './logger.ts';
import { securityHeaders } from './security.ts';
import { uiRouter } from './ui.ts';
import { serviceRoutes, sessionRoutes } from './routes/service.ts';
import { hostRoutes, uniqueHostId } from './routes/hosts.ts';
import { assessmentRoutes } from './routes/assessments.ts';
import { findingRoutes } from './routes/findings.ts';
import { optaneRoutes } from './routes/optane.ts';
import { optaneOutcomeRoutes } from './routes/optane-outcome.ts';
import { forecastRoutes } from './routes/forecast.ts';
import { benchRoutes } from './routes/bench.ts';
import { observationRoutes } from './routes/observations.ts';
import { sizesRoutes } from './routes/sizes.ts';
import { plannerRoutes } from './routes/planner.ts';
import { reportRoutes } from './routes/reports.ts';
import { settingsRoutes } from './routes/settings.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { docsRoutes } from './routes/docs.ts';

export type { AppConfig, AppDeps } from './context.ts';
export { uniqueHostId } from './routes/hosts.ts';

/** One router per resource, each mounted behind the gate. */
const ROUTERS: ((ctx: AppContext) => express.Router)[] = [
  serviceRoutes,
  hostRoutes,
  assessmentRoutes,
  findingRoutes,
  optaneRoutes,
  optaneOutcomeRoutes,
  forecastRoutes,
  benchRoutes,
  observationRoutes,
  sizesRoutes,
  plannerRoutes,
  reportRoutes,
  settingsRoutes,
  metricsRoutes,
];

export function normaliseBasePath(p: string | undefined): string {
  if (!p || p === '/') return '/';
  const trimmed = `/${p.replace(/^\/+|\/+$/g, '')}`;
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) throw new Error(`invalid base path "${p}": use letters, digits and . _ ~ - between slashes`);
  if (trimmed.split('/').some((s) => s === '.' || s === '..')) throw new Error(`invalid base path "${p}": no . or .. segments`);
  return trimmed;
}

export function createApp(deps: AppDeps) {
  const basePath = normaliseBasePath(deps.config.basePath);
  const ctx = createAppContext(deps, basePath);
  const { config, logger, hosts, benchDir, localZfs } = ctx;
  const logins = createLogins();
  // Connections accepted on the Unix socket (listen.ts): the gate lets their requests through.
  const localSockets = new WeakSet<object>();
  let loginBase: string | null = null;

  const inner = express.Router({ caseSensitive: true, strict: true });
  inner.use(express.json({ limit: config.jsonLimit ?? '64kb', strict: true }));
  // The one-time login link (login.ts); public in the gate, failures count as failed authentication.
  inner.get('/login', (req, res, next) => {
    if (logins.signIn(req, res, basePath)) return;
    const client = req.socket.remoteAddress ?? 'unknown';
    if (!ctx.authLimiter.hit(client) || !ctx.authLimiterGlobal.hit('*')) return next(new HttpError('rate-limited', 'too many failed authentication attempts; try again later'));
    next(new HttpError('forbidden', 'this login link is not valid: it was used already, has expired, or is from an earlier start of the server; the server prints a new one when it starts (or give the API token)'));
  });
  for (const make of ROUTERS) inner.use(make(ctx));
  inner.use(sessionRoutes(logins, basePath, () => (config.token === null ? null : loginBase)));
  inner.use(docsRoutes());
  inner.use('/api', (req, _res, next) => next(new HttpError('not-found', `no route ${req.method} ${req.baseUrl}${req.path}`)));
  inner.use(uiRouter(config.uiDir, basePath));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('query parser', 'simple');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use(securityHeaders);
  app.use(requestLog(logger));
  const policy = createOriginPolicy({ boundAddress: config.boundAddress ?? '127.0.0.1', publicNames: config.publicNames ?? [], trustedOrigins: config.trustedOrigins ?? [] });
  app.use(createGate({ basePath, token: config.token, authFailures: ctx.authLimiter, authFailuresGlobal: ctx.authLimiterGlobal, policy, logins, viaLocalSocket: (req) => localSockets.has(req.socket) }));
  app.use(basePath, inner);
  app.use((req, _res, next) => next(new HttpError('not-found', `no route ${req.method} ${req.path}`)));
  app.use(errorHandler(logger));

  return {
    app,
    scheduler: ctx.scheduler,
    benchRuns: ctx.benchRuns,
    hosts,
    history: ctx.history,
    settings: ctx.settings,
    evidence: ctx.evidence,
    observeJob: ctx.observeJob,
    sizesJob: ctx.sizesJob,
    /**
     * Adds the hosts this start can show and the store lacks, and returns them (each gets a first
     * assessment):
     * - the local host ("This machine") whenever this machine's ZFS answers (or a snapshot stands
     *   in for it, or container mode has a benchmark directory), beside whatever the store holds —
     *   a demo host left by an earlier run without ZFS stays, and never hides the live pools;
     *   only `--demo` (asking for the demo) does not add it;
     * - the demo host when this start shows the demo: into an empty store, or beside this
     *   machine's pools when the demo was asked for (`--demo` on a machine with ZFS). A local host
     *   already stored stays live either way: the demo is never its stand-in.
     */
    ensureDefaultHosts(): HostRow[] {
      const existing = hosts.list();
      const hasKind = (k: HostRow['kind']) => existing.some((h) => h.kind === k);
      const wanted: { kind: 'local' | 'demo'; name: string }[] = [];
      if ((benchDir !== null || (localZfs && !config.demo)) && !hasKind('local')) wanted.push({ kind: 'local', name: localZfs ? 'This machine' : 'This container (benchmarks)' });
      if (config.demo && !config.noDemo && !hasKind('demo') && (existing.length === 0 || localZfs)) wanted.push({ kind: 'demo', name: localZfs ? 'Demo' : 'Demo (no ZFS on this machine)' });
      const now = new Date().toISOString();
      return wanted.map(({ kind, name }) => {
        const row: HostRow = {
          id: uniqueHostId(kind, (x) => hosts.get(x) !== null), kind, name,
          address: null, port: null, node: null, verifyTls: true, pinnedFingerprint: null, hasSecret: false, createdAt: now, updatedAt: now,
        };
        hosts.insert(row);
        return row;
      });
    },
    /**
     * The hosts a start assesses: the ones just added, and this machine or the demo when no assessment
     * of them is stored — a first assessment interrupted by a restart (a service stopped while it ran,
     * as `apt install` followed by a config change does) must not leave the overview empty for good.
     */
    hostsToAssessAtStart(created: HostRow[]): HostRow[] {
      const ids = new Set(created.map((h) => h.id));
      const unassessed = hosts.list().filter((h) => (h.kind === 'local' || h.kind === 'demo') && !ids.has(h.id) && ctx.hostView(h).lastAssessment === null);
      return [...created, ...unassessed];
    },
    runAssessment: (hostId: string, trigger: 'manual' | 'scheduled' | 'startup') => ctx.job.run(ctx.getHost(hostId), trigger),
    /** A one-time login code for `…/login?code=` (login.ts); only meaningful when the server has a token. */
    newLoginCode: () => logins.newCode().code,
    /** The URL (ending in /) login links start with, once the server listens. */
    setLoginBase: (url: string) => { loginBase = url; },
    /** Marks a connection accepted on the Unix socket: its requests need no credential. */
    trustLocalConnection: (socket: object) => { localSockets.add(socket); },
    close(): void {
      ctx.scheduler.stop();
      ctx.benchRuns?.abortAll();
      ctx.benchSuites.abortAll();
      ctx.observeJob.abortAll();
      ctx.sizesJob.abortAll();
      ctx.remote.closeAll();
      ctx.reader.close();
      ctx.closeAll();
    },
  };
}
export type AppHandle = ReturnType<typeof createApp>;

function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info('request', {
        method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode,
        ms: Number((process.hrtime.bigint() - start) / 1000n) / 1000,
      });
    });
    next();
  };
}

function errorHandler(logger: Logger) {
  return (thrown: unknown, req: Request, res: Response, _next: NextFunction): void => {
    // A job's domain error (model/jobs.ts) gets its HTTP status here, and only here.
    const err = thrown instanceof JobError ? httpErrorOf(thrown) : thrown;
    let status = 500;
    let body: { error: { code: string; message: string; issues?: { path: string; message: string }[]; wayForward?: string } };
    const e = err as { type?: string; status?: number; expose?: boolean };
    if (err instanceof HttpError) {
      status = err.status;
      body = { error: { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}), ...(err.wayForward ? { wayForward: err.wayForward } : {}) } };
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

/**
 * The HTTP contract: every route, its parameters and its request/response schemas, in one table.
 * The Express app validates requests and responses against these same schemas, the OpenAPI 3.1
 * document (`GET /api/openapi.json`) is generated from them, and the UI imports the types
 * (type-only) — so the three cannot drift apart.
 *
 * Paths are relative to the configurable base path and use Express syntax (`:param`).
 * Every route needs the bearer token when the server requires one, except `auth: false` ones.
 * Errors are always `ApiError` (`{error: {code, message}}`); 5xx bodies are generic.
 */
import { z } from 'zod';
import { Profile } from '../bench/profiles.ts';
import { BenchmarkSummary } from '../model/workload.ts';
import {
  Ack, AckBody, AppInfo, AssessmentParams, AssessmentRecord, AssessmentSummary, BeforeAfterView, BenchHistoryQuery,
  BenchProgress, BenchRequestBody, BenchRunParams, BenchRunView, ConnectionTest, DryRunView, FindingParams, FindingsList,
  DatasetsPage, DatasetsQuery, FindingsQuery, Health, HostCreate, HostParams, HostUpdate, HostView, InventoryQuery, InventoryRecord, OptaneVerdictView, ReportFormat,
  ReportQuery, RunRecord, Settings, SettingsPatch, StoredReportParams, StoredReportView, DeviceProbeRequest,
} from './schemas.ts';
import { evidenceRoutes } from './contract-evidence.ts';
import { ForecastRequest } from '../forecast/request.ts';
import { ForecastResult } from '../forecast/forecast.ts';
import { LoopView } from '../optane/outcome.ts';
import { Freshness } from '../freshness/layout.ts';
import { benchSuiteRoutes } from './contract-bench-suites.ts';
import type { ResponseSpec, RouteSpec } from './route-spec.ts';

export * from './schemas.ts';
export * from './evidence-schemas.ts';

export type { HttpMethod, ResponseSpec, RouteSpec } from './route-spec.ts';

// Generic so each route keeps its own schema type (ResponseOf<R> needs it); still a ResponseSpec.
const json = <S extends z.ZodType>(schema: S, status = 200) => ({ kind: 'json' as const, status, schema }) satisfies ResponseSpec;

/** Every route of the API, keyed by operation id. */
export const routes = {
  health: {
    method: 'get', path: '/api/health', summary: 'Liveness check (no token needed). It signs nothing: a client proves who it talks to by the Unix socket it connects to (root-owned) or by TLS, never by a challenge a stranger could relay',
    tag: 'service', auth: false, response: json(Health), errors: [],
  },
  newLoginLink: {
    method: 'post', path: '/api/login-links', summary: 'A new one-time login link for a browser (what `zfs-advisor login-link` asks for over the Unix socket); valid once, for 24 hours, until the server restarts or every session is ended',
    tag: 'service', auth: true, response: json(z.object({ url: z.string(), expiresAt: z.string() }), 201), errors: [409],
  },
  logout: {
    method: 'post', path: '/api/session/logout', summary: 'Ends the session of the cookie sent with it (and tells the browser to drop the cookie)',
    tag: 'service', auth: true, response: { kind: 'empty', status: 204 }, errors: [],
  },
  endAllSessions: {
    method: 'post', path: '/api/sessions/end-all', summary: 'Sign out everywhere: ends every browser session and voids every unused login link (the API token is unchanged)',
    tag: 'service', auth: true, response: json(z.object({ sessionsEnded: z.number().int().min(0), linksVoided: z.number().int().min(0) })), errors: [],
  },
  info: { method: 'get', path: '/api/info', summary: 'Version, base path, whether a token is required and whether the demo snapshot is shown', tag: 'service', auth: true, response: json(AppInfo), errors: [] },
  openapi: { method: 'get', path: '/api/openapi.json', summary: 'This API as an OpenAPI 3.1 document', tag: 'service', auth: true, response: json(z.record(z.string(), z.unknown())), errors: [] },
  metrics: { method: 'get', path: '/metrics', summary: 'Prometheus metrics (text exposition format 0.0.4)', tag: 'service', auth: true, response: { kind: 'text', status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8' }, errors: [] },

  listHosts: { method: 'get', path: '/api/hosts', summary: 'Hosts known to this server', tag: 'hosts', auth: true, response: json(z.array(HostView)), errors: [] },
  createHost: { method: 'post', path: '/api/hosts', summary: 'Add a host (local, demo, TrueNAS, Proxmox VE); secrets are stored 0600 and never returned', tag: 'hosts', auth: true, body: HostCreate, response: json(HostView, 201), errors: [400, 409, 413, 415] },
  getHost: { method: 'get', path: '/api/hosts/:hostId', summary: 'One host', tag: 'hosts', auth: true, params: HostParams, response: json(HostView), errors: [400, 404] },
  updateHost: { method: 'patch', path: '/api/hosts/:hostId', summary: 'Change a host (a new secret replaces the stored one; a new address, port, verifyTls or pinnedFingerprint drops the stored secret unless a new one is given)', tag: 'hosts', auth: true, params: HostParams, body: HostUpdate, response: json(HostView), errors: [400, 404, 413, 415] },
  deleteHost: { method: 'delete', path: '/api/hosts/:hostId', summary: 'Remove a host, its history and its stored secret', tag: 'hosts', auth: true, params: HostParams, response: { kind: 'empty', status: 204 }, errors: [400, 404] },
  testHost: { method: 'post', path: '/api/hosts/:hostId/test', summary: 'Try to reach a remote host with its stored credentials', tag: 'hosts', auth: true, params: HostParams, response: json(ConnectionTest), errors: [400, 404] },

  getInventory: { method: 'get', path: '/api/hosts/:hostId/inventory', summary: 'The latest inventory snapshot of a host (?pool= for one pool and its datasets)', tag: 'assessments', auth: true, params: HostParams, query: InventoryQuery, response: json(InventoryRecord), errors: [400, 404] },
  listDatasets: { method: 'get', path: '/api/hosts/:hostId/datasets', summary: 'The datasets and zvols of the latest inventory, a page at a time (?pool=, ?limit=, ?cursor=)', tag: 'assessments', auth: true, params: HostParams, query: DatasetsQuery, response: json(DatasetsPage), errors: [400, 404] },
  runAssessment: { method: 'post', path: '/api/hosts/:hostId/assessments', summary: 'Collect the inventory now and run every rule', tag: 'assessments', auth: true, params: HostParams, response: json(AssessmentRecord, 201), errors: [400, 404, 409, 502, 503] },
  listAssessments: { method: 'get', path: '/api/hosts/:hostId/assessments', summary: 'Past assessments of a host, newest first', tag: 'assessments', auth: true, params: HostParams, response: json(z.array(AssessmentSummary)), errors: [400, 404] },
  latestAssessment: { method: 'get', path: '/api/hosts/:hostId/assessments/latest', summary: 'The newest assessment of a host', tag: 'assessments', auth: true, params: HostParams, response: json(AssessmentRecord), errors: [400, 404] },
  getAssessment: { method: 'get', path: '/api/assessments/:assessmentId', summary: 'One assessment', tag: 'assessments', auth: true, params: AssessmentParams, response: json(AssessmentRecord), errors: [400, 404] },
  hostFreshness: { method: 'get', path: '/api/hosts/:hostId/freshness', summary: 'Whether this machine\'s pools are still laid out as the newest assessment read them (one `zpool status`, at most every 5 s); a change starts a re-assessment', tag: 'assessments', auth: true, params: HostParams, response: json(Freshness), errors: [400, 404] },
  listRuns: { method: 'get', path: '/api/hosts/:hostId/runs', summary: 'Scheduled re-assessments with the findings each one added and resolved', tag: 'assessments', auth: true, params: HostParams, response: json(z.array(RunRecord)), errors: [400, 404] },

  listFindings: { method: 'get', path: '/api/hosts/:hostId/findings', summary: 'Findings of the newest assessment, each with its acknowledgement', tag: 'findings', auth: true, params: HostParams, query: FindingsQuery, response: json(FindingsList), errors: [400, 404] },
  ackFinding: { method: 'put', path: '/api/hosts/:hostId/findings/:fingerprint/ack', summary: 'Acknowledge or dismiss a finding (holds until its evidence changes)', tag: 'findings', auth: true, params: FindingParams, body: AckBody, response: json(Ack), errors: [400, 404, 413, 415] },
  unackFinding: { method: 'delete', path: '/api/hosts/:hostId/findings/:fingerprint/ack', summary: 'Withdraw an acknowledgement or dismissal', tag: 'findings', auth: true, params: FindingParams, response: { kind: 'empty', status: 204 }, errors: [400, 404] },

  optane: { method: 'get', path: '/api/hosts/:hostId/optane', summary: '"Should I add Optane?": the verdict of the newest assessment', tag: 'optane', auth: true, params: HostParams, response: json(OptaneVerdictView), errors: [400, 404, 503] },
  optaneDeviceProbe: {
    method: 'post', path: '/api/hosts/:hostId/optane/device-probe',
    summary: 'Measure an unused drive of the newest inventory: the blank-device test (QD1 4 KiB sync writes on the raw device, a few seconds; destroys its contents) through the guarded benchmark, after the serial typed to confirm; progress as for any run',
    tag: 'optane', auth: true, params: HostParams, body: DeviceProbeRequest, response: json(BenchRunView, 202), errors: [400, 403, 404, 409, 413, 415, 429, 503],
  },
  optaneOutcome: { method: 'get', path: '/api/hosts/:hostId/optane/outcome', summary: 'Closing the loop: whether a log or special vdev appeared since a verdict, the re-probe offered, and the stored pairs "forecast (range), measured"', tag: 'optane', auth: true, params: HostParams, response: json(LoopView), errors: [400, 404] },
  optaneOutcomeProbe: { method: 'post', path: '/api/hosts/:hostId/optane/outcome/probe', summary: 'Run the same probe as before the change again (guarded, on a throw-away dataset); the pair is stored when it completes', tag: 'optane', auth: true, params: HostParams, response: json(BenchRunView, 202), errors: [400, 403, 404, 409, 429, 503] },
  forecast: {
    method: 'post', path: '/api/hosts/:hostId/forecast', summary: 'Sync-write IOPS of a pool now and with a given log device (an unused drive or a model text), from the newest inventory',
    tag: 'optane', auth: true, params: HostParams, body: ForecastRequest, response: json(ForecastResult), errors: [400, 404, 413, 415],
  },

  benchProfiles: { method: 'get', path: '/api/bench/profiles', summary: 'Benchmark profiles and the question each answers', tag: 'benchmarks', auth: true, response: json(z.array(Profile)), errors: [503] },
  benchDryRun: { method: 'post', path: '/api/hosts/:hostId/bench/dry-run', summary: 'Every command and every guard verdict, without writing anything', tag: 'benchmarks', auth: true, params: HostParams, body: BenchRequestBody, response: json(DryRunView), errors: [400, 404, 409, 413, 415, 503] },
  benchStart: { method: 'post', path: '/api/hosts/:hostId/bench/runs', summary: 'Start a guarded benchmark (one per host at a time; rate-limited)', tag: 'benchmarks', auth: true, params: HostParams, body: BenchRequestBody, response: json(BenchRunView, 202), errors: [400, 404, 409, 413, 415, 503] },
  benchRun: { method: 'get', path: '/api/bench/runs/:runId', summary: 'A benchmark run started by this server: status, last progress, result', tag: 'benchmarks', auth: true, params: BenchRunParams, response: json(BenchRunView), errors: [400, 404] },
  benchEvents: {
    method: 'get', path: '/api/bench/runs/:runId/events', summary: 'Live progress as Server-Sent Events (progress…, then done)', tag: 'benchmarks', auth: true, params: BenchRunParams,
    response: { kind: 'sse', status: 200, events: { progress: BenchProgress, done: BenchRunView } }, errors: [400, 404],
  },
  benchCancel: { method: 'post', path: '/api/bench/runs/:runId/cancel', summary: 'Stop a running benchmark (fio is stopped and its files removed)', tag: 'benchmarks', auth: true, params: BenchRunParams, response: json(BenchRunView), errors: [400, 404] },
  benchHistory: { method: 'get', path: '/api/hosts/:hostId/bench/history', summary: 'Stored benchmark results, newest first', tag: 'benchmarks', auth: true, params: HostParams, query: BenchHistoryQuery, response: json(z.array(BenchmarkSummary)), errors: [400, 404, 503] },
  benchBeforeAfter: {
    method: 'get', path: '/api/hosts/:hostId/bench/before-after', summary: 'The same profile on the same pool before and after a topology change', tag: 'benchmarks', auth: true, params: HostParams,
    query: z.object({ pool: z.string().min(1).max(256), profile: z.string().min(1).max(64) }), response: json(BeforeAfterView), errors: [400, 404, 503],
  },

  report: {
    method: 'post', path: '/api/reports/:format', summary: 'Generate the recommendations report (md, html, json, pdf), optionally redacted, and keep it (listReports; its id is sent as X-Report-Id). A POST: it stores a copy, and a GET never changes state. With for=truenas-forum|proxmox-forum|reddit|github (format md): a post within that place\'s rules (links, links=N, noLinks)', tag: 'reports', auth: true,
    params: z.object({ format: ReportFormat }), query: ReportQuery,
    response: { kind: 'document', status: 200, contentTypes: ['text/markdown; charset=utf-8', 'text/html; charset=utf-8', 'application/json; charset=utf-8', 'application/pdf', 'text/plain; charset=utf-8'] }, errors: [400, 404, 503],
  },

  listReports: {
    method: 'get', path: '/api/hosts/:hostId/reports', summary: 'Reports generated for a host and kept (newest first; retention.reportsPerHost)', tag: 'reports', auth: true,
    params: HostParams, response: json(z.array(StoredReportView)), errors: [400, 404],
  },
  getStoredReport: {
    method: 'get', path: '/api/hosts/:hostId/reports/:reportId', summary: 'One kept report, exactly as it was served when generated', tag: 'reports', auth: true,
    params: StoredReportParams,
    response: { kind: 'document', status: 200, contentTypes: ['text/markdown; charset=utf-8', 'text/html; charset=utf-8', 'application/json; charset=utf-8', 'application/pdf', 'text/plain; charset=utf-8'] }, errors: [400, 404],
  },

  reportSchema: { method: 'get', path: '/api/report-schema.json', summary: 'JSON Schema (2020-12) of the JSON report; its reportSchemaVersion says which version', tag: 'reports', auth: true, response: json(z.record(z.string(), z.unknown())), errors: [] },

  getSettings: { method: 'get', path: '/api/settings', summary: 'Schedule, retention and benchmark limits', tag: 'settings', auth: true, response: json(Settings), errors: [] },
  updateSettings: { method: 'patch', path: '/api/settings', summary: 'Change settings (partial)', tag: 'settings', auth: true, body: SettingsPatch, response: json(Settings), errors: [400, 413, 415] },

  /** Workload observations, size histograms, planner (contract-evidence.ts). */
  ...evidenceRoutes,
  /** Benchmark suites (contract-bench-suites.ts). */
  ...benchSuiteRoutes,
} as const satisfies Record<string, RouteSpec>;

export type RouteId = keyof typeof routes;

/** The JSON body type a route answers with (for the UI's typed client). */
export type ResponseOf<R extends RouteId> = (typeof routes)[R]['response'] extends { kind: 'json'; schema: infer S extends z.ZodType }
  ? z.infer<S>
  : never;
/** The JSON body a route accepts. */
export type BodyOf<R extends RouteId> = (typeof routes)[R] extends { body: infer S extends z.ZodType } ? z.input<S> : never;
/** Path parameters of a route. */
export type ParamsOf<R extends RouteId> = (typeof routes)[R] extends { params: infer S extends z.ZodType } ? z.input<S> : Record<string, never>;
/** Query parameters of a route. */
export type QueryOf<R extends RouteId> = (typeof routes)[R] extends { query: infer S extends z.ZodType } ? z.input<S> : Record<string, never>;

/** Fills `:param`s of a route path (encoded). For clients. */
export function routePath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}

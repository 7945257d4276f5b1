/**
 * The typed API client. Paths and methods are checked at compile time against the server's
 * contract (`server/src/api/contract.ts`, imported type-only so zod stays out of the bundle);
 * bodies and answers are the contract's inferred types. Failures are values, never throws:
 * `{ok: false, status, code, message}` with the server's own error message.
 */
import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteId, routes } from '../../../server/src/api/contract.ts';
import { apiUrl, fillPath } from './base.ts';
import { readSse, type SseEvent } from './sse.ts';

type Route<K extends RouteId> = { method: (typeof routes)[K]['method']; path: (typeof routes)[K]['path'] };

/** The routes the UI calls. `satisfies` makes tsc fail if one drifts from the contract. */
export const ROUTES = {
  info: { method: 'get', path: '/api/info' },
  listHosts: { method: 'get', path: '/api/hosts' },
  createHost: { method: 'post', path: '/api/hosts' },
  deleteHost: { method: 'delete', path: '/api/hosts/:hostId' },
  testHost: { method: 'post', path: '/api/hosts/:hostId/test' },
  getInventory: { method: 'get', path: '/api/hosts/:hostId/inventory' },
  runAssessment: { method: 'post', path: '/api/hosts/:hostId/assessments' },
  latestAssessment: { method: 'get', path: '/api/hosts/:hostId/assessments/latest' },
  hostFreshness: { method: 'get', path: '/api/hosts/:hostId/freshness' },
  listFindings: { method: 'get', path: '/api/hosts/:hostId/findings' },
  ackFinding: { method: 'put', path: '/api/hosts/:hostId/findings/:fingerprint/ack' },
  unackFinding: { method: 'delete', path: '/api/hosts/:hostId/findings/:fingerprint/ack' },
  optane: { method: 'get', path: '/api/hosts/:hostId/optane' },
  forecast: { method: 'post', path: '/api/hosts/:hostId/forecast' },
  optaneDeviceProbe: { method: 'post', path: '/api/hosts/:hostId/optane/device-probe' },
  optaneOutcome: { method: 'get', path: '/api/hosts/:hostId/optane/outcome' },
  optaneOutcomeProbe: { method: 'post', path: '/api/hosts/:hostId/optane/outcome/probe' },
  benchProfiles: { method: 'get', path: '/api/bench/profiles' },
  benchDryRun: { method: 'post', path: '/api/hosts/:hostId/bench/dry-run' },
  benchStart: { method: 'post', path: '/api/hosts/:hostId/bench/runs' },
  benchRun: { method: 'get', path: '/api/bench/runs/:runId' },
  benchEvents: { method: 'get', path: '/api/bench/runs/:runId/events' },
  benchCancel: { method: 'post', path: '/api/bench/runs/:runId/cancel' },
  benchHistory: { method: 'get', path: '/api/hosts/:hostId/bench/history' },
  benchBeforeAfter: { method: 'get', path: '/api/hosts/:hostId/bench/before-after' },
  benchSuiteDefs: { method: 'get', path: '/api/bench/suites' },
  benchSuitePlan: { method: 'post', path: '/api/hosts/:hostId/bench/suites/plan' },
  benchSuiteStart: { method: 'post', path: '/api/hosts/:hostId/bench/suites' },
  benchSuiteJob: { method: 'get', path: '/api/bench/suite-jobs/:jobId' },
  benchSuiteEvents: { method: 'get', path: '/api/bench/suite-jobs/:jobId/events' },
  benchSuiteCancel: { method: 'post', path: '/api/bench/suite-jobs/:jobId/cancel' },
  benchSuiteList: { method: 'get', path: '/api/hosts/:hostId/bench/suites' },
  benchSuiteCompare: { method: 'get', path: '/api/hosts/:hostId/bench/suites-compare' },
  benchSuiteExport: { method: 'get', path: '/api/hosts/:hostId/bench/suites/:suiteId/export' },
  report: { method: 'post', path: '/api/reports/:format' },
  startObservation: { method: 'post', path: '/api/hosts/:hostId/observations' },
  listObservations: { method: 'get', path: '/api/hosts/:hostId/observations' },
  getObservation: { method: 'get', path: '/api/observations/:observationId' },
  observationEvents: { method: 'get', path: '/api/observations/:observationId/events' },
  cancelObservation: { method: 'post', path: '/api/observations/:observationId/cancel' },
  startSizes: { method: 'post', path: '/api/hosts/:hostId/sizes' },
  listSizes: { method: 'get', path: '/api/hosts/:hostId/sizes' },
  getSizes: { method: 'get', path: '/api/sizes/:sizesId' },
  sizesEvents: { method: 'get', path: '/api/sizes/:sizesId/events' },
  cancelSizes: { method: 'post', path: '/api/sizes/:sizesId/cancel' },
  sizesFromTable: { method: 'post', path: '/api/sizes/from-histogram' },
  planLayouts: { method: 'post', path: '/api/plan/layouts' },
  planAddVdev: { method: 'post', path: '/api/hosts/:hostId/plan/add-vdev' },
} as const satisfies { [K in RouteId]?: Route<K> };

export type UiRouteId = keyof typeof ROUTES;

/**
 * The JSON a route answers with, from the contract's schemas (`ResponseOf`). Routes that answer
 * with no JSON (204, event streams, documents) resolve to `null` here: `call` is not meant for
 * them (use `stream` or `download`).
 */
export type AnswerOf<K extends UiRouteId> = [ResponseOf<K>] extends [never] ? null : ResponseOf<K>;

export interface ApiFailure {
  ok: false;
  /** HTTP status, or 0 when the server could not be reached. */
  status: number;
  code: string;
  message: string;
}
export type ApiResult<T> = { ok: true; value: T } | ApiFailure;

export interface CallOptions<K extends UiRouteId> {
  params?: ParamsOf<K>;
  query?: QueryOf<K>;
  body?: BodyOf<K>;
  signal?: AbortSignal;
}

export interface ApiClient {
  call<K extends UiRouteId>(id: K, opts?: CallOptions<K>): Promise<ApiResult<AnswerOf<K>>>;
  /** Downloads a generated document (reports): the bytes and the file name the server proposes. */
  download<K extends UiRouteId>(id: K, opts?: CallOptions<K>): Promise<ApiResult<{ blob: Blob; fileName: string; contentType: string }>>;
  /** Follows an SSE route until the server ends it. */
  stream<K extends UiRouteId>(id: K, opts: CallOptions<K>, onEvent: (e: SseEvent) => void): Promise<ApiResult<null>>;
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

function toQuery(q: unknown): Record<string, string | undefined> | undefined {
  if (!q || typeof q !== 'object') return undefined;
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(q as Record<string, unknown>)) out[k] = v === undefined || v === null ? undefined : String(v);
  return out;
}

/** Reads `{error: {code, message}}` from a failed response, or describes the status. */
export async function failureOf(res: Response): Promise<ApiFailure> {
  let code = 'http-error';
  let message = `${res.status} ${res.statusText}`.trim();
  try {
    const j: unknown = await res.json();
    if (j && typeof j === 'object' && 'error' in j) {
      const e = (j as { error: { code?: unknown; message?: unknown } }).error;
      if (typeof e.code === 'string') code = e.code;
      if (typeof e.message === 'string') message = e.message;
    }
  } catch { /* not JSON: keep the status line */ }
  return { ok: false, status: res.status, code, message };
}

export function fileNameOf(disposition: string | null, fallback: string): string {
  const m = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  return m?.[1] ?? fallback;
}

export function createApiClient(base: string, getToken: () => string | null, fetchImpl: Fetch = (i, init) => fetch(i, init)): ApiClient {
  const request = async <K extends UiRouteId>(id: K, opts: CallOptions<K> | undefined, accept: string): Promise<Response | ApiFailure> => {
    const route: { method: string; path: string } = ROUTES[id];
    const url = apiUrl(base, fillPath(route.path, (opts?.params ?? {}) as Record<string, string | number>), toQuery(opts?.query));
    const headers: Record<string, string> = { Accept: accept };
    const token = getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (opts?.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await fetchImpl(url, {
        method: route.method.toUpperCase(),
        headers,
        body: opts?.body !== undefined ? JSON.stringify(opts.body) : undefined,
        signal: opts?.signal,
      });
    } catch (err) {
      const aborted = err instanceof DOMException && err.name === 'AbortError';
      return { ok: false, status: 0, code: aborted ? 'aborted' : 'network', message: aborted ? 'canceled' : 'the server could not be reached' };
    }
  };

  return {
    async call(id, opts) {
      const res = await request(id, opts, 'application/json');
      if (!(res instanceof Response)) return res;
      if (!res.ok) return failureOf(res);
      if (res.status === 204) return { ok: true, value: null as AnswerOf<typeof id> };
      try {
        return { ok: true, value: (await res.json()) as AnswerOf<typeof id> };
      } catch {
        return { ok: false, status: res.status, code: 'bad-response', message: 'the server answered with something that is not JSON' };
      }
    },
    async download(id, opts) {
      const res = await request(id, opts, '*/*');
      if (!(res instanceof Response)) return res;
      if (!res.ok) return failureOf(res);
      const contentType = res.headers.get('Content-Type') ?? 'application/octet-stream';
      return { ok: true, value: { blob: await res.blob(), fileName: fileNameOf(res.headers.get('Content-Disposition'), `report-${String(id)}`), contentType } };
    },
    async stream(id, opts, onEvent) {
      const res = await request(id, opts, 'text/event-stream');
      if (!(res instanceof Response)) return res;
      if (!res.ok) return failureOf(res);
      if (!res.body) return { ok: false, status: res.status, code: 'bad-response', message: 'the event stream has no body' };
      try {
        await readSse(res.body, onEvent, opts.signal);
      } catch (err) {
        if (opts.signal?.aborted) return { ok: false, status: 0, code: 'aborted', message: 'canceled' };
        return { ok: false, status: 0, code: 'network', message: err instanceof Error ? err.message : 'the event stream broke off' };
      }
      return { ok: true, value: null };
    },
  };
}

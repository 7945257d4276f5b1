/**
 * The benchmark-suite routes of the HTTP contract, spread into `routes` in contract.ts (like the
 * evidence routes): built-in suites, plan (dry run), start, live progress, cancel, stored suites
 * with their comparison table, before/after of two suites, CSV/JSON export.
 */
import { z } from 'zod';
import type { ResponseSpec, RouteSpec } from './route-spec.ts';
import { HostParams } from './schemas.ts';
import { SuiteRequest } from '../bench/suites.ts';
import { SuiteComparison, SuitePlan, SuiteProgress, SuiteView } from '../bench/suite-types.ts';
import { SuiteRunView } from '../jobs/bench-suites.ts';

const json = <S extends z.ZodType>(schema: S, status = 200) => ({ kind: 'json' as const, status, schema }) satisfies ResponseSpec;
const Id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const JobParams = z.object({ jobId: Id });
const SuiteParams = z.object({ hostId: HostParams.shape.hostId, suiteId: Id });

export const SuiteDefView = z.object({
  id: z.string(), title: z.string(), question: z.string(), reference: z.string(), profiles: z.array(z.string()),
  matrix: z.record(z.string(), z.array(z.union([z.string(), z.number()]))),
  runtimeS: z.number(), sizeBytes: z.number(), pauseS: z.number(), maxTotalS: z.number(),
});

export const benchSuiteRoutes = {
  benchSuiteDefs: { method: 'get', path: '/api/bench/suites', summary: 'The built-in benchmark suites and the question each answers', tag: 'benchmarks', auth: true, response: json(z.array(SuiteDefView)), errors: [] as number[] },
  benchSuitePlan: {
    method: 'post', path: '/api/hosts/:hostId/bench/suites/plan', summary: 'A suite\'s plan: every run with its commands and guards, skipped cells with why, the estimate; writes nothing', tag: 'benchmarks', auth: true,
    params: HostParams, body: SuiteRequest, response: json(SuitePlan), errors: [400, 404, 409, 413, 415],
  },
  benchSuiteStart: {
    method: 'post', path: '/api/hosts/:hostId/bench/suites', summary: 'Start a benchmark suite (one benchmark or suite per host at a time; rate-limited)', tag: 'benchmarks', auth: true,
    params: HostParams, body: SuiteRequest, response: json(SuiteRunView, 202), errors: [400, 404, 409, 413, 415, 429],
  },
  benchSuiteJob: { method: 'get', path: '/api/bench/suite-jobs/:jobId', summary: 'A suite started by this server: status, progress, result', tag: 'benchmarks', auth: true, params: JobParams, response: json(SuiteRunView), errors: [400, 404] },
  benchSuiteEvents: {
    method: 'get', path: '/api/bench/suite-jobs/:jobId/events', summary: 'Live suite progress as Server-Sent Events (progress…, then done)', tag: 'benchmarks', auth: true, params: JobParams,
    response: { kind: 'sse', status: 200, events: { progress: SuiteProgress, done: SuiteRunView } }, errors: [400, 404],
  },
  benchSuiteCancel: { method: 'post', path: '/api/bench/suite-jobs/:jobId/cancel', summary: 'Cancel a running suite (the current run is stopped and cleaned up; later runs never start)', tag: 'benchmarks', auth: true, params: JobParams, response: json(SuiteRunView), errors: [400, 404] },
  benchSuiteList: {
    method: 'get', path: '/api/hosts/:hostId/bench/suites', summary: 'Stored suites with their comparison tables, newest first (the demo host: reference 000\'s published results, labelled as demo data)', tag: 'benchmarks', auth: true,
    params: HostParams, response: json(z.array(SuiteView)), errors: [400, 404],
  },
  benchSuiteCompare: {
    method: 'get', path: '/api/hosts/:hostId/bench/suites-compare', summary: 'Two suites side by side (before/after a topology change), with ratios', tag: 'benchmarks', auth: true,
    params: HostParams, query: z.object({ before: Id, after: Id }), response: json(SuiteComparison), errors: [400, 404],
  },
  benchSuiteExport: {
    method: 'get', path: '/api/hosts/:hostId/bench/suites/:suiteId/export', summary: 'One suite as CSV (one row a run) or JSON (suite, table and pairs)', tag: 'benchmarks', auth: true,
    params: SuiteParams, query: z.object({ format: z.enum(['csv', 'json']).default('csv') }),
    response: { kind: 'document', status: 200, contentTypes: ['text/csv; charset=utf-8', 'application/json; charset=utf-8'] }, errors: [400, 404],
  },
} as const satisfies Record<string, RouteSpec>;

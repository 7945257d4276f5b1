/**
 * The evidence routes of the HTTP contract (observations, size histograms, planner), spread into
 * `routes` in contract.ts so the app, the OpenAPI document and the UI see one table.
 */
import { z } from 'zod';
import type { ResponseSpec, RouteSpec } from './route-spec.ts';
import {
  AddVdevPlanView, AddVdevRequest, LayoutPlanRequest, LayoutPlanView, ObservationParams, ObservationProgress,
  ObservationRecord, ObservationRequest, SizesFromTableRequest, SizesFromTableView, SizesParams, SizesProgress, SizesRecord, SizesRequest,
} from './evidence-schemas.ts';
import { HostParams } from './schemas.ts';

// Generic so each route keeps its own schema type (ResponseOf<R> needs it); still a ResponseSpec.
const json = <S extends z.ZodType>(schema: S, status = 200) => ({ kind: 'json' as const, status, schema }) satisfies ResponseSpec;
const ListQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });

export const evidenceRoutes = {
  startObservation: {
    method: 'post', path: '/api/hosts/:hostId/observations', summary: 'Start a workload observation (counters only, no I/O of its own; one per host at a time)', tag: 'evidence', auth: true,
    params: HostParams, body: ObservationRequest, response: json(ObservationRecord, 202), errors: [400, 404, 409, 413, 415],
  },
  listObservations: {
    method: 'get', path: '/api/hosts/:hostId/observations', summary: 'Workload observations of a host (fingerprint history), newest first', tag: 'evidence', auth: true,
    params: HostParams, query: ListQuery, response: json(z.array(ObservationRecord)), errors: [400, 404],
  },
  getObservation: {
    method: 'get', path: '/api/observations/:observationId', summary: 'One observation: status, progress, fingerprint (poll this or use the events)', tag: 'evidence', auth: true,
    params: ObservationParams, response: json(ObservationRecord), errors: [400, 404],
  },
  observationEvents: {
    method: 'get', path: '/api/observations/:observationId/events', summary: 'Observation progress as Server-Sent Events (progress…, then done)', tag: 'evidence', auth: true,
    params: ObservationParams, response: { kind: 'sse', status: 200, events: { progress: ObservationProgress, done: ObservationRecord } }, errors: [400, 404],
  },
  cancelObservation: {
    method: 'post', path: '/api/observations/:observationId/cancel', summary: 'Stop a running observation (nothing is stored as a fingerprint)', tag: 'evidence', auth: true,
    params: ObservationParams, response: json(ObservationRecord), errors: [400, 404],
  },

  startSizes: {
    method: 'post', path: '/api/hosts/:hostId/sizes', summary: 'Measure file and block size histograms of a dataset or directory in the background', tag: 'evidence', auth: true,
    params: HostParams, body: SizesRequest, response: json(SizesRecord, 202), errors: [400, 404, 409, 413, 415],
  },
  listSizes: {
    method: 'get', path: '/api/hosts/:hostId/sizes', summary: 'Size measurements of a host, newest first', tag: 'evidence', auth: true,
    params: HostParams, query: ListQuery, response: json(z.array(SizesRecord)), errors: [400, 404],
  },
  getSizes: {
    method: 'get', path: '/api/sizes/:sizesId', summary: 'One size measurement: status, progress, histogram', tag: 'evidence', auth: true,
    params: SizesParams, response: json(SizesRecord), errors: [400, 404],
  },
  sizesEvents: {
    method: 'get', path: '/api/sizes/:sizesId/events', summary: 'Size-walk progress as Server-Sent Events (progress…, then done)', tag: 'evidence', auth: true,
    params: SizesParams, response: { kind: 'sse', status: 200, events: { progress: SizesProgress, done: SizesRecord } }, errors: [400, 404],
  },
  cancelSizes: {
    method: 'post', path: '/api/sizes/:sizesId/cancel', summary: 'Stop a running size walk', tag: 'evidence', auth: true,
    params: SizesParams, response: json(SizesRecord), errors: [400, 404],
  },

  sizesFromTable: {
    method: 'post', path: '/api/sizes/from-histogram', summary: 'special_small_blocks projection from a pasted size table (find|awk counts per power-of-two size, CSV, or zdb -bbb text); computed, nothing is read on the host', tag: 'evidence', auth: true,
    body: SizesFromTableRequest, response: json(SizesFromTableView), errors: [400, 413, 415],
  },
  planLayouts: {
    method: 'post', path: '/api/plan/layouts', summary: 'Compare pool layouts for N disks of one size, ranked for a workload (a plan, nothing is run)', tag: 'planner', auth: true,
    body: LayoutPlanRequest, response: json(LayoutPlanView), errors: [400, 413, 415],
  },
  planAddVdev: {
    method: 'post', path: '/api/hosts/:hostId/plan/add-vdev', summary: 'Commands to add a SLOG or special vdev, each labelled reversible or not, with a preview of the resulting zpool status (never executed)', tag: 'planner', auth: true,
    params: HostParams, body: AddVdevRequest, response: json(AddVdevPlanView), errors: [400, 404, 409, 413, 415],
  },
} as const satisfies Record<string, RouteSpec>;

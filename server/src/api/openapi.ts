/**
 * The OpenAPI 3.1 document, generated from the route table in `contract.ts` with zod 4's
 * `z.toJSONSchema`. OpenAPI 3.1 schemas are JSON Schema 2020-12, so the output is used as is;
 * schemas shared by several routes (and recursive ones like the vdev tree) become
 * `components.schemas` entries referenced by `$ref`.
 */
import { z } from 'zod';
import { APP_VERSION } from '../version.ts';
import { Assessment, Finding } from '../model/finding.ts';
import { Inventory, VdevNode } from '../model/inventory.ts';
import { BenchmarkSummary } from '../model/workload.ts';
import { ApiError, AssessmentRecord, BenchRunView, HostView, InventoryRecord, Settings, routes, type RouteSpec } from './contract.ts';

type JsonObject = Record<string, unknown>;

/** Named component schemas (reused across routes). */
const COMPONENTS: Record<string, z.ZodType> = {
  ApiError, HostView, Inventory, InventoryRecord, VdevNode, Finding, Assessment, AssessmentRecord, BenchmarkSummary, BenchRunView, Settings,
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content', 400: 'Invalid request', 401: 'Missing or wrong bearer token',
  404: 'Not found', 409: 'Conflict', 413: 'Body too large', 415: 'Body must be application/json', 429: 'Too many requests',
  403: 'Cross-site request refused (Origin not this server, or no Origin and no JSON content type)', 421: 'The Host header names a server this is not (DNS rebinding guard)',
  500: 'Internal error (details in the server log)', 502: 'The remote host answered with an error', 503: 'Not available on this server',
};

/** `/api/hosts/:hostId` → `/api/hosts/{hostId}` */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z]+)/g, '{$1}');
}

export function buildOpenApiDocument(opts: { basePath?: string } = {}): JsonObject {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });

  // Collect each route's schemas under generated ids so one toJSONSchema call resolves all refs.
  const add = (schema: z.ZodType, id: string): string => {
    const existing = registry.get(schema)?.id;
    if (existing) return existing;
    registry.add(schema, { id });
    return id;
  };
  const routeIds = Object.entries(routes) as [string, RouteSpec][];
  const plan = routeIds.map(([opId, r]) => ({
    opId,
    r,
    hasBody: Boolean(r.body),
    response: r.response.kind === 'json' ? add(r.response.schema, `${opId}Response`) : null,
    sse: r.response.kind === 'sse' ? Object.entries(r.response.events).map(([ev, s]) => [ev, add(s, `${opId}_${ev}`)] as const) : [],
  }));

  const generated = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    io: 'output',
  }) as { schemas: Record<string, JsonObject> };
  const schemas: Record<string, JsonObject> = {};
  for (const [id, s] of Object.entries(generated.schemas)) {
    // `$id: "#/components/…"` is not a valid 2020-12 $id (no fragments); the location names it.
    const { $schema: _drop, $id: _id, ...rest } = s;
    schemas[id] = rest;
  }
  // Request bodies and parameters are described as the client sends them (before defaults).
  const inputSchema = (schema: z.ZodType): JsonObject => {
    const s = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonObject;
    const { $schema: _drop, ...rest } = s;
    return rest;
  };
  const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const { opId, r, hasBody, response, sse } of plan) {
    const parameters: JsonObject[] = [];
    for (const [where, obj] of [['path', r.params], ['query', r.query]] as const) {
      if (!obj) continue;
      const js = inputSchema(obj) as { properties?: Record<string, JsonObject>; required?: string[] };
      for (const [name, schema] of Object.entries(js.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema });
      }
    }
    const responses: Record<string, JsonObject> = {};
    const resp = r.response;
    if (resp.kind === 'json' && response) responses[String(resp.status)] = { description: STATUS_TEXT[resp.status] ?? 'OK', content: { 'application/json': { schema: ref(response) } } };
    if (resp.kind === 'empty') responses['204'] = { description: STATUS_TEXT[204] };
    if (resp.kind === 'text') responses['200'] = { description: 'OK', content: { [resp.contentType]: { schema: { type: 'string' } } } };
    if (resp.kind === 'document') {
      responses['200'] = { description: 'The report', content: Object.fromEntries(resp.contentTypes.map((ct) => [ct.split(';')[0]!, { schema: ct.startsWith('application/pdf') ? { type: 'string', contentMediaType: 'application/pdf' } : { type: 'string' } }])) };
    }
    if (resp.kind === 'sse') {
      responses['200'] = {
        description: `Server-Sent Events; events: ${sse.map(([ev]) => ev).join(', ')}. Each event's data is JSON: ${sse.map(([ev, id]) => `${ev} → #/components/schemas/${id}`).join('; ')}.`,
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      };
    }
    const errorStatuses = new Set([...r.errors, ...(r.auth ? [401] : []), ...(r.method === 'get' ? [] : [403]), 421, 429, 500]);
    for (const status of [...errorStatuses].sort()) {
      responses[String(status)] = { description: STATUS_TEXT[status] ?? 'Error', content: { 'application/json': { schema: ref('ApiError') } } };
    }
    const op: JsonObject = {
      operationId: opId,
      summary: r.summary,
      tags: [r.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(hasBody && r.body ? { requestBody: { required: true, content: { 'application/json': { schema: inputSchema(r.body) } } } } : {}),
      responses,
      ...(r.auth ? {} : { security: [] }),
    };
    const p = openApiPath(r.path);
    (paths[p] ??= {})[r.method] = op;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'ZFS Advisor API',
      version: APP_VERSION,
      description: 'Inventory, findings, the Optane verdict, guarded benchmarks and reports of ZFS hosts. Errors are `{error: {code, message}}`.',
    },
    servers: [{ url: opts.basePath && opts.basePath !== '/' ? opts.basePath : '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Required when the server listens on an address other than loopback.' } },
    },
  };
}

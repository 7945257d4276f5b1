/**
 * The shape of one API route in the contract (method, path, schemas, answer). Its own module so the
 * contract's parts (contract-evidence.ts, contract-bench-suites.ts) and contract.ts, which joins
 * them, all import it and not each other: imports run one way.
 */
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type ResponseSpec =
  | { kind: 'json'; status: number; schema: z.ZodType }
  | { kind: 'empty'; status: 204 }
  /** Server-Sent Events: each event's `data` is one JSON value of `schema`, named by `event`. */
  | { kind: 'sse'; status: 200; events: Record<string, z.ZodType> }
  | { kind: 'text'; status: 200; contentType: string }
  /** Generated documents (reports): content type depends on the request. */
  | { kind: 'document'; status: 200; contentTypes: string[] };

export interface RouteSpec {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  /** false only for the health check (and nothing else). */
  auth: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: ResponseSpec;
  /** Error statuses this route can answer besides 401/429/500. */
  errors: number[];
}


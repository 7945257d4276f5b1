/**
 * Binds a route of the contract to a handler: params, query and body are parsed with the route's
 * zod schemas and handed to the handler already typed (never re-parsed); a JSON answer is
 * validated against the response schema before it is sent — a handler that drifts from the
 * contract fails loudly in tests instead of silently in the UI. A handler may instead return a
 * `PreparedJson` (validated and serialised once by `prepareJson`, then served from a cache).
 */
import { createHash } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { RouteSpec } from './contract.ts';
import { HttpError } from './errors.ts';

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<R extends RouteSpec> {
  params: Infer<R['params']>;
  query: Infer<R['query']>;
  body: Infer<R['body']>;
  req: Request;
  res: Response;
}

/** A JSON handler returns the body; stream/document handlers write `res` and return undefined. */
export type Handler<R extends RouteSpec> = (input: HandlerInput<R>) => Promise<unknown> | unknown;

function issuesOf(err: z.ZodError, where: string): { path: string; message: string }[] {
  return err.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));
}

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const r = schema.safeParse(value ?? {});
  if (!r.success) {
    const issues = issuesOf(r.error, where);
    throw new HttpError('bad-request', `invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
  }
  return r.data;
}

/**
 * A JSON answer validated and serialised once, to be sent many times (the findings list is read
 * far more often than it changes). Built by `prepareJson()` with the route's own response schema,
 * so sending it skips nothing: it was checked when it was made.
 */
export class PreparedJson {
  /** UTF-8 bytes, so sending it many times never re-encodes it. */
  readonly body: Buffer;
  /** Same weak ETag format as Express computes for a body (`W/"<length hex>-<sha1 base64 27>"`). */
  readonly etag: string;
  /**
   * `etag`: when it was computed where the body was made (the read worker); `gzip`: the body
   * gzipped there, sent to clients that accept it (same weak ETag: the same content).
   */
  constructor(body: string | Buffer, etag?: string, readonly gzip: Buffer | null = null) {
    this.body = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    this.etag = etag ?? `W/"${this.body.length.toString(16)}-${createHash('sha1').update(this.body).digest('base64').slice(0, 27)}"`;
  }
  /** The body as text (tests, logs). */
  text(): string {
    return this.body.toString('utf8');
  }
}

/** Validates `value` against the route's JSON response schema and serialises it. */
export function prepareJson(spec: RouteSpec, value: unknown): PreparedJson {
  const resp = spec.response;
  if (resp.kind !== 'json') throw new Error(`${spec.method.toUpperCase()} ${spec.path} does not answer JSON`);
  return new PreparedJson(JSON.stringify(checkResponse(spec, resp.schema, value)));
}

function checkResponse(spec: RouteSpec, schema: z.ZodType, out: unknown): unknown {
  const checked = schema.safeParse(out);
  if (!checked.success) {
    // A contract violation is our bug: log the detail, answer generically.
    throw Object.assign(new Error(`response of ${spec.method.toUpperCase()} ${spec.path} does not match the contract: ${checked.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`), { contract: true });
  }
  return checked.data;
}

export function bindRoute<R extends RouteSpec>(router: Router, spec: R, handler: Handler<R>): void {
  router[spec.method](spec.path, async (req, res, next) => {
    try {
      if (spec.body && !req.is('application/json')) {
        throw new HttpError('unsupported-media-type', 'the request body must be JSON (Content-Type: application/json)');
      }
      const input = {
        params: parsePart(spec.params, req.params, 'params'),
        query: parsePart(spec.query, req.query, 'query'),
        body: parsePart(spec.body, req.body, 'body'),
        req,
        res,
      } as HandlerInput<R>;
      const out = await handler(input);
      if (res.headersSent) return;
      const resp = spec.response;
      if (resp.kind === 'json' && out instanceof PreparedJson) {
        sendPrepared(req, res, resp.status, out);
      } else if (resp.kind === 'json') {
        res.status(resp.status).json(checkResponse(spec, resp.schema, out));
      } else if (resp.kind === 'empty') {
        res.status(204).end();
      }
    } catch (err) {
      next(err);
    }
  });
}

/**
 * A router of the API: strict (a trailing slash is another path) and case-sensitive, so only the
 * exact spelling of a contract path reaches a handler; every other spelling is 404 after the gate.
 */
export function apiRouter(): Router {
  return express.Router({ caseSensitive: true, strict: true });
}

/** Bodies above this go out a slice at a time. */
const LARGE_BODY = 256 * 1024;
const SLICE = 64 * 1024;

/**
 * Sends an answer validated by prepareJson() as res.json() would (ETag, 304 when fresh). A large
 * body (a big host's inventory is megabytes) is written a slice at a time, waiting for the socket
 * to drain: one `res.send` copies as much as the kernel takes in one go, and a hundred of them at
 * once held the event loop for a second.
 */
function sendPrepared(req: Request, res: Response, status: number, out: PreparedJson): void {
  res.status(status).setHeader('ETag', out.etag);
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
  if (out.gzip) res.vary('Accept-Encoding');
  // Only when the client names gzip (a missing Accept-Encoding is taken as identity only).
  const gzip = out.gzip !== null && typeof req.headers['accept-encoding'] === 'string' && req.acceptsEncodings('gzip', 'identity') === 'gzip';
  if (!gzip && out.body.length <= LARGE_BODY) {
    res.send(out.body);
    return;
  }
  if (status >= 200 && status < 300 && req.fresh) {
    res.status(304).end();
    return;
  }
  const body = gzip ? out.gzip! : out.body;
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', body.length);
  if (req.method === 'HEAD' || body.length <= LARGE_BODY) {
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  let at = 0;
  let closed = false;
  // One slice per turn of the event loop: the kernel takes megabytes from a loopback socket in
  // one write, and a hundred such sockets ready at once held the loop for half a second.
  // 'drain' can come from a nextTick of the write before it, so the next slice always waits
  // for setImmediate: otherwise the ticks chain write after write within one turn.
  const later = (): void => { setImmediate(pump); };
  const pump = (): void => {
    if (closed) return;
    const next = Math.min(at + SLICE, body.length);
    const more = res.write(body.subarray(at, next));
    at = next;
    if (at >= body.length) res.end();
    else if (more) later();
    else res.once('drain', later);
  };
  res.once('close', () => { closed = true; res.off('drain', later); });
  pump();
}

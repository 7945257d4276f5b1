/**
 * Issue 25 §7: every number a client sends is bounded by its schema (so an absurd one is a 400,
 * never a 500 from an answer that fails its own contract), and failed authentication has one
 * budget for all sources besides the per-address one (a local user has 16 M loopback addresses).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { routes } from '../../server/src/api/contract.ts';
import { startServer } from '../../server/src/api/server.ts';
import { createGate } from '../../server/src/api/gate.ts';
import { createRateLimiter } from '../../server/src/api/security.ts';
import { createOriginPolicy } from '../../server/src/api/origin-policy.ts';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-bounds-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** Paths (in the JSON Schema) of numbers without an upper bound. */
function unbounded(schema: unknown, path: string, out: string[]): string[] {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as Record<string, unknown>;
  if ((s.type === 'number' || s.type === 'integer') && s.maximum === undefined && s.exclusiveMaximum === undefined) out.push(path);
  for (const [k, v] of Object.entries(s)) if (v && typeof v === 'object') unbounded(v, `${path}.${k}`, out);
  return out;
}

describe('schema bounds', () => {
  it('every number in every request body, query and path of the API has an upper bound', () => {
    const found: string[] = [];
    for (const [id, r] of Object.entries(routes as Record<string, Partial<Record<'body' | 'query' | 'params', z.ZodType>>>)) {
      for (const part of ['body', 'query', 'params'] as const) {
        const schema = r[part];
        if (schema) unbounded(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), `${id}.${part}`, found);
      }
    }
    expect(found).toEqual([]);
  });

  it('an absurd disk size on the planner is a 400 that names the field; the largest allowed one is answered', async () => {
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {} });
    if (!r.ok) throw new Error(r.message);
    const s = r.server;
    const plan = (body: unknown) => fetch(new URL('api/plan/layouts', s.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    try {
      for (const diskBytes of [1e308, 2 ** 60 + 2 ** 40]) {
        const res = await plan({ disks: 2, diskBytes });
        expect(res.status, String(diskBytes)).toBe(400);
        expect(JSON.stringify(await res.json())).toContain('diskBytes');
      }
      expect((await plan({ disks: 2, diskBytes: 2 ** 60 })).status).toBe(200);
      expect((await plan({ disks: 2, diskBytes: 4e12, hostSeqCapMBps: { read: 1e300, write: 1 } })).status).toBe(400);
    } finally { await s.close(); }
  });
});

describe('authentication failure budget', () => {
  it('failures from many addresses share one budget: past it every wrong credential is refused with 429, a request without one still gets 401', () => {
    const gate = createGate({
      basePath: '/', token: 'x'.repeat(43), authFailures: createRateLimiter(20, 60_000), authFailuresGlobal: createRateLimiter(200, 60_000),
      policy: createOriginPolicy({ boundAddress: '127.0.0.1', publicNames: [], trustedOrigins: [] }),
    });
    const statuses: number[] = [];
    const send = (i: number, headers: Record<string, string>) => {
      const req = { method: 'GET', originalUrl: '/api/hosts', headers: { host: '127.0.0.1:8077', ...headers }, socket: { remoteAddress: `127.0.${i >> 8}.${i & 255}`, localPort: 8077 } };
      const res = { locals: {}, setHeader: () => undefined };
      gate(req as never, res as never, (err?: unknown) => { statuses.push((err as { status?: number } | undefined)?.status ?? 200); });
    };
    // 300 wrong tokens, each from a different loopback address (one failure per address).
    for (let i = 0; i < 300; i++) send(i, { authorization: `Bearer ${'y'.repeat(43)}` });
    expect(statuses.slice(0, 200).every((x) => x === 401)).toBe(true);
    expect(statuses.slice(200).every((x) => x === 429)).toBe(true);
    // Past the budget: no credential at all is not a guess (401, so a client learns one is wanted);
    // a wrong session cookie is one (429); the right token passes.
    statuses.length = 0;
    send(301, {});
    send(302, { cookie: `zfs-advisor-session-8077=${'z'.repeat(43)}` });
    send(303, { authorization: `Bearer ${'x'.repeat(43)}` });
    expect(statuses).toEqual([401, 429, 200]);
  });
});

/**
 * The findings list is served from a cache (validated and serialised once per host state and
 * query): these tests check that every change a user can make shows up at once, that the cached
 * answer is byte-for-byte what a fresh build gives, and that ETag/304 behave as with res.json().
 * Also the parts loaded on first use (OpenAPI document, report schema, remote clients, planner).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { FindingsList, routes } from '../../server/src/api/contract.ts';
import { createReader } from '../../server/src/api/read-thread.ts';
import type { ReadRequest } from '../../server/src/api/read-views.ts';
import { packJson } from '../../server/src/store/compress.ts';
import { createLogger } from '../../server/src/api/logger.ts';
import { PreparedJson, prepareJson } from '../../server/src/api/route.ts';
import { lazy } from '../../server/src/api/lazy.ts';
import { lazyRemoteClients } from '../../server/src/api/lazy-remote.ts';
import { withCachedValues } from '../../server/src/api/cached-secrets.ts';
import { openSecretStore } from '../../server/src/store/secrets.ts';
import type { RemoteClients } from '../../server/src/remote/clients.ts';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-cache-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

async function get(s: RunningServer, path: string) {
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url));
  return { status: res.status, etag: res.headers.get('etag'), type: res.headers.get('content-type'), text: await res.text() };
}
async function send(s: RunningServer, method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url), {
    method, headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

describe('findings list served from the cache', () => {
  let s: RunningServer;
  beforeAll(async () => {
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {} });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
  });
  afterAll(async () => { await s.close(); });

  it('before any assessment: the empty list; after one: its findings, without a restart', async () => {
    const empty = await get(s, '/api/hosts/demo/findings');
    expect(empty.status).toBe(200);
    expect(JSON.parse(empty.text)).toEqual({ assessmentId: null, generatedAt: null, demo: false, findings: [], total: 0, nextCursor: null });
    const run = await send(s, 'POST', '/api/hosts/demo/assessments');
    expect(run.status).toBe(201);
    const id = (JSON.parse(run.text) as { id: number }).id;
    const list = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings')).text));
    expect(list.assessmentId).toBe(id);
    expect(list.findings.length).toBeGreaterThan(0);
  });

  it('sends JSON with a weak ETag like res.json(), and 304 for a matching If-None-Match', async () => {
    const a = await get(s, '/api/hosts/demo/findings');
    const b = await get(s, '/api/hosts/demo/findings');
    expect(a.type).toBe('application/json; charset=utf-8');
    expect(a.etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    expect(Number.parseInt(/^W\/"([0-9a-f]+)-/.exec(a.etag!)![1]!, 16)).toBe(Buffer.byteLength(a.text));
    expect(b.text).toBe(a.text);
    expect(b.etag).toBe(a.etag);
    // node:http, not fetch: fetch here answers a conditional request's 304 as 200 with the body.
    const again = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      http.get(new URL('api/hosts/demo/findings', s.url), { headers: { 'If-None-Match': a.etag! } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => { body += c.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }).on('error', reject);
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('a dismissal and its withdrawal show at once, in the full list and in the filtered ones', async () => {
    const before = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings')).text));
    const openBefore = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings?status=open')).text));
    expect(openBefore.findings.length).toBe(before.findings.length);
    const target = before.findings[0]!;
    expect((await send(s, 'PUT', `/api/hosts/demo/findings/${target.fingerprint}/ack`, { state: 'dismissed', note: 'known' })).status).toBe(200);

    const after = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings')).text));
    expect(after.findings.find((f) => f.fingerprint === target.fingerprint)?.ack).toMatchObject({ state: 'dismissed', note: 'known' });
    const openAfter = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings?status=open')).text));
    expect(openAfter.findings.map((f) => f.fingerprint)).not.toContain(target.fingerprint);
    expect(openAfter.findings.length).toBe(before.findings.length - 1);
    const dismissed = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings?status=dismissed')).text));
    expect(dismissed.findings.map((f) => f.fingerprint)).toEqual([target.fingerprint]);

    expect((await send(s, 'DELETE', `/api/hosts/demo/findings/${target.fingerprint}/ack`)).status).toBe(204);
    const restored = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings?status=open')).text));
    expect(restored.findings.length).toBe(before.findings.length);
    expect(FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings?status=dismissed')).text)).findings).toEqual([]);
  });

  it('a new assessment replaces the cached list (new id, acknowledgements carried by fingerprint)', async () => {
    const first = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings')).text));
    const target = first.findings[0]!;
    await send(s, 'PUT', `/api/hosts/demo/findings/${target.fingerprint}/ack`, { state: 'acknowledged' });
    const run = await send(s, 'POST', '/api/hosts/demo/assessments');
    const id = (JSON.parse(run.text) as { id: number }).id;
    expect(id).toBeGreaterThan(first.assessmentId!);
    const next = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings')).text));
    expect(next.assessmentId).toBe(id);
    expect(next.findings.find((f) => f.fingerprint === target.fingerprint)?.ack?.state).toBe('acknowledged');
  });

  it('filters are cached separately: a severity filter returns only that severity', async () => {
    const all = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings')).text));
    const sev = all.findings[0]!.severity;
    const only = FindingsList.parse(JSON.parse((await get(s, `/api/hosts/demo/findings?severity=${sev}`)).text));
    expect(only.findings.length).toBe(all.findings.filter((f) => f.severity === sev).length);
    expect(only.findings.every((f) => f.severity === sev)).toBe(true);
    const none = FindingsList.parse(JSON.parse((await get(s, '/api/hosts/demo/findings?pool=no-such-pool')).text));
    expect(none.findings).toEqual([]);
  });

  it('the OpenAPI document and the report schema, built on first request, are the same on the second', async () => {
    const a = await get(s, '/api/openapi.json');
    const b = await get(s, '/api/openapi.json');
    expect(a.status).toBe(200);
    expect((JSON.parse(a.text) as { openapi: string }).openapi).toBe('3.1.0');
    expect(b.text).toBe(a.text);
    const r = await get(s, '/api/report-schema.json');
    expect(r.status).toBe(200);
    expect((JSON.parse(r.text) as { $id: string }).$id).toMatch(/^urn:zfs-advisor:report:v/);
  });

  it('the planner, loaded on first use, answers', async () => {
    const res = await fetch(new URL('api/plan/layouts', s.url), {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ disks: 6, diskBytes: 16e12, media: 'hdd', workload: 'files' }),
    });
    expect(res.status).toBe(200);
    const plan = (await res.json()) as { blockSize: number; candidates: { rank: number }[] };
    expect(plan.blockSize).toBe(131072);
    expect(plan.candidates.map((c) => c.rank)).toEqual(plan.candidates.map((_, i) => i + 1));
  });
});

describe('read answers kept per stored row and query (unit)', () => {
  const prepared = (n: number) => prepareJson(routes.listFindings, { assessmentId: n, generatedAt: null, demo: false, findings: [], total: 0, nextCursor: null });
  const assessmentGz = packJson({ assessment: { generatedAt: '2026-01-01T00:00:00.000Z', ruleCatalogVersion: '1', results: [], findings: [], summary: { counts: { critical: 0, warning: 0, suggestion: 0, info: 0 }, pools: [] } }, optane: null });
  const findingsRequest = (id: number): ReadRequest => ({
    op: 'findings', ref: { assessmentId: id, generatedAt: '2026-01-01T00:00:00.000Z', demo: false }, gz: assessmentGz,
    filter: { status: 'all' }, offset: 0, limit: null, acks: [], firstSeen: [],
  });

  for (const inThread of [true, false]) {
    it(`builds once per key, again after forget(prefix); a failed build is not kept (${inThread ? 'main thread' : 'worker thread'})`, async () => {
      const logged: string[] = [];
      const reader = createReader({ logger: createLogger({ sink: (l) => { logged.push(l); } }), inThread });
      try {
        let requests = 0;
        const req = (id: number) => () => { requests++; return findingsRequest(id); };
        const a = await reader.get('h/f/1', req(1));
        expect(await reader.get('h/f/1', req(99))).toBe(a);
        expect(requests).toBe(1);
        expect(JSON.parse(a.text())).toMatchObject({ assessmentId: 1, findings: [], total: 0, nextCursor: null });
        await reader.get('other/f/1', req(1));
        expect(requests).toBe(2);
        reader.forget('h/f/');
        const again = await reader.get('h/f/1', req(1));
        expect(requests).toBe(3);
        expect(again.text()).toBe(a.text());
        expect(again.etag).toBe(a.etag);
        // A build that fails (here: an unknown pool) answers with its error and is tried again next time.
        const inv = (): ReadRequest => ({ op: 'inventory', snap: { snapshotId: 5, hostId: 'h', capturedAt: '2026-01-01T00:00:00.000Z' }, gz: packJson({}), pool: 'nope' });
        await expect(reader.get('h/i/5/nope', inv)).rejects.toThrow();
        await expect(reader.get('h/i/5/nope', inv)).rejects.toThrow();
        // The worker really ran (no fallback to this thread was needed).
        expect(logged.filter((l) => l.includes('read worker unavailable'))).toEqual([]);
      } finally {
        reader.close();
      }
    });
  }

  it('prepareJson validates against the route schema and keeps what the schema outputs', () => {
    expect(() => prepareJson(routes.listFindings, { assessmentId: 'one', generatedAt: null, demo: false, findings: [] })).toThrow(/does not match the contract/);
    const p = prepared(7);
    expect(p).toBeInstanceOf(PreparedJson);
    expect(JSON.parse(p.text())).toEqual({ assessmentId: 7, generatedAt: null, demo: false, findings: [], total: 0, nextCursor: null });
  });
});

describe('loaded on first use', () => {
  it('lazy() computes once, and retries after a failure', async () => {
    let calls = 0;
    const fail = lazy(async () => { calls++; if (calls === 1) throw new Error('first fails'); return calls; });
    await expect(fail()).rejects.toThrow('first fails');
    expect(await fail()).toBe(2);
    expect(await fail()).toBe(2);
    expect(calls).toBe(2);
  });

  it('lazyRemoteClients loads the clients on the first call only; forget/closeAll before that do nothing', async () => {
    const seen: string[] = [];
    let loads = 0;
    const fake: RemoteClients = {
      collect: async () => { seen.push('collect'); throw new Error('not reachable'); },
      test: async (h) => { seen.push(`test ${h.id}`); return { ok: true, message: 'ok', presentedFingerprint: null }; },
      forget: (id) => { seen.push(`forget ${id}`); },
      closeAll: () => { seen.push('closeAll'); },
    };
    const clients = lazyRemoteClients(async () => { loads++; return fake; });
    clients.forget('x');
    expect(loads).toBe(0);
    const host = { id: 'nas', kind: 'truenas' } as Parameters<RemoteClients['test']>[0];
    expect(await clients.test(host, { kind: 'truenas', username: 'u', apiKey: 'k' })).toMatchObject({ ok: true });
    await clients.test(host, { kind: 'truenas', username: 'u', apiKey: 'k' });
    expect(loads).toBe(1);
    clients.forget('nas');
    clients.closeAll();
    expect(seen).toEqual(['test nas', 'test nas', 'forget nas', 'closeAll']);
  });

  it('the scrubber\'s secret list is cached and refreshed when a secret changes', () => {
    const store = withCachedValues(openSecretStore(tmp()));
    expect(store.values()).toEqual([]);
    store.set('nas', { kind: 'truenas', username: 'ro', apiKey: '1-abcdefghijkl' });
    expect(store.values()).toEqual(['1-abcdefghijkl']);
    store.delete('nas');
    expect(store.values()).toEqual([]);
  });
});

/**
 * Benchmark limits are the server's: a request may tighten the wall-clock cap, the load limit and
 * the pool-latency limit, never loosen them; a missing one gets the policy's value; the body's
 * schema bounds every field. Checked on the pure policy and through the HTTP API (dry run, so
 * nothing is written).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyBenchPolicy, benchCeiling, benchPolicy, settingsAboveCeiling } from '../../server/src/api/bench-policy.ts';
import { BenchRequestBody, DEFAULT_SETTINGS } from '../../server/src/api/schemas.ts';
import { defaultMaxLoad1 } from '../../server/src/bench/run.ts';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';

const body = (over: Record<string, unknown> = {}) => BenchRequestBody.parse({ profile: 'sync-write-4k-qd1', target: { kind: 'path', dir: '/tmp' }, runtimeS: 10, ...over });
const policy = { maxRuntimeSeconds: 100, maxLoad1: 8, maxPoolWriteWaitMs: 1500 };

describe('bench policy (pure)', () => {
  it('fills missing limits from the policy', () => {
    const r = applyBenchPolicy(body(), policy);
    expect(r).toMatchObject({ ok: true, request: { maxLoad1: 8, maxPoolWriteWaitMs: 1500 } });
    expect(r.ok && r.request.wallCapS).toBeUndefined(); // the runner's default (10 × 3 + 60 s) fits
    // runtime 40 → runner default cap 40 × 3 + 60 = 180 s > 100: the policy's cap applies.
    expect(applyBenchPolicy(body({ runtimeS: 40 }), policy)).toMatchObject({ ok: true, request: { wallCapS: 100 } });
    expect(benchPolicy(DEFAULT_SETTINGS.benchmark).maxLoad1).toBe(defaultMaxLoad1());
  });

  it('lets a request tighten every limit', () => {
    expect(applyBenchPolicy(body({ wallCapS: 20, maxLoad1: 2, maxPoolWriteWaitMs: 500 }), policy)).toMatchObject({ ok: true, request: { wallCapS: 20, maxLoad1: 2, maxPoolWriteWaitMs: 500 } });
  });

  it('refuses any loosening, naming the limit and the setting', () => {
    for (const [over, what] of [[{ wallCapS: 101 }, 'wallCapS 101'], [{ maxLoad1: 8.5 }, 'maxLoad1 8.5'], [{ maxPoolWriteWaitMs: 1501 }, 'maxPoolWriteWaitMs 1501'], [{ runtimeS: 101 }, 'runtimeS 101']] as const) {
      const r = applyBenchPolicy(body(over), policy);
      expect(r.ok, what).toBe(false);
      expect(!r.ok && r.message).toMatch(new RegExp(`^${what} is above this server's limit of \\d+(\\.\\d+)? \\(settings\\.benchmark\\.\\w+\\)`));
    }
  });

  it('the body schema bounds every limit (no "infinite" value gets in)', () => {
    for (const over of [{ wallCapS: 1e9 }, { maxLoad1: 1e9 }, { maxPoolWriteWaitMs: 1e9 }, { wallCapS: Infinity }, { runtimeS: 1e6 }]) {
      expect(BenchRequestBody.safeParse({ profile: 'sync-write-4k-qd1', target: { kind: 'path', dir: '/tmp' }, ...over }).success, JSON.stringify(over)).toBe(false);
    }
  });
});

describe('bench policy through the API', () => {
  let s: RunningServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zfsa-policy-'));
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data'), demo: false, zfs: false, uiDir: null, assessOnStart: false, logSink: () => {}, benchAllow: [dir] });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
  });
  afterAll(async () => { await s.close(); rmSync(dir, { recursive: true, force: true }); });

  const call = async (method: string, path: string, b?: unknown) => {
    const res = await fetch(new URL(path.replace(/^\//, ''), s.url), { method, headers: { 'Content-Type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  it('a request cannot raise the limits above the settings; the settings themselves are bounded', async () => {
    const host = await call('POST', '/api/hosts', { kind: 'local', name: 'here' });
    expect(host.status).toBe(201);
    const id = host.json.id as string;
    expect((await call('PATCH', '/api/settings', { benchmark: { maxLoad1: 3, maxPoolWriteWaitMs: 900, maxRuntimeSeconds: 60 } })).status).toBe(200);
    const req = { profile: 'sync-write-4k-qd1', target: { kind: 'path', dir }, runtimeS: 5 };
    for (const [over, what] of [[{ maxLoad1: 4 }, 'maxLoad1 4'], [{ maxPoolWriteWaitMs: 1000 }, 'maxPoolWriteWaitMs 1000'], [{ wallCapS: 61 }, 'wallCapS 61']] as const) {
      for (const route of ['dry-run', 'runs']) {
        const r = await call('POST', `/api/hosts/${id}/bench/${route}`, { ...req, ...over });
        expect(r.status, `${route} ${what}`).toBe(400);
        expect((r.json.error as { message: string }).message).toContain(`${what} is above this server's limit`);
      }
    }
    const dry = await call('POST', `/api/hosts/${id}/bench/dry-run`, req);
    expect(dry.status).toBe(200);
    const guards = dry.json.guards as { id: string; message: string }[];
    expect(guards.find((g) => g.id === 'load')!.message).toMatch(/(at or below|above) the limit 3\b/);
    expect((await call('PATCH', '/api/settings', { benchmark: { maxLoad1: 1e9 } })).status).toBe(400);
    expect((await call('PATCH', '/api/settings', { benchmark: { maxPoolWriteWaitMs: 1e9 } })).status).toBe(400);
  });

  it('the settings cannot be loosened past the operator\'s ceiling through the API (the attack of issue 25)', async () => {
    const before = (await call('GET', '/api/settings')).json;
    const loosen = await call('PATCH', '/api/settings', { benchmark: { maxRuntimeSeconds: 3600, maxLoad1: 1000, maxPoolWriteWaitMs: 60000 } });
    expect(loosen.status).toBe(403);
    expect((loosen.json.error as { message: string }).message).toMatch(/above the operator's ceiling .*needs root, on the service's command line \(serve --bench-max-/);
    for (const one of [{ maxRuntimeSeconds: 601 }, { maxLoad1: benchCeiling().maxLoad1 + 0.5 }, { maxPoolWriteWaitMs: 2001 }]) {
      expect((await call('PATCH', '/api/settings', { benchmark: one })).status, JSON.stringify(one)).toBe(403);
    }
    expect((await call('GET', '/api/settings')).json).toEqual(before);
    // Tightening, and going back up to the ceiling, is the API's to do.
    expect((await call('PATCH', '/api/settings', { benchmark: { maxRuntimeSeconds: 30 } })).status).toBe(200);
    expect((await call('PATCH', '/api/settings', { benchmark: { maxRuntimeSeconds: 600 } })).status).toBe(200);
  });
});

describe('bench ceiling (pure)', () => {
  it('the limits in force never exceed the ceiling, even for values stored before it was lowered', () => {
    const ceiling = benchCeiling({ maxRuntimeSeconds: 60, maxLoad1: 2 });
    expect(benchPolicy({ maxRuntimeSeconds: 600, maxLoad1: 50, maxPoolWriteWaitMs: 2000 }, ceiling)).toEqual({ maxRuntimeSeconds: 60, maxLoad1: 2, maxPoolWriteWaitMs: 2000 });
    expect(settingsAboveCeiling({ benchmark: { maxLoad1: 2 } }, ceiling)).toBeNull();
    expect(settingsAboveCeiling({ benchmark: { maxLoad1: 2.1 } }, ceiling)).toMatch(/serve --bench-max-load/);
    expect(settingsAboveCeiling({ retention: { reportsPerHost: 5 } }, ceiling)).toBeNull();
  });
});

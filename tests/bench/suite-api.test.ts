/**
 * Suites through the HTTP API: the demo host's example suite (reference 000, labelled demo data),
 * a plan, a real short suite on a directory with live progress over SSE, the stored suite with its
 * comparison table, CSV/JSON export, before/after of two suites, cancel, and refusals.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { SuiteRunView } from '../../server/src/jobs/bench-suites.ts';
import { SuitePlan, SuiteView, SuiteComparison } from '../../server/src/bench/suite-types.ts';
import { fioAvailable, removeTempDirs, tmpDir } from './support.ts';

afterAll(() => removeTempDirs(), 60_000);
const live = fioAvailable();

async function call(s: RunningServer, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${s.token}` };
  if (method !== 'GET') headers['content-type'] = 'application/json';
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, text, json, type: res.headers.get('content-type') ?? '' };
}

async function server(benchAllow: string[] = []): Promise<RunningServer> {
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmpDir('zfsa-suite-api-'), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {}, benchAllow, benchCeiling: { maxLoad1: 1000 } });
  if (!r.ok) throw new Error(r.message);
  return r.server;
}

describe('benchmark suites over HTTP', () => {
  it('the demo host shows reference 000 as an example suite, labelled demo data, with its citation', async () => {
    const s = await server();
    try {
      const defs = await call(s, 'GET', '/api/bench/suites');
      expect((defs.json as { id: string }[]).map((d) => d.id)).toEqual(['slog', 'zvol-study', 'sync-vs-async', 'quick']);
      const list = SuiteView.array().parse((await call(s, 'GET', '/api/hosts/demo/bench/suites')).json);
      expect(list).toHaveLength(2);
      for (const v of list) {
        expect(v.suite.demo).toBe(true);
        expect(v.suite.citation?.url).toBe('https://austinsnerdythings.com/tag/nvme');
      }
      const before = list.find((v) => v.suite.id === 'demo-ref000-before')!;
      expect(before.pairs.sync[0]).toMatchObject({ a: { value: 'always', iops: 894 }, b: { value: 'disabled', iops: 48300 } });
      const cmp = SuiteComparison.parse((await call(s, 'GET', '/api/hosts/demo/bench/suites-compare?before=demo-ref000-before&after=demo-ref000-after')).json);
      expect(cmp.rows[0]!.iopsRatio).toBeCloseTo(43.85, 1);
      const csv = await call(s, 'GET', '/api/hosts/demo/bench/suites/demo-ref000-before/export?format=csv');
      expect(csv.type).toMatch(/^text\/csv/);
      expect(csv.text.split('\n')[1]).toMatch(/^sync-write-4k-qd16 · 4k · QD16 · buffered · sync=always · dataset,sync-write-4k-qd16,dataset,4k,16,buffered,always,plain writes,sync=always,completed,894,/);
      expect((await call(s, 'GET', '/api/hosts/demo/bench/suites/nope/export')).status).toBe(404);
      // The demo host is not this machine: no suite starts there.
      expect((await call(s, 'POST', '/api/hosts/demo/bench/suites/plan', { suite: 'quick', target: { kind: 'path', dir: '/tmp' } })).status).toBe(409);
      expect((await call(s, 'POST', '/api/hosts/demo/bench/suites', { suite: 'quick', target: { kind: 'path', dir: '/tmp' } })).status).toBe(409);
    } finally { await s.close(); }
  });

  it.runIf(live)('plans, runs with live progress, stores, compares and cancels a suite on a directory', async () => {
    const dir = tmpDir();
    const s = await server([dir]);
    try {
      expect((await call(s, 'POST', '/api/hosts', { kind: 'local', name: 'This machine' })).status).toBe(201);
      // This shared machine is busy: the operator raises the load limit (server policy; a request may only tighten it).
      expect((await call(s, 'PATCH', '/api/settings', { benchmark: { maxLoad1: 1000 } })).status).toBe(200);
      const body = { profiles: ['sync-write-4k-qd1'], matrix: { sync: ['always', 'standard'] }, target: { kind: 'path', dir }, runtimeS: 1, sizeBytes: 8 * 1024 * 1024, pauseS: 0.2, maxLoad1: 1000 };
      expect((await call(s, 'POST', '/api/hosts/this-machine/bench/suites/plan', { ...body, suite: 'nope' })).status).toBe(400);
      const plan = SuitePlan.parse((await call(s, 'POST', '/api/hosts/this-machine/bench/suites/plan', body)).json);
      expect(plan.runs).toHaveLength(2);
      const started = await call(s, 'POST', '/api/hosts/this-machine/bench/suites', body);
      expect(started.status).toBe(202);
      const job = SuiteRunView.parse(started.json);
      expect((await call(s, 'POST', '/api/hosts/this-machine/bench/suites', body)).status).toBe(409);
      expect((await call(s, 'POST', '/api/hosts/this-machine/bench/runs', { profile: 'sync-write-4k-qd1', target: { kind: 'path', dir }, maxLoad1: 1000 })).status).toBe(409);
      const res = await fetch(new URL(`api/bench/suite-jobs/${job.jobId}/events`, s.url), { headers: { authorization: `Bearer ${s.token}` } });
      const events = await res.text();
      expect(events).toMatch(/event: progress\ndata: \{"suiteId":/);
      const done = SuiteRunView.parse(JSON.parse(/event: done\ndata: (.*)\n/.exec(events)![1]!));
      expect(done.status).toBe('completed');
      expect(done.result!.table.map((r) => r.sync)).toEqual(['always', 'standard']);
      expect(done.result!.pairs.sync).toHaveLength(1);
      expect(readdirSync(dir)).toEqual([]);
      const list = SuiteView.array().parse((await call(s, 'GET', '/api/hosts/this-machine/bench/suites')).json);
      expect(list[0]!.suite.id).toBe(done.suiteId);
      const json = await call(s, 'GET', `/api/hosts/this-machine/bench/suites/${done.suiteId}/export?format=json`);
      expect(SuiteView.parse(json.json).suite.id).toBe(done.suiteId);

      // A second suite, canceled during its first run; then before/after of the two.
      const second = SuiteRunView.parse((await call(s, 'POST', '/api/hosts/this-machine/bench/suites', { ...body, runtimeS: 20 })).json);
      for (let i = 0; i < 100 && SuiteRunView.parse((await call(s, 'GET', `/api/bench/suite-jobs/${second.jobId}`)).json).progress?.step !== 'run'; i++) await new Promise((r) => setTimeout(r, 200));
      expect((await call(s, 'POST', `/api/bench/suite-jobs/${second.jobId}/cancel`)).status).toBe(200);
      let v = SuiteRunView.parse((await call(s, 'GET', `/api/bench/suite-jobs/${second.jobId}`)).json);
      for (let i = 0; i < 100 && v.status === 'running'; i++) { await new Promise((r) => setTimeout(r, 200)); v = SuiteRunView.parse((await call(s, 'GET', `/api/bench/suite-jobs/${second.jobId}`)).json); }
      expect(v.status).toBe('canceled');
      expect(readdirSync(dir)).toEqual([]);
      const cmp = SuiteComparison.parse((await call(s, 'GET', `/api/hosts/this-machine/bench/suites-compare?before=${done.suiteId}&after=${v.suiteId}`)).json);
      expect(cmp.rows.length).toBeGreaterThanOrEqual(1);
    } finally { await s.close(); }
  }, 120_000);
});

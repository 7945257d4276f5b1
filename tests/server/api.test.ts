/**
 * The API over real HTTP on 127.0.0.1, on a temporary data directory, with the real services
 * (inventory loader, rules, bench runner) on the bundled demo snapshot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { AssessmentRecord, FindingsList, HostView, RunRecord, Settings, routes } from '../../server/src/api/contract.ts';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-api-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

async function call(s: RunningServer, method: string, path: string, opts: { body?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string } = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  // A non-browser client declares JSON on every write, body or not (the gate's Origin rule).
  if (opts.body !== undefined || opts.raw !== undefined || method !== 'GET') headers['Content-Type'] ??= 'application/json';
  const token = opts.token === undefined ? s.token : opts.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url), { method, headers, body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)) });
  const text = await res.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, text, json };
}

describe('API on the demo snapshot (loopback, no token)', () => {
  let s: RunningServer;
  const logs: string[] = [];
  beforeAll(async () => {
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: (l) => logs.push(l) });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
  });
  afterAll(async () => { await s.close(); });

  it('health, info and security headers', async () => {
    const h = await call(s, 'GET', '/api/health');
    expect(h.status).toBe(200);
    expect(h.json).toMatchObject({ status: 'ok' });
    expect(h.headers.get('x-content-type-options')).toBe('nosniff');
    expect(h.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(h.headers.get('referrer-policy')).toBe('no-referrer');
    expect(h.headers.get('x-powered-by')).toBeNull();
    const info = await call(s, 'GET', '/api/info');
    expect(info.json).toMatchObject({ authRequired: false, demo: true, basePath: '/' });
    expect(s.token).toBeNull();
  });

  it('serves an OpenAPI 3.1 document listing every route of the contract', async () => {
    const doc = (await call(s, 'GET', '/api/openapi.json')).json as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId)).sort();
    expect(ops).toEqual(Object.keys(routes).sort());
  });

  it('runs an assessment of the demo host, lists findings, and keeps a dismissal until the evidence changes', async () => {
    const hosts = HostView.array().parse((await call(s, 'GET', '/api/hosts')).json);
    expect(hosts.map((h) => [h.id, h.kind])).toEqual([['demo', 'demo']]);
    const run = await call(s, 'POST', '/api/hosts/demo/assessments');
    expect(run.status).toBe(201);
    const rec = AssessmentRecord.parse(run.json);
    expect(rec.demo).toBe(true);
    expect(rec.assessment.results.length).toBeGreaterThan(0);

    const inv = await call(s, 'GET', '/api/hosts/demo/inventory');
    expect(inv.status).toBe(200);
    expect((inv.json as { inventory: { source: { demo: boolean } } }).inventory.source.demo).toBe(true);

    const list = FindingsList.parse((await call(s, 'GET', '/api/hosts/demo/findings')).json);
    expect(list.assessmentId).toBe(rec.id);
    expect(list.findings.map((f) => f.fingerprint)).toEqual(rec.assessment.findings.map((f) => f.fingerprint).sort((a, b) => {
      const fa = rec.assessment.findings.find((f) => f.fingerprint === a)!;
      const fb = rec.assessment.findings.find((f) => f.fingerprint === b)!;
      return ['critical', 'warning', 'suggestion', 'info'].indexOf(fa.severity) - ['critical', 'warning', 'suggestion', 'info'].indexOf(fb.severity);
    }));
    expect(list.findings.length).toBeGreaterThan(0);
    const target = list.findings[0]!;
    const ack = await call(s, 'PUT', `/api/hosts/demo/findings/${target.fingerprint}/ack`, { body: { state: 'dismissed', note: 'known' } });
    expect(ack.status).toBe(200);
    expect(ack.json).toMatchObject({ state: 'dismissed', note: 'known' });

    // A new assessment with the same evidence: the dismissal still holds.
    await call(s, 'POST', '/api/hosts/demo/assessments');
    const open = FindingsList.parse((await call(s, 'GET', '/api/hosts/demo/findings?status=open')).json);
    expect(open.findings.map((f) => f.fingerprint)).not.toContain(target.fingerprint);
    const dismissed = FindingsList.parse((await call(s, 'GET', '/api/hosts/demo/findings?status=dismissed')).json);
    expect(dismissed.findings.map((f) => f.fingerprint)).toEqual([target.fingerprint]);
    expect(dismissed.findings[0]!.firstSeenAt).toBe(rec.generatedAt);

    expect((await call(s, 'PUT', '/api/hosts/demo/findings/unknownfingerprint/ack', { body: { state: 'dismissed' } })).status).toBe(404);
    expect((await call(s, 'DELETE', `/api/hosts/demo/findings/${target.fingerprint}/ack`)).status).toBe(204);
    const reopened = FindingsList.parse((await call(s, 'GET', '/api/hosts/demo/findings?status=open')).json);
    expect(reopened.findings.map((f) => f.fingerprint)).toContain(target.fingerprint);

    const all = await call(s, 'GET', '/api/hosts/demo/assessments');
    expect((all.json as unknown[]).length).toBe(2);
    const one = await call(s, 'GET', `/api/assessments/${rec.id}`);
    expect(AssessmentRecord.parse(one.json).id).toBe(rec.id);
  });

  it('exposes Prometheus metrics for the assessed pools and findings', async () => {
    const m = await call(s, 'GET', '/metrics');
    expect(m.status).toBe(200);
    expect(m.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const inv = (await call(s, 'GET', '/api/hosts/demo/inventory')).json as { inventory: { pools: { name: string; sizeBytes: number | null }[] } };
    const first = inv.inventory.pools[0]!;
    expect(m.text).toContain(`zfs_advisor_pool_health{host="demo",pool="${first.name}",state="ONLINE"}`);
    if (first.sizeBytes !== null) expect(m.text).toContain(`zfs_advisor_pool_size_bytes{host="demo",pool="${first.name}"} ${first.sizeBytes}`);
    expect(m.text).toMatch(/zfs_advisor_findings\{host="demo",severity="critical"\} \d+/);
    expect(m.text).toContain('zfs_advisor_host_demo{host="demo"} 1');
  });

  it('settings: defaults, partial update, validation', async () => {
    const before = Settings.parse((await call(s, 'GET', '/api/settings')).json);
    const after = await call(s, 'PATCH', '/api/settings', { body: { retention: { snapshotsPerHost: 3 } } });
    expect(after.status).toBe(200);
    expect(Settings.parse(after.json)).toEqual({ ...before, retention: { ...before.retention, snapshotsPerHost: 3 } });
    const bad = await call(s, 'PATCH', '/api/settings', { body: { assessmentIntervalMinutes: -5 } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { code: 'bad-request' } });
    expect((bad.json as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe('body.assessmentIntervalMinutes');
  });

  it('errors are JSON without stack traces: 404, 400, 415, 413', async () => {
    const nf = await call(s, 'GET', '/api/nope');
    expect(nf.status).toBe(404);
    expect(nf.json).toMatchObject({ error: { code: 'not-found' } });
    expect((await call(s, 'GET', '/api/hosts/Not_Valid!')).status).toBe(400);
    expect((await call(s, 'GET', '/api/hosts/missing')).status).toBe(404);
    // Same origin (as the UI would send it), so the Origin rule lets it through to the body check.
    const wrongType = await call(s, 'POST', '/api/hosts', { raw: 'kind=local', headers: { 'Content-Type': 'text/plain', Origin: new URL(s.url).origin } });
    expect(wrongType.status).toBe(415);
    const big = await call(s, 'POST', '/api/hosts', { raw: JSON.stringify({ kind: 'local', name: 'x'.repeat(100_000) }) });
    expect(big.status).toBe(413);
    const broken = await call(s, 'POST', '/api/hosts', { raw: '{"kind":' });
    expect(broken.status).toBe(400);
    for (const r of [nf, wrongType, big, broken]) expect(r.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('benchmark profiles come from the bench runner; remote hosts cannot be benchmarked', async () => {
    const p = await call(s, 'GET', '/api/bench/profiles');
    expect(p.status).toBe(200);
    expect((p.json as { id: string }[]).map((x) => x.id)).toContain('sync-write-4k-qd1');
    const dry = await call(s, 'POST', '/api/hosts/demo/bench/dry-run', { body: { profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'tank' } } });
    expect(dry.status).toBe(409);
    expect((await call(s, 'GET', '/api/bench/runs/unknown-run')).status).toBe(404);
  });
});

describe('the scheduler', () => {
  it('re-assesses a host whose newest assessment is older than the interval and records new/resolved findings', async () => {
    let t = Date.now();
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {} });
    if (!r.ok) throw new Error(r.message);
    const s = r.server;
    try {
      s.handle.settings.update({ assessmentIntervalMinutes: 5 });
      const sched = (await import('../../server/src/jobs/scheduler.ts')).createScheduler({
        hosts: s.handle.hosts, history: s.handle.history, job: { isRunning: () => false, run: (h, trig) => s.handle.runAssessment(h.id, trig) },
        intervalMinutes: () => s.handle.settings.get().assessmentIntervalMinutes, logger: s.logger, now: () => t,
      });
      expect(await sched.tick()).toEqual(['demo']); // never assessed: due
      expect(await sched.tick()).toEqual([]); // just assessed
      t += 6 * 60_000;
      expect(await sched.tick()).toEqual(['demo']);
      const runs = RunRecord.array().parse((await call(s, 'GET', '/api/hosts/demo/runs')).json);
      expect(runs.map((x) => x.status)).toEqual(['ok', 'ok']);
      const first = runs[1]!;
      const latest = AssessmentRecord.parse((await call(s, 'GET', '/api/hosts/demo/assessments/latest')).json);
      // First run: everything is new; second run on the same snapshot: nothing new, nothing resolved.
      expect(first.newFingerprints.sort()).toEqual([...new Set(latest.assessment.findings.map((f) => f.fingerprint))].sort());
      expect(runs[0]!.newFingerprints).toEqual([]);
      expect(runs[0]!.resolvedFingerprints).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('auth when bound off loopback', () => {
  let s: RunningServer;
  let dataDir: string;
  const logs: string[] = [];
  const API_KEY = '3-SuperSecretTrueNasKeyNeverShown';
  const PVE_SECRET = '0badc0de-1111-4222-8333-944455556666';
  beforeAll(async () => {
    dataDir = join(tmp(), 'data');
    const announced: string[] = [];
    const r = await startServer({ host: '0.0.0.0', port: 0, dataDir, demo: true, uiDir: null, assessOnStart: false, logSink: (l) => logs.push(l), announce: (l) => announced.push(l) });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.tokenCreated).toBe(true);
    expect(announced.filter((l) => l.includes(s.token!))).toHaveLength(1);
    expect(statSync(join(dataDir, 'api-token')).mode & 0o777).toBe(0o600);
  });
  afterAll(async () => { await s.close(); });

  it('401 everywhere without the token except health; 200 with it', async () => {
    expect((await call(s, 'GET', '/api/health', { token: null })).status).toBe(200);
    for (const p of ['/api/hosts', '/api/settings', '/metrics', '/api/openapi.json', '/api/no-such-route']) {
      const r = await call(s, 'GET', p, { token: null });
      expect(r.status, p).toBe(401);
      expect(r.json).toMatchObject({ error: { code: 'unauthorized' } });
    }
    // The UI shell carries no data and must load without the token, so the page can ask for it.
    expect((await call(s, 'GET', '/', { token: null })).status).not.toBe(401);
    expect((await call(s, 'GET', '/api/hosts', { token: 'wrong-token-of-some-length-xxxxxxxxxxxxxxxxxx' })).status).toBe(401);
    expect((await call(s, 'GET', '/api/hosts')).status).toBe(200);
    expect((await call(s, 'GET', '/metrics')).status).toBe(200);
  });

  it('a restart reuses the token and does not print it again', async () => {
    const announced: string[] = [];
    const other = join(tmp(), 'other');
    const r = await startServer({ host: '0.0.0.0', port: 0, dataDir: other, demo: true, uiDir: null, assessOnStart: false, logSink: () => {}, announce: (l) => announced.push(l) });
    if (!r.ok) throw new Error(r.message);
    const token = r.server.token;
    await r.server.close();
    const again = await startServer({ host: '0.0.0.0', port: 0, dataDir: other, demo: true, uiDir: null, assessOnStart: false, logSink: () => {}, announce: (l) => announced.push(l) });
    if (!again.ok) throw new Error(again.message);
    expect(again.server.token).toBe(token);
    expect(again.server.tokenCreated).toBe(false);
    expect(announced.filter((l) => l.includes(token!))).toHaveLength(1);
    await again.server.close();
  });

  it('walks every endpoint of the OpenAPI document: no stored secret in any body or log line', async () => {
    const nas = await call(s, 'POST', '/api/hosts', { body: { kind: 'truenas', name: 'My NAS', address: '127.0.0.1', port: 1, username: 'advisor', apiKey: API_KEY, pinnedFingerprint: 'AA'.repeat(32) } });
    expect(nas.status).toBe(201);
    expect(nas.json).toMatchObject({ id: 'my-nas', kind: 'truenas', hasSecret: true, pinnedFingerprint: `${'AA:'.repeat(31)}AA` });
    const pve = await call(s, 'POST', '/api/hosts', { body: { kind: 'proxmox', name: 'pve', address: '127.0.0.1', port: 1, node: 'pve1', tokenId: 'advisor@pve!zfs', tokenSecret: PVE_SECRET } });
    expect(pve.status).toBe(201);
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    await call(s, 'POST', '/api/hosts/demo/assessments');

    const doc = (await call(s, 'GET', '/api/openapi.json')).json as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    const fingerprint = FindingsList.parse((await call(s, 'GET', '/api/hosts/demo/findings')).json).findings[0]?.fingerprint ?? 'none';
    const values: Record<string, string> = { hostId: 'my-nas', assessmentId: '1', fingerprint, runId: 'none', format: 'json' };
    const bodies: string[] = [];
    let walked = 0;
    const statuses: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'delete') continue; // walked last, below
        const concrete = path.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? 'x');
        const query = (op.parameters ?? []).some((p) => p.in === 'query' && p.name === 'pool') ? '?pool=tank&profile=sync-write-4k-qd1' : '';
        const body = method === 'post' || method === 'put' || method === 'patch' ? {} : undefined;
        for (const hostId of ['my-nas', 'pve', 'demo']) {
          const r = await call(s, method.toUpperCase(), concrete.replace('my-nas', hostId) + query, { body });
          expect(r.status, `${method} ${concrete}`).toBeLessThan(600);
          expect(r.status, `${method} ${concrete}`).not.toBe(401);
          bodies.push(r.text);
          statuses.push(`${r.status} ${method} ${concrete.replace('my-nas', hostId)}`);
          walked++;
        }
      }
    }
    expect(walked).toBeGreaterThan(40);
    if (process.env.ZFSA_SHOW_WALK) console.log(statuses.join('\n'));
    // Nothing in the walk may be an internal error (a 500 means a handler broke the contract).
    expect(statuses.filter((x) => x.startsWith('500'))).toEqual([]);
    // A failing connection test and a failing assessment of the remote hosts (port 1 refuses).
    const t = await call(s, 'POST', '/api/hosts/my-nas/test');
    expect(t.json).toMatchObject({ ok: false });
    bodies.push(t.text, (await call(s, 'POST', '/api/hosts/pve/assessments')).text);
    bodies.push((await call(s, 'PATCH', '/api/hosts/my-nas', { body: { apiKey: `${API_KEY}-2` } })).text);
    bodies.push((await call(s, 'DELETE', '/api/hosts/pve')).text);
    const everything = [...bodies, ...logs].join('\n');
    for (const secret of [API_KEY, PVE_SECRET, s.token!]) expect(everything).not.toContain(secret);
    expect(logs.some((l) => l.includes('"path":"/api/hosts/my-nas/test"'))).toBe(true);
  });

  it('rate-limits failed authentication', async () => {
    let last = 0;
    for (let i = 0; i < 25; i++) last = (await call(s, 'GET', '/api/hosts', { token: `bad-${i}-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx` })).status;
    expect(last).toBe(429);
  });
});

describe('UI under a base path', () => {
  it('injects the base path into index.html and serves the API under it', async () => {
    const ui = join(tmp(), 'dist');
    mkdirSync(join(ui, 'assets'), { recursive: true });
    writeFileSync(join(ui, 'index.html'), '<!doctype html><html><head><title>t</title></head><body><script type="module" src="./assets/app.js"></script></body></html>');
    writeFileSync(join(ui, 'assets', 'app.js'), 'console.log(1)');
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: ui, basePath: '/zfs-advisor/', assessOnStart: false, logSink: () => {} });
    if (!r.ok) throw new Error(r.message);
    const s = r.server;
    try {
      expect(s.url).toMatch(/\/zfs-advisor\/$/);
      const page = await call(s, 'GET', '');
      expect(page.status).toBe(200);
      expect(page.text).toContain('<base href="/zfs-advisor/"><meta name="zfs-advisor-base" content="/zfs-advisor/">');
      expect((await call(s, 'GET', 'assets/app.js')).text).toBe('console.log(1)');
      // A client-side view loads the shell (bookmarks, reloads); any other path is 404.
      expect((await call(s, 'GET', 'benchmarks')).text).toContain('<base href="/zfs-advisor/">');
      expect((await call(s, 'GET', 'some/client/route')).status).toBe(404);
      expect((await call(s, 'GET', 'api/health')).status).toBe(200);
      expect((await call(s, 'GET', 'api/missing')).status).toBe(404);
      const outside = await fetch(new URL('/api/health', s.url));
      expect(outside.status).toBe(404);
    } finally {
      await s.close();
    }
  });
});

describe('benchmarks through the API with live progress (SSE)', () => {
  const fio = existsSync('/usr/bin/fio') || existsSync('/usr/local/bin/fio');
  if (!fio && process.env.CI === 'true') throw new Error('fio is required under CI=true');
  it.runIf(fio)('starts a short fio run on a directory, streams progress to 100 %, then shows it in history', async () => {
    const dir = tmp();
    // Path benchmarks through the API only into the operator's places (serve --bench-allow).
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {}, benchAllow: [dir], benchCeiling: { maxLoad1: 1000 } });
    if (!r.ok) throw new Error(r.message);
    const s = r.server;
    try {
      const local = await call(s, 'POST', '/api/hosts', { body: { kind: 'local', name: 'This machine' } });
      expect(local.status).toBe(201);
      // The shared test machine is busy: the operator raises the load limit (server policy; a
      // request may only tighten it — tests/security/bench-policy.test.ts).
      expect((await call(s, 'PATCH', '/api/settings', { body: { benchmark: { maxLoad1: 1000 } } })).status).toBe(200);
      const req = { profile: 'sync-write-4k-qd1', target: { kind: 'path', dir }, sizeBytes: 16 * 1024 * 1024, runtimeS: 2,
        // The shared test machine is busy; the load guard has its own tests in tests/bench.
        maxLoad1: 1000 };
      const dry = await call(s, 'POST', '/api/hosts/this-machine/bench/dry-run', { body: req });
      expect(dry.status).toBe(200);
      expect((dry.json as { guards: { id: string; ok: boolean }[] }).guards.length).toBeGreaterThan(0);
      const started = await call(s, 'POST', '/api/hosts/this-machine/bench/runs', { body: req });
      expect(started.status).toBe(202);
      const runId = (started.json as { runId: string }).runId;
      const second = await call(s, 'POST', '/api/hosts/this-machine/bench/runs', { body: req });
      expect(second.status).toBe(409);

      const res = await fetch(new URL(`api/bench/runs/${runId}/events`, s.url));
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const text = await res.text(); // the stream ends after the `done` event
      const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map((m) => ({ event: m[1]!, data: JSON.parse(m[2]!) as { pct?: number; status?: string } }));
      const done = events.at(-1)!;
      expect(done.event).toBe('done');
      expect(done.data.status).toBe('completed');
      const progress = events.filter((e) => e.event === 'progress');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)!.data.pct).toBe(100);
      const view = await call(s, 'GET', `/api/bench/runs/${runId}`);
      expect(view.json).toMatchObject({ status: 'completed', summary: { profile: 'sync-write-4k-qd1', status: 'completed' } });
      const hist = await call(s, 'GET', '/api/hosts/this-machine/bench/history');
      expect((hist.json as { profile: string }[]).map((h) => h.profile)).toContain('sync-write-4k-qd1');
    } finally {
      await s.close();
    }
  });
});

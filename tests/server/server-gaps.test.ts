/**
 * The audit gaps of issue 5, over real HTTP on 127.0.0.1 with temporary data directories:
 * reports carry this machine's benchmarks only for its local host, and are kept (listed,
 * downloadable, pruned by retention); a valid token is never refused by the auth-failure limiter;
 * container mode (a local host without ZFS, benchmarks confined to one directory, no demo);
 * what `serve` announces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { loadServices, type Services } from '../../server/src/api/services.ts';
import { AppInfo, HostView, InventoryRecord, StoredReportView } from '../../server/src/api/contract.ts';
import { announceLines } from '../../server/src/api/announce.ts';
import { containerOptionsFromEnv } from '../../server/src/cli/commands/serve.ts';
import { openStore } from '../../server/src/store/db.ts';
import { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { ReportDocument } from '../../server/src/report/document.ts';
import { runStreaming } from '../../server/src/exec/runner.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'server');
const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-gaps-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

async function call(base: string, method: string, path: string, opts: { body?: unknown; token?: string | null } = {}) {
  const headers: Record<string, string> = {};
  // A non-browser client declares JSON on every write, body or not (the gate's Origin rule).
  if (opts.body !== undefined || method !== 'GET') headers['Content-Type'] = 'application/json';
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  const res = await fetch(new URL(path.replace(/^\//, ''), base), { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, headers: res.headers, bytes, text, json };
}

const fio = existsSync('/usr/bin/fio') || existsSync('/usr/local/bin/fio');
if (!fio && process.env.CI === 'true') throw new Error('fio is required under CI=true');

// The two recorded runs (fixture-fsync1 and fixture-nosync) stand for this machine's history.
const RECORDED = (JSON.parse(readFileSync(join(FIXTURES, 'bench-history.json'), 'utf8')) as { summary: unknown }[]).map((r) => BenchmarkSummary.parse(r.summary));

/** The real services, with the benchmark history replaced by the recorded runs. */
async function servicesWithRecordedHistory(): Promise<Services> {
  const side = await openStore(join(tmp(), 'services'));
  if (!side.ok) throw new Error(side.error.message);
  const real = await loadServices({ db: side.store.db });
  if (!real.bench) throw new Error('the bench service is missing');
  return { ...real, bench: { ...real.bench, history: () => RECORDED } };
}

describe('reports: benchmarks only in the local host\'s report; every report is kept', () => {
  let s: RunningServer;
  beforeAll(async () => {
    // Container mode gives a local host (no ZFS needed); the demo host is added beside it.
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), zfs: false, benchDir: tmp(), uiDir: null, assessOnStart: false, logSink: () => {}, services: await servicesWithRecordedHistory() });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
    expect((await call(s.url, 'POST', '/api/hosts', { body: { kind: 'demo', name: 'Demo' } })).status).toBe(201);
    for (const id of ['local', 'demo']) expect((await call(s.url, 'POST', `/api/hosts/${id}/assessments`)).status).toBe(201);
  });
  afterAll(async () => { await s.close(); });

  it('the demo host\'s report has no benchmarks; the local host\'s has this machine\'s runs', async () => {
    const demo = await call(s.url, 'POST', '/api/reports/json?host=demo');
    expect(demo.status).toBe(200);
    expect(ReportDocument.parse(demo.json).benchmarks).toEqual([]);
    const local = await call(s.url, 'POST', '/api/reports/json?host=local');
    expect(local.status).toBe(200);
    expect(ReportDocument.parse(local.json).benchmarks.map((b) => b.summary.id).sort()).toEqual(['fixture-fsync1', 'fixture-nosync']);
    // Same for the benchmark history: the demo host has none.
    expect((await call(s.url, 'GET', '/api/hosts/demo/bench/history')).json).toEqual([]);
    expect(((await call(s.url, 'GET', '/api/hosts/local/bench/history')).json as { id: string }[]).map((r) => r.id)).toEqual(['fixture-fsync1', 'fixture-nosync']);
    // /metrics already filtered this way: the recorded pool shows under the local host only.
    const m = await call(s.url, 'GET', '/metrics');
    expect(m.text).toMatch(/host="local"[^\n]*pool="fiopool"|pool="fiopool"[^\n]*host="local"/);
    expect(m.text).not.toMatch(/host="demo"[^\n]*pool="fiopool"|pool="fiopool"[^\n]*host="demo"/);
  });

  it('keeps each generated report: listed with size and SHA-256, downloadable byte for byte, per host', async () => {
    const before = StoredReportView.array().parse((await call(s.url, 'GET', '/api/hosts/demo/reports')).json);
    const md = await call(s.url, 'POST', '/api/reports/md?host=demo&redact=true');
    expect(md.status).toBe(200);
    const id = Number(md.headers.get('x-report-id'));
    const list = StoredReportView.array().parse((await call(s.url, 'GET', '/api/hosts/demo/reports')).json);
    expect(list).toHaveLength(before.length + 1);
    const kept = list[0]!;
    expect(kept).toMatchObject({ id, hostId: 'demo', format: 'md', redacted: true, contentType: md.headers.get('content-type'), sizeBytes: md.bytes.length });
    expect(kept.sha256).toBe(createHash('sha256').update(md.bytes).digest('hex'));
    expect(md.headers.get('content-disposition')).toBe(`attachment; filename="${kept.fileName}"`);

    const again = await call(s.url, 'GET', `/api/hosts/demo/reports/${id}`);
    expect(again.status).toBe(200);
    expect(again.bytes.equals(md.bytes)).toBe(true);
    expect(again.headers.get('content-type')).toBe(md.headers.get('content-type'));
    // A report belongs to its host: not reachable under another one.
    expect((await call(s.url, 'GET', `/api/hosts/local/reports/${id}`)).status).toBe(404);
    expect(StoredReportView.array().parse((await call(s.url, 'GET', '/api/hosts/local/reports')).json).every((r) => r.hostId === 'local')).toBe(true);
  });

  it('prunes kept reports to retention.reportsPerHost', async () => {
    const set = await call(s.url, 'PATCH', '/api/settings', { body: { retention: { reportsPerHost: 2 } } });
    expect(set.status).toBe(200);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(Number((await call(s.url, 'POST', '/api/reports/json?host=demo')).headers.get('x-report-id')));
    const list = StoredReportView.array().parse((await call(s.url, 'GET', '/api/hosts/demo/reports')).json);
    expect(list.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect((await call(s.url, 'GET', `/api/hosts/demo/reports/${ids[0]}`)).status).toBe(404);
  });
});

describe('auth failures behind one address (a reverse proxy)', () => {
  it('a client sending bad tokens gets 429, but the valid token is still accepted from the same address', async () => {
    const announced: string[] = [];
    const r = await startServer({ host: '0.0.0.0', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {}, announce: (l) => announced.push(l) });
    if (!r.ok) throw new Error(r.message);
    const s = r.server;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) statuses.push((await call(s.url, 'GET', '/api/hosts', { token: `bad-${i}-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx` })).status);
      // 20 failures a minute are answered 401, the rest 429.
      expect(statuses.slice(0, 20).every((x) => x === 401)).toBe(true);
      expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
      const ok = await call(s.url, 'GET', '/api/hosts', { token: s.token });
      expect(ok.status).toBe(200);
      expect(HostView.array().parse(ok.json).map((h) => h.id)).toEqual(['demo']);
      // Valid requests are not counted and do not lift the block for the others.
      for (let i = 0; i < 5; i++) expect((await call(s.url, 'GET', '/api/settings', { token: s.token })).status).toBe(200);
      expect((await call(s.url, 'GET', '/api/hosts', { token: 'bad-again-xxxxxxxxxxxxxxxxxxxxxxxxxxxx' })).status).toBe(429);
      // No credential at all is not a guess: always a 401, so a client learns that one is wanted (issue 35).
      expect((await call(s.url, 'GET', '/api/hosts', { token: null })).status).toBe(401);

      // The announcement names the bound address and says the token is required.
      expect(announced[0]).toMatch(new RegExp(`^ZFS Advisor is running at http://127\\.0\\.0\\.1:${s.port}/ \\(listening on all interfaces, 0\\.0\\.0\\.0 port ${s.port}; `));
      expect(announced.some((l) => l.startsWith('A credential is required on every request except /api/health'))).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('container mode (a benchmark directory, no ZFS in the container)', () => {
  let s: RunningServer;
  let benchDir: string;
  let outside: string;
  beforeAll(async () => {
    benchDir = tmp();
    outside = tmp();
    mkdirSync(join(benchDir, 'sub'));
    symlinkSync(outside, join(benchDir, 'escape'));
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), zfs: false, benchDir, uiDir: null, assessOnStart: false, logSink: () => {} });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
  });
  afterAll(async () => { await s.close(); });

  it('has a local host (no demo host) whose inventory says there is no zpool here', async () => {
    const info = AppInfo.parse((await call(s.url, 'GET', '/api/info')).json);
    expect(info.demo).toBe(false);
    expect(info.benchDir).toBe(realpathSync(benchDir));
    const hosts = HostView.array().parse((await call(s.url, 'GET', '/api/hosts')).json);
    expect(hosts.map((h) => [h.id, h.kind])).toEqual([['local', 'local']]);
    expect((await call(s.url, 'POST', '/api/hosts/local/assessments')).status).toBe(201);
    const inv = InventoryRecord.parse((await call(s.url, 'GET', '/api/hosts/local/inventory')).json).inventory;
    expect(inv.source).toMatchObject({ kind: 'local', demo: false });
    expect(inv.pools).toEqual([]);
    const pools = inv.gaps.find((g) => g.artifact === 'Pools')!;
    expect(pools.severity).toBe('error');
    expect(pools.message).toMatch(/^no zpool in this container/);
  });

  it('refuses dataset and device targets and any directory outside the benchmark directory', async () => {
    const dry = (target: unknown) => call(s.url, 'POST', '/api/hosts/local/bench/dry-run', { body: { profile: 'seq-write-1m', target, sizeBytes: 8 * 1024 * 1024, runtimeS: 1 } });
    const dataset = await dry({ kind: 'dataset', pool: 'tank' });
    expect(dataset.status).toBe(400);
    expect((dataset.json as { error: { message: string } }).error.message).toContain('dataset targets are refused');
    const device = await dry({ kind: 'device', device: '/dev/sda', confirmSerial: 'X' });
    expect(device.status).toBe(400);
    // Outside, through a symlink, or missing: one refusal that says nothing about what is there.
    const refusals = new Set<string>();
    for (const dir of [outside, join(benchDir, '..'), join(benchDir, 'escape'), 'escape', '/', join(benchDir, 'nope')]) {
      const r = await dry({ kind: 'path', dir });
      expect(r.status, dir).toBe(403);
      const m = (r.json as { error: { message: string } }).error.message;
      expect(m, dir).toContain(`path benchmarks write only into existing directories inside ${realpathSync(benchDir)}, reached without symlinks`);
      refusals.add(m.replace(`"${dir}"`, 'X'));
    }
    expect([...refusals]).toHaveLength(1);
    // Inside (absolute, relative, the directory itself): the dry run answers with its guards.
    for (const dir of [benchDir, join(benchDir, 'sub'), 'sub']) expect((await dry({ kind: 'path', dir })).status, dir).toBe(200);
    // A refused start never reaches the runner.
    const start = await call(s.url, 'POST', '/api/hosts/local/bench/runs', { body: { profile: 'seq-write-1m', target: { kind: 'path', dir: outside }, sizeBytes: 8 * 1024 * 1024, runtimeS: 1 } });
    expect(start.status).toBe(403);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('container mode from the environment (zfs-advisor serve with ZFS_ADVISOR_BENCH_DIR)', () => {
  it('reads ZFS_ADVISOR_BENCH_DIR and ZFS_ADVISOR_NO_DEMO', () => {
    expect(containerOptionsFromEnv({})).toEqual({ benchDir: null, noDemo: false });
    expect(containerOptionsFromEnv({ ZFS_ADVISOR_BENCH_DIR: '/bench', ZFS_ADVISOR_NO_DEMO: '1' })).toEqual({ benchDir: '/bench', noDemo: true });
    expect(containerOptionsFromEnv({ ZFS_ADVISOR_BENCH_DIR: ' ', ZFS_ADVISOR_NO_DEMO: '0' })).toEqual({ benchDir: null, noDemo: false });
  });

  it.runIf(fio)('runs a short seq-write-1m path benchmark inside the directory through the API, and refuses one outside', async () => {
    const benchDir = tmp();
    const outside = tmp();
    const controller = new AbortController();
    let pid: number | null = null;
    let out = '';
    let resolveUrl: (u: string) => void = () => {};
    const urlSeen = new Promise<string>((resolve) => { resolveUrl = resolve; });
    // --open-loopback: this case is about container mode; loopback sign-in has its own tests (tests/security/loopback-login.test.ts).
    const proc = runStreaming('node', ['server/bin/zfs-advisor.js', 'serve', '--port', '0', '--data-dir', join(tmp(), 'data'), '--bench-max-load', '1000', '--open-loopback'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, ZFS_ADVISOR_BENCH_DIR: benchDir, ZFS_ADVISOR_NO_DEMO: '1' },
      signal: controller.signal,
      timeoutMs: 120_000,
      onSpawn: (p) => { pid = p; },
      onStdoutLine: (l) => {
        out += `${l}\n`;
        const m = /running at (http:\S+) \(listening on 127\.0\.0\.1 and \[::1\] port \d+\)/.exec(l);
        if (m) resolveUrl(m[1]!);
      },
      onStderrLine: (l) => { out += `${l}\n`; },
    });
    const timer = setTimeout(() => resolveUrl(''), 60_000);
    const base = await urlSeen;
    clearTimeout(timer);
    try {
      expect(base, out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const info = AppInfo.parse((await call(base, 'GET', '/api/info')).json);
      expect(info.benchDir).toBe(realpathSync(benchDir));
      expect(info.demo).toBe(false);
      const hosts = HostView.array().parse((await call(base, 'GET', '/api/hosts')).json);
      expect(hosts.map((h) => h.kind)).toEqual(['local']);
      const id = hosts[0]!.id;

      // The load limit is server policy (settings); a request may only tighten it.
      expect((await call(base, 'PATCH', '/api/settings', { body: { benchmark: { maxLoad1: 1000 } } })).status).toBe(200);
      const req = (dir: string) => ({ profile: 'seq-write-1m', target: { kind: 'path', dir }, sizeBytes: 8 * 1024 * 1024, runtimeS: 1,
        // The shared test machine is busy; the load guard has its own tests in tests/bench.
        maxLoad1: 1000 });
      const refused = await call(base, 'POST', `/api/hosts/${id}/bench/runs`, { body: req(outside) });
      expect(refused.status).toBe(403);
      const started = await call(base, 'POST', `/api/hosts/${id}/bench/runs`, { body: req(benchDir) });
      expect(started.status, started.text).toBe(202);
      const runId = (started.json as { runId: string }).runId;
      const events = await (await fetch(new URL(`api/bench/runs/${runId}/events`, base))).text(); // ends after `done`
      expect(events).toContain('event: done');
      const view = await call(base, 'GET', `/api/bench/runs/${runId}`);
      expect(view.json, view.text).toMatchObject({ status: 'completed', summary: { profile: 'seq-write-1m', status: 'completed', target: expect.stringContaining(realpathSync(benchDir)) } });
      expect((view.json as { summary: { writeBytesPerSec: number } }).summary.writeBytesPerSec).toBeGreaterThan(0);
      // The runner removed its work directory; nothing was written outside.
      expect(readdirSync(benchDir)).toEqual([]);
      expect(readdirSync(outside)).toEqual([]);
      expect(out).toContain('WARNING --open-loopback: no credential is asked for; EVERY local account on this machine can use this server');
    } finally {
      if (pid !== null) { try { process.kill(pid, 'SIGTERM'); } catch { /* already gone */ } }
      const killer = setTimeout(() => controller.abort(), 10_000);
      await proc.catch(() => undefined);
      clearTimeout(killer);
    }
  }, 120_000);
});

describe('--no-demo', () => {
  it('without ZFS and without a benchmark directory adds no host at all (and says so)', async () => {
    const announced: string[] = [];
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), zfs: false, noDemo: true, uiDir: null, assessOnStart: false, logSink: () => {}, announce: (l) => announced.push(l) });
    if (!r.ok) throw new Error(r.message);
    try {
      expect((await call(r.server.url, 'GET', '/api/hosts')).json).toEqual([]);
      expect(AppInfo.parse((await call(r.server.url, 'GET', '/api/info')).json).demo).toBe(false);
      expect(announced).toContain('This machine has no usable ZFS and the demo is off: add a TrueNAS or Proxmox VE host to see pools.');
    } finally {
      await r.server.close();
    }
  });

  it('a missing benchmark directory stops the start with one sentence', async () => {
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), zfs: false, benchDir: join(tmp(), 'absent'), uiDir: null, assessOnStart: false, logSink: () => {} });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^the benchmark directory \/.*absent cannot be used: ENOENT$/);
  });
});

describe('what serve announces', () => {
  const ifaces = {
    lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4' as const, mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
    eth0: [
      { address: '192.168.1.10', netmask: '255.255.255.0', family: 'IPv4' as const, mac: '02:42:ac:11:00:02', internal: false, cidr: '192.168.1.10/24' },
      { address: 'fe80::42:acff:fe11:2', netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6' as const, mac: '02:42:ac:11:00:02', internal: false, cidr: 'fe80::42:acff:fe11:2/64', scopeid: 2 },
    ],
  };
  const base = { port: 8077, basePath: '/', interfaces: ifaces, tokenFile: null, newToken: null, demo: false, benchDir: null, localZfs: true };

  it('0.0.0.0: all interfaces, a reachable URL, the token required and printed once', () => {
    const lines = announceLines({ ...base, host: '0.0.0.0', basePath: '/zfs', tokenFile: '/data/api-token', newToken: 'T0ken', loginUrl: 'http://127.0.0.1:8077/zfs/login?code=C' });
    expect(lines[0]).toBe('ZFS Advisor is running at http://127.0.0.1:8077/zfs/ (listening on all interfaces, 0.0.0.0 port 8077; from other machines: http://192.168.1.10:8077/zfs/)');
    expect(lines[1]).toBe('Sign in from a browser with this one-time link: http://127.0.0.1:8077/zfs/login?code=C');
    expect(lines[2]).toBe('A credential is required on every request except /api/health: the session the link above sets, or the API token (Authorization: Bearer …; the web UI asks for it). The token is stored 0600 in /data/api-token.');
    expect(lines[3]).toBe('API token (shown once): T0ken');
    expect(lines.join('\n')).not.toContain('fe80');
  });

  it('a specific address is printed as bound; loopback needs no token; container mode is said', () => {
    expect(announceLines({ ...base, host: '192.168.1.10', tokenFile: '/d/api-token' })[0]).toBe('ZFS Advisor is running at http://192.168.1.10:8077/ (listening on 192.168.1.10 port 8077)');
    const loop = announceLines({ ...base, host: '127.0.0.1', benchDir: '/bench', localZfs: false });
    expect(loop).toEqual([
      'ZFS Advisor is running at http://127.0.0.1:8077/ (listening on 127.0.0.1 port 8077)',
      'Bound to loopback: only this machine can connect, and no token is needed.',
      'Container mode: no zpool here; the local host runs benchmarks only in /bench (path targets).',
    ]);
  });
});

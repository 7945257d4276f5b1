/**
 * The server against a live zfs-fuse pool (harness tests/support/zfs-fuse.ts), over real HTTP:
 * the `local` host's inventory shows the pool, an assessment has findings for it, a short
 * benchmark on it streams progress to 100 %, and a workload observation of it completes with a
 * fingerprint. The pool is a single file vdev, so `no-redundancy` must fire for it.
 * Under CI=true a missing zfs-fuse or fio fails (zfsFuseAvailable/fioAvailable throw).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { AssessmentRecord, BenchRunView, InventoryRecord, ObservationRecord, SizesRecord } from '../../server/src/api/contract.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';
import { fioAvailable } from '../bench/support.ts';
import { evidenceArtifacts } from '../../server/src/jobs/evidence-artifacts.ts';

const live = zfsFuseAvailable() && fioAvailable();
const POOL = 'hsrv_single';
let zf: ZfsFuseHandle;
let s: RunningServer;
let dataDir: string;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url), { method, headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text };
}

async function events(path: string): Promise<[string, unknown][]> {
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url));
  const text = await res.text();
  return text.split('\n\n').filter((b) => b.startsWith('event: ')).map((b) => {
    const [ev, data] = b.split('\n');
    return [ev!.slice('event: '.length), JSON.parse(data!.slice('data: '.length)) as unknown];
  });
}

beforeAll(async () => {
  if (!live) return;
  zf = await startZfsFuse();
  await zf.createPool(POOL, [await zf.fileVdev('hsrv-a', '256M')]);
  dataDir = mkdtempSync(join(tmpdir(), 'zfsa-live-server-'));
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir, demo: false, uiDir: null, assessOnStart: false, logSink: () => {}, benchCeiling: { maxLoad1: 1000 } });
  if (!r.ok) throw new Error(r.message);
  s = r.server;
}, 600_000);
afterAll(async () => {
  await s?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await zf?.stop();
}, 120_000);

describe('server on a live zfs-fuse pool', () => {
  it.runIf(live)('inventory of the local host shows the pool; the assessment has findings for it', async () => {
    const hosts = (await call('GET', '/api/hosts')).json as { id: string; kind: string }[];
    expect(hosts.map((h) => [h.id, h.kind])).toEqual([['local', 'local']]);
    const run = await call('POST', '/api/hosts/local/assessments');
    expect(run.status, run.text).toBe(201);
    const rec = AssessmentRecord.parse(run.json);
    expect(rec.demo).toBe(false);
    const inv = InventoryRecord.parse((await call('GET', '/api/hosts/local/inventory')).json);
    const pool = inv.inventory.pools.find((p) => p.name === POOL);
    expect(pool?.state).toBe('ONLINE');
    expect(pool?.vdevs.filter((v) => v.class === 'data').map((v) => v.type)).toEqual(['file']);
    const mine = rec.assessment.findings.filter((f) => f.subject.pool === POOL);
    expect(mine.map((f) => f.ruleId)).toContain('no-redundancy');
  }, 120_000);

  it.runIf(live)('a short benchmark on the pool streams progress to 100 % and lands in the history', async () => {
    // The load limit is server policy (settings); a request may only tighten it.
    expect((await call('PATCH', '/api/settings', { benchmark: { maxLoad1: 1000 } })).status).toBe(200);
    const start = await call('POST', '/api/hosts/local/bench/runs', { profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: POOL }, sizeBytes: 8 * 1024 * 1024, runtimeS: 1, maxLoad1: 1000 });
    expect(start.status, start.text).toBe(202);
    const run = BenchRunView.parse(start.json);
    const stream = await events(`/api/bench/runs/${run.runId}/events`);
    const progress = stream.filter(([e]) => e === 'progress').map(([, d]) => (d as { pct: number }).pct);
    expect(progress.length).toBeGreaterThan(0);
    expect(Math.max(...progress)).toBe(100);
    const done = BenchRunView.parse(stream.at(-1)![1]);
    expect(done.status, done.message ?? '').toBe('completed');
    expect(done.summary?.pool).toBe(POOL);
    const history = (await call('GET', '/api/hosts/local/bench/history')).json as { id: string }[];
    expect(history.map((h) => h.id)).toContain(done.summary!.id);
  }, 180_000);

  it.runIf(live)('an observation of the pool completes with a fingerprint that the next assessment receives', async () => {
    const start = await call('POST', '/api/hosts/local/observations', { durationS: 2, intervalS: 1, pools: [POOL] });
    expect(start.status, start.text).toBe(202);
    const id = ObservationRecord.parse(start.json).id;
    const stream = await events(`/api/observations/${id}/events`);
    expect(stream.filter(([e]) => e === 'progress').map(([, d]) => (d as { pct: number }).pct)).toContain(100);
    const done = ObservationRecord.parse(stream.at(-1)![1]);
    expect(done.status, done.message ?? '').toBe('completed');
    // zfs-fuse has no ZIL kstat and only `zpool iostat -v INTERVAL`: the fingerprint says so.
    expect(done.fingerprint!.zil).toBeNull();
    expect(done.fingerprint!.pools.map((p) => p.pool)).toEqual([POOL]);
    expect(done.summary[0]).toMatch(/^Observed 2 s \(live counters\)\./);
    expect(done.commands.every((c) => c.command.startsWith('zpool '))).toBe(true);

    // What the next assessment passes as the Workload artifact is this fingerprint.
    const h = s.handle;
    const extra = evidenceArtifacts(h.hosts.get('local')!, { evidence: h.evidence, bench: null, demo: false, observation: () => h.settings.get().observation });
    expect(extra.Workload).toEqual(done.fingerprint);
  }, 120_000);

  it.runIf(live)('a size walk of the pool\'s mountpoint names its dataset', async () => {
    const start = await call('POST', '/api/hosts/local/sizes', { dataset: POOL });
    expect(start.status, start.text).toBe(202);
    const id = SizesRecord.parse(start.json).id;
    const done = SizesRecord.parse((await events(`/api/sizes/${id}/events`)).at(-1)![1]);
    expect(done.status, done.message ?? '').toBe('completed');
    expect(done).toMatchObject({ dataset: POOL, pool: POOL, recordsize: 131072, path: join(zf.dir, 'mnt', POOL) });
    expect(done.histogram!.dataset).toBe(POOL);
  }, 120_000);
});

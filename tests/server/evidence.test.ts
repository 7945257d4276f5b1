/**
 * The measured evidence through the HTTP API: workload observations (stored fingerprints that the
 * next assessment uses), size measurements, and the planner. The server runs on a temporary store
 * with the real services; the `local` host's inventory is the captured 000 snapshot
 * (server/demo/000-hdd-mirror-optane: bench-pool, a 2×HDD mirror without log, OpenZFS 2.1.6).
 *
 * Observations replay RECORDED counter pairs instead of reading this machine's counters: the start
 * reading is the real OpenZFS 2.3 ZIL kstat (tests/fixtures/observe/zil-openzfs23-real-no-slog.txt),
 * the end reading is DERIVED from it by adding what a known workload does in 10 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppHandle } from '../../server/src/api/app.ts';
import { createLogger } from '../../server/src/api/logger.ts';
import { loadServices, type Services } from '../../server/src/api/services.ts';
import { AddVdevPlanView, AssessmentRecord, LayoutPlanView, ObservationRecord, Settings, SizesFromTableView, SizesRecord } from '../../server/src/api/contract.ts';
import { openStore, type Store } from '../../server/src/store/db.ts';
import { openSecretStore } from '../../server/src/store/secrets.ts';
import { createEvidenceRepo, INTERRUPTED_MESSAGE } from '../../server/src/store/evidence-repo.ts';
import { evidenceArtifacts } from '../../server/src/jobs/evidence-artifacts.ts';
import { buildFingerprint } from '../../server/src/observe/fingerprint.ts';
import { snapshotFromTexts } from '../../server/src/observe/snapshot.ts';
import type { ObserveOptions, ObserveResult } from '../../server/src/observe/collect.ts';
import { planLayouts } from '../../server/src/planner/layouts.ts';
import type { HostRow } from '../../server/src/store/hosts-repo.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';

const ROOT = join(import.meta.dirname, '../..');
const SNAPSHOT_000 = join(ROOT, 'server/demo/000-hdd-mirror-optane');
const ZIL = readFileSync(join(import.meta.dirname, '../fixtures/observe/zil-openzfs23-real-no-slog.txt'), 'utf8');

/** Adds increments to named rows of a kstat text (exact, BigInt): the derived end reading. */
function bump(kstat: string, inc: Record<string, number>): string {
  return kstat.split('\n').map((line) => {
    const m = /^(\S+)(\s+\d+\s+)(\d+)$/.exec(line);
    if (!m || !(m[1]! in inc)) return line;
    return `${m[1]}${m[2]}${(BigInt(m[3]!) + BigInt(inc[m[1]!]!)).toString()}`;
  }).join('\n');
}

/** A recorded 10 s window ending at `endAt`: the real kstat, then the same with `inc` added. */
function recorded(inc: Record<string, number>, endAt: Date): ObserveResult {
  const start = snapshotFromTexts({ takenAt: new Date(endAt.getTime() - 10_000).toISOString(), monotonicMs: 0, zil: ZIL });
  const end = snapshotFromTexts({ takenAt: endAt.toISOString(), monotonicMs: 10_000, zil: bump(ZIL, inc) });
  return { fingerprint: buildFingerprint({ start, end, source: 'recorded' }), series: [], commands: [{ command: 'recorded counter pair (test)', exitCode: 0, ms: 0 }] };
}
/** fio --fsync=1 style: 2500 commits of 4 KiB copied into the log in 10 s → 250 commits/s. */
const SYNC_HEAVY = { zil_commit_count: 2500, zil_itx_count: 2500, zil_itx_copied_count: 2500, zil_itx_copied_bytes: 2500 * 4096 };

const dirs: string[] = [];
const tmp = (p: string) => { const d = mkdtempSync(join(tmpdir(), p)); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** What the next observation replays; it waits ~1.2 s (or until canceled) like a short window. */
let nextWindow: () => ObserveResult = () => recorded(SYNC_HEAVY, new Date());
const replay = async (opts: ObserveOptions): Promise<ObserveResult> => {
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, 1200);
    opts.signal?.addEventListener('abort', () => { clearTimeout(t); reject(opts.signal!.reason as Error); }, { once: true });
  });
  return nextWindow();
};

let store: Store;
let handle: AppHandle;
let server: Server;
let base: string;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, { method, headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text };
}

/** Reads an SSE stream to its end: the list of [event, data]. */
async function events(path: string): Promise<[string, unknown][]> {
  const res = await fetch(`${base}${path}`);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const text = await res.text();
  return text.split('\n\n').filter((b) => b.startsWith('event: ')).map((b) => {
    const [ev, data] = b.split('\n');
    return [ev!.slice('event: '.length), JSON.parse(data!.slice('data: '.length)) as unknown];
  });
}

beforeAll(async () => {
  const opened = await openStore(join(tmp('zfsa-evidence-'), 'data'));
  if (!opened.ok) throw new Error(opened.error.message);
  store = opened.store;
  const real = await loadServices({ db: store.db });
  // On this thread: the assessment worker collects this machine itself (its own load options), so
  // with it the inventory would be whatever the machine's ZFS says at that moment, not the snapshot
  // (a planner test once found 0 pools while the zfs-fuse tests ran beside it).
  const services: Services = { ...real, inThread: null, loadInventory: () => real.loadInventory!({ snapshot: SNAPSHOT_000 }) };
  handle = createApp({
    store, secrets: openSecretStore(join(store.dataDir)), services, logger: createLogger({ sink: () => {}, secrets: () => [] }),
    // Size walks from the API are confined (api/sizes-confinement.ts): the operator allows the temporary directory.
    config: { basePath: '/', token: null, uiDir: null, demo: false, sizesAllow: [realpathSync(tmpdir())] }, observe: replay,
  });
  handle.ensureDefaultHosts();
  server = createServer(handle.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  handle.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  store.close();
});

async function observeToEnd(body: unknown): Promise<{ record: ObservationRecord; stream: [string, unknown][] }> {
  const start = await call('POST', '/api/hosts/local/observations', body);
  expect(start.status, start.text).toBe(202);
  const running = ObservationRecord.parse(start.json);
  expect(running.status).toBe('running');
  const stream = await events(`/api/observations/${running.id}/events`);
  const last = stream.at(-1)!;
  expect(last[0]).toBe('done');
  return { record: ObservationRecord.parse(last[1]), stream };
}

const slogBenefit = (rec: AssessmentRecord) => {
  const r = rec.assessment.results.find((x) => x.ruleId === 'slog-benefit')!;
  // A rule's result names its findings by fingerprint; the findings are in assessment.findings.
  return { ...r, findings: r.fingerprints.map((fp) => rec.assessment.findings.find((f) => f.fingerprint === fp)!) };
};

describe('workload observations', () => {
  it('a sync-heavy window is stored with its summary, and the next assessment decides slog-benefit from it', async () => {
    nextWindow = () => recorded(SYNC_HEAVY, new Date());
    const { record, stream } = await observeToEnd({ durationS: 1, intervalS: 1 });
    expect(stream.filter(([e]) => e === 'progress').length).toBeGreaterThan(0);
    expect(record.status).toBe('completed');
    expect(record.progress).toBeNull();
    expect(record.fingerprint!.zil).toMatchObject({ commitsPerSec: 250, itxBytesPerSec: 250 * 4096, copiedBytesPerSec: 250 * 4096 });
    expect(record.fingerprint!.source).toBe('recorded');
    expect(record.summary.join('\n')).toContain('ZIL: 250 commits/s, 1000 KiB/s of logged data');
    expect(record.commands).toEqual([{ command: 'recorded counter pair (test)', exitCode: 0, ms: 0 }]);

    const list = ObservationRecord.array().parse((await call('GET', '/api/hosts/local/observations')).json);
    expect(list.map((r) => r.id)).toEqual([record.id]);
    expect(ObservationRecord.parse((await call('GET', `/api/observations/${record.id}`)).json)).toEqual(record);

    const a = AssessmentRecord.parse((await call('POST', '/api/hosts/local/assessments')).json);
    const r = slogBenefit(a);
    expect(r.status).toBe('fired');
    const f = r.findings[0]!;
    expect(f.subject.pool).toBe('bench-pool');
    expect(f.evidence).toContainEqual({ label: 'sync-write evidence', value: 'observed', unit: null });
    expect(f.evidence).toContainEqual({ label: 'ZIL commits', value: 250, unit: '/s' });
    // Sync writes observed, "now" still a model estimate (no probe, no latency in the window):
    // medium, the same rule as the Optane verdict (server/src/forecast/confidence.ts).
    expect(f.confidence).toBe('medium');
  });

  it('an async-only window (no commits) makes slog-benefit stand down', async () => {
    nextWindow = () => recorded({ zil_itx_count: 0 }, new Date());
    const { record } = await observeToEnd({ durationS: 1, intervalS: 1 });
    expect(record.fingerprint!.zil!.commitsPerSec).toBe(0);
    const a = AssessmentRecord.parse((await call('POST', '/api/hosts/local/assessments')).json);
    expect(slogBenefit(a).findings).toEqual([]);
  });

  it('a fingerprint older than settings.observation.maxAgeDays is not used', async () => {
    nextWindow = () => recorded(SYNC_HEAVY, new Date(Date.now() - 10 * 24 * 3600_000));
    const { record } = await observeToEnd({ durationS: 1, intervalS: 1 });
    expect(record.status).toBe('completed');
    const host = handle.hosts.get('local')!;
    const src = { evidence: handle.evidence, bench: null, demo: false, observation: () => handle.settings.get().observation };
    expect(handle.settings.get().observation.maxAgeDays).toBe(7);
    expect(evidenceArtifacts(host, src).Workload).toBeUndefined();
    const patched = await call('PATCH', '/api/settings', { observation: { maxAgeDays: 30 } });
    expect(Settings.parse(patched.json).observation).toEqual({ scheduleIntervalMinutes: 0, durationSeconds: 600, intervalSeconds: 10, maxAgeDays: 30 });
    expect(evidenceArtifacts(host, src).Workload?.zil?.commitsPerSec).toBe(250);
    await call('PATCH', '/api/settings', { observation: { maxAgeDays: 7 } });
  });

  it('one at a time per host; cancel stores no fingerprint; bad requests and other hosts are refused', async () => {
    const first = ObservationRecord.parse((await call('POST', '/api/hosts/local/observations', { durationS: 60, intervalS: 10 })).json);
    const second = await call('POST', '/api/hosts/local/observations', { durationS: 60 });
    expect(second.status).toBe(409);
    const canceled = await call('POST', `/api/observations/${first.id}/cancel`);
    expect(canceled.status).toBe(200);
    const stream = await events(`/api/observations/${first.id}/events`);
    const done = ObservationRecord.parse(stream.at(-1)![1]);
    expect(done).toMatchObject({ status: 'canceled', fingerprint: null, message: 'canceled by the user' });
    expect((await call('POST', '/api/hosts/local/observations', { durationS: 5, intervalS: 10 })).status).toBe(400);
    expect((await call('POST', '/api/hosts/local/observations', { durationS: 5, extra: 1 })).status).toBe(400);
    expect((await call('GET', '/api/observations/999999')).status).toBe(404);
    const demo = await call('POST', '/api/hosts', { kind: 'demo', name: 'demo box' });
    expect((await call('POST', `/api/hosts/${(demo.json as { id: string }).id}/observations`, {})).status).toBe(409);
  });

  it('the schedule starts an observation on local hosts only when its interval is set, and not again within it', () => {
    const hosts = handle.hosts.list();
    const off = handle.observeJob.scheduledTick(hosts, handle.settings.get().observation, { demo: false });
    expect(off).toEqual([]);
    const on = { ...handle.settings.get().observation, scheduleIntervalMinutes: 60 * 24 * 365 * 10 };
    // The newest observation (the canceled one above) started within the interval: nothing to do.
    expect(handle.observeJob.scheduledTick(hosts, on, { demo: false })).toEqual([]);
    const short = { ...on, scheduleIntervalMinutes: 0.0001 as number, durationSeconds: 5, intervalSeconds: 5 };
    expect(handle.observeJob.scheduledTick(hosts, short, { demo: true })).toEqual([]);
    const started = handle.observeJob.scheduledTick(hosts, short, { demo: false });
    expect(started).toHaveLength(1);
    const rec = handle.observeJob.view(started[0]!)!;
    expect(rec).toMatchObject({ hostId: 'local', trigger: 'scheduled', durationS: 5, intervalS: 5, status: 'running' });
    return handle.observeJob.settled(started[0]!);
  });
});

describe('size measurements', () => {
  it('walks a directory in the background, streams progress, stores the histogram for the assessment', async () => {
    const dir = tmp('zfsa-sizes-');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'a'), Buffer.alloc(100));
    writeFileSync(join(dir, 'sub', 'b'), Buffer.alloc(5000));
    writeFileSync(join(dir, 'sub', 'c'), Buffer.alloc(200_000));
    const start = await call('POST', '/api/hosts/local/sizes', { path: dir, recordsize: 131072, ashift: 12 });
    expect(start.status, start.text).toBe(202);
    const rec = SizesRecord.parse(start.json);
    const stream = await events(`/api/sizes/${rec.id}/events`);
    const done = SizesRecord.parse(stream.at(-1)![1]);
    expect(done.status).toBe('completed');
    const h = done.histogram!;
    expect(h).toMatchObject({ target: dir, method: 'walk', recordsize: 131072, ashift: 12, files: 3, totalBytes: 205_100 });
    // Files: 100 B → ≤512, 5000 B → ≤8K, 200000 B → ≤256K.
    expect(h.fileBins.filter((b) => b.count > 0).map((b) => [b.upperBytes, b.count, b.bytes])).toEqual([[512, 1, 100], [8192, 1, 5000], [262144, 1, 200_000]]);
    // Blocks: 100 B → one 4K sector; 5000 B → one 8K block (two 4K sectors); 200000 B → two 128K records.
    expect(h.blockBins.filter((b) => b.count > 0).map((b) => [b.upperBytes, b.count, b.bytes])).toEqual([[4096, 1, 4096], [8192, 1, 8192], [131072, 2, 262144]]);
    expect(done.stats).toMatchObject({ files: 3, dirs: 2 });

    const list = SizesRecord.array().parse((await call('GET', '/api/hosts/local/sizes')).json);
    expect(list[0]!.id).toBe(rec.id);
    const extra = evidenceArtifacts(handle.hosts.get('local')!, { evidence: handle.evidence, bench: null, demo: false, observation: () => handle.settings.get().observation });
    expect(extra.SizeHistograms).toEqual([h]);

    // Low priority: the same walk in a child process under nice/ionice gives the same bins.
    const low = SizesRecord.parse((await call('POST', '/api/hosts/local/sizes', { path: dir, recordsize: 131072, ashift: 12, lowPriority: true })).json);
    const lowDone = SizesRecord.parse((await events(`/api/sizes/${low.id}/events`)).at(-1)![1]);
    expect(lowDone.status, lowDone.message ?? '').toBe('completed');
    expect(lowDone.lowPriority).toBe(true);
    expect(lowDone.histogram!.blockBins).toEqual(h.blockBins);
    expect(lowDone.histogram!.fileBins).toEqual(h.fileBins);
    expect(lowDone.histogram!.notes.join('\n')).toMatch(/separate process at nice 19/);
  }, 60_000);

  it('refuses what it cannot walk', async () => {
    expect((await call('POST', '/api/hosts/local/sizes', {})).status).toBe(400);
    // Outside the walkable places: one refusal, whether or not the path exists (no existence oracle).
    expect((await call('POST', '/api/hosts/local/sizes', { path: '/nonexistent/zfsa' })).status).toBe(403);
    expect((await call('POST', '/api/hosts/local/sizes', { path: '/tmp/../etc' })).status).toBe(400);
    expect((await call('POST', '/api/hosts/local/sizes', { path: '/tmp', recordsize: 3000 })).status).toBe(400);
    expect((await call('GET', '/api/sizes/424242')).status).toBe(404);
  });
});

describe('evidence artifacts', () => {
  it('benchmarks go only to a local host that is not showing the demo; running jobs are failed after a restart', () => {
    const summary: BenchmarkSummary = { id: 'r1', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/x', startedAt: '2026-01-01T00:00:00Z', status: 'completed', syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 900, readBytesPerSec: 0, writeBytesPerSec: 900 * 4096, writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [] };
    const bench = { history: () => [summary] };
    const local = handle.hosts.get('local')!;
    const remote: HostRow = { ...local, id: 'nas', kind: 'truenas' };
    const src = { evidence: handle.evidence, bench, observation: () => handle.settings.get().observation };
    expect(evidenceArtifacts(local, { ...src, demo: false }).Benchmarks).toEqual([summary]);
    expect(evidenceArtifacts(local, { ...src, demo: true }).Benchmarks).toBeUndefined();
    expect(evidenceArtifacts(remote, { ...src, demo: false }).Benchmarks).toBeUndefined();

    const repo = createEvidenceRepo(store.db);
    const id = repo.addObservation({ hostId: 'local', trigger: 'manual', startedAt: new Date().toISOString(), durationS: 5, intervalS: 5, pools: ['bench-pool'] });
    expect(repo.interruptRunning(new Date().toISOString())).toBe(1);
    expect(repo.getObservation(id)).toMatchObject({ status: 'failed', message: INTERRUPTED_MESSAGE, pools: ['bench-pool'] });
  });
});

describe('size table projection (the Sizing page\'s pasted table)', () => {
  it('POST /api/sizes/from-histogram projects 000\'s find|awk table; junk, extra fields and oversize are refused', async () => {
    const text = readFileSync(join(import.meta.dirname, '../fixtures/sizing/000-find-awk-media-and-data.txt'), 'utf8');
    const r = await call('POST', '/api/sizes/from-histogram', { text, recordsize: 131072 });
    expect(r.status, r.text).toBe(200);
    const view = SizesFromTableView.parse(r.json);
    expect(view.source).toEqual({ format: 'find-awk', skippedLines: [] });
    expect(view.histogram).toMatchObject({ method: 'table', files: 458395, target: 'pasted table' });
    const at16k = view.histogram.candidates.find((c) => c.specialSmallBlocks === 16384)!;
    expect(Math.abs(at16k.totalBytes / (11.9 * 2 ** 30) - 1)).toBeLessThan(0.15);
    const junk = await call('POST', '/api/sizes/from-histogram', { text: 'not a table' });
    expect(junk.status).toBe(400);
    expect(junk.text).toMatch(/no \\"size count\\" rows found|no "size count" rows found/);
    expect((await call('POST', '/api/sizes/from-histogram', { text, path: '/etc' })).status).toBe(400);
    expect((await call('POST', '/api/sizes/from-histogram', { text, recordsize: 3000 })).status).toBe(400);
    expect((await call('POST', '/api/sizes/from-histogram', { text: 'x'.repeat(70_000) })).status).toBe(413);
  });
});

describe('planner', () => {
  it('POST /api/plan/layouts returns the planner\'s ranking', async () => {
    const body = { disks: 6, diskBytes: 16e12, media: 'hdd', workload: 'files' };
    const r = await call('POST', '/api/plan/layouts', body);
    expect(r.status, r.text).toBe(200);
    const plan = LayoutPlanView.parse(r.json);
    expect(plan).toEqual(JSON.parse(JSON.stringify(planLayouts(body as Parameters<typeof planLayouts>[0]))));
    expect(plan.blockSize).toBe(131072);
    expect(plan.candidates.map((c) => c.rank)).toEqual(plan.candidates.map((_, i) => i + 1));
    expect(plan.candidates.filter((c) => c.recommended)).toHaveLength(1);
    expect((await call('POST', '/api/plan/layouts', { disks: 0, diskBytes: 1 })).status).toBe(400);
  });

  it('POST /api/hosts/local/plan/add-vdev plans a mirrored SLOG for bench-pool from the newest inventory', async () => {
    const r = await call('POST', '/api/hosts/local/plan/add-vdev', { kind: 'slog', devices: ['/dev/disk/by-id/nvme-A', '/dev/disk/by-id/nvme-B'] });
    expect(r.status, r.text).toBe(200);
    const plan = AddVdevPlanView.parse(r.json);
    expect(plan.pool).toBe('bench-pool');
    expect(plan.steps.map((s) => [s.display, s.reversible])).toEqual([
      ['zpool add -n -o ashift=12 bench-pool log mirror /dev/disk/by-id/nvme-A /dev/disk/by-id/nvme-B', 'yes'],
      ['zpool add -o ashift=12 bench-pool log mirror /dev/disk/by-id/nvme-A /dev/disk/by-id/nvme-B', 'yes'],
    ]);
    expect(plan.redundancy).toMatchObject({ dataTolerance: 1, newTolerance: 1, matched: true });
    expect(plan.preview).toContain('\tlogs\n\t  mirror-1   ONLINE       0     0     0\n\t    nvme-A   ONLINE       0     0     0\n\t    nvme-B   ONLINE       0     0     0\n');
    expect((await call('POST', '/api/hosts/local/plan/add-vdev', { kind: 'slog', pool: 'nope', devices: ['/dev/sdz'] })).status).toBe(404);
    expect((await call('POST', '/api/hosts/local/plan/add-vdev', { kind: 'slog', devices: ['-f'] })).status).toBe(400);
    // A device already in a pool is a conflict, named in the message; too few devices for a special vdev is refused.
    const inUse = await call('POST', '/api/hosts/local/plan/add-vdev', { kind: 'slog', devices: ['da1'] });
    expect(inUse.status, inUse.text).toBe(409);
    expect(inUse.text).toContain('bench-pool');
    const single = await call('POST', '/api/hosts/local/plan/add-vdev', { kind: 'special', devices: ['/dev/nvd1'] });
    expect(single.status, single.text).toBe(400);
    expect(single.text).toMatch(/needs 2 devices/);
  });
});

/**
 * Closing the loop over HTTP (issue 34 §2): GET /api/hosts/:hostId/optane/outcome and the one-click
 * re-probe POST …/optane/outcome/probe. Behind the token like every route; refused while no log or
 * special vdev appeared; once the next inventory shows one, the re-probe repeats the stored
 * "before" run's request through the guarded benchmark, and the pair is stored when it completes.
 *
 * The host is the captured 000 snapshot (a mirror of hard disks and an unused Optane) with the
 * capture time of each assessment; the second inventory has the Optane as a log vdev. The
 * benchmark runner is replaced by one that records the request and answers with a stored run
 * (the real runner on a pool is in the zfs-fuse tests); everything else is the real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppHandle } from '../../server/src/api/app.ts';
import { createLogger } from '../../server/src/api/logger.ts';
import { loadServices, type Services } from '../../server/src/api/services.ts';
import { openStore, type Store } from '../../server/src/store/db.ts';
import { openSecretStore } from '../../server/src/store/secrets.ts';
import { createOutcomesRepo } from '../../server/src/store/outcomes-repo.ts';
import type { BenchRequest } from '../../server/src/model/jobs.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import type { LoopView } from '../../server/src/optane/outcome.ts';
import { inClass, leaf } from '../support/builders.ts';
import { probeRun } from './outcome-fixtures.ts';

const ROOT = join(import.meta.dirname, '../..');
const SNAPSHOT_000 = join(ROOT, 'server/demo/000-hdd-mirror-optane');
const TOKEN = 'loop-outcome-test-token-0123456789abcdef';

let dir: string;
let store: Store;
let handle: AppHandle;
let server: Server;
let base: string;
let withLog = false;
const runs: BenchmarkSummary[] = [];
const started: BenchRequest[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zfsa-loop-api-'));
  const opened = await openStore(join(dir, 'data'));
  if (!opened.ok) throw new Error(opened.error.message);
  store = opened.store;
  const real = await loadServices({ db: store.db });
  const services: Services = {
    ...real,
    inThread: null,
    loadInventory: async () => {
      const l = await real.loadInventory!({ snapshot: SNAPSHOT_000 });
      const optane = l.inventory.drives.find((d) => d.optane !== null || /SSDPEK1A/.test(d.model ?? ''))!;
      const pools = l.inventory.pools.map((p) => (withLog ? { ...p, vdevs: [...p.vdevs, inClass('log', leaf(optane.devPath ?? 'nvd0', { driveId: optane.id }))] } : p));
      return { ...l, inventory: { ...l.inventory, pools, source: { ...l.inventory.source, capturedAt: new Date().toISOString() } } };
    },
    bench: {
      ...real.bench!,
      history: (f) => runs.filter((r) => (!f.pool || r.pool === f.pool) && (!f.profile || r.profile === f.profile)),
      dryRun: async (request) => ({ profile: real.bench!.listProfiles().find((p) => p.id === request.profile)!, syncMode: 'property', commands: [], guards: [{ id: 'pool', ok: true, message: 'ok' }], wouldRun: true, notes: [] }),
      start: async (request) => {
        started.push(request);
        const summary = probeRun('after-1', new Date().toISOString(), 729, { pool: 'bench-pool', topologyFingerprint: 'fp-log' });
        runs.push(summary);
        return { summary, status: 'completed', message: null };
      },
    },
  };
  handle = createApp({
    store, secrets: openSecretStore(store.dataDir), services, logger: createLogger({ sink: () => {}, secrets: () => [] }),
    config: { basePath: '/', token: TOKEN, uiDir: null, demo: false, benchCeiling: { maxLoad1: 1000 }, benchStartsPerMinute: 60 },
  });
  handle.ensureDefaultHosts();
  server = createServer(handle.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  handle.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, token: string | null = TOKEN) {
  const headers: Record<string, string> = { ...(method !== 'GET' ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  const res = await fetch(`${base}${path}`, { method, headers, body: method !== 'GET' ? '{}' : undefined });
  const text = await res.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text };
}
const assess = async () => { const a = await call('POST', '/api/hosts/local/assessments'); expect(a.status, a.text).toBe(201); };
const OUTCOME = '/api/hosts/local/optane/outcome';
const PROBE = '/api/hosts/local/optane/outcome/probe';

describe('closing the loop over HTTP', () => {
  it('both routes are behind the token: none, a wrong one, another spelling', async () => {
    for (const [m, p] of [['GET', OUTCOME], ['POST', PROBE], ['GET', '/api/hosts/local/optane/outcome/'], ['GET', '/API/hosts/local/optane/outcome']] as const) {
      expect((await call(m, p, null)).status, `${m} ${p}`).toBe(401);
      expect((await call(m, p, 'wrong-token-0123456789abcdef0123456789')).status, `${m} ${p}`).toBe(401);
    }
    expect((await call('GET', '/api/hosts/nobody/optane/outcome')).status).toBe(404);
  });

  it('no inventory yet, then no change: nothing offered and the re-probe is refused with the way forward', async () => {
    expect(((await call('GET', OUTCOME)).json as LoopView).loop.state).toBe('no-change');
    runs.push(probeRun('before-1', new Date(Date.now() - 60_000).toISOString(), 88, { pool: 'bench-pool', topologyFingerprint: 'fp-plain', fileBytes: 32 * 2 ** 20, fioRuntimeSeconds: 7 }));
    await assess();
    const v = (await call('GET', OUTCOME)).json as LoopView;
    expect(v).toEqual({ loop: { state: 'no-change', sentence: expect.stringMatching(/^No log or special vdev was added/) }, rows: null, stored: false, pairs: [] });
    const p = await call('POST', PROBE);
    expect(p.status).toBe(400);
    expect(p.text).toMatch(/nothing to re-measure.*assess the host again/i);
    expect(started).toEqual([]);
  });

  it('a log vdev in the next inventory: the same probe as before is offered, and one click measures and stores the pair', async () => {
    withLog = true;
    await assess();
    const offered = (await call('GET', OUTCOME)).json as LoopView;
    expect(offered.loop.state).toBe('probe-offered');
    if (offered.loop.state !== 'probe-offered') return;
    expect(offered.loop.change.added).toHaveLength(1);
    expect(offered.loop.change.added[0]!.class).toBe('log');
    expect(offered.loop.before?.runId).toBe('before-1');
    expect(offered.loop.forecast?.with.low).toBeGreaterThan(0);
    expect(offered.loop.reprobe).toEqual({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'bench-pool' }, sizeBytes: 32 * 2 ** 20, runtimeS: 7, sync: 'always' });

    const p = await call('POST', PROBE);
    expect(p.status, p.text).toBe(202);
    const runId = (p.json as { runId: string }).runId;
    let status = 'running';
    for (let i = 0; i < 200 && status === 'running'; i++) {
      status = ((await call('GET', `/api/bench/runs/${runId}`)).json as { status: string }).status;
      if (status === 'running') await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe('completed');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'bench-pool' }, sizeBytes: 32 * 2 ** 20, runtimeS: 7, sync: 'always' });

    // Stored when the run completed, before anyone asked again.
    const stored = createOutcomesRepo(store.db).list('local');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.outcome).toMatchObject({ pool: 'bench-pool', before: { runId: 'before-1', iops: 88 }, after: { runId: 'after-1', iops: 729 } });
    expect(stored[0]!.outcome.sentence).toMatch(/^bench-pool: forecast ~[\d,]+ \([\d,]+–[\d,]+\) sync IOPS at QD1 with [^,]+, measured 729, .* \(before: 88, 8\.3× measured vs [\d.,]+× forecast\), after adding log /);

    const v = (await call('GET', OUTCOME)).json as LoopView;
    expect(v.loop.state).toBe('measured');
    expect(v.stored).toBe(true);
    expect(v.pairs.map((x) => x.outcome.after.runId)).toEqual(['after-1']);
    expect(v.rows?.find((r) => r.what === 'QD1 4 KiB sync IOPS after')?.measured).toMatch(/^729 \(run after-1, /);
  });

  it('a probe run outside the page (the CLI) shows at once, read-only, and the next assessment stores it', async () => {
    runs.push(probeRun('after-cli', new Date().toISOString(), 700, { pool: 'bench-pool', topologyFingerprint: 'fp-log' }));
    const seen = (await call('GET', OUTCOME)).json as LoopView;
    expect(seen.loop.state === 'measured' && seen.loop.outcome.after.runId).toBe('after-cli');
    expect(seen.stored).toBe(false);
    expect(createOutcomesRepo(store.db).list('local').map((p) => p.outcome.after.runId)).toEqual(['after-1']); // the GET wrote nothing
    await assess();
    const v = (await call('GET', OUTCOME)).json as LoopView;
    expect(v.stored).toBe(true);
    expect(v.pairs.map((p) => p.outcome.after.runId)).toEqual(['after-cli', 'after-1']);
  });
});

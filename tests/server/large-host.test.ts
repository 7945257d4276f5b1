/**
 * A large host through the real server (issue 21): a synthetic capture of 4 pools × 12 disks and
 * 1,200 datasets served with `--snapshot`. Paging returns every dataset and every finding exactly
 * once, in order, also when a new assessment lands between pages; pages agree with the whole
 * lists; cursors from elsewhere are refused with a clear error; `?pool=` narrows the inventory.
 * The assessment itself ran in the worker thread and the answers were built by the read worker
 * (no fallback to the main thread was logged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { DatasetsPage, FindingsList, InventoryRecord } from '../../server/src/api/schemas.ts';
import { writeLargeSnapshot } from '../../scripts/gen-large-snapshot.ts';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-large-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** A write as the UI sends it (JSON content type: no cross-site form can). */
const assessNow = (s: RunningServer) => fetch(new URL('api/hosts/local/assessments', s.url), { method: 'POST', headers: { 'Content-Type': 'application/json' } });

async function get(s: RunningServer, path: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url));
  return { status: res.status, json: await res.json() };
}

describe('a large host through the server: pages, pools, worker threads', () => {
  let s: RunningServer;
  const log: string[] = [];
  beforeAll(async () => {
    const snap = join(tmp(), 'snap');
    writeLargeSnapshot(snap, { pools: 4, disksPerPool: 12, datasets: 1200, zvolShare: 0.2 });
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), snapshot: snap, uiDir: null, assessOnStart: false, logSink: (l) => { log.push(l); } });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
    const run = await assessNow(s);
    expect(run.status).toBe(201);
  }, 120_000);
  afterAll(async () => { await s?.close(); });

  it('the local host shows the snapshot, and benchmarks are off (they would measure this machine)', async () => {
    const info = (await get(s, '/api/info')).json as { features: { bench: boolean } };
    expect(info.features.bench).toBe(false);
    const bench = await fetch(new URL('api/bench/profiles', s.url));
    expect([404, 503]).toContain(bench.status);
  });

  it('pages of datasets return every dataset exactly once, in inventory order', async () => {
    const whole = InventoryRecord.parse((await get(s, '/api/hosts/local/inventory')).json);
    expect(whole.inventory.datasets.length).toBeGreaterThanOrEqual(1200);
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: DatasetsPage = DatasetsPage.parse((await get(s, `/api/hosts/local/datasets?limit=137${cursor ? `&cursor=${cursor}` : ''}`)).json);
      expect(page.total).toBe(whole.inventory.datasets.length);
      expect(page.datasets.length).toBeLessThanOrEqual(137);
      names.push(...page.datasets.map((d) => d.name));
      cursor = page.nextCursor;
      pages++;
      // A new assessment (and snapshot) in the middle: the pages still come from the first one.
      if (pages === 3) expect((await assessNow(s)).status).toBe(201);
    } while (cursor !== null);
    expect(pages).toBe(Math.ceil(whole.inventory.datasets.length / 137));
    expect(names).toEqual(whole.inventory.datasets.map((d) => d.name));
    expect(new Set(names).size).toBe(names.length);
  });

  it('?pool= narrows the inventory and the dataset pages to that pool; an unknown pool is 404', async () => {
    const one = InventoryRecord.parse((await get(s, '/api/hosts/local/inventory?pool=tank01')).json);
    expect(one.inventory.pools.map((p) => p.name)).toEqual(['tank01']);
    expect(one.inventory.datasets.length).toBeGreaterThan(0);
    expect(one.inventory.datasets.every((d) => d.pool === 'tank01')).toBe(true);
    const page = DatasetsPage.parse((await get(s, '/api/hosts/local/datasets?pool=tank01&limit=1000')).json);
    expect(page.datasets.map((d) => d.name)).toEqual(one.inventory.datasets.map((d) => d.name));
    const missing = await get(s, '/api/hosts/local/inventory?pool=nosuch');
    expect(missing.status).toBe(404);
    expect((missing.json as { error: { message: string } }).error.message).toBe('pool "nosuch" is not in this inventory');
  });

  it('pages of findings equal the whole list, each finding once; filters page the same way', async () => {
    for (const q of ['', 'severity=suggestion&', 'pool=tank02&']) {
      const whole = FindingsList.parse((await get(s, `/api/hosts/local/findings?${q}`)).json);
      expect(whole.total).toBe(whole.findings.length);
      expect(whole.nextCursor).toBeNull();
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: FindingsList = FindingsList.parse((await get(s, `/api/hosts/local/findings?${q}limit=50${cursor ? `&cursor=${cursor}` : ''}`)).json);
        expect(page.total).toBe(whole.total);
        expect(page.assessmentId).toBe(whole.assessmentId);
        seen.push(...page.findings.map((f) => f.fingerprint));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(whole.findings.map((f) => f.fingerprint));
    }
  });

  it('refuses cursors it did not give out, and limits outside 1–1000, with a clear 400', async () => {
    for (const path of [
      '/api/hosts/local/datasets?cursor=not-a-cursor', '/api/hosts/local/findings?cursor=ZDoxOjA', // a datasets cursor for findings
      '/api/hosts/local/datasets?limit=0', '/api/hosts/local/datasets?limit=1001', '/api/hosts/local/findings?limit=-5',
      '/api/hosts/local/datasets?cursor=%2e%2e%2f', '/api/hosts/local/inventory?pool=../etc',
    ]) {
      const r = await get(s, path);
      expect(r.status, path).toBe(400);
      expect(JSON.stringify(r.json), path).toMatch(/cursor|limit|pool/);
    }
    // A well-formed cursor of a snapshot that is not kept (or another host's): 404 that says what to do.
    const gone = await get(s, `/api/hosts/local/datasets?cursor=${Buffer.from('d:999999:0').toString('base64url')}`);
    expect(gone.status).toBe(404);
    expect(JSON.stringify(gone.json)).toContain('start again without cursor');
  });

  it('large answers go gzipped to clients that ask for it (same JSON, same ETag), whole to those that do not; 304 when fresh', async () => {
    const raw = (headers: Record<string, string>) => new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http.get(new URL('api/hosts/local/inventory', s.url), { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      }).on('error', reject);
    });
    const plain = await raw({});
    const zipped = await raw({ 'Accept-Encoding': 'gzip, deflate, br' });
    const refused = await raw({ 'Accept-Encoding': 'gzip;q=0, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(refused.body.equals(plain.body)).toBe(true);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    const again = await raw({ 'Accept-Encoding': 'gzip', 'If-None-Match': plain.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('/metrics reports the server\'s own event-loop delay, rendered by the read worker', async () => {
    const text = await (await fetch(new URL('metrics', s.url))).text();
    expect(text).toMatch(/^zfs_advisor_event_loop_delay_seconds\{quantile="0\.99"\} [0-9.e-]+$/m);
    expect(text).toMatch(/^zfs_advisor_event_loop_delay_seconds\{quantile="1"\} [0-9.e-]+$/m);
    expect(text).toMatch(/^zfs_advisor_pool_health\{host="local",pool="tank00",state="ONLINE"\} 1$/m);
  });

  it('built in the worker threads: no fallback to the main thread', () => {
    expect(log.filter((l) => /worker unavailable|worker exited/.test(l))).toEqual([]);
  });
});

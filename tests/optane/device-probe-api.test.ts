/**
 * "Measure this device" through the HTTP API (POST /api/hosts/:hostId/optane/device-probe): the
 * blank-device test of an unused drive of the newest inventory, on real loop devices. As an
 * attacker would try it: without the token or with a wrong one, on a read-only (snapshot) server,
 * with a confirmation that does not match, on a device that carries a signature, on a drive of a
 * pool, and on a name not in the inventory — each refused with its reason, nothing written. A blank
 * device with the right confirmation is measured (a few seconds, 64 MiB) with live progress, and
 * the stored run records which device it measured.
 *
 * The local host's inventory is the captured 000 snapshot plus the loop devices as unused drives
 * (what lsblk shows for a drive without a pool).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createApp, type AppHandle } from '../../server/src/api/app.ts';
import { createLogger } from '../../server/src/api/logger.ts';
import { loadServices, type Services } from '../../server/src/api/services.ts';
import { BenchRunView } from '../../server/src/api/contract.ts';
import { openStore, type Store } from '../../server/src/store/db.ts';
import { openSecretStore } from '../../server/src/store/secrets.ts';
import { runCommand } from '../../server/src/exec/runner.ts';
import type { Drive } from '../../server/src/model/inventory.ts';
import { fioAvailable, fioProcessesFor, loopDevice, losetupAvailable } from '../bench/support.ts';

const ROOT = join(import.meta.dirname, '../..');
const SNAPSHOT_000 = join(ROOT, 'server/demo/000-hdd-mirror-optane');
const TOKEN = 'device-probe-test-token-0123456789abcdef';
const live = losetupAvailable() && fioAvailable();

const dirs: string[] = [];
const tmp = (p: string) => { const d = mkdtempSync(join(tmpdir(), p)); dirs.push(d); return d; };
const loops: string[] = [];

async function loopWith(dir: string, name: string, write?: (fd: number) => void): Promise<string> {
  const dev = await loopDevice(dir, name, write);
  loops.push(dev);
  return dev;
}

/** A loop device as the inventory shows an unused drive: no serial, no WWN (loop devices have none). */
const loopDrive = (dev: string): Drive => ({
  id: `loop-${basename(dev)}`, devPath: dev, aliases: [dev], byIdPath: null, model: null, serial: null, wwn: null, firmware: null,
  sizeBytes: 64 * 1024 * 1024, rotational: false, rpm: null, media: 'ssd', transport: 'virtual', logicalSectorSize: 512, physicalSectorSize: 512,
  optane: null, powerLossProtection: 'unknown', smartPassed: null, wearPct: null, temperatureC: null, powerOnHours: null,
  mediaErrors: null, reallocatedSectors: null, pendingSectors: null, sources: ['lsblk'], uses: [],
});

interface App { store: Store; handle: AppHandle; server: Server; base: string }
const apps: App[] = [];

async function startApp(extraDrives: Drive[], mode: 'normal' | 'snapshot' | 'container' = 'normal'): Promise<App> {
  const opened = await openStore(join(tmp('zfsa-device-probe-'), 'data'));
  if (!opened.ok) throw new Error(opened.error.message);
  const store = opened.store;
  const real = await loadServices({ db: store.db });
  const services: Services = {
    ...real,
    // On this thread: a worker would load the snapshot itself, without the loop devices added here.
    inThread: null,
    loadInventory: async () => {
      const l = await real.loadInventory!({ snapshot: SNAPSHOT_000 });
      return { ...l, inventory: { ...l.inventory, drives: [...l.inventory.drives, ...extraDrives] } };
    },
  };
  const handle = createApp({
    store, secrets: openSecretStore(store.dataDir), services, logger: createLogger({ sink: () => {}, secrets: () => [] }),
    // This shared machine is busy: the operator's ceiling allows any load (the load guard is tested in tests/bench).
    config: { basePath: '/', token: TOKEN, uiDir: null, demo: false, benchCeiling: { maxLoad1: 1000 }, benchStartsPerMinute: 60, ...(mode === 'snapshot' ? { snapshot: SNAPSHOT_000 } : {}), ...(mode === 'container' ? { benchDir: tmp('zfsa-device-probe-benchdir-') } : {}) },
  });
  handle.ensureDefaultHosts();
  const server = createServer(handle.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const app = { store, handle, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  apps.push(app);
  return app;
}

async function call(app: App, method: string, path: string, body?: unknown, token: string | null = TOKEN) {
  const headers: Record<string, string> = { ...(method !== 'GET' ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  const res = await fetch(`${app.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text };
}

const message = (json: unknown): string => String((json as { error?: { message?: string } } | null)?.error?.message ?? JSON.stringify(json));

let app: App;
let blank = '';
let swap = '';

beforeAll(async () => {
  if (!live) return;
  const dir = tmp('zfsa-device-probe-loops-');
  blank = await loopWith(dir, 'blank');
  // A Linux swap header (version 1, "SWAPSPACE2" ending the first 4 KiB page), as in tests/bench/device.test.ts.
  swap = await loopWith(dir, 'swap', (fd) => {
    const hdr = Buffer.alloc(12);
    hdr.writeUInt32LE(1, 0);
    hdr.writeUInt32LE(64 * 256 - 1, 4);
    writeSync(fd, hdr, 0, 12, 1024);
    writeSync(fd, Buffer.from('SWAPSPACE2'), 0, 10, 4096 - 10);
  });
  app = await startApp([loopDrive(blank), loopDrive(swap)]);
  const policy = await call(app, 'PATCH', '/api/settings', { benchmark: { maxLoad1: 1000 } });
  expect(policy.status, policy.text).toBe(200);
  const a = await call(app, 'POST', '/api/hosts/local/assessments');
  expect(a.status, a.text).toBe(201);
}, 120_000);

afterAll(async () => {
  for (const a of apps) {
    a.handle.close();
    a.server.closeAllConnections();
    await new Promise<void>((r) => a.server.close(() => r()));
    a.store.close();
  }
  for (const d of loops) await runCommand('losetup', ['-d', d]);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

const confirmation = (dev: string) => `${basename(dev)}:${64 * 1024 * 1024}`;
const history = async () => (await call(app, 'GET', '/api/hosts/local/bench/history')).json as { id: string; targetKind?: string; status: string }[];

describe.runIf(live)('POST /api/hosts/:hostId/optane/device-probe', () => {
  it('the verdict offers the unused drives; without the token, or with a wrong one, nothing starts', async () => {
    const v = await call(app, 'GET', '/api/hosts/local/optane');
    expect(v.status).toBe(200);
    const offers = (v.json as { deviceProbes: { device: string; measured: unknown }[] }).deviceProbes;
    expect(offers.map((o) => o.device)).toEqual(expect.arrayContaining([blank, swap]));
    for (const token of [null, 'wrong-token-0123456789abcdef0123456789']) {
      const r = await call(app, 'POST', '/api/hosts/local/optane/device-probe', { drive: blank, confirmSerial: confirmation(blank) }, token);
      expect(r.status).toBe(401);
    }
    expect(await history()).toEqual([]);
  });

  it('refuses a confirmation that does not match, naming what to type (the kernel name alone is not enough)', async () => {
    for (const typed of ['WRONG-SERIAL', basename(blank), `${basename(blank)}:1`]) {
      const r = await call(app, 'POST', '/api/hosts/local/optane/device-probe', { drive: blank, confirmSerial: typed });
      expect(r.status, r.text).toBe(400);
      expect(message(r.json)).toMatch(/refused: the confirmation ".*" does not match .*NAME:BYTES/);
    }
    expect(await history()).toEqual([]);
  });

  it('refuses a device that is not blank, with the reason, even when the inventory thought it unused', async () => {
    const r = await call(app, 'POST', '/api/hosts/local/optane/device-probe', { drive: swap, confirmSerial: confirmation(swap) });
    expect(r.status, r.text).toBe(409);
    expect(message(r.json)).toMatch(/refused: .* is not blank .*TYPE=swap.*would destroy that data/);
  });

  it('refuses a drive of a pool, a name not in the inventory, and extra fields', async () => {
    const inPool = await call(app, 'POST', '/api/hosts/local/optane/device-probe', { drive: '/dev/da1', confirmSerial: 'x' });
    expect(inPool.status, inPool.text).toBe(409);
    expect(message(inPool.json)).toMatch(/refused: \/dev\/da1 is in use: in pool bench-pool \(data, mirror-0\)\. The blank-device test .* would destroy that\. Choose a drive listed as unused/);
    const unknown = await call(app, 'POST', '/api/hosts/local/optane/device-probe', { drive: '/dev/sdzz', confirmSerial: 'x' });
    expect(unknown.status).toBe(404);
    // The request names a drive, never a profile, size or runtime: those are the server's.
    const extra = await call(app, 'POST', '/api/hosts/local/optane/device-probe', { drive: blank, confirmSerial: confirmation(blank), runtimeS: 600 });
    expect(extra.status).toBe(400);
    expect(await history()).toEqual([]);
  });

  it('measures a blank device with the right confirmation: a few seconds, live progress, stored with which device it was', async () => {
    const r = await call(app, 'POST', '/api/hosts/local/optane/device-probe', { drive: `loop-${basename(blank)}`, confirmSerial: confirmation(blank) });
    expect(r.status, r.text).toBe(202);
    const started = BenchRunView.parse(r.json);
    const res = await fetch(`${app.base}/api/bench/runs/${started.runId}/events`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const events = (await res.text()).split('\n\n').filter((b) => b.startsWith('event: ')).map((b) => b.split('\n')[0]!.slice('event: '.length));
    expect(events.filter((e) => e === 'progress').length).toBeGreaterThan(0);
    expect(events.at(-1)).toBe('done');
    const done = BenchRunView.parse((await call(app, 'GET', `/api/bench/runs/${started.runId}`)).json);
    expect(done.status, done.message ?? '').toBe('completed');
    expect(done.profile).toBe('sync-write-4k-qd1');
    expect(done.summary).toMatchObject({ targetKind: 'device', target: blank, iodepth: 1, blockSize: 4096, device: { serial: null, wwn: null, sizeBytes: 64 * 1024 * 1024 } });
    expect(done.summary!.writeIops).toBeGreaterThan(0);
    expect(done.summary!.fioRuntimeSeconds!).toBeLessThanOrEqual(6);
    expect((await history()).map((h) => h.targetKind)).toEqual(['device']);
    // Cleaned up: no fio left on the device, and the host's benchmark slot is free again.
    expect(fioProcessesFor(blank)).toEqual([]);
    const again = await call(app, 'POST', '/api/hosts/local/optane/device-probe', { drive: blank, confirmSerial: 'WRONG' });
    expect(again.status).toBe(400);
  }, 120_000);
});

describe.runIf(live)('servers that never write to a device', () => {
  it('a server showing a snapshot (read-only) never starts it', async () => {
    const ro = await startApp([loopDrive(blank)], 'snapshot');
    const r = await call(ro, 'POST', '/api/hosts/local/optane/device-probe', { drive: blank, confirmSerial: confirmation(blank) });
    expect(r.status, r.text).toBe(503);
    expect(message(r.json)).toMatch(/benchmarks are off/);
  });

  it('a server in container mode (benchmarks confined to its directory) refuses device targets', async () => {
    const c = await startApp([loopDrive(blank)], 'container');
    await call(c, 'POST', '/api/hosts/local/assessments');
    const r = await call(c, 'POST', '/api/hosts/local/optane/device-probe', { drive: blank, confirmSerial: confirmation(blank) });
    expect(r.status, r.text).toBe(400);
    expect(message(r.json)).toMatch(/benchmarks only directories inside .*device targets are refused/);
    expect((await call(c, 'GET', '/api/hosts/local/bench/history')).json).toEqual([]);
  }, 60_000);
});

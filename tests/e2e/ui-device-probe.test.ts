/**
 * "Measure this device" on the Optane page in real Chromium (issue 27 §2): the verdict offers the
 * blank-device test for each unused candidate; a wrong confirmation is refused with the server's
 * reason; the right one runs the test for real on a blank loop device with live progress; and
 * after a stored blank-device test of the P1600X (same serial) the verdict and the forecast cite
 * it ("measured on this host, run <id>, <date>").
 *
 * The server runs in this process on a temporary store, serving the built UI; the local host's
 * inventory is the captured 000 snapshot (bench-pool: two hard disks, an unused P1600X) plus a
 * loop device as an unused drive (loop devices are never inventory drives on their own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createApp, type AppHandle } from '../../server/src/api/app.ts';
import { DEFAULT_UI_DIR } from '../../server/src/api/server.ts';
import { createLogger } from '../../server/src/api/logger.ts';
import { loadServices, type Services } from '../../server/src/api/services.ts';
import { openStore, type Store } from '../../server/src/store/db.ts';
import { openSecretStore } from '../../server/src/store/secrets.ts';
import { finishRun, insertRun } from '../../server/src/bench/store.ts';
import { runCommand } from '../../server/src/exec/runner.ts';
import type { BenchmarkRun } from '../../server/src/bench/types.ts';
import type { Drive } from '../../server/src/model/inventory.ts';
import { chromiumAvailable, launchChromium, type BrowserHandle } from './support/browser.ts';
import { axeSeriousViolations, horizontalOverflow, screenshot, settle } from './support/ui-checks.ts';
import { formatTime } from '../../server/src/text/format.ts';
import { fioAvailable, losetupAvailable } from '../bench/support.ts';

const live = chromiumAvailable() && losetupAvailable() && fioAvailable();
const SNAPSHOT_000 = join(import.meta.dirname, '../../server/demo/000-hdd-mirror-optane');
const P1600X_SERIAL = 'PHOC209200KC058A';
const LOOP_BYTES = 64 * 1024 * 1024;

describe.runIf(live)('Optane page: measure a candidate device (Chromium)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zfsa-e2e-device-probe-'));
  let loop = '';
  let store: Store;
  let handle: AppHandle;
  let server: Server;
  let base = '';
  let b: BrowserHandle;
  let page: Page;
  const errors: string[] = [];

  const loopDrive = (dev: string): Drive => ({
    id: `loop-${basename(dev)}`, devPath: dev, aliases: [dev], byIdPath: null, model: 'Test loop device', serial: null, wwn: null, firmware: null,
    sizeBytes: LOOP_BYTES, rotational: false, rpm: null, media: 'ssd', transport: 'virtual', logicalSectorSize: 512, physicalSectorSize: 512,
    optane: null, powerLossProtection: 'unknown', smartPassed: null, wearPct: null, temperatureC: null, powerOnHours: null,
    mediaErrors: null, reallocatedSectors: null, pendingSectors: null, sources: ['lsblk'], uses: [],
  });

  beforeAll(async () => {
    const t = await runCommand('truncate', ['-s', String(LOOP_BYTES), join(dir, 'blank.img')]);
    if (t.exitCode !== 0) throw new Error(t.stderr);
    const l = await runCommand('losetup', ['-f', '--show', join(dir, 'blank.img')]);
    loop = l.stdout.trim();
    if (l.exitCode !== 0 || !/^\/dev\/loop\d+$/.test(loop)) throw new Error(`losetup: ${l.stderr}`);
    const opened = await openStore(join(dir, 'data'));
    if (!opened.ok) throw new Error(opened.error.message);
    store = opened.store;
    const real = await loadServices({ db: store.db });
    const services: Services = {
      ...real,
      inThread: null, // a worker would load the snapshot itself, without the loop device
      loadInventory: async () => {
        const x = await real.loadInventory!({ snapshot: SNAPSHOT_000 });
        return { ...x, inventory: { ...x.inventory, drives: [...x.inventory.drives, loopDrive(loop)] } };
      },
    };
    handle = createApp({
      store, secrets: openSecretStore(store.dataDir), services, logger: createLogger({ sink: () => {}, secrets: () => [] }),
      // This shared machine is busy: the operator's ceiling allows any load (the load guard is tested in tests/bench).
      config: { basePath: '/', token: null, uiDir: DEFAULT_UI_DIR, demo: false, localZfs: true, benchCeiling: { maxLoad1: 1000 } },
    });
    handle.ensureDefaultHosts();
    server = createServer(handle.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const policy = await fetch(`${base}api/settings`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ benchmark: { maxLoad1: 1000 } }) });
    expect(policy.status).toBe(200);
    b = await launchChromium();
    page = await (await b.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  }, 120_000);

  afterAll(async () => {
    await b?.close();
    handle?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    store?.close();
    if (loop) await runCommand('losetup', ['-d', loop]);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const offer = (device: string) => page.locator('[data-testid="device-probe-offer"]', { hasText: device });

  it('offers "Measure this device" for each unused candidate, with the CLI command beside it', async () => {
    await page.goto(`${base}optane`);
    await settle(page);
    await page.click('[data-testid="ask-optane"]');
    await page.waitForSelector('[data-testid="verdict-word"]', { timeout: 120_000 });
    await page.waitForSelector('[data-testid="device-probe-panel"]', { timeout: 60_000 });
    expect(await offer('/dev/nvd1').locator('[data-testid="measure-device"]').textContent()).toBe('Measure this device');
    expect(await offer(loop).locator('[data-testid="measure-device"]').isVisible()).toBe(true);
    expect(await offer('/dev/nvd1').textContent()).toContain('not measured on this host');
    expect(await offer('/dev/nvd1').locator('pre, code').first().textContent()).toContain('zfs-advisor bench sync-write-4k-qd1 --device /dev/nvd1 --confirm-serial SERIAL --runtime 5 --size 256M');
    // Nothing measured: the verdict says the "with" figure is the catalog's and how to measure it in one click.
    expect(await page.locator('[data-testid="verdict-card"]').textContent()).toContain('not measured on this host — measure it in one click: the "Measure this device" button on the Optane page');
    await screenshot(page, 'optane-device-probe-offers-desktop');
    expect(await axeSeriousViolations(page)).toEqual([]);
  }, 180_000);

  it('refuses a wrong confirmation with the server\'s reason, then measures the blank device with live progress', async () => {
    await offer(loop).locator('[data-testid="measure-device"]').click();
    const form = offer(loop).locator('[data-testid="device-probe-confirm"]');
    expect(await form.textContent()).toContain(`Everything on ${loop} is destroyed`);
    await form.locator('[data-testid="confirm-serial"]').fill('NOT-THE-SERIAL');
    await form.locator('[data-testid="start-device-probe"]').click();
    await page.waitForSelector('[data-testid="device-probe-error"]', { timeout: 30_000 });
    expect(await page.locator('[data-testid="device-probe-error"]').textContent()).toMatch(/refused: the confirmation "NOT-THE-SERIAL" does not match .*NAME:BYTES/);
    await form.locator('[data-testid="confirm-serial"]').fill(`${basename(loop)}:${LOOP_BYTES}`);
    await form.locator('[data-testid="start-device-probe"]').click();
    await page.waitForSelector('[data-testid="live-progress"]', { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="progress-pct"]')?.textContent?.trim() === '100 %', undefined, { timeout: 90_000 });
    // Done: the host was assessed again and the offer shows the measurement.
    await expect.poll(() => offer(loop).locator('[data-testid="device-measured"]').count(), { timeout: 60_000 }).toBe(1);
    expect(await offer(loop).locator('[data-testid="device-measured"]').textContent()).toMatch(/measured .* per write \([\d,.]+ IOPS\) · run [0-9a-f]{12} ·/);
    await screenshot(page, 'optane-device-probe-measured-desktop');
  }, 180_000);

  it('after a stored blank-device test of the P1600X (same serial) the verdict and the forecast cite it', async () => {
    // What `bench sync-write-4k-qd1 --device /dev/nvme1n1 --confirm-serial PHOC…` stores on the real host.
    const id = 'a1b2c3d4e5f6';
    const startedAt = '2026-11-26T03:00:00.000Z';
    insertRun(store.db, { id, profile: 'sync-write-4k-qd1', targetKind: 'device', target: '/dev/nvme1n1', pool: null, status: 'running', startedAt, pid: process.pid, host: 'test', sizeBytes: 256 * 1024 * 1024, runtimeS: 5, bootId: null, procStart: null });
    const run: BenchmarkRun = {
      summary: {
        id, profile: 'sync-write-4k-qd1', pool: null, target: '/dev/nvme1n1', startedAt, status: 'completed', syncMode: 'fio-fsync', iodepth: 1, blockSize: 4096,
        readIops: 0, writeIops: 12_500, readBytesPerSec: 0, writeBytesPerSec: 12_500 * 4096, writeLatency: null, readLatency: null, wallSeconds: 5.2, fioRuntimeSeconds: 5,
        wallTimeMismatch: false, topologyFingerprint: null, notes: [], targetKind: 'device', zfsTarget: false, sync: 'always', io: 'direct',
        device: { serial: P1600X_SERIAL, wwn: null, sizeBytes: 58_977_157_120 },
      },
      detail: {
        request: { profile: 'sync-write-4k-qd1', target: { kind: 'device', device: '/dev/nvme1n1', confirmSerial: P1600X_SERIAL }, sizeBytes: 256 * 1024 * 1024, runtimeS: 5, maxPoolWriteWaitMs: 2000 },
        commands: [], guards: [], fio: null, syncLatency: null, layoutSeconds: null, load: [], poolLatency: { available: false, note: null, samples: [] },
        cpu: { usrPct: null, sysPct: null }, datasetProperties: {}, cleanup: [], readHonesty: null, system: [],
      },
      message: null,
    };
    finishRun(store.db, id, 'completed', null, run);

    await page.reload();
    await settle(page);
    await page.click('[data-testid="ask-optane"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="ask-optane"]')?.hasAttribute('disabled'), undefined, { timeout: 120_000 });
    const cite = `measured on this host, run ${id}, ${formatTime(startedAt)}`;
    await expect.poll(() => page.locator('[data-testid="verdict-card"]').textContent(), { timeout: 30_000 }).toContain(cite);
    expect(await offer('/dev/nvd1').locator('[data-testid="device-measured"]').textContent()).toContain(`run ${id}`);
    expect(await offer('/dev/nvd1').locator('[data-testid="measure-device"]').textContent()).toBe('Measure again');

    // The forecast panel for the same drive rests on it too.
    await page.getByLabel('Device model or path').fill('/dev/nvd1');
    await page.click('[data-testid="run-forecast"]');
    await page.waitForSelector('[data-testid="forecast-with"]', { timeout: 30_000 });
    expect(await page.locator('[data-testid="forecast-panel"]').textContent()).toContain(cite);
    await screenshot(page, 'optane-device-probe-cited-desktop');
    // On a phone the panel fits the width (long commands scroll inside their own box).
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await screenshot(page, 'optane-device-probe-cited-mobile');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  }, 180_000);
});

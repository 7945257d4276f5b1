/**
 * Remote hosts against local fake servers that replay the recorded TrueNAS / Proxmox samples
 * over real TLS (a self-signed test certificate): the resulting inventories, and the errors for
 * bad credentials, an untrusted or mismatching certificate, timeouts and malformed answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { defaultRemoteClients } from '../../server/src/remote/clients.ts';
import type { HostRow } from '../../server/src/store/hosts-repo.ts';
import { Inventory } from '../../server/src/model/inventory.ts';
import { HttpError } from '../../server/src/api/errors.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'server');
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIX, name), 'utf8'));
const cert = readFileSync(join(FIX, 'test-cert.pem'));
const key = readFileSync(join(FIX, 'test-key.pem'));
const PIN = '99:F1:CC:22:85:32:AC:2B:D7:18:5E:2E:9F:C0:A6:20:72:54:0A:55:80:AF:85:C5:21:0D:30:7D:E7:2B:D2:1D';
const WRONG_PIN = PIN.replace(/^99/, '00');
const API_KEY = '7-TrUeNaSkEyForTests0123456789';
const PVE_SECRET = 'f0e1d2c3-b4a5-4697-8899-aabbccddeeff';

type Mode = 'ok' | 'malformed' | 'silent';
let mode: Mode = 'ok';
/** Pools the fake PVE lists besides the recorded one: names its API refuses as storage ids, and one it refuses anyway. */
let extraPools: string[] = [];
const pveUrls: string[] = [];
/** A token of an Active Directory user: the user part holds @ (pve-access-control splits on the realm's @). */
const AD_TOKEN = 'john.doe@corp.example@ad!reader';
let logins = 0;
let tn: HttpsServer;
let pve: HttpsServer;
let tnPort = 0;
let pvePort = 0;

function row(over: Partial<HostRow>): HostRow {
  return {
    id: 'h', kind: 'truenas', name: 'nas', address: '127.0.0.1', port: tnPort, node: null, verifyTls: true,
    pinnedFingerprint: PIN, hasSecret: true, createdAt: 'x', updatedAt: 'x', ...over,
  };
}

beforeAll(async () => {
  tn = createHttpsServer({ cert, key });
  const wss = new WebSocketServer({ server: tn, path: '/api/current' });
  wss.on('connection', (ws) => {
    let authed = false;
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as { id: number; method: string; params: unknown[] };
      const reply = (body: object) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, ...body }));
      if (msg.method === 'auth.login_ex') {
        logins += 1;
        const p = msg.params[0] as { mechanism: string; username: string; api_key: string };
        authed = p.mechanism === 'API_KEY_PLAIN' && p.username === 'advisor' && p.api_key === API_KEY;
        return reply({ result: { response_type: authed ? 'SUCCESS' : 'AUTH_ERR' } });
      }
      if (!authed) return reply({ error: { code: -32001, message: 'Not authenticated' } });
      if (mode === 'silent') return; // never answers: the client must time out
      if (mode === 'malformed' && msg.method === 'pool.query') return reply({ result: { not: 'a list' } });
      const answers: Record<string, unknown> = {
        'system.info': fixture('system.info.freenas-11.2-U8.json'),
        'pool.query': fixture('pool.query.DERIVED-25.10-all-vdev-classes.json'),
        'pool.dataset.query': fixture('pool.dataset.query.DERIVED-25.10.json'),
        'disk.query': fixture('disk.query.DERIVED-25.10.json'),
        'disk.temperatures': (fixture('disk.temperatures.DERIVED.json') as { plain: unknown }).plain,
        'alert.list': [],
      };
      if (msg.method in answers) return reply({ result: answers[msg.method] });
      return reply({ error: { code: -32601, message: 'Method does not exist' } });
    });
  });
  await new Promise<void>((r) => tn.listen(0, '127.0.0.1', r));
  tnPort = (tn.address() as AddressInfo).port;

  const detail = fixture('disks-zfs-detail.check_pve-83.json') as { data: { name: string } };
  const list = (fixture('disks-zfs-list.DERIVED.json') as { data: { name: string }[] }).data;
  const listEntry = { ...list[0]!, name: detail.data.name };
  pve = createHttpsServer({ cert, key }, (req, res) => {
    const send = (status: number, body: unknown) => { res.writeHead(status, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(body)); };
    if (req.headers.authorization !== `PVEAPIToken=advisor@pve!zfs=${PVE_SECRET}` && req.headers.authorization !== `PVEAPIToken=${AD_TOKEN}=${PVE_SECRET}`) return send(401, { data: null });
    if (mode === 'silent') return; // hangs
    const url = req.url ?? '';
    pveUrls.push(url);
    if (url === '/api2/json/nodes/pve1/disks/zfs' && extraPools.length) {
      return send(200, { data: [listEntry, ...extraPools.map((name) => ({ ...listEntry, name, health: 'ONLINE' }))] });
    }
    // PVE's answer for {name} that fails its pve-storage-id format (here: a valid id it refuses anyway, to reach the 400 path).
    if (url.startsWith('/api2/json/nodes/pve1/disks/zfs/') && url !== `/api2/json/nodes/pve1/disks/zfs/${detail.data.name}`) {
      res.writeHead(400, 'Parameter verification failed.', { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ data: null, errors: { name: 'invalid format - storage ID contains illegal characters' } }));
    }
    if (url === '/api2/json/version') return send(200, { data: { version: '9.0.3', release: '9.0' } });
    if (url === '/api2/json/nodes/pve1/disks/zfs') return send(200, mode === 'malformed' ? { nodata: true } : { data: [listEntry] });
    if (url === `/api2/json/nodes/pve1/disks/zfs/${detail.data.name}`) return send(200, detail);
    if (url === '/api2/json/nodes/pve1/disks/list') return send(200, fixture('disks-list.pve9-nested-ceph-lab.json') === undefined ? {} : { data: fixture('disks-list.pve9-nested-ceph-lab.json') });
    send(404, { data: null });
  });
  await new Promise<void>((r) => pve.listen(0, '127.0.0.1', r));
  pvePort = (pve.address() as AddressInfo).port;
});

afterAll(async () => {
  tn.closeAllConnections();
  pve.closeAllConnections();
  await Promise.all([new Promise((r) => tn.close(r)), new Promise((r) => pve.close(r))]);
});

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return (err as Error).message;
  }
  throw new Error('expected a failure');
}

describe('TrueNAS over JSON-RPC 2.0 WebSocket', () => {
  it('builds the inventory from the recorded answers, with a pinned self-signed certificate', async () => {
    mode = 'ok';
    const clients = defaultRemoteClients({ timeoutMs: 3000 });
    const { inventory, raw } = await clients.collect(row({}), { kind: 'truenas', username: 'advisor', apiKey: API_KEY });
    expect(Inventory.parse(inventory)).toBeTruthy();
    expect(inventory.source).toMatchObject({ kind: 'truenas', label: 'nas', demo: false });
    expect(inventory.host).toMatchObject({ hostname: 'freenas.local', distribution: 'truenas-core', platform: 'freebsd', memoryBytes: 240439132160 });
    const pool = inventory.pools[0]!;
    // TrueNAS's own id of the pool (an integer): plans put it in pool.update (issue 36).
    expect(pool.platformId).toBe(1);
    expect(pool).toMatchObject({ name: 'tank', state: 'ONLINE', sizeBytes: 47966194761728, allocBytes: 8410127175680, fragmentationPct: 3, capacityPct: 18 });
    expect(pool.scan).toMatchObject({ kind: 'scrub', state: 'finished', errors: 0, startedAt: '2025-10-12T00:00:00.000Z' });
    expect(pool.vdevs.map((v) => [v.class, v.type, v.name, v.children.length])).toEqual([
      ['data', 'raidz2', 'raidz2-0', 6], ['log', 'mirror', 'mirror-2', 2], ['special', 'mirror', 'mirror-1', 2],
      ['cache', 'disk', '5e5e5e5e-2222-4222-8222-000000000001', 0], ['spare', 'disk', '6f6f6f6f-3333-4333-8333-000000000001', 0],
    ]);
    const special = pool.vdevs[2]!;
    expect(special).toMatchObject({ sizeBytes: 479559942144, allocBytes: 21474836480, ashift: 12 });
    // sda is in disk.query: its leaf resolves to that drive.
    const sda = inventory.drives.find((d) => d.devPath === '/dev/sda')!;
    expect(sda).toMatchObject({ id: 'wwn:0x5000c500d1234567', media: 'hdd', transport: 'sata', rpm: 7200, temperatureC: 34, serial: 'ZL2K3ABC' });
    expect(pool.vdevs[0]!.children[0]!.driveId).toBe(sda.id);
    expect(inventory.drives.find((d) => d.devPath === '/dev/nvme2n1')).toMatchObject({ media: 'nvme', transport: 'nvme', temperatureC: 41 });
    expect(inventory.datasets.map((d) => [d.name, d.type, d.recordsize, d.volblocksize, d.sync, d.specialSmallBlocks])).toEqual([
      ['tank/media', 'filesystem', 1048576, null, 'standard', 0],
      ['tank/vm/disk0', 'volume', null, 16384, 'always', 0],
    ]);
    expect(inventory.datasets[0]!.properties.special_small_blocks).toEqual({ value: '0', source: 'default' });
    expect(inventory.gaps.map((g) => [g.artifact, g.severity])).toContainEqual(['ZilStats', 'error']);
    expect(JSON.stringify(raw)).not.toContain(API_KEY);
    // The connection is reused: a second collection does not log in again.
    const before = logins;
    await clients.collect(row({}), { kind: 'truenas', username: 'advisor', apiKey: API_KEY });
    expect(logins).toBe(before);
    clients.closeAll();
  });

  it('refuses a self-signed certificate without a pin, and names its fingerprint', async () => {
    const clients = defaultRemoteClients({ timeoutMs: 3000 });
    const msg = await failure(clients.collect(row({ pinnedFingerprint: null }), { kind: 'truenas', username: 'advisor', apiKey: API_KEY }));
    expect(msg).toMatch(/not trusted/);
    expect(msg).toContain(PIN);
    const t = await clients.test(row({ pinnedFingerprint: null }), { kind: 'truenas', username: 'advisor', apiKey: API_KEY });
    expect(t).toMatchObject({ ok: false, presentedFingerprint: PIN });
  });

  it('refuses a certificate that is not the pinned one, before sending the key', async () => {
    const before = logins;
    const clients = defaultRemoteClients({ timeoutMs: 3000 });
    const msg = await failure(clients.collect(row({ pinnedFingerprint: WRONG_PIN }), { kind: 'truenas', username: 'advisor', apiKey: API_KEY }));
    expect(msg).toMatch(/is not the pinned one/);
    expect(logins).toBe(before);
  });

  it('bad credentials: a clear error, and no second login attempt until they change', async () => {
    mode = 'ok';
    const clients = defaultRemoteClients({ timeoutMs: 3000 });
    const bad = { kind: 'truenas' as const, username: 'advisor', apiKey: '7-wrongwrongwrong' };
    const msg = await failure(clients.collect(row({}), bad));
    expect(msg).toMatch(/refused the API key for user "advisor"/);
    expect(msg).not.toContain('wrongwrong');
    const before = logins;
    expect(await failure(clients.collect(row({}), bad))).toMatch(/not retried/);
    expect(logins).toBe(before);
    clients.forget('h');
    await clients.collect(row({}), { kind: 'truenas', username: 'advisor', apiKey: API_KEY });
    clients.closeAll();
  });

  it('malformed answers and silence give clear errors', async () => {
    const clients = defaultRemoteClients({ timeoutMs: 800 });
    mode = 'malformed';
    expect(await failure(clients.collect(row({ id: 'm' }), { kind: 'truenas', username: 'advisor', apiKey: API_KEY }))).toMatch(/pool\.query in an unexpected shape/);
    mode = 'silent';
    expect(await failure(clients.collect(row({ id: 's' }), { kind: 'truenas', username: 'advisor', apiKey: API_KEY }))).toMatch(/did not answer system\.info within/);
    mode = 'ok';
    clients.closeAll();
  });

  it('an unreachable host is a connect error', async () => {
    const clients = defaultRemoteClients({ timeoutMs: 2000 });
    expect(await failure(clients.collect(row({ port: 1 }), { kind: 'truenas', username: 'advisor', apiKey: API_KEY }))).toMatch(/cannot connect to 127\.0\.0\.1:1: ECONNREFUSED/);
  });
});

describe('Proxmox VE over REST', () => {
  const host = () => row({ kind: 'proxmox', port: pvePort, node: 'pve1', name: 'pve' });
  const secret = { kind: 'proxmox' as const, tokenId: 'advisor@pve!zfs', tokenSecret: PVE_SECRET };

  it('builds the inventory from the recorded answers and records the dataset gap', async () => {
    mode = 'ok';
    const { inventory } = await defaultRemoteClients({ timeoutMs: 3000 }).collect(host(), secret);
    expect(Inventory.parse(inventory)).toBeTruthy();
    expect(inventory.host).toMatchObject({ hostname: 'pve1', distribution: 'proxmox-ve', distributionVersion: '9.0.3' });
    const pool = inventory.pools[0]!;
    expect(pool).toMatchObject({ name: 'samsung-970-01', state: 'ONLINE', errors: 'No known data errors', sizeBytes: 498216206336, allocBytes: 21474836480, fragmentationPct: 2 });
    expect(pool.scan).toMatchObject({ kind: 'scrub', state: 'finished', errors: 0 });
    expect(pool.vdevs).toHaveLength(1);
    expect(pool.vdevs[0]).toMatchObject({ class: 'data', type: 'disk', name: '/dev/disk/by-id/nvme-Samsung_SSD_970_EVO_Plus_2TB_serial#Z-part1', state: 'ONLINE', read: 0, write: 0, cksum: 0 });
    expect(inventory.datasets).toEqual([]);
    const gap = inventory.gaps.find((g) => g.artifact === 'Datasets')!;
    expect(gap.severity).toBe('error');
    expect(gap.message).toMatch(/needs-artifact/);
    expect(inventory.drives.map((d) => [d.devPath, d.byIdPath, d.wwn, d.smartPassed])).toEqual([
      ['/dev/sda', '/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_drive-scsi0', null, true],
      ['/dev/sdb', '/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_drive-scsi1', null, true],
      ['/dev/sdc', '/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_drive-scsi2', null, true],
    ]);
  });

  it('a token of a user whose name holds @ is accepted; pools PVE will not name are gaps for them, the rest is read', async () => {
    mode = 'ok';
    extraPools = ['a', 'tank:2', 'my pool', 'refused-here'];
    pveUrls.length = 0;
    try {
      const { inventory } = await defaultRemoteClients({ timeoutMs: 3000 }).collect(host(), { ...secret, tokenId: AD_TOKEN });
      expect(Inventory.parse(inventory)).toBeTruthy();
      expect(inventory.pools.map((p) => [p.name, p.vdevs.length])).toEqual([['samsung-970-01', 1], ['a', 0], ['tank:2', 0], ['my pool', 0], ['refused-here', 0]]);
      const gaps = inventory.gaps.filter((g) => g.artifact === 'Pools');
      expect(gaps.map((g) => g.source)).toEqual(['a', 'tank:2', 'my pool', 'refused-here'].map((n) => `/nodes/pve1/disks/zfs/${n}`));
      expect(gaps[0]!.message).toMatch(/storage id .* refuses this one with HTTP 400/);
      expect(gaps[3]!.message).toContain('Proxmox VE refused it (HTTP 400)');
      // Names PVE cannot take are not sent at all; the valid one is asked and its refusal kept.
      expect(pveUrls.filter((u) => u.includes('/disks/zfs/'))).toEqual(['/api2/json/nodes/pve1/disks/zfs/samsung-970-01', '/api2/json/nodes/pve1/disks/zfs/refused-here']);
    } finally { extraPools = []; }
  });

  it('bad token, wrong pin, malformed answer and timeout are clear errors', async () => {
    const clients = defaultRemoteClients({ timeoutMs: 800 });
    expect(await failure(clients.collect(host(), { ...secret, tokenSecret: 'nope-nope-nope' }))).toMatch(/refused the API token .*PVEAuditor/);
    expect(await failure(clients.collect({ ...host(), pinnedFingerprint: WRONG_PIN }, secret))).toMatch(/not the pinned one/);
    mode = 'malformed';
    expect(await failure(clients.collect(host(), secret))).toMatch(/without a "data" member/);
    mode = 'silent';
    expect(await failure(clients.collect(host(), secret))).toMatch(/did not answer GET .* within/);
    mode = 'ok';
  });
});

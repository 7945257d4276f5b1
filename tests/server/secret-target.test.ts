/**
 * Secrets stay with the endpoint they were entered for. A fake "attacker" server counts every
 * connection it gets: re-targeting a host (address, port, TLS verification, pinned fingerprint)
 * and then testing or assessing it must not reach it at all; a store edited behind the API's back
 * is refused by the remote clients themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';

const API_KEY = '9-BoundToItsTargetTrueNasKey';
const PVE_SECRET = '11111111-2222-4333-8444-555566667777';
const PIN = 'AA'.repeat(32);

let dir: string;
let s: RunningServer;
let attacker: Server;
let attackerPort = 0;
let connections = 0;
let bytes = 0;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url), {
    method, headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as Record<string, unknown>, text };
}
const stored = () => (JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')) as { hosts: Record<string, unknown> }).hosts;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zfsa-secret-target-'));
  attacker = createServer((sock) => { connections += 1; sock.on('data', (d: Buffer) => { bytes += d.length; }); sock.on('error', () => {}); setTimeout(() => sock.destroy(), 200); });
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
  attackerPort = (attacker.address() as AddressInfo).port;
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: dir, demo: true, uiDir: null, assessOnStart: false, logSink: () => {} });
  if (!r.ok) throw new Error(r.message);
  s = r.server;
});
afterAll(async () => {
  await s.close();
  await new Promise<void>((r) => attacker.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('secrets bound to their target', () => {
  it('changing address, port, TLS verification or pin drops the secret; test and assessment then send nothing', async () => {
    const changes: Record<string, unknown>[] = [
      { port: attackerPort },
      { address: 'localhost', port: attackerPort },
      { verifyTls: true, pinnedFingerprint: null },
      { pinnedFingerprint: 'BB'.repeat(32) },
    ];
    for (const [i, change] of changes.entries()) {
      const created = await call('POST', '/api/hosts', { kind: 'truenas', name: `nas ${i}`, address: '192.0.2.10', port: 443, username: 'advisor', apiKey: API_KEY, verifyTls: false, pinnedFingerprint: PIN });
      expect(created.status).toBe(201);
      const id = created.json.id as string;
      expect(stored()[id]).toMatchObject({ target: { address: '192.0.2.10', port: 443, verifyTls: false } });
      const patched = await call('PATCH', `/api/hosts/${id}`, change);
      expect(patched.status, JSON.stringify(change)).toBe(200);
      expect(patched.json.hasSecret, JSON.stringify(change)).toBe(false);
      expect(stored()[id], JSON.stringify(change)).toBeUndefined();
      const test = await call('POST', `/api/hosts/${id}/test`);
      expect(test.json).toMatchObject({ ok: false, message: 'no credentials stored for this host' });
      expect((await call('POST', `/api/hosts/${id}/assessments`)).status).toBe(409);
    }
    expect(connections).toBe(0);
    expect(bytes).toBe(0);
  });

  it('a name change keeps the secret; a new target with a whole new secret is bound to it', async () => {
    const created = await call('POST', '/api/hosts', { kind: 'truenas', name: 'kept', address: '192.0.2.11', port: 443, username: 'advisor', apiKey: API_KEY, pinnedFingerprint: PIN });
    const id = created.json.id as string;
    expect((await call('PATCH', `/api/hosts/${id}`, { name: 'kept 2' })).json.hasSecret).toBe(true);
    // Only half a secret with a new target: nothing is carried over from the old one.
    const half = await call('PATCH', `/api/hosts/${id}`, { port: attackerPort, apiKey: 'new-key-only' });
    expect(half.status).toBe(400);
    expect(stored()[id]).toMatchObject({ apiKey: API_KEY, target: { port: 443 } });
    const whole = await call('PATCH', `/api/hosts/${id}`, { address: '127.0.0.1', port: attackerPort, username: 'advisor', apiKey: 'entered-for-this-target' });
    expect(whole.json.hasSecret).toBe(true);
    expect(stored()[id]).toMatchObject({ apiKey: 'entered-for-this-target', target: { address: '127.0.0.1', port: attackerPort } });
    await call('POST', `/api/hosts/${id}/test`); // the owner's own new target: this one may be reached
    expect(connections).toBeGreaterThan(0);
  });

  it('a host row changed behind the API (store edited) is refused by the remote clients: nothing is sent', async () => {
    const created = await call('POST', '/api/hosts', { kind: 'proxmox', name: 'pve', address: '192.0.2.12', port: 8006, node: 'pve1', tokenId: 'advisor@pve!zfs', tokenSecret: PVE_SECRET });
    const id = created.json.id as string;
    const before = connections;
    const row = s.handle.hosts.get(id)!;
    s.handle.hosts.update({ ...row, address: '127.0.0.1', port: attackerPort });
    const test = await call('POST', `/api/hosts/${id}/test`);
    expect(test.json).toMatchObject({ ok: false });
    expect(test.json.message).toMatch(/entered for another address, port or certificate/);
    const run = await call('POST', `/api/hosts/${id}/assessments`);
    expect(run.status).toBe(409);
    expect(run.text).not.toContain(PVE_SECRET);
    await new Promise((r) => setTimeout(r, 100));
    expect(connections).toBe(before);
  });
});

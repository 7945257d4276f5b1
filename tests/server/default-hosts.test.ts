/**
 * Which hosts a start adds (issue 26): this machine's pools appear whenever its ZFS answers, beside
 * a demo host an earlier run left in the same store (never replaced by it, never hidden behind
 * it: the local host is listed first, and the UI opens the first host), and the demo asked for on
 * a machine with ZFS is a host of its own while "This machine" stays live. Hosts are added and
 * removed through the API, which is what the UI's Hosts page calls.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../server/src/api/server.ts';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-default-hosts-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

type Start = Parameters<typeof startServer>[0];
async function withServer<T>(opts: Partial<Start> & { dataDir: string }, fn: (url: string) => Promise<T>): Promise<T> {
  const r = await startServer({ host: '127.0.0.1', port: 0, uiDir: null, assessOnStart: false, logSink: () => {}, ...opts });
  if (!r.ok) throw new Error(r.message);
  try { return await fn(r.server.url); } finally { await r.server.close(); }
}

async function hostsAt(url: string): Promise<{ id: string; kind: string; name: string }[]> {
  const res = await fetch(new URL('api/hosts', url));
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; kind: string; name: string }[];
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path, url), { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: res.status === 204 ? null : ((await res.json()) as Record<string, unknown>) };
}

describe('default hosts', () => {
  it('a start without ZFS adds the demo; a later start whose zpool answers adds "This machine" first, the demo kept', async () => {
    const dataDir = tmp();
    await withServer({ dataDir, zfs: false }, async (url) => {
      expect((await hostsAt(url)).map((h) => h.kind)).toEqual(['demo']);
    });
    await withServer({ dataDir, zfs: true }, async (url) => {
      const hosts = await hostsAt(url);
      expect(hosts.map((h) => [h.kind, h.name])).toEqual([['local', 'This machine'], ['demo', 'Demo (no ZFS on this machine)']]);
      // The server-wide flag says this start is live; the demo is only that one host's label.
      const info = (await (await fetch(new URL('api/info', url))).json()) as { demo: boolean };
      expect(info.demo).toBe(false);
    });
    // And again: no second local host.
    await withServer({ dataDir, zfs: true }, async (url) => {
      expect((await hostsAt(url)).map((h) => h.kind)).toEqual(['local', 'demo']);
    });
  });

  it('a host whose first assessment was cut short by a restart is assessed at the next start', async () => {
    // The installed service is restarted right after apt starts it (the owner opens it to the LAN):
    // the first start added the host but stored no assessment, so the next one must assess it.
    const dataDir = tmp();
    await withServer({ dataDir, zfs: false }, async (url) => {
      expect((await hostsAt(url)).map((h) => h.kind)).toEqual(['demo']);
    });
    await withServer({ dataDir, zfs: false, assessOnStart: true }, async (url) => {
      await expect.poll(async () => {
        const res = await fetch(new URL('api/hosts', url));
        return ((await res.json()) as { lastAssessment: unknown }[])[0]?.lastAssessment ?? null;
      }, { timeout: 30_000, interval: 200 }).not.toBeNull();
    });
  });

  it('--demo on a machine with ZFS shows the demo as a host of its own, beside a stored "This machine"', async () => {
    // Asked for the demo on a fresh store: the demo alone.
    await withServer({ dataDir: tmp(), zfs: true, demo: true }, async (url) => {
      expect((await hostsAt(url)).map((h) => [h.kind, h.name])).toEqual([['demo', 'Demo']]);
    });
    // This machine was shown before: the demo joins it, it is not replaced.
    const dataDir = tmp();
    await withServer({ dataDir, zfs: true }, async () => {});
    await withServer({ dataDir, zfs: true, demo: true }, async (url) => {
      expect((await hostsAt(url)).map((h) => [h.kind, h.name])).toEqual([['local', 'This machine'], ['demo', 'Demo']]);
    });
  });

  it('--no-demo without ZFS adds nothing; hosts are added and removed through the API', async () => {
    await withServer({ dataDir: tmp(), zfs: false, noDemo: true }, async (url) => {
      expect(await hostsAt(url)).toEqual([]);
      const demo = await call(url, 'POST', 'api/hosts', { kind: 'demo', name: 'Demo' });
      expect(demo.status).toBe(201);
      const local = await call(url, 'POST', 'api/hosts', { kind: 'local', name: 'This machine' });
      expect(local.status).toBe(201);
      const nas = await call(url, 'POST', 'api/hosts', { kind: 'truenas', name: 'NAS', address: 'nas.example.lan', username: 'advisor', apiKey: '1-abcdefgh' });
      expect(nas.status).toBe(201);
      expect(nas.json).not.toHaveProperty('apiKey');
      // This machine first, the remote host next, the demo last.
      expect((await hostsAt(url)).map((h) => h.kind)).toEqual(['local', 'truenas', 'demo']);
      expect((await call(url, 'DELETE', `api/hosts/${String(demo.json!.id)}`)).status).toBe(204);
      expect((await hostsAt(url)).map((h) => h.kind)).toEqual(['local', 'truenas']);
    });
  });
});

/**
 * Size walks started through the API go only where they should: inside mounted ZFS datasets or
 * directories the operator allowed, never /proc, /sys, /dev, /run or /root, not through a symlink
 * leading out, and in container mode only inside the bench directory. Refusals are 403 and start
 * nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sizeWalkRefusal } from '../../server/src/api/sizes-confinement.ts';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';

const dirs: string[] = [];
const tmp = (p: string) => { const d = realpathSync(mkdtempSync(join(tmpdir(), p))); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

describe('size-walk confinement (pure)', () => {
  const zfs = (m: string[]) => async () => m;
  it('mounted ZFS datasets are walkable; other places, and the never-walked trees even on root-on-ZFS, are not', async () => {
    const media = tmp('zfsa-media-');
    const c = { benchDir: null, allow: [], zfsMountpoints: zfs(['/', '/tank', media]) };
    expect(await sizeWalkRefusal(media, c)).toBeNull();
    for (const p of ['/proc', '/sys', '/dev', '/root', '/run']) expect(await sizeWalkRefusal(p, c), p).toMatch(/never walked unless the operator allows it/);
    const none = { benchDir: null, allow: [], zfsMountpoints: zfs(['/tank']) };
    expect(await sizeWalkRefusal('/etc', none)).toMatch(/not inside a mounted ZFS dataset/);
    expect(await sizeWalkRefusal('/etc', { ...none, zfsMountpoints: zfs([]) })).toMatch(/no mounted ZFS dataset, so size walks are limited to directories the operator allows/);
    expect(await sizeWalkRefusal('/proc', { ...none, allow: ['/proc'] })).toBeNull(); // the operator's explicit choice
  });
});

describe('size-walk refusals are no oracle', () => {
  it('what exists outside the places, and where a link leads, never changes the answer', async () => {
    const allowed = tmp('zfsa-allowed-');
    const secret = tmp('zfsa-secret-');
    mkdirSync(join(secret, 'exists'));
    symlinkSync(join(secret, 'exists'), join(allowed, 'to-existing'));
    symlinkSync(join(secret, 'missing'), join(allowed, 'to-missing'));
    const c = { benchDir: null, allow: [allowed], zfsMountpoints: async () => [] };
    const a = await sizeWalkRefusal(join(allowed, 'to-existing'), c);
    const b = await sizeWalkRefusal(join(allowed, 'to-missing'), c);
    expect(a).not.toBeNull();
    // The same sentence but for the path asked about; neither names the target.
    expect(a!.replace('to-existing', 'X')).toBe(b!.replace('to-missing', 'X'));
    expect(`${a} ${b}`).not.toContain(secret);
    // Outside the places: judged on the letters, before the file system is touched.
    const root = await sizeWalkRefusal('/root/.ssh/id_rsa', c);
    const none = await sizeWalkRefusal('/root/.ssh/no-such-key', c);
    expect(root!.replace('id_rsa', 'X')).toBe(none!.replace('no-such-key', 'X'));
    const cwd = await sizeWalkRefusal(`/proc/${process.pid}/cwd`, c);
    expect(cwd).not.toContain(process.cwd());
    expect(cwd).not.toMatch(/leads to/);
  });
});

describe('size-walk confinement through the API', () => {
  const call = async (s: RunningServer, path: string, body: unknown) => {
    const res = await fetch(new URL(path.replace(/^\//, ''), s.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as { error?: { code: string; message: string } } };
  };

  it('without ZFS: only operator-allowed directories, not through a symlink, never /root or /proc', async () => {
    const allowed = tmp('zfsa-allowed-');
    const other = tmp('zfsa-other-');
    symlinkSync('/etc', join(allowed, 'link-out'));
    mkdirSync(join(allowed, 'sub'));
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp('zfsa-data-'), 'd'), demo: false, zfs: false, noDemo: true, benchDir: null, uiDir: null, assessOnStart: false, logSink: () => {}, sizesAllow: [allowed] });
    if (!r.ok) throw new Error(r.message);
    const s = r.server;
    try {
      expect((await call(s, '/api/hosts', { kind: 'local', name: 'here' })).status).toBe(201);
      for (const path of ['/root', '/proc', '/sys/kernel', '/dev', '/etc', other, join(allowed, 'link-out')]) {
        const x = await call(s, '/api/hosts/here/sizes', { path });
        expect(x.status, path).toBe(403);
        expect(x.json.error!.message, path).toMatch(/^refused: /);
      }
      expect((await call(s, '/api/hosts/here/sizes', { path: join(allowed, 'sub') })).status).toBe(202);
      const list = await (await fetch(new URL('api/hosts/here/sizes', s.url))).json() as unknown[];
      expect(list).toHaveLength(1); // the refusals started nothing
    } finally {
      await s.close();
    }
  });

  it('container mode: only inside the bench directory', async () => {
    const bench = tmp('zfsa-bench-');
    const outside = tmp('zfsa-outside-');
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp('zfsa-data-'), 'd'), zfs: false, benchDir: bench, uiDir: null, assessOnStart: false, logSink: () => {}, sizesAllow: [outside] });
    if (!r.ok) throw new Error(r.message);
    const s = r.server;
    try {
      const id = ((await (await fetch(new URL('api/hosts', s.url))).json()) as { id: string; kind: string }[]).find((h) => h.kind === 'local')!.id;
      const x = await call(s, `/api/hosts/${id}/sizes`, { path: outside });
      expect(x.status).toBe(403);
      expect(x.json.error!.message).toMatch(/only inside its bench directory/);
      expect((await call(s, `/api/hosts/${id}/sizes`, { path: '/root' })).status).toBe(403);
      expect((await call(s, `/api/hosts/${id}/sizes`, { path: bench })).status).toBe(202);
    } finally {
      await s.close();
    }
  });
});

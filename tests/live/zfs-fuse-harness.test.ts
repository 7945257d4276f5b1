import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { startZfsFuse, withZfsFuse, zfsFuseAvailable, ZFS_FUSE_LOCK_DIR } from '../support/zfs-fuse.ts';
import type { ZfsFuseHandle } from '../support/zfs-fuse.ts';

const live = zfsFuseAvailable();

describe('zfs-fuse harness', () => {
  let zf: ZfsFuseHandle | undefined;
  beforeAll(async () => { if (live) zf = await startZfsFuse(); }, 600_000);
  afterAll(async () => { await zf?.stop(); }, 120_000);

  it.runIf(live)('holds the machine-wide lock so a second start waits (and times out here)', async () => {
    expect(existsSync(ZFS_FUSE_LOCK_DIR)).toBe(true);
    expect(readFileSync(`${ZFS_FUSE_LOCK_DIR}/owner`, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    await expect(startZfsFuse({ lockTimeoutMs: 400 })).rejects.toThrow(/still held by pid/);
  });

  it.runIf(live)('creates file- and loop-backed pools, offlines a disk, and lists them', async () => {
    const h = zf as ZfsFuseHandle;
    const a = await h.fileVdev('ha');
    const b = await h.fileVdev('hb');
    const loop = await h.loopVdev('hc');
    expect(loop).toMatch(/^\/dev\/loop\d+$/);
    await h.createPool('hx_mirror', ['mirror', a, b]);
    await h.createPool('hx_loop', [loop]);
    expect(h.pools).toEqual(['hx_mirror', 'hx_loop']);
    const cachefile = await h.must('zpool', ['get', 'cachefile', 'hx_mirror']);
    expect(cachefile.stdout).toMatch(/hx_mirror\s+cachefile\s+none\s+local/);
    await h.offline('hx_mirror', b);
    const st = await h.must('zpool', ['status', 'hx_mirror']);
    expect(st.stdout).toMatch(/state: DEGRADED/);
    expect(st.stdout).toContain(`${b}  OFFLINE`);
    await h.exportPool('hx_loop');
    expect(h.pools).toEqual(['hx_mirror']);
  });
});

describe('zfs-fuse harness teardown', () => {
  it.runIf(live)('withZfsFuse exports its pools, stops the daemon it started, detaches loops and frees the lock', async () => {
    let pid = 0; let started = false; let dir = ''; let loop = '';
    await withZfsFuse(async (h) => {
      pid = h.daemonPid; started = h.startedDaemon; dir = h.dir;
      loop = await h.loopVdev('td');
      expect(existsSync(`/sys/block/${loop.replace('/dev/', '')}/loop/backing_file`)).toBe(true);
      await h.createPool('hx_td', [loop]);
    });
    expect(existsSync(ZFS_FUSE_LOCK_DIR)).toBe(false);
    expect(existsSync(dir)).toBe(false);
    if (started) expect(existsSync(`/proc/${pid}`)).toBe(false);
    // An attached loop device exposes its backing file in sysfs; a detached one does not.
    expect(existsSync(`/sys/block/${loop.replace('/dev/', '')}/loop/backing_file`)).toBe(false);
  }, 300_000);
});

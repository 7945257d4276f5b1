/**
 * Honest reads on directory targets: O_DIRECT where the file system honours it (confirmed by a fio
 * direct=1 probe), a file above the cache on ZFS/FUSE/unknown file systems, and a refusal on a
 * RAM file system. The result states which method was used.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import {
  CACHE_OVERSIZE_FACTOR, FS_MAGIC, fsKindOf, oDirectProbeArgs, planDirectoryReads, sizeAboveCache,
} from '../../server/src/bench/read-honesty.ts';
import { runArgs, layoutArgs } from '../../server/src/bench/fio-args.ts';
import { getProfile } from '../../server/src/bench/profiles.ts';
import { dryRun, startBenchmark, wallCapOf } from '../../server/src/bench/run.ts';
import { fioAvailable, freshStore, req, tmpDir, removeTempDirs } from './support.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const shmDirs: string[] = [];
afterAll(() => {
  removeTempDirs();
  for (const d of shmDirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

describe('read honesty, pure', () => {
  it('tells the file system from the statfs magic, on Linux only', () => {
    // Magic numbers from linux/magic.h (ZFS: OpenZFS zfs_vfsops): ZFS_SUPER_MAGIC, FUSE_SUPER_MAGIC, TMPFS_MAGIC.
    expect([FS_MAGIC.zfs, FS_MAGIC.fuse, FS_MAGIC.tmpfs, FS_MAGIC.ramfs]).toEqual([0x2fc12fc1, 0x65735546, 0x01021994, 0x858458f6]);
    expect(fsKindOf(0x2fc12fc1, 'linux')).toBe('zfs');
    expect(fsKindOf(0x65735546, 'linux')).toBe('fuse');
    expect(fsKindOf(0x01021994, 'linux')).toBe('ram');
    expect(fsKindOf(0xef53, 'linux')).toBe('other'); // ext4
    expect(fsKindOf(0xef53, 'freebsd')).toBe('unknown');
    expect(fsKindOf(null, 'linux')).toBe('unknown');
  });

  it('sizes the file at 4 × the cache, rounded up to a MiB, never below the request', () => {
    expect(CACHE_OVERSIZE_FACTOR).toBe(4);
    expect(sizeAboveCache(GiB, { bytes: 8 * GiB, source: 'RAM' })).toBe(32 * GiB);
    expect(sizeAboveCache(GiB, { bytes: 3 * MiB + 1, source: 'RAM' })).toBe(GiB);
    expect(sizeAboveCache(MiB, { bytes: MiB + 1, source: 'RAM' })).toBe(5 * MiB);
  });

  it('chooses the method per file system and says why', () => {
    const cache = { bytes: 2 * GiB, source: 'the ARC maximum (c_max)' };
    const zfs = planDirectoryReads('zfs', GiB, cache);
    expect(zfs.method).toBe('size-above-cache');
    expect(zfs.fileBytes).toBe(8 * GiB);
    expect(zfs.note).toBe('reads kept honest by size: the directory is on ZFS, where O_DIRECT does not keep reads out of the ARC (before OpenZFS 2.3), so the test file is 8.00 GiB (4 × the ARC maximum (c_max), 2.00 GiB; enlarged from the requested 1.00 GiB): at most 25 % of random reads can be cache hits');
    expect(planDirectoryReads('fuse', GiB, cache).method).toBe('size-above-cache');
    expect(planDirectoryReads('unknown', GiB, cache).method).toBe('size-above-cache');
    expect(planDirectoryReads('other', GiB, cache)).toMatchObject({ method: 'o-direct', fileBytes: GiB });
    expect(planDirectoryReads('ram', GiB, cache)).toMatchObject({ method: 'none', fileBytes: GiB });
  });

  it('gives an enlarged file time to be laid out under the default wall-clock cap, never under an explicit one', () => {
    const r = req({ profile: 'rand-read-4k', target: { kind: 'path', dir: '/srv' }, runtimeS: 30, sizeBytes: GiB });
    expect(wallCapOf(r)).toBe(150); // 30 × 3 + 60
    expect(wallCapOf(r, GiB)).toBe(150);
    expect(wallCapOf(r, 8 * GiB)).toBe(150 + 164); // 8192 MiB at 50 MiB/s = 163.84 s, rounded up
    expect(wallCapOf({ ...r, wallCapS: 100 }, 8 * GiB)).toBe(100);
  });

  it('adds direct=1 to layout and run for an O_DIRECT directory plan, and probes with direct=1', () => {
    const p = getProfile('rand-read-4k')!;
    const plan = { filename: '/d/f.dat', sizeBytes: 1 << 24, runtimeS: 5, rawDevice: false, syncMode: 'async' as const };
    expect(runArgs(p, { ...plan, direct: true })).toContain('--direct=1');
    expect(layoutArgs(p, { ...plan, direct: true })).toContain('--direct=1');
    expect(runArgs(p, plan)).not.toContain('--direct=1');
    expect(runArgs(p, { ...plan, direct: true })).not.toContain('--allow_mounted_write=0');
    expect(oDirectProbeArgs('/d/odirect-probe.dat')).toEqual(expect.arrayContaining(['--filename=/d/odirect-probe.dat', '--direct=1', '--size=1m']));
  });
});

const live = fioAvailable();
const ext = (() => { try { return fsKindOf(statfsSync(tmpDir('zfs-advisor-bench-fscheck-')).type) === 'other'; } catch { return false; } })();
const shm = existsSync('/dev/shm') && (() => { try { return fsKindOf(statfsSync('/dev/shm').type) === 'ram'; } catch { return false; } })();

describe('read honesty on real directories', () => {
  it.runIf(live && ext)('uses O_DIRECT on a disk file system, after a probe, and says so in the result', async () => {
    const dir = tmpDir();
    const s = await freshStore();
    try {
      const dr = await dryRun(req({ profile: 'rand-read-4k', target: { kind: 'path', dir } }));
      expect(dr.readHonesty?.method).toBe('o-direct');
      expect(dr.guards.find((g) => g.id === 'honest-reads')?.ok).toBe(true);
      const run = await startBenchmark(req({ profile: 'rand-read-4k', target: { kind: 'path', dir } }), { db: s.db });
      expect(run.summary.status, run.message ?? '').toBe('completed');
      expect(run.summary.readIops).toBeGreaterThan(0);
      expect(run.detail.readHonesty).toMatchObject({ method: 'o-direct', fileBytes: 8 * MiB });
      expect(run.summary.notes.join(' ')).toMatch(/reads kept honest by O_DIRECT/);
      const fios = run.detail.commands.filter((c) => c[0] === 'fio');
      expect(fios.map((c) => c[1])).toEqual(['--name=odirect-probe', '--name=rand-read-4k', '--name=rand-read-4k']);
      for (const c of fios) expect(c).toContain('--direct=1');
      expect(readdirSync(dir)).toEqual([]);
    } finally { s.close(); }
  }, 60_000);

  it.runIf(live && ext)('a write-only profile on a directory needs no read method', async () => {
    const dr = await dryRun(req({ profile: 'async-write-4k', target: { kind: 'path', dir: tmpDir() } }));
    expect(dr.readHonesty).toBeNull();
    expect(dr.guards.map((g) => g.id)).not.toContain('honest-reads');
    expect(dr.commands.flat()).not.toContain('--direct=1');
  });

  it.runIf(live && shm)('refuses read profiles on a RAM file system (tmpfs)', async () => {
    const dir = mkdtempSync('/dev/shm/zfs-advisor-bench-shm-');
    shmDirs.push(dir);
    const dr = await dryRun(req({ profile: 'seq-read-1m', target: { kind: 'path', dir } }));
    expect(dr.wouldRun).toBe(false);
    const g = dr.guards.find((x) => x.id === 'honest-reads')!;
    expect(g.ok).toBe(false);
    expect(g.message).toMatch(/^refused: the directory is on a RAM file system \(tmpfs\/ramfs\)/);
  });
});

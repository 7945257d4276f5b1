/**
 * Live on zfs-fuse (real ZFS in userspace; harness tests/support/zfs-fuse.ts): every profile on a
 * temporary child dataset, which is destroyed afterwards; zfs-fuse has no `sync` property, so the
 * fio fallback is used and said so; nearly full and degraded pools are refused; kill -9 of the CLI
 * leaves no dataset behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';
import { PROFILES } from '../../server/src/bench/profiles.ts';
import { beforeAfter, dryRun, startBenchmark } from '../../server/src/bench/run.ts';
import { fioAvailable, fioProcessesFor, freshStore, req, tmpDir } from './support.ts';
import { removeTempDirs } from './support.ts';
import { benchAndKill } from './crash.ts';

afterAll(() => removeTempDirs(), 60_000);
const live = zfsFuseAvailable() && fioAvailable();
let zf: ZfsFuseHandle;

beforeAll(async () => {
  if (!live) return;
  zf = await startZfsFuse();
  await zf.createPool('bx_mirror', ['mirror', await zf.fileVdev('bxm1'), await zf.fileVdev('bxm2')]);
}, 600_000);
afterAll(async () => { await zf?.stop(); }, 120_000);

async function benchDatasets(): Promise<string[]> {
  const r = await zf.run('zfs', ['list', '-H', '-o', 'name']);
  return r.stdout.split('\n').filter((n) => n.includes('zfs-advisor-bench-'));
}

/** zfs-fuse reports "pool is busy" for a moment after a dataset was unmounted: retry briefly. */
async function destroyWhenIdle(pool: string): Promise<void> {
  for (let i = 0; ; i++) {
    try { await zf.destroyPool(pool); return; } catch (err) {
      if (i >= 10) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

describe('benchmarks on zfs-fuse datasets', () => {
  it.runIf(live)('each profile runs on a temporary dataset that is destroyed afterwards', async () => {
    const s = await freshStore();
    try {
      for (const p of PROFILES) {
        const run = await startBenchmark(req({ profile: p.id, target: { kind: 'dataset', pool: 'bx_mirror' } }), { db: s.db });
        const x = run.summary;
        expect(x.status, `${p.id}: ${run.message}`).toBe('completed');
        expect(x.target).toMatch(/^bx_mirror\/zfs-advisor-bench-[0-9a-f]{12}$/);
        expect(x.pool).toBe('bx_mirror');
        expect(x.writeIops + x.readIops, p.id).toBeGreaterThan(0);
        expect(x.topologyFingerprint).toMatch(/^[0-9a-f]{16}$/);
        // zfs-fuse has no sync property: the fio fallback, and the result says so.
        expect(x.syncMode).toBe(p.sync ? (p.iodepth === 1 ? 'fio-fsync' : 'fio-sync') : 'async');
        if (p.sync) expect(x.syncText).toMatch(/sync property cannot be set on this platform/);
        expect(run.detail.datasetProperties).toMatchObject({ primarycache: p.readsFromDisk ? 'metadata' : 'all', compression: 'off', recordsize: p.rw === 'randwrite' ? '4096' : '131072' });
        expect(run.detail.poolLatency.available).toBe(false);
        expect(run.detail.poolLatency.note).toMatch(/zpool iostat -l/);
        expect(await benchDatasets(), p.id).toEqual([]);
      }
      const ba = beforeAfter(s.db, 'bx_mirror', 'sync-write-4k-qd1');
      expect(ba.groups).toHaveLength(1);
      expect(ba.after?.profile).toBe('sync-write-4k-qd1');
      expect(ba.before).toBeNull(); // one topology so far
    } finally { s.close(); }
  }, 300_000);

  it.runIf(live)('before/after: a run after adding a log vdev lands in a new topology group', async () => {
    const s = await freshStore();
    try {
      await zf.createPool('bx_ba', [await zf.fileVdev('bxba1')]);
      const a = await startBenchmark(req({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'bx_ba' } }), { db: s.db });
      await zf.must('zpool', ['add', 'bx_ba', 'log', await zf.fileVdev('bxbalog')]);
      const b = await startBenchmark(req({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'bx_ba' } }), { db: s.db });
      expect([a.summary.status, b.summary.status]).toEqual(['completed', 'completed']);
      expect(b.summary.topologyFingerprint).not.toBe(a.summary.topologyFingerprint);
      const ba = beforeAfter(s.db, 'bx_ba', 'sync-write-4k-qd1');
      expect(ba.before?.id).toBe(a.summary.id);
      expect(ba.after?.id).toBe(b.summary.id);
      expect(ba.ratios?.writeIops).toBeCloseTo(b.summary.writeIops / a.summary.writeIops, 6);
      // zfs-fuse has no sync property: fsync after each write, so the before/after latency is the fsync's (issue 34 §4).
      expect(ba.latency.label).toBe('sync latency (fsync)');
      expect(ba.latency.before?.p99Ns).toBe(a.summary.syncOpLatency?.p99Ns);
      expect(ba.ratios?.latencyP99).toBeCloseTo(b.summary.syncOpLatency!.p99Ns! / a.summary.syncOpLatency!.p99Ns!, 6);
    } finally { s.close(); await destroyWhenIdle('bx_ba'); }
  }, 120_000);

  it.runIf(live)('refuses a nearly full pool', async () => {
    await zf.createPool('bx_full', [await zf.fileVdev('bxf1')]);
    try {
      const big = await dryRun(req({ profile: 'seq-write-1m', target: { kind: 'dataset', pool: 'bx_full' }, sizeBytes: 48 * 1024 * 1024 }));
      expect(big.guards.filter((g) => !g.ok).map((g) => g.id)).toContain('free-space');
      // The quota in the create command, in words beside it (issue 38 §4): headroom larger than this small pool.
      const quota = big.commands[0]!.find((a) => a.startsWith('quota='))!;
      expect(big.notes[0]).toMatch(new RegExp(`^${quota} on the temporary dataset is [\\d.]+ GiB of headroom, .* larger than the pool \\([\\d.]+ MiB\\) on purpose`));
      // Fill the pool with incompressible data, then even a small test would push it past 80 %.
      const mp = (await zf.must('zfs', ['get', '-H', '-o', 'value', 'mountpoint', 'bx_full'])).stdout.trim();
      // Write 4 MiB files until zfs-fuse says ENOSPC: the pool is then as full as it gets.
      for (let i = 0; i < 40; i++) {
        try { writeFileSync(join(mp, `fill${i}`), randomBytes(4 * 1024 * 1024)); } catch { break; }
      }
      await new Promise((r) => setTimeout(r, 6000));
      const small = await dryRun(req({ profile: 'seq-write-1m', target: { kind: 'dataset', pool: 'bx_full' }, sizeBytes: 4 * 1024 * 1024 }));
      const refused = small.guards.filter((g) => !g.ok);
      // zfs-fuse keeps ~25 % of a small pool as slop, so "3× free" trips before "80 % full" here;
      // the 80 % verdict is still computed from the live numbers (the pure tests cover its refusal).
      expect(refused.map((g) => g.id)).toContain('free-space');
      const fill = Number(/(\d+\.\d) % full/.exec(small.guards.find((g) => g.id === 'pool-fill')!.message)![1]);
      expect(fill).toBeGreaterThan(50);
    } finally { await destroyWhenIdle('bx_full'); }
  }, 120_000);

  it.runIf(live)('refuses a degraded pool', async () => {
    const m2 = await zf.fileVdev('bxd2');
    await zf.createPool('bx_deg', ['mirror', await zf.fileVdev('bxd1'), m2]);
    try {
      await zf.offline('bx_deg', m2);
      const s = await freshStore();
      try {
        const run = await startBenchmark(req({ profile: 'rand-read-4k', target: { kind: 'dataset', pool: 'bx_deg' } }), { db: s.db });
        expect(run.summary.status).toBe('refused');
        expect(run.message).toMatch(/pool bx_deg is DEGRADED/);
        expect(await benchDatasets()).toEqual([]);
      } finally { s.close(); }
    } finally { await destroyWhenIdle('bx_deg'); }
  }, 120_000);

  it.runIf(live)('refuses a pool that does not exist', async () => {
    const dr = await dryRun(req({ profile: 'rand-read-4k', target: { kind: 'dataset', pool: 'bx_nosuch' } }));
    expect(dr.wouldRun).toBe(false);
    expect(dr.guards.find((g) => g.id === 'pool')?.message).toMatch(/pool "bx_nosuch" not found/);
  });

  it.runIf(live)('kill -9 of the CLI mid-run leaves no dataset and no fio behind, 10 times across prepare, layout and run', async () => {
    const dataDir = tmpDir('zfs-advisor-bench-crash-zf-');
    const seen = new Set<string>();
    const phases = ['prepare', 'layout', 'run'];
    for (let i = 0; i < 10; i++) {
      const phase = phases[i % phases.length]!;
      // Alternate a sync profile (fio fallback) and a read profile (layout + primarycache=metadata).
      const profile = i % 2 === 0 ? 'sync-write-4k-qd16' : 'rand-read-4k';
      const out = await benchAndKill([profile, '--pool', 'bx_mirror', '--size', '8M', '--runtime', '30'], dataDir, phase);
      expect(out.killedInPhase, `iteration ${i}`).toBe(phase);
      expect(out.exitSignal, `iteration ${i}`).toBe('SIGKILL');
      expect(await benchDatasets(), `iteration ${i} (${phase}): leftover dataset`).toEqual([]);
      // This pool's runs only: other test files run fio on their own benchmark directories beside this one.
      expect(fioProcessesFor('/bx_mirror/zfs-advisor-bench-'), `iteration ${i}: orphaned fio`).toEqual([]);
      const fresh = out.history.filter((r) => !seen.has(r.id));
      expect(fresh.map((r) => r.status), `iteration ${i}`).toEqual(['aborted']);
      expect(fresh[0]!.message).toMatch(/^abandoned: process \d+ ended without cleaning up \(process \d+ ended\)/);
      for (const r of out.history) seen.add(r.id);
    }
    expect(seen.size).toBe(10);
  }, 600_000);

  it.runIf(live)('read profiles: primarycache=metadata on the dataset; a file above the cache in a zfs-fuse directory (FUSE)', async () => {
    const s = await freshStore();
    try {
      const ds = await startBenchmark(req({ profile: 'rand-read-4k', target: { kind: 'dataset', pool: 'bx_mirror' } }), { db: s.db });
      expect(ds.summary.status, ds.message ?? '').toBe('completed');
      expect(ds.detail.readHonesty).toMatchObject({ method: 'primarycache-metadata' });
      expect(ds.summary.notes.join(' ')).toMatch(/reads kept honest by primarycache=metadata/);
      // A directory inside the pool's mountpoint is FUSE: O_DIRECT is not trusted, the file is
      // sized at 4 × the cache. A small cache is injected so the test stays small: 4 × 5 MiB = 20 MiB.
      const mp = (await zf.must('zfs', ['get', '-H', '-o', 'value', 'mountpoint', 'bx_mirror'])).stdout.trim();
      const cacheBound = { bytes: 5 * 1024 * 1024, source: 'a test cache' };
      const dr = await dryRun(req({ profile: 'seq-read-1m', target: { kind: 'path', dir: mp } }), { cacheBound });
      expect(dr.readHonesty?.method).toBe('size-above-cache');
      expect(dr.commands.flat()).not.toContain('--direct=1');
      const run = await startBenchmark(req({ profile: 'seq-read-1m', target: { kind: 'path', dir: mp } }), { db: s.db, cacheBound });
      expect(run.summary.status, run.message ?? '').toBe('completed');
      expect(run.detail.readHonesty).toMatchObject({ method: 'size-above-cache', fileBytes: 20 * 1024 * 1024 });
      expect(run.summary.notes.join(' ')).toMatch(/reads kept honest by size: the directory is on a FUSE file system .* so the test file is 0\.02 GiB \(4 × a test cache, 0\.00 GiB; enlarged from the requested 0\.01 GiB\)/);
      // Four readers, each streaming its own quarter of the 20 MiB file; the layout writes it whole.
      const [layout, measured] = run.detail.commands.filter((x) => x[0] === 'fio');
      expect(layout).toEqual(expect.arrayContaining(['--numjobs=1', '--size=20971520']));
      expect(measured).toEqual(expect.arrayContaining(['--numjobs=4', '--size=5242880', '--offset_increment=5242880']));
      expect(run.summary.readIops).toBeGreaterThan(0);
    } finally { s.close(); }
  }, 180_000);
});

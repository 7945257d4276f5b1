/**
 * Real fio on plain directories (tmp): every profile runs briefly with sane parsed results and
 * leaves nothing behind; the guards that apply to directories refuse when they must; the
 * watchers (load, wall-clock cap, signal) stop a run and clean up.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILES } from '../../server/src/bench/profiles.ts';
import { beforeAfter, dryRun, history, startBenchmark } from '../../server/src/bench/run.ts';
import { lockHolder, samplesOf, getRun } from '../../server/src/bench/store.ts';
import type { ProgressEvent } from '../../server/src/bench/types.ts';
import { fioAvailable, fioProcessesFor, freshStore, req, tmpDir } from './support.ts';
import { removeTempDirs } from './support.ts';

afterAll(() => removeTempDirs(), 60_000);
const live = fioAvailable();
const stores: { close(): void }[] = [];
afterAll(() => { for (const s of stores) s.close(); });
async function store() { const s = await freshStore(); stores.push(s); return s; }

describe('profiles on a plain directory', () => {
  it.runIf(live)('each profile runs, reports sane numbers and leaves the directory empty', async () => {
    const s = await store();
    const dir = tmpDir();
    for (const p of PROFILES) {
      const events: ProgressEvent[] = [];
      const run = await startBenchmark(req({ profile: p.id, target: { kind: 'path', dir } }), { db: s.db, onProgress: (e) => events.push(e) });
      expect(run.summary.status, `${p.id}: ${run.message}`).toBe('completed');
      const x = run.summary;
      const reads = p.rw === 'read' || p.rw === 'randread' || p.rw === 'randrw';
      const writes = p.rw !== 'read' && p.rw !== 'randread';
      if (reads) { expect(x.readIops, p.id).toBeGreaterThan(0); expect(x.readLatency?.p99Ns, p.id).toBeGreaterThan(0); } else expect(x.readIops).toBe(0);
      if (writes) { expect(x.writeIops, p.id).toBeGreaterThan(0); expect(x.writeLatency?.p50Ns, p.id).toBeGreaterThan(0); } else expect(x.writeIops).toBe(0);
      const lat = reads ? x.readLatency! : x.writeLatency!;
      expect(lat.p50Ns!).toBeLessThanOrEqual(lat.p99Ns!);
      expect(lat.p99Ns!).toBeLessThanOrEqual(lat.p999Ns!);
      expect(x.blockSize).toBe(p.blockSize);
      expect(x.iodepth).toBe(p.iodepth);
      // An async sequential write goes once through its file (fio-args.ts): on a small file it ends
      // early, and it never writes more than the file holds. The others run for their runtime.
      const once = p.rw === 'write' && !p.sync;
      if (once) {
        expect(x.fioRuntimeSeconds, p.id).toBeGreaterThan(0);
        expect(x.writeBytesPerSec * x.fioRuntimeSeconds!, p.id).toBeLessThanOrEqual(x.fileBytes! * 1.02);
      } else {
        expect(x.fioRuntimeSeconds).toBeGreaterThan(0.5);
        expect(x.wallSeconds).toBeGreaterThan(0.5);
      }
      expect(x.syncMode).toBe(p.sync ? (p.iodepth === 1 ? 'fio-fsync' : 'fio-sync') : 'async');
      if (x.syncMode === 'fio-fsync') expect(run.detail.syncLatency?.p99Ns).toBeGreaterThan(0);
      expect(run.detail.cpu.sysPct).not.toBeNull();
      expect(events[0]!.phase).toBe('guards');
      expect(events.at(-1)).toMatchObject({ phase: 'done', pct: 100 });
      if (!once) expect(events.some((e) => e.phase === 'run' && e.iops !== null && e.iops > 0)).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
      expect(getRun(s.db, x.id)?.status).toBe('completed');
    }
    expect(history(s.db).filter((r) => r.status === 'completed')).toHaveLength(PROFILES.length);
    expect(lockHolder(s.db)).toBeNull();
  }, 120_000);

  it.runIf(live)('stores progress samples and keeps runs for before/after', async () => {
    const s = await store();
    const dir = tmpDir();
    const run = await startBenchmark(req({ profile: 'async-write-4k', target: { kind: 'path', dir }, runtimeS: 2 }), { db: s.db });
    expect(run.summary.status).toBe('completed');
    expect(samplesOf(s.db, run.summary.id).length).toBeGreaterThanOrEqual(1);
    // Directory runs have no pool: before/after by pool finds nothing for them.
    expect(beforeAfter(s.db, 'tank', 'async-write-4k').groups).toEqual([]);
  }, 60_000);
});

describe('guards on directories', () => {
  it.runIf(live)('refuses a path that escapes through a symlink, and writes nothing there', async () => {
    const s = await store();
    const real = tmpDir();
    const link = join(tmpDir(), 'innocent');
    symlinkSync(real, link);
    const run = await startBenchmark(req({ profile: 'async-write-4k', target: { kind: 'path', dir: link } }), { db: s.db });
    expect(run.summary.status).toBe('refused');
    expect(run.message).toMatch(/through a symlink/);
    expect(readdirSync(real)).toEqual([]);
    const sub = join(link, 'sub');
    mkdirSync(join(real, 'sub'));
    const dr = await dryRun(req({ profile: 'async-write-4k', target: { kind: 'path', dir: sub } }));
    expect(dr.wouldRun).toBe(false);
    expect(dr.guards.find((g) => g.id === 'path-symlink')?.ok).toBe(false);
  });

  it.runIf(live)('refuses hostile names before running anything', async () => {
    const s = await store();
    for (const [target, pattern] of [
      [{ kind: 'path', dir: '/tmp/../etc' }, /contains "\.\."/],
      [{ kind: 'path', dir: '/tmp/x\ny' }, /control character/],
      [{ kind: 'path', dir: '-rf' }, /starts with "-"/],
      [{ kind: 'dataset', pool: '-o' }, /starts with "-"/],
      [{ kind: 'dataset', pool: 'tank;reboot' }, /characters zpool does not allow/],
      [{ kind: 'device', device: '/dev/../etc/passwd', confirmSerial: 'x' }, /contains "\.\."/],
    ] as const) {
      const run = await startBenchmark(req({ profile: 'seq-write-1m', target }), { db: s.db });
      expect(run.summary.status).toBe('refused');
      expect(run.message).toMatch(pattern);
    }
  });

  it.runIf(live)('refuses a test that does not fit 3× in the free space', async () => {
    const dir = tmpDir();
    const dr = await dryRun(req({ profile: 'seq-write-1m', target: { kind: 'path', dir }, sizeBytes: 2 ** 52 }));
    expect(dr.wouldRun).toBe(false);
    expect(dr.guards.find((g) => g.id === 'free-space')?.message).toMatch(/needs 3 ×/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.runIf(live)('allows one benchmark per host: a concurrent start is told who holds the lock', async () => {
    const s = await store();
    const dir = tmpDir();
    let second: Awaited<ReturnType<typeof startBenchmark>> | null = null;
    let firstId = '';
    const first = startBenchmark(req({ profile: 'async-write-4k', target: { kind: 'path', dir }, runtimeS: 3 }), {
      db: s.db,
      onProgress: (e) => {
        if (e.phase === 'run' && second === null && firstId === '') {
          firstId = lockHolder(s.db)!.runId;
          void startBenchmark(req({ profile: 'rand-read-4k', target: { kind: 'path', dir } }), { db: s.db }).then((r) => { second = r; });
        }
      },
    });
    const a = await first;
    for (let i = 0; i < 50 && second === null; i++) await new Promise((r) => setTimeout(r, 100));
    expect(a.summary.status).toBe('completed');
    expect(a.summary.id).toBe(firstId);
    const b = second as unknown as Awaited<ReturnType<typeof startBenchmark>>;
    expect(b.summary.status).toBe('refused');
    expect(b.message).toContain(`run ${firstId}, async-write-4k on ${join(dir, `zfs-advisor-bench-${firstId}`)}, pid ${process.pid}`);
    expect(lockHolder(s.db)).toBeNull();
  }, 60_000);

  it.runIf(live)('refuses to start above the load limit, and aborts a run when the load rises', async () => {
    const s = await store();
    const dir = tmpDir();
    const refused = await startBenchmark(req({ profile: 'async-write-4k', target: { kind: 'path', dir }, maxLoad1: 2 }), { db: s.db, readLoad: () => 3.5 });
    expect(refused.summary.status).toBe('refused');
    expect(refused.message).toMatch(/1-minute load 3\.50 is above the limit 2/);
    let calls = 0;
    const rising = () => (++calls <= 1 ? 0.5 : 50); // the guard sees 0.5, the watcher then 50
    const run = await startBenchmark(req({ profile: 'async-write-4k', target: { kind: 'path', dir }, runtimeS: 20, maxLoad1: 4 }), { db: s.db, readLoad: rising });
    expect(run.summary.status).toBe('aborted');
    expect(run.message).toMatch(/1-minute load 50\.00 rose above the limit 4/);
    expect(run.summary.wallSeconds!).toBeLessThan(10);
    expect(readdirSync(dir)).toEqual([]);
    expect(fioProcessesFor(dir)).toEqual([]);
    // fio's own threads count in the load, but a request for 256 writers gets no more allowance than 16.
    calls = 0;
    const many = await startBenchmark(req({ profile: 'async-write-4k', target: { kind: 'path', dir }, runtimeS: 20, maxLoad1: 4, iodepth: 256 }), { db: s.db, readLoad: rising });
    expect(many.summary.status).toBe('aborted');
    expect(many.message).toMatch(/1-minute load 50\.00 rose above the limit 4 plus 16 for the run's own fio threads/);
    expect(readdirSync(dir)).toEqual([]);
    expect(fioProcessesFor(dir)).toEqual([]);
  }, 60_000);

  it.runIf(live)('stops at the hard wall-clock cap and cleans up', async () => {
    const s = await store();
    const dir = tmpDir();
    // The cap covers layout + run; fio cannot finish a 3 s run inside 3 s of wall time.
    const run = await startBenchmark(req({ profile: 'async-write-4k', target: { kind: 'path', dir }, runtimeS: 3, wallCapS: 3 }), { db: s.db });
    expect(run.summary.status).toBe('aborted');
    expect(run.message).toBe('hard wall-clock cap of 3 s reached');
    expect(readdirSync(dir)).toEqual([]);
    expect(fioProcessesFor(dir)).toEqual([]);
    expect(lockHolder(s.db)).toBeNull();
  }, 60_000);

  it.runIf(live)('stops fio and cleans up when the caller aborts (SIGINT/SIGTERM path)', async () => {
    const s = await store();
    const dir = tmpDir();
    const ac = new AbortController();
    const run = await startBenchmark(req({ profile: 'sync-write-4k-qd1', target: { kind: 'path', dir }, runtimeS: 30 }), {
      db: s.db, signal: ac.signal, onProgress: (e) => { if (e.phase === 'run' && e.iops !== null) ac.abort(); },
    });
    expect(run.summary.status).toBe('aborted');
    expect(run.message).toMatch(/stopped by request/);
    expect(run.summary.notes.join(' ')).toMatch(/partial result/);
    expect(run.summary.writeIops).toBeGreaterThan(0);
    expect(existsSync(join(dir, `zfs-advisor-bench-${run.summary.id}`))).toBe(false);
    expect(fioProcessesFor(dir)).toEqual([]);
  }, 60_000);
});

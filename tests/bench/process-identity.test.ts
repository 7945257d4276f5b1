/**
 * Recovery after a power loss: a run or lock recorded by a process of an earlier boot, or by a
 * process whose pid was reused (another start time), is dead even though kill(pid, 0) succeeds.
 * The "reused pid" is this test process's own pid, recorded with another boot id or start time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  bootIdFromKernBoottime, liveProbe, readBootId, readStartTime, recordedProcessLiveness, startTimeFromProcStat,
  type LivenessProbe,
} from '../../server/src/bench/process-identity.ts';
import { recoverAbandoned } from '../../server/src/bench/recover.ts';
import { acquireLock, getRun, insertRun, journalAdd, journalOpen, lockHolder, type LockHolder, type RunRow } from '../../server/src/bench/store.ts';
import { dryRun } from '../../server/src/bench/run.ts';
import { freshStore, req, tmpDir, removeTempDirs } from './support.ts';

afterAll(() => removeTempDirs(), 60_000);
const linux = existsSync('/proc/sys/kernel/random/boot_id');
if (!linux && process.env.CI === 'true') throw new Error('the process-identity tests need Linux /proc under CI');
const OTHER_BOOT = '00000000-1111-2222-3333-444444444444';

describe('process identity, pure', () => {
  it('reads field 22 (starttime) of /proc/<pid>/stat, counting after the last ")"', () => {
    // Hand-built stat line: comm "(a) b)" has a space and a ")"; fields 3..22 follow, starttime = 987654.
    const fields3to22 = ['S', '1', '2', '3', '0', '-1', '4194560', '100', '0', '0', '0', '5', '6', '0', '0', '20', '0', '1', '0', '987654'];
    const line = `4242 ((a) b)) ${fields3to22.join(' ')} 12345678 1024 18446744073709551615`;
    expect(startTimeFromProcStat(line)).toBe('987654');
    expect(startTimeFromProcStat('4242 (short) S 1 2')).toBeNull();
    expect(startTimeFromProcStat('garbage')).toBeNull();
  });

  it('reads FreeBSD kern.boottime as a boot id', () => {
    // The format FreeBSD/macOS sysctl prints: "{ sec = N, usec = M } <date>".
    expect(bootIdFromKernBoottime('{ sec = 1634047554, usec = 237429 } Tue Oct 12 08:05:54 2021')).toBe('boottime:1634047554.237429');
    expect(bootIdFromKernBoottime('kern.boottime: { sec = 1459009875, usec = 0 }')).toBe('boottime:1459009875.0');
    expect(bootIdFromKernBoottime('unknown oid')).toBeNull();
  });

  const probe = (over: Partial<LivenessProbe> = {}): LivenessProbe => ({
    bootId: 'boot-now', pidAlive: () => true, startTimeOf: () => '500', ...over,
  });

  it('treats another boot, a gone pid, or another start time as dead', () => {
    const rec = { pid: 77, bootId: 'boot-now', startTime: '500' };
    expect(recordedProcessLiveness(rec, probe())).toEqual({ alive: true });
    const reboot = recordedProcessLiveness({ ...rec, bootId: 'boot-before' }, probe());
    expect(reboot.alive).toBe(false);
    expect(!reboot.alive && reboot.why).toMatch(/earlier boot/);
    const gone = recordedProcessLiveness(rec, probe({ pidAlive: () => false }));
    expect(!gone.alive && gone.why).toBe('process 77 ended');
    const reused = recordedProcessLiveness(rec, probe({ startTimeOf: () => '900' }));
    expect(!reused.alive && reused.why).toMatch(/pid 77 now belongs to another process \(start time 900, recorded 500\)/);
  });

  it('falls back to the pid check for rows written before the identity was recorded', () => {
    const old = { pid: 77, bootId: null, startTime: null };
    expect(recordedProcessLiveness(old, probe({ bootId: 'x', startTimeOf: () => '1' })).alive).toBe(true);
    expect(recordedProcessLiveness(old, probe({ pidAlive: () => false })).alive).toBe(false);
  });
});

describe('recovery with a reused pid (live store)', () => {
  const row = (over: Partial<RunRow>): Omit<RunRow, 'endedAt' | 'message'> => ({
    id: 'a1b2c3d4e5f6', profile: 'rand-read-4k', targetKind: 'path', target: '/x', pool: null, status: 'running',
    startedAt: new Date().toISOString(), pid: process.pid, host: hostname(), sizeBytes: 1, runtimeS: 1,
    bootId: null, procStart: null, ...over,
  });

  it('migration 0004 adds the identity columns to runs and the lock', async () => {
    const s = await freshStore();
    try {
      const cols = (t: string) => (s.db.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((c) => c.name);
      expect(cols('bench_runs')).toEqual(expect.arrayContaining(['boot_id', 'proc_start']));
      expect(cols('bench_lock')).toEqual(expect.arrayContaining(['boot_id', 'proc_start']));
    } finally { s.close(); }
  });

  it.runIf(linux)('reads this boot id and this process start time from /proc', async () => {
    expect(await readBootId()).toBe(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
    expect(readStartTime(process.pid)).toMatch(/^\d+$/);
    expect(readStartTime(2 ** 30)).toBeNull();
  });

  it.runIf(linux)('cleans up and aborts a run whose pid is alive but belongs to an earlier boot', async () => {
    const s = await freshStore();
    const dir = tmpDir();
    try {
      const probe = await liveProbe();
      const id = 'a1b2c3d4e5f6';
      insertRun(s.db, row({ id, target: join(dir, `zfs-advisor-bench-${id}`), bootId: OTHER_BOOT, procStart: readStartTime(process.pid) }));
      const leftover = join(dir, `zfs-advisor-bench-${id}`);
      journalAdd(s.db, id, 'directory', leftover);
      mkdirSync(leftover);
      // The lock too, held "by" this pid in the earlier boot.
      const h: LockHolder = { runId: id, pid: process.pid, host: hostname(), profile: 'rand-read-4k', target: leftover, acquiredAt: new Date().toISOString(), bootId: OTHER_BOOT, procStart: null };
      expect(acquireLock(s.db, h, () => false)).toEqual({ ok: true });

      const out = await recoverAbandoned(s.db, probe);
      expect(out.map((r) => [r.runId, r.clean])).toEqual([[id, true]]);
      expect(existsSync(leftover)).toBe(false);
      expect(journalOpen(s.db, id)).toEqual([]);
      const r = getRun(s.db, id)!;
      expect(r.status).toBe('aborted');
      expect(r.message).toMatch(/^abandoned: process \d+ ended without cleaning up \(process \d+ belonged to an earlier boot/);
      expect(lockHolder(s.db)).toBeNull();
    } finally { s.close(); }
  });

  it.runIf(linux)('treats the same boot but another start time as a reused pid, and a lock held that way as free', async () => {
    const s = await freshStore();
    const dir = tmpDir();
    try {
      const probe = await liveProbe();
      const id = 'b1b2c3d4e5f6';
      const realStart = readStartTime(process.pid)!;
      const fakeStart = String(Number(realStart) + 1);
      insertRun(s.db, row({ id, bootId: probe.bootId, procStart: fakeStart }));
      acquireLock(s.db, { runId: id, pid: process.pid, host: hostname(), profile: 'rand-read-4k', target: '/x', acquiredAt: new Date().toISOString(), bootId: probe.bootId, procStart: fakeStart }, () => false);
      // Before recovery a dry run already sees the lock as stale.
      const dr = await dryRun(req({ profile: 'async-write-4k', target: { kind: 'path', dir } }), { db: s.db });
      expect(dr.guards.find((g) => g.id === 'lock')?.ok).toBe(true);
      await recoverAbandoned(s.db, probe);
      expect(getRun(s.db, id)!.status).toBe('aborted');
      expect(getRun(s.db, id)!.message).toContain(`now belongs to another process (start time ${realStart}, recorded ${fakeStart})`);
      expect(lockHolder(s.db)).toBeNull();
    } finally { s.close(); }
  });

  it.runIf(linux)('leaves a run alone when boot id and start time match (this very process)', async () => {
    const s = await freshStore();
    try {
      const probe = await liveProbe();
      const id = 'c1b2c3d4e5f6';
      insertRun(s.db, row({ id, bootId: probe.bootId, procStart: readStartTime(process.pid) }));
      acquireLock(s.db, { runId: id, pid: process.pid, host: hostname(), profile: 'rand-read-4k', target: '/x', acquiredAt: new Date().toISOString(), bootId: probe.bootId, procStart: readStartTime(process.pid) }, () => false);
      expect(await recoverAbandoned(s.db, probe)).toEqual([]);
      expect(getRun(s.db, id)!.status).toBe('running');
      expect(lockHolder(s.db)?.runId).toBe(id);
    } finally { s.close(); }
  });
});

/**
 * The host-wide benchmark lock across data directories and processes: two real `zfs-advisor bench`
 * CLIs with different --data-dir (and so different stores) on the same machine — the second is
 * refused while the first runs. After a kill -9 the orphaned fio keeps writing until the next
 * invocation of any kind (here a --dry-run from the OTHER data directory) kills it, removes its
 * files, marks the run aborted in the first store and frees the lock.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { runCommand } from '../../server/src/exec/runner.ts';
import { acquireHostLock, HOST_LOCK_FILE, liveHostLockHolder, lockDirs, releaseHostLock, staleHostLocks } from '../../server/src/bench/host-lock.ts';
import { liveProbe } from '../../server/src/bench/process-identity.ts';
import { fioAvailable, fioProcessesFor } from '../bench/support.ts';

const CLI = join(import.meta.dirname, '..', '..', 'server', 'bin', 'zfs-advisor.js');
const dirs: string[] = [];
const tmp = (p: string) => { const d = mkdtempSync(join(tmpdir(), p)); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const owner = (runId: string, pid = process.pid, procStart: string | null = null) => ({
  runId, pid, host: hostname(), profile: 'sync-write-4k-qd1', target: '/x', acquiredAt: new Date().toISOString(), bootId: null, procStart,
});

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('host-wide lock (unit)', () => {
  it('lives under /run/lock by default, or where ZFS_ADVISOR_LOCK_DIR says', () => {
    expect(lockDirs({})[0]).toBe('/run/lock/zfs-advisor');
    expect(lockDirs({ ZFS_ADVISOR_LOCK_DIR: '/somewhere' })).toEqual(['/somewhere']);
    // Root never falls back to a temporary directory (anyone can create names there first).
    expect(lockDirs({}, 0)).toEqual(['/run/lock/zfs-advisor', '/var/run/zfs-advisor']);
    expect(lockDirs({}, 1000).at(-1)).toMatch(/zfs-advisor-lock-1000$/);
  });

  it('believes no lock directory another user could write: refuses to use it and says why', async () => {
    const probe = await liveProbe();
    const open = tmp('zfsa-lock-open-');
    chmodSync(open, 0o777);
    writeFileSync(join(open, HOST_LOCK_FILE), JSON.stringify(owner('planted')));
    expect(liveHostLockHolder(probe, [open])).toBeNull(); // a planted lock blocks nothing
    const r = acquireHostLock(owner('mine'), probe, [open]);
    expect(r).toMatchObject({ ok: false, holder: null });
    expect(!r.ok && r.message).toMatch(/lock directory cannot be trusted: .* is writable by its group or by others \(mode 777\)/);
    const link = join(tmp('zfsa-lock-link-'), 'lock');
    symlinkSync(tmp('zfsa-lock-target-'), link);
    const viaLink = acquireHostLock(owner('mine'), probe, [link]);
    expect(!viaLink.ok && viaLink.message).toMatch(/is a symlink/);
  });

  it('one holder at a time; a dead owner (ended, or pid reused) is stale and can be taken over', async () => {
    const d = [tmp('zfsa-lock-unit-')];
    const probe = await liveProbe();
    expect(acquireHostLock(owner('a'), probe, d)).toMatchObject({ ok: true });
    const second = acquireHostLock(owner('b'), probe, d);
    expect(second).toMatchObject({ ok: false, holder: { runId: 'a' } });
    expect(!second.ok && second.message).toMatch(/another benchmark is running on this host \(run a/);
    releaseHostLock('a', d);
    expect(existsSync(join(d[0]!, HOST_LOCK_FILE))).toBe(false);

    // A recorded owner whose pid now belongs to another process (different start time): stale.
    writeFileSync(join(d[0]!, HOST_LOCK_FILE), JSON.stringify(owner('old', process.pid, '1')));
    expect(liveHostLockHolder(probe, d)).toBeNull();
    expect(staleHostLocks(probe, d)).toHaveLength(1);
    expect(acquireHostLock(owner('c'), probe, d)).toMatchObject({ ok: true });
    releaseHostLock('c', d);
  });

  it('looks for holders in every candidate directory, so two users with different directories see each other', async () => {
    const a = tmp('zfsa-lock-a-');
    const b = tmp('zfsa-lock-b-');
    const probe = await liveProbe();
    expect(acquireHostLock(owner('in-b'), probe, [b])).toMatchObject({ ok: true });
    expect(acquireHostLock(owner('in-a'), probe, [a, b])).toMatchObject({ ok: false, holder: { runId: 'in-b' } });
    releaseHostLock('in-b', [b]);
    // A first choice that exists but is not a trustworthy directory is refused, with why (not skipped).
    const file = join(a, 'not-a-dir');
    writeFileSync(file, '');
    const r = acquireHostLock(owner('next'), probe, [file, b]);
    expect(!r.ok && r.message).toMatch(/not-a-dir is not a directory/);
    // One that cannot be created (no permission, a missing parent that cannot be made) falls through to the next.
    expect(acquireHostLock(owner('next'), probe, [join(file, 'sub'), b])).toMatchObject({ ok: true, file: join(b, HOST_LOCK_FILE) });
    releaseHostLock('next', [join(file, 'sub'), b]);
  });
});

const live = fioAvailable();

describe.runIf(live)('host-wide lock across two data directories (two real processes)', () => {
  it('refuses the second benchmark while the first runs, whatever its data directory', async () => {
    const lockDir = tmp('zfsa-lock-shared-');
    const env = { ...process.env, ZFS_ADVISOR_LOCK_DIR: lockDir, LC_ALL: 'C' };
    const [d1, d2, t1, t2] = [tmp('zfsa-data1-'), tmp('zfsa-data2-'), tmp('zfsa-target1-'), tmp('zfsa-target2-')];
    const first = spawn(process.execPath, [CLI, 'bench', 'sync-write-4k-qd1', '--path', t1, '--size', '8M', '--runtime', '6', '--max-load', '1000', '--data-dir', d1, '--json'], { env, stdio: 'ignore' });
    const firstDone = new Promise<number | null>((r) => first.on('exit', (code) => r(code)));
    try {
      await until('the first benchmark to take the lock', () => existsSync(join(lockDir, HOST_LOCK_FILE)));
      const second = await runCommand(process.execPath, [CLI, 'bench', 'sync-write-4k-qd1', '--path', t2, '--size', '8M', '--runtime', '1', '--max-load', '1000', '--data-dir', d2, '--json'], { env, timeoutMs: 60_000 });
      expect(second.exitCode).toBe(1);
      expect(second.stdout + second.stderr).toMatch(/another benchmark is running on this host/);
      expect(readdirSync(t2)).toEqual([]); // nothing was created for the refused run
    } finally {
      expect(await firstDone).toBe(0);
    }
    expect(existsSync(join(lockDir, HOST_LOCK_FILE))).toBe(false); // released at the end
  }, 120_000);

  it('after kill -9, a --dry-run from another data directory kills the orphaned fio and frees the lock; the first store cleans its files when next used', async () => {
    const lockDir = tmp('zfsa-lock-orphan-');
    const env = { ...process.env, ZFS_ADVISOR_LOCK_DIR: lockDir, LC_ALL: 'C' };
    const [d1, d2, t1] = [tmp('zfsa-data1-'), tmp('zfsa-data2-'), tmp('zfsa-target1-')];
    mkdirSync(join(d2, 'x'), { recursive: true });
    const first = spawn(process.execPath, [CLI, 'bench', 'sync-write-4k-qd1', '--path', t1, '--size', '8M', '--runtime', '60', '--max-load', '1000', '--data-dir', d1, '--json'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<void>((r) => first.on('exit', () => r()));
    // The measured run, not the layout (a layout fio ends by itself within a second).
    let phase = '';
    first.stderr!.on('data', (b: Buffer) => { for (const m of b.toString().matchAll(/"phase":"(\w+)"/g)) phase = m[1]!; });
    await until('fio to run', () => phase === 'run' && fioProcessesFor(t1).length > 0 && existsSync(join(lockDir, HOST_LOCK_FILE)));
    first.kill('SIGKILL');
    await exited;
    await new Promise((r) => setTimeout(r, 500));
    expect(fioProcessesFor(t1).length).toBeGreaterThan(0); // the orphan keeps writing until someone recovers

    const dry = await runCommand(process.execPath, [CLI, 'bench', 'sync-write-4k-qd1', '--path', t1, '--dry-run', '--data-dir', d2, '--json'], { env, timeoutMs: 60_000 });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/recovered abandoned run \S+ \(pid \d+\)/);
    expect(fioProcessesFor(t1)).toEqual([]);
    expect(existsSync(join(lockDir, HOST_LOCK_FILE))).toBe(false);
    // The lock names no store for another process to open: the run's own store cleans its files.
    expect(readdirSync(t1)).toHaveLength(1);
    const h = await runCommand(process.execPath, [CLI, 'bench', '--history', '--data-dir', d1, '--json'], { env, timeoutMs: 60_000 });
    const runs = JSON.parse(h.stdout) as { status: string; message: string | null }[];
    expect(runs.map((r) => r.status)).toEqual(['aborted']);
    expect(runs[0]!.message).toMatch(/^abandoned: process \d+ ended without cleaning up/);
    expect(readdirSync(t1)).toEqual([]);
  }, 120_000);
});

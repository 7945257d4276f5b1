/**
 * The HOST-WIDE benchmark lock: one benchmark per machine, whatever data directory (store) or
 * process runs it. The store's `bench_lock` row only covers one data directory, so two servers or
 * CLIs with different `--data-dir` used to benchmark the same disks at once.
 *
 * The lock is a file, `bench.lock`, in the first usable directory of
 *   $ZFS_ADVISOR_LOCK_DIR (alone, when set) | /run/lock/zfs-advisor | /var/run/zfs-advisor | $TMPDIR/zfs-advisor-lock
 * created atomically (written to a temporary file, then hard-linked to `bench.lock`, which fails
 * when it exists — so its content is always complete). It names its owner: run id, pid, boot id
 * and process start time (process-identity.ts), and the store whose journal holds the run's
 * leftovers. An owner that is gone (ended, earlier boot, pid reused) makes the lock stale:
 * recovery (recover.ts) cleans that store's leftovers, then breaks the lock. Every candidate
 * directory is read when looking for a holder, so a root server (/run/lock) and a user's CLI
 * (temporary directory) still see each other.
 *
 * Not flock(2): Node has no binding for it, and the runner runs programs, not fds. A lock file
 * with a verified owner gives the same guarantee for processes that die (kill -9, power loss).
 */
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { LivenessProbe } from './process-identity.ts';
import { recordedProcessLiveness } from './process-identity.ts';
import type { Database } from 'better-sqlite3';
import { acquireLock, releaseLock, type LockHolder } from './store.ts';

export const HOST_LOCK_FILE = 'bench.lock';

export const HostLockOwner = z.object({
  runId: z.string(),
  pid: z.number().int(),
  host: z.string(),
  profile: z.string(),
  target: z.string(),
  acquiredAt: z.string(),
  bootId: z.string().nullable(),
  procStart: z.string().nullable(),
  /** The SQLite file whose journal records this run's leftovers. */
  store: z.string().nullable(),
});
export type HostLockOwner = z.infer<typeof HostLockOwner>;

/** Where the lock may live, in order of preference. */
export function lockDirs(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  const forced = env.ZFS_ADVISOR_LOCK_DIR?.trim();
  if (forced) return [forced];
  return ['/run/lock/zfs-advisor', '/var/run/zfs-advisor', join(tmpdir(), 'zfs-advisor-lock')];
}

function readOwner(file: string): { text: string; owner: HostLockOwner | null } | null {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch { return null; }
  try {
    const r = HostLockOwner.safeParse(JSON.parse(text));
    return { text, owner: r.success ? r.data : null };
  } catch {
    return { text, owner: null };
  }
}

const alive = (o: HostLockOwner, probe: LivenessProbe) =>
  o.host !== hostname() || recordedProcessLiveness({ pid: o.pid, bootId: o.bootId, startTime: o.procStart }, probe).alive;

/** The live holder of the host-wide lock, if any (stale owners are not holders). */
export function liveHostLockHolder(probe: LivenessProbe, dirs = lockDirs()): LockHolder | null {
  for (const dir of dirs) {
    const r = readOwner(join(dir, HOST_LOCK_FILE));
    if (r?.owner && alive(r.owner, probe)) return r.owner;
  }
  return null;
}

/** Stale owners (process gone) found in the candidate directories, with their lock files. */
export function staleHostLocks(probe: LivenessProbe, dirs = lockDirs()): { file: string; owner: HostLockOwner | null }[] {
  const out: { file: string; owner: HostLockOwner | null }[] = [];
  for (const dir of dirs) {
    const file = join(dir, HOST_LOCK_FILE);
    const r = readOwner(file);
    // Unreadable content cannot name a live owner: the file was always written whole (link), so
    // only a foreign or corrupted file looks like this; it is treated as stale.
    if (r && (!r.owner || !alive(r.owner, probe))) out.push({ file, owner: r.owner });
  }
  return out;
}

/**
 * Removes a lock file if it still holds what was judged stale. The file is renamed away first
 * (atomic); if what was moved is not what was judged (another process took the lock in between),
 * it is linked back.
 */
export function breakHostLock(file: string, judged: HostLockOwner | null): boolean {
  const before = readOwner(file);
  if (!before || JSON.stringify(before.owner) !== JSON.stringify(judged)) return false;
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try { renameSync(file, aside); } catch { return false; }
  const moved = readOwner(aside);
  if (moved?.text !== before.text) {
    try { linkSync(aside, file); } catch { /* a newer lock exists: it stays */ }
    try { unlinkSync(aside); } catch { /* already gone */ }
    return false;
  }
  try { unlinkSync(aside); } catch { /* already gone */ }
  return true;
}

export type HostLockResult = { ok: true; file: string } | { ok: false; holder: LockHolder | null; message: string };

/** Takes the host-wide lock for `owner`; refuses when a live process holds it. */
export function acquireHostLock(owner: HostLockOwner, probe: LivenessProbe, dirs = lockDirs()): HostLockResult {
  const held = liveHostLockHolder(probe, dirs);
  if (held) return { ok: false, holder: held, message: heldMessage(held) };
  for (const s of staleHostLocks(probe, dirs)) breakHostLock(s.file, s.owner);
  const problems: string[] = [];
  for (const dir of dirs) {
    const file = join(dir, HOST_LOCK_FILE);
    const tmp = join(dir, `.${HOST_LOCK_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      writeFileSync(tmp, JSON.stringify(owner), { mode: 0o644, flag: 'wx' });
    } catch (err) {
      problems.push(`${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      continue;
    }
    try {
      linkSync(tmp, file);
      return { ok: true, file };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        const other = readOwner(file)?.owner ?? null;
        return { ok: false, holder: other, message: other ? heldMessage(other) : `refused: another benchmark just took the host-wide lock (${file})` };
      }
      problems.push(`${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    } finally {
      try { unlinkSync(tmp); } catch { /* gone */ }
    }
  }
  return { ok: false, holder: null, message: `refused: the host-wide benchmark lock could not be taken in any of ${dirs.join(', ')} (${problems.join('; ')})` };
}

/** Releases the lock if this process holds it for `runId`. */
export function releaseHostLock(runId: string, dirs = lockDirs()): void {
  for (const dir of dirs) {
    const file = join(dir, HOST_LOCK_FILE);
    const r = readOwner(file);
    if (r?.owner && r.owner.runId === runId && r.owner.pid === process.pid) breakHostLock(file, r.owner);
  }
}

export function heldMessage(h: LockHolder): string {
  return `refused: another benchmark is running on this host (run ${h.runId}, ${h.profile} on ${h.target}, pid ${h.pid} on ${h.host}, since ${h.acquiredAt})`;
}

/**
 * Both locks a run takes: the store's row (shown in that store's history and dry runs) and the
 * host-wide file. Same answer shape as the store's `acquireLock`, so the runner handles one.
 */
export function acquireBenchLock(db: Database, h: LockHolder, isStale: (holder: LockHolder) => boolean, probe: LivenessProbe): { ok: true } | { ok: false; holder: LockHolder } {
  const row = acquireLock(db, h, isStale);
  if (!row.ok) return row;
  const host = acquireHostLock({ ...h, store: db.name ?? null }, probe);
  if (host.ok) return row;
  releaseLock(db, h.runId);
  return { ok: false, holder: host.holder ?? { ...h, runId: 'unknown', target: host.message, pid: 0 } };
}

export function releaseBenchLock(db: Database, runId: string): void {
  releaseLock(db, runId);
  releaseHostLock(runId);
}

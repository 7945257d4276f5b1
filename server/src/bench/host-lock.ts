/**
 * The HOST-WIDE benchmark lock: one benchmark per machine, whatever data directory (store) or
 * process runs it. The store's `bench_lock` row only covers one data directory, so two servers or
 * CLIs with different `--data-dir` used to benchmark the same disks at once.
 *
 * The lock is a file, `bench.lock`, in the first usable directory of
 *   $ZFS_ADVISOR_LOCK_DIR (alone, when set) | /run/lock/zfs-advisor | /var/run/zfs-advisor
 *   | (not for root) $TMPDIR/zfs-advisor-lock-<uid>
 * created atomically (written to a temporary file, then hard-linked to `bench.lock`, which fails
 * when it exists — so its content is always complete). It names its owner: run id, pid, boot id
 * and process start time (process-identity.ts). An owner that is gone (ended, earlier boot, pid
 * reused) makes the lock stale: recovery (recover.ts) stops the owner's orphaned fio, then breaks
 * the lock; the owner's files are its own store's to clean (its journal) at that store's next use.
 *
 * Whose lock is believed (issue 25: a user could plant a lock that blocked every benchmark, or
 * named a store for root to open and act on): a lock directory counts only when it is a real
 * directory (not a symlink) owned by root or by this process's user, with no group/other write
 * permission (directoryTrust). A candidate that exists and fails this is refused with why, never
 * used; root never falls back to a temporary directory; and a lock never names a store or a path
 * to act on — only an owner to judge alive. A user's CLI still sees a root run's lock in
 * /run/lock; root no longer reads what users write.
 *
 * Not flock(2): Node has no binding for it, and the runner runs programs, not fds. A lock file
 * with a verified owner gives the same guarantee for processes that die (kill -9, power loss).
 */
import { linkSync, lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
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
});
export type HostLockOwner = z.infer<typeof HostLockOwner>;

/** Where the lock may live, in order of preference. */
export function lockDirs(env: Readonly<Record<string, string | undefined>> = process.env, uid = euid()): string[] {
  const forced = env.ZFS_ADVISOR_LOCK_DIR?.trim();
  if (forced) return [forced];
  const system = ['/run/lock/zfs-advisor', '/var/run/zfs-advisor'];
  // Root never trusts a temporary directory: any user can create names there first.
  return uid === 0 ? system : [...system, join(tmpdir(), `zfs-advisor-lock-${uid}`)];
}

function euid(): number { return process.geteuid?.() ?? 0; }

/**
 * Whether a lock directory may be believed: null when it may, else why not. Missing is
 * 'missing' (it may be created). Owned by root or by this user, a directory itself (not a link),
 * and not writable by group or others — else someone else could plant or remove the lock.
 */
export function directoryTrust(dir: string, uid = euid()): string | null {
  let st;
  try { st = lstatSync(dir); } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : `${dir} cannot be read (${code ?? String(err)})`;
  }
  if (st.isSymbolicLink()) return `${dir} is a symlink`;
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== 0 && st.uid !== uid) return `${dir} is owned by uid ${st.uid}, not by root${uid === 0 ? '' : ` or uid ${uid}`}`;
  if ((st.mode & 0o022) !== 0) return `${dir} is writable by its group or by others (mode ${(st.mode & 0o7777).toString(8)})`;
  return null;
}

const trusted = (dir: string) => directoryTrust(dir) === null;

function readOwner(file: string): { text: string; owner: HostLockOwner | null } | null {
  let text: string;
  try {
    // Only a regular file of root or this user is a lock; anything else in the directory is not
    // read (a directory made by the unit can still hold what an account left before it was made).
    const st = lstatSync(file);
    if (!st.isFile() || (st.uid !== 0 && st.uid !== euid())) return { text: '', owner: null };
    text = readFileSync(file, 'utf8');
  } catch { return null; }
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
    if (!trusted(dir)) continue;
    const r = readOwner(join(dir, HOST_LOCK_FILE));
    if (r?.owner && alive(r.owner, probe)) return r.owner;
  }
  return null;
}

/** Stale owners (process gone) found in the candidate directories, with their lock files. */
export function staleHostLocks(probe: LivenessProbe, dirs = lockDirs()): { file: string; owner: HostLockOwner | null }[] {
  const out: { file: string; owner: HostLockOwner | null }[] = [];
  for (const dir of dirs) {
    if (!trusted(dir)) continue;
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
      if (directoryTrust(dir) === 'missing') {
        // The shared places are root's to create: a user's CLI making /run/lock/zfs-advisor would
        // own it, and root would then (rightly) refuse it. Users lock in their own directory.
        if (euid() !== 0 && dirs.length > 1 && dir !== dirs.at(-1)) { problems.push(`${dir}: missing (root creates it)`); continue; }
        mkdirSync(dir, { recursive: true, mode: 0o755 });
      }
    } catch (err) {
      problems.push(`${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      continue;
    }
    const why = directoryTrust(dir);
    if (why !== null) {
      return { ok: false, holder: null, message: `refused: the host-wide benchmark lock directory cannot be trusted: ${why}; a local user may have made it to block or steer benchmarks — remove it (root recreates it owned by root, mode 755)` };
    }
    try {
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
    if (!trusted(dir)) continue;
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
export function acquireBenchLock(db: Database, h: LockHolder, isStale: (holder: LockHolder) => boolean, probe: LivenessProbe): { ok: true } | { ok: false; holder: LockHolder | null; message: string } {
  const row = acquireLock(db, h, isStale);
  if (!row.ok) return { ok: false, holder: row.holder, message: heldMessage(row.holder) };
  const host = acquireHostLock({ ...h }, probe);
  if (host.ok) return row;
  releaseLock(db, h.runId);
  // The refusal in its own words: a holder when there is one, else why the lock could not be
  // taken (an untrusted directory, …) — never a made-up holder ("run unknown … on refused: …").
  return { ok: false, holder: host.holder, message: host.message };
}

export function releaseBenchLock(db: Database, runId: string): void {
  releaseLock(db, runId);
  releaseHostLock(runId);
}

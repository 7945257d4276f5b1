/**
 * The sub-directory a path benchmark writes into, made so that no one who can write to the target
 * directory can redirect the run (the swap race: rename the new sub-directory after a check and
 * put a directory with a symlink `zfs-advisor-bench.dat → victim` in its place, and a root fio
 * opening the file BY NAME overwrites the victim).
 *
 * Node has no mkdirat/openat, but a path through `/proc/self/fd/N` is resolved by the kernel
 * through the open descriptor N (a "magic link": the inode, not a name), so
 * `mkdir("/proc/self/fd/N/name")` is `mkdirat(N, "name")`. Here:
 *
 *   1. the target directory is opened once, O_DIRECTORY|O_NOFOLLOW, and the descriptor's own path
 *      (readlink of /proc/self/fd/N) must be the directory that was checked — a swapped ancestor
 *      or a final symlink is refused;
 *   2. the run's sub-directory is created relative to that descriptor (mode 0700) and opened the
 *      same way; it must then be a directory owned by this process's user, writable by no group or
 *      others, and empty — so nothing in it can have been planted by anyone else, and no
 *      one else can add anything to it afterwards;
 *   3. fio gets the file as `/proc/<this pid>/fd/<sub-directory descriptor>/zfs-advisor-bench.dat`:
 *      the kernel resolves it through the descriptor, whatever the names now say, and the last
 *      step is a name inside a directory only this user can write. (fio must be able to unlink
 *      and create its file during layout, so a descriptor of the FILE itself would not do.)
 *   4. removal goes through the same descriptors: the files inside are removed relative to the
 *      sub-directory's descriptor, the sub-directory by its name relative to the parent's.
 *
 * After a crash (no descriptors any more) `removeRunDirectory` opens the journaled path with
 * O_NOFOLLOW and removes only the contents of a directory that has exactly the shape made here.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readlinkSync, rmdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BENCH_DIR_PREFIX } from './names.ts';

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
export const BENCH_FILE = 'zfs-advisor-bench.dat';

interface Anchored { parentFd: number; subFd: number; name: string; shown: string }

/** Descriptors of the runs of this process, by run id, until their directory is removed. */
const open = new Map<string, Anchored>();

const self = (fd: number, name?: string) => (name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`);
const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? String(err);
const euid = () => process.geteuid?.() ?? 0;

function closeQuietly(fd: number | null): void {
  if (fd === null) return;
  try { closeSync(fd); } catch { /* already closed */ }
}

/** Whether a directory descriptor is this user's and writable by no one else (so nothing in it is anyone else's). */
function ownPrivateDirectory(fd: number): boolean {
  const st = fstatSync(fd);
  return st.isDirectory() && st.uid === euid() && (st.mode & 0o022) === 0;
}

export type RunDirectory = { ok: true; workDir: string; filename: string; shown: string } | { ok: false; message: string };

/** Creates the run's sub-directory inside `realDir` (already a checked realpath). */
export function createRunDirectory(realDir: string, runId: string): RunDirectory {
  const name = `${BENCH_DIR_PREFIX}${runId}`;
  const shown = join(realDir, name);
  let parentFd: number | null = null;
  let subFd: number | null = null;
  const fail = (message: string): RunDirectory => { closeQuietly(subFd); closeQuietly(parentFd); return { ok: false, message }; };
  try {
    parentFd = openSync(realDir, DIR_FLAGS);
  } catch (err) {
    return fail(`cannot open ${realDir} (${code(err)}); refusing to write`);
  }
  if (readlinkSync(self(parentFd)) !== realDir) return fail(`${realDir} changed while it was being opened; refusing to write`);
  try {
    mkdirSync(self(parentFd, name), { mode: 0o700 }); // fails if anything already has the name
    subFd = openSync(self(parentFd, name), DIR_FLAGS);
  } catch (err) {
    return fail(`cannot create ${shown} (${code(err)}); refusing to write`);
  }
  if (!ownPrivateDirectory(subFd) || readdirSync(self(subFd)).length > 0) {
    return fail(`${shown} was replaced right after it was created; refusing to write`);
  }
  open.set(runId, { parentFd, subFd, name, shown });
  const workDir = `/proc/${process.pid}/fd/${subFd}`;
  return { ok: true, workDir, filename: join(workDir, BENCH_FILE), shown };
}

/** Whether `name` in the directory `parentFd` is still the directory open as `fd`. */
function sameDirectory(parentFd: number, name: string, fd: number): boolean {
  let now: number;
  try { now = openSync(self(parentFd, name), DIR_FLAGS); } catch { return false; }
  try {
    const a = fstatSync(now);
    const b = fstatSync(fd);
    return a.dev === b.dev && a.ino === b.ino;
  } finally { closeSync(now); }
}

/** Removes everything inside a run directory reached through `fd` (a private directory: nothing foreign can be in it). */
function emptyThrough(fd: number): void {
  for (const entry of readdirSync(self(fd))) rmSync(self(fd, entry), { recursive: true, force: true });
}

/**
 * Removes a run's directory: through this process's descriptors when it made it, else (recovery
 * after a crash) through a fresh O_NOFOLLOW descriptor of the journaled path.
 */
export function removeRunDirectory(dir: string, runId: string): { done: boolean; message: string } {
  const name = `${BENCH_DIR_PREFIX}${runId}`;
  if (basename(dir) !== name || !dir.startsWith('/')) return { done: true, message: `refused to remove "${dir}": not a benchmark directory` };
  const held = open.get(runId);
  try {
    if (held) {
      emptyThrough(held.subFd);
      if (!sameDirectory(held.parentFd, name, held.subFd)) {
        // Renamed by someone who can write the parent: ours is empty now, wherever it went; what
        // has the name now is not ours to remove.
        return { done: true, message: `emptied the run directory; it had been moved away from ${dir}, so it was left where it was moved` };
      }
      rmdirSync(self(held.parentFd, name));
      return { done: true, message: `removed ${dir}` };
    }
    let fd: number;
    try { fd = openSync(dir, DIR_FLAGS); } catch (err) {
      if (code(err) === 'ENOENT') return { done: true, message: `${dir} did not exist` };
      return { done: true, message: `left ${dir} alone: it is not a directory this app made (${code(err)})` };
    }
    try {
      if (!ownPrivateDirectory(fd)) return { done: true, message: `left ${dir} alone: it is not a directory this app made (owner or mode differ)` };
      emptyThrough(fd);
    } finally { closeSync(fd); }
    rmdirSync(dir); // never follows a symlink; at worst removes an empty directory of that name
    return { done: true, message: `removed ${dir}` };
  } catch (err) {
    return { done: false, message: `could not remove ${dir}: ${code(err)}` };
  } finally {
    if (held) { closeQuietly(held.subFd); closeQuietly(held.parentFd); open.delete(runId); }
  }
}

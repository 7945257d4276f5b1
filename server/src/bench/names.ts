/**
 * Validation of every name a benchmark request carries before it reaches a command line.
 * Why: a pool called `-f` or a path with `..` or a newline turns an argument into an option or
 * walks out of the place we promised to write to. Each check returns a message or null.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function common(kind: string, value: string): string | null {
  if (value.length === 0) return `${kind} is empty`;
  if (value.length > 1024) return `${kind} is longer than 1024 characters`;
  if (CONTROL.test(value)) return `${kind} contains a control character`;
  if (value.startsWith('-')) return `${kind} "${value}" starts with "-" (would be read as an option)`;
  return null;
}

/** A pool name as zpool accepts it: a letter first, then letters, digits, `_ - . :`. */
export function checkPoolName(name: string): string | null {
  const c = common('pool name', name);
  if (c) return c;
  if (!/^[A-Za-z][A-Za-z0-9_.:-]*$/.test(name)) return `pool name "${name}" has characters zpool does not allow (letters, digits, _ - . : only, a letter first)`;
  if (name.includes('..')) return `pool name "${name}" contains ".."`;
  if (name.length > 200) return 'pool name is too long';
  return null;
}

/** An absolute path with no `..` segment; symlinks are checked separately (realpath). */
export function checkPath(kind: string, path: string): string | null {
  const c = common(kind, path);
  if (c) return c;
  if (!path.startsWith('/')) return `${kind} "${path}" must be absolute`;
  if (path.split('/').includes('..')) return `${kind} "${path}" contains ".."`;
  return null;
}

/** A device node under /dev. */
export function checkDevicePath(path: string): string | null {
  const c = checkPath('device', path);
  if (c) return c;
  if (!/^\/dev\/[A-Za-z0-9._/:-]+$/.test(path)) return `device "${path}" is not a /dev node name`;
  return null;
}

export function checkSerial(serial: string): string | null {
  const c = common('serial', serial);
  if (c) return c;
  if (!/^[\x20-\x7e]+$/.test(serial)) return 'serial has non-printable characters';
  return null;
}

/** Run ids are ours, but journal entries come back from disk: check them before `zfs destroy`. */
export function checkRunId(id: string): string | null {
  return /^[a-z0-9]{8,32}$/.test(id) ? null : `run id "${id}" is malformed`;
}

/** The temporary dataset's name: the only dataset the app ever creates or destroys. */
export const BENCH_DATASET_PREFIX = 'zfs-advisor-bench-';
export const BENCH_DIR_PREFIX = 'zfs-advisor-bench-';

export function benchDatasetName(pool: string, runId: string): string {
  return `${pool}/${BENCH_DATASET_PREFIX}${runId}`;
}

/** True only for names of the exact shape benchDatasetName makes: guards every destroy. */
export function isBenchDatasetName(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash <= 0 || name.indexOf('/', slash + 1) !== -1) return false;
  const pool = name.slice(0, slash);
  const rest = name.slice(slash + 1);
  return checkPoolName(pool) === null && rest.startsWith(BENCH_DATASET_PREFIX)
    && checkRunId(rest.slice(BENCH_DATASET_PREFIX.length)) === null;
}

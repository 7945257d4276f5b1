/**
 * ZFS dataset-name check for names that reach `zfs get`/`zdb` (hostile input from the CLI and API).
 *
 * Why stricter than "looks like a path": a name such as `tank/../x` or `-o` must never be handed to
 * a ZFS tool or turned into a directory to walk. The rules follow OpenZFS `zfs_namecheck.c`:
 * components of alphanumerics and `_ - : . ` (space), separated by single `/`; the pool component
 * begins with a letter; no component is empty, `.` or `..`; no snapshot/bookmark (`@`, `#`); at most
 * 255 characters. `%` (reserved for temporary clones) and everything else is refused.
 */
export const MAX_DATASET_NAME_LENGTH = 255;

const COMPONENT = /^[A-Za-z0-9_.: -]+$/;
/** OpenZFS reserves these as pool names (vdev keywords). */
const RESERVED_POOLS = new Set(['mirror', 'raidz', 'raidz1', 'raidz2', 'raidz3', 'draid', 'spare', 'log', 'cache', 'special', 'dedup']);

/** null when `name` is a valid filesystem dataset name, else the reason in a few words. */
export function datasetNameProblem(name: string): string | null {
  if (name.length === 0) return 'empty name';
  if (name.length > MAX_DATASET_NAME_LENGTH) return `longer than ${MAX_DATASET_NAME_LENGTH} characters`;
  if (name.includes('@') || name.includes('#')) return 'snapshots and bookmarks cannot be walked';
  if (name.startsWith('/')) return 'starts with "/" (a path, not a dataset name)';
  if (name.endsWith('/')) return 'ends with "/"';
  if (name.includes('//')) return 'contains an empty component ("//")';
  const parts = name.split('/');
  for (const part of parts) {
    if (part === '.' || part === '..') return `contains a "${part}" component`;
    if (!COMPONENT.test(part)) return `component "${part}" has a character ZFS does not allow (only letters, digits, _ - : . and space)`;
  }
  const pool = parts[0]!;
  if (!/^[A-Za-z]/.test(pool)) return 'the pool name must begin with a letter';
  if (RESERVED_POOLS.has(pool) || /^c[0-9]/.test(pool)) return `"${pool}" is a reserved pool name`;
  return null;
}

/** A pool name: a dataset name without `/`. */
export function poolNameProblem(name: string): string | null {
  if (name.includes('/')) return 'a pool name has no "/"';
  return datasetNameProblem(name);
}

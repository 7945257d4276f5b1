/**
 * Where a benchmark started through the API may write: only into directories the OPERATOR listed
 * (`serve --bench-allow DIR`, ZFS_ADVISOR_BENCH_ALLOW; in container mode the bench directory,
 * `ZFS_ADVISOR_BENCH_DIR`, is the one place). No list, no path benchmarks through the API.
 *
 *   1. the requested path is judged on its letters first (normalised, `..` resolved), before
 *      anything on disk is looked at: outside every place is refused at once;
 *   2. inside a place, it is walked from the place's own descriptor one component at a time with
 *      O_DIRECTORY|O_NOFOLLOW (`/proc/self/fd/N/name`, Node's openat), so no symlink anywhere below
 *      the place is followed and the path that passes is its own realpath;
 *   3. every refusal reads the same whatever the file system holds (missing, a file, a link leading
 *      anywhere): it names the places and the path asked for, never what is there.
 * The runner then opens the directory again through a descriptor (bench/run-directory.ts), so a
 * swap after this check cannot redirect the run either.
 *
 * Container mode also refuses dataset, zvol and device targets: a container has no business
 * creating datasets or writing to raw devices.
 */
import { closeSync, constants, openSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, normalize, resolve } from 'node:path';
import type { BenchRequest } from './schemas.ts';

export type Confined = { ok: true; request: BenchRequest } | { ok: false; status: 400 | 403; message: string };

/** Resolves an operator-given directory once at start (it must exist and be a directory). */
export function resolvePlace(dir: string, what: string): { ok: true; dir: string } | { ok: false; message: string } {
  if (!isAbsolute(dir)) return { ok: false, message: `${what} "${dir}" must be an absolute path` };
  try {
    const real = realpathSync(dir);
    if (!statSync(real).isDirectory()) return { ok: false, message: `${what} ${dir} is not a directory` };
    return { ok: true, dir: real };
  } catch (err) {
    return { ok: false, message: `${what} ${dir} cannot be used: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
}

/** The container's benchmark directory (ZFS_ADVISOR_BENCH_DIR / --bench-dir). */
export function resolveBenchDir(dir: string): { ok: true; dir: string } | { ok: false; message: string } {
  if (!isAbsolute(dir)) return { ok: false, message: `the benchmark directory "${dir}" (ZFS_ADVISOR_BENCH_DIR / --bench-dir) must be an absolute path` };
  return resolvePlace(dir, 'the benchmark directory');
}

/** The operator's places for path benchmarks (--bench-allow), each resolved. */
export function resolveBenchPlaces(dirs: readonly string[]): { ok: true; dirs: string[] } | { ok: false; message: string } {
  const out: string[] = [];
  for (const d of dirs) {
    const r = resolvePlace(d, '--bench-allow');
    if (!r.ok) return r;
    out.push(r.dir);
  }
  return { ok: true, dirs: out };
}

const within = (path: string, dir: string) => dir === '/' || path === dir || path.startsWith(`${dir}/`);
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Whether `rest` (components below `place`) leads to a directory without following any symlink. */
function walkWithoutLinks(place: string, rest: string[]): boolean {
  let fd: number;
  try { fd = openSync(place, DIR_FLAGS); } catch { return false; }
  try {
    for (const name of rest) {
      const next = openSync(`/proc/self/fd/${fd}/${name}`, DIR_FLAGS);
      closeSync(fd);
      fd = next;
    }
    return true;
  } catch {
    return false;
  } finally {
    try { closeSync(fd); } catch { /* closed */ }
  }
}

/**
 * Checks a benchmark request against the places. `benchDir` (container mode) is the only place
 * and relative paths are taken relative to it. The request handed on carries the checked path.
 */
export function confineBenchRequest(request: BenchRequest, places: readonly string[], benchDir: string | null): Confined {
  const t = request.target;
  if (benchDir !== null && t.kind !== 'path') {
    return { ok: false, status: 400, message: `this server benchmarks only directories inside ${benchDir} (ZFS_ADVISOR_BENCH_DIR); ${t.kind} targets are refused — use {"kind": "path", "dir": "${benchDir}"}` };
  }
  if (t.kind !== 'path') return { ok: true, request };
  const allowed = benchDir !== null ? [benchDir] : places;
  if (allowed.length === 0) {
    return { ok: false, status: 403, message: 'refused: path benchmarks through the API are off on this server; its operator lists the directories they may write in with `serve --bench-allow DIR`' };
  }
  const literal = isAbsolute(t.dir) ? normalize(t.dir).replace(/(.)\/+$/, '$1') : benchDir !== null ? resolve(benchDir, t.dir) : null;
  const refusal: Confined = { ok: false, status: 403, message: `refused: path benchmarks write only into existing directories inside ${allowed.join(', ')}, reached without symlinks; "${t.dir}" is not one` };
  if (literal === null) return refusal;
  const place = allowed.filter((p) => within(literal, p)).sort((a, b) => b.length - a.length)[0];
  if (place === undefined) return refusal;
  const rest = literal.slice(place === '/' ? 1 : place.length + 1).split('/').filter((x) => x !== '');
  if (!walkWithoutLinks(place, rest)) return refusal;
  return { ok: true, request: { ...request, target: { kind: 'path', dir: literal } } };
}

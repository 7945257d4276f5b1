/**
 * Container mode confines benchmarks to one directory (`ZFS_ADVISOR_BENCH_DIR`, the dataset the
 * container has mounted at /bench): only path targets, and only at or below that directory once
 * every symlink is resolved. A container has no business creating datasets or writing to raw
 * devices, and a path that leads out of the mount (`..`, a symlink) would let a benchmark write
 * onto whatever else is mounted.
 *
 * Errors are values: `{ok: false, message}` becomes a 400 with that sentence.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import type { BenchRequest } from './schemas.ts';

export type Confined = { ok: true; request: BenchRequest } | { ok: false; message: string };

/** Resolves the configured directory once at start (it must exist and be a directory). */
export function resolveBenchDir(dir: string): { ok: true; dir: string } | { ok: false; message: string } {
  if (!isAbsolute(dir)) return { ok: false, message: `the benchmark directory "${dir}" (ZFS_ADVISOR_BENCH_DIR / --bench-dir) must be an absolute path` };
  try {
    const real = realpathSync(dir);
    if (!statSync(real).isDirectory()) return { ok: false, message: `the benchmark directory ${dir} is not a directory` };
    return { ok: true, dir: real };
  } catch (err) {
    return { ok: false, message: `the benchmark directory ${dir} cannot be used: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
}

/**
 * Checks a benchmark request against the confinement directory `benchDir` (already a realpath).
 * A relative `dir` is taken relative to `benchDir`. The request handed on carries the resolved
 * path, so the runner writes exactly where the check looked.
 */
export function confineToBenchDir(request: BenchRequest, benchDir: string): Confined {
  const t = request.target;
  if (t.kind !== 'path') {
    return { ok: false, message: `this server benchmarks only directories inside ${benchDir} (ZFS_ADVISOR_BENCH_DIR); ${t.kind} targets are refused — use {"kind": "path", "dir": "${benchDir}"}` };
  }
  const wanted = resolve(benchDir, t.dir);
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch (err) {
    return { ok: false, message: `the benchmark directory ${t.dir} does not exist or cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); it must be inside ${benchDir}` };
  }
  if (real !== benchDir && !real.startsWith(benchDir.endsWith(sep) ? benchDir : benchDir + sep)) {
    return { ok: false, message: `${t.dir} is outside the benchmark directory ${benchDir} (ZFS_ADVISOR_BENCH_DIR); benchmarks may write only inside it` };
  }
  try {
    if (!statSync(real).isDirectory()) return { ok: false, message: `${t.dir} is not a directory` };
  } catch (err) {
    return { ok: false, message: `${t.dir} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return { ok: true, request: { ...request, target: { kind: 'path', dir: real } } };
}

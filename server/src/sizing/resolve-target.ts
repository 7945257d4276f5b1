/**
 * `sizes PATH|DATASET`: a directory is walked as is; anything else is taken as a dataset name and
 * resolved to its mountpoint (and recordsize) with `zfs get` through the runner. Errors as values.
 *
 * A dataset is walked only when ZFS says it is mounted and its mountpoint is a real directory:
 * an unmounted dataset's mountpoint is just a directory of the parent file system (walking it
 * would measure the wrong data, usually nothing), and `none`/`legacy` have no path ZFS knows of.
 */
import { statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { resolve as absolutePath } from 'node:path';
import { describeFailure, runCommand } from '../exec/runner.ts';
import { datasetNameProblem } from './dataset-name.ts';

export interface ResolvedTarget {
  path: string;
  dataset: string | null;
  recordsize: number | null;
}

export type ResolveOutcome = { ok: true; value: ResolvedTarget } | { ok: false; message: string };

export interface ResolveOptions {
  /** 'path' and 'dataset' take the target only as that; 'auto' (default) tries a directory first. */
  kind?: 'auto' | 'path' | 'dataset';
  /** The runner (tests inject recorded `zfs get` output). */
  run?: typeof runCommand;
}

function resolvePath(target: string): ResolveOutcome | null {
  try {
    if (statSync(target).isDirectory()) return { ok: true, value: { path: target, dataset: null, recordsize: null } };
    return { ok: false, message: `${target} is not a directory` };
  } catch {
    return null;
  }
}

/** `zfs get -Hp -o property,value mounted,mountpoint,recordsize NAME` → the walkable mountpoint. */
export async function resolveDataset(name: string, run: typeof runCommand = runCommand): Promise<ResolveOutcome> {
  const problem = datasetNameProblem(name);
  if (problem) return { ok: false, message: `${JSON.stringify(name)} is not a valid ZFS dataset name (${problem}) and no such directory exists` };
  const r = await run('zfs', ['get', '-Hp', '-o', 'property,value', 'mounted,mountpoint,recordsize', name], { timeoutMs: 30_000 });
  const failure = describeFailure(r);
  if (failure) return { ok: false, message: failure };
  const props = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) props.set(line.slice(0, tab), line.slice(tab + 1));
  }
  const mountpoint = props.get('mountpoint');
  const mounted = props.get('mounted');
  if (mountpoint === undefined || mounted === undefined) {
    return { ok: false, message: `${name}: zfs get printed no mounted/mountpoint values (is it a volume or snapshot?)` };
  }
  if (mountpoint === 'none' || mountpoint === 'legacy' || mountpoint === '-' || !mountpoint.startsWith('/')) {
    return { ok: false, message: `${name} has mountpoint=${mountpoint}: ZFS knows no path to walk; mount it and pass the mounted directory instead (zfs-advisor sizes /path/to/mount)` };
  }
  if (mounted !== 'yes') {
    return { ok: false, message: `${name} is not mounted (mounted=${mounted}); its mountpoint ${mountpoint} holds none of its files — mount it (zfs mount ${name}) or pass the directory of a mounted copy` };
  }
  const rs = Number(props.get('recordsize'));
  return { ok: true, value: { path: mountpoint, dataset: name, recordsize: Number.isFinite(rs) && rs > 0 ? rs : null } };
}

/**
 * The dataset a directory lives on and its recordsize, best effort: OpenZFS `zfs list` accepts a
 * path of a mounted file system (made absolute: never an argument starting with "-"). null when it
 * is not on ZFS or zfs is unavailable.
 */
export async function datasetOfPath(path: string, run: typeof runCommand = runCommand): Promise<{ dataset: string; recordsize: number | null } | null> {
  const r = await run('zfs', ['list', '-H', '-p', '-o', 'name,recordsize', absolutePath(path)], { timeoutMs: 30_000 });
  if (describeFailure(r)) return null;
  const [name, rs] = (r.stdout.split('\n')[0] ?? '').split('\t');
  if (!name || datasetNameProblem(name)) return null;
  const recordsize = Number(rs);
  return { dataset: name, recordsize: Number.isFinite(recordsize) && recordsize > 0 ? recordsize : null };
}

export async function resolveTarget(target: string, opts: ResolveOptions = {}): Promise<ResolveOutcome> {
  const kind = opts.kind ?? 'auto';
  if (kind !== 'dataset') {
    const asPath = resolvePath(target);
    if (asPath) return asPath;
    if (kind === 'path') return { ok: false, message: `${target}: no such directory` };
  }
  return resolveDataset(target, opts.run);
}

/**
 * Low-priority mode for live NAS use: CPU nice 19 for this process, and the idle I/O class via
 * `ionice -c 3 -p PID`. Both are inherited by threads created later, so call it before the walk.
 */
export async function lowerOwnPriority(): Promise<string[]> {
  const notes: string[] = [];
  try { setPriority(0, 19); notes.push('CPU priority lowered to nice 19'); } catch (err) { notes.push(`could not lower CPU priority: ${(err as Error).message}`); }
  const r = await runCommand('ionice', ['-c', '3', '-p', String(process.pid)], { timeoutMs: 5_000 });
  const f = describeFailure(r);
  notes.push(f ? `ionice not applied: ${f}` : 'I/O class set to idle (ionice -c 3)');
  return notes;
}

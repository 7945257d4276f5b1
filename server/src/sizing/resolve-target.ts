/**
 * `sizes PATH|DATASET`: a directory is walked as is; anything else is taken as a dataset name and
 * resolved to its mountpoint (and recordsize) with `zfs get` through the runner. Errors as values.
 */
import { statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { describeFailure, runCommand } from '../exec/runner.ts';

export interface ResolvedTarget {
  path: string;
  dataset: string | null;
  recordsize: number | null;
}

const DATASET = /^[A-Za-z0-9][A-Za-z0-9_.:-]*(\/[A-Za-z0-9_.: -]+)*$/;

export async function resolveTarget(target: string): Promise<{ ok: true; value: ResolvedTarget } | { ok: false; message: string }> {
  try {
    if (statSync(target).isDirectory()) return { ok: true, value: { path: target, dataset: null, recordsize: null } };
    return { ok: false, message: `${target} is not a directory` };
  } catch {
    // Not a path on this machine: try it as a dataset.
  }
  if (!DATASET.test(target)) return { ok: false, message: `${target}: no such directory or dataset` };
  const r = await runCommand('zfs', ['get', '-Hp', '-o', 'property,value', 'mountpoint,recordsize', target], { timeoutMs: 30_000 });
  const failure = describeFailure(r);
  if (failure) return { ok: false, message: failure };
  const props = new Map(r.stdout.trim().split('\n').map((l) => l.split('\t') as [string, string]));
  const mp = props.get('mountpoint');
  if (!mp || mp === 'none' || mp === 'legacy' || mp === '-') return { ok: false, message: `${target} has no usable mountpoint (${mp ?? 'unknown'}); pass its mounted path instead` };
  const rs = Number(props.get('recordsize'));
  return { ok: true, value: { path: mp, dataset: target, recordsize: Number.isFinite(rs) && rs > 0 ? rs : null } };
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

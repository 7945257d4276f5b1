/**
 * For commands that read this host's ZFS: one quick `zpool list` through the runner, so a host
 * without ZFS gets one line saying so (and what to do) instead of a run full of raw failures.
 */
import { runCommand, type CommandResult } from '../../exec/runner.ts';
import { refusal } from './errors.ts';

export type ZfsProbe = { ok: true } | { ok: false; why: string };

export function describeProbe(r: CommandResult): ZfsProbe {
  if (r.error?.code === 'not-found') return { ok: false, why: 'this host has none (no zpool command)' };
  if (r.error) return { ok: false, why: `it does not answer (zpool list: ${r.error.message.split('\n')[0]})` };
  if (r.exitCode !== 0) {
    const first = r.stderr.trim().split('\n')[0] ?? '';
    return { ok: false, why: `it does not answer (zpool list exit ${r.exitCode}${first ? `: ${first}` : ''})` };
  }
  return { ok: true };
}

export async function probeZfs(run: typeof runCommand = runCommand): Promise<ZfsProbe> {
  return describeProbe(await run('zpool', ['list', '-H', '-o', 'name'], { timeoutMs: 15_000 }));
}

/** Throws the one-line refusal when this host has no working ZFS. */
export async function requireZfs(command: string, todo: string, run: typeof runCommand = runCommand): Promise<void> {
  const p = await probeZfs(run);
  if (!p.ok) throw refusal(`${command} needs ZFS on this host, and ${p.why}`, todo);
}

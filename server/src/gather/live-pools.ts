/**
 * This machine's pools as `zpool status` prints them now, for the freshness check
 * (jobs/freshness.ts): one command, no rules. `-P` for full device paths where the zpool has it
 * (zfs-fuse's does not: plain `zpool status` then), parsed by the same parser as the inventory's.
 */
import { runCommand } from '../exec/runner.ts';
import { parseZpoolStatus } from '../parsers/zpool-status.ts';
import type { PoolsReading } from '../freshness/layout.ts';

export async function readLivePools(): Promise<PoolsReading> {
  let why = '';
  for (const args of [['status', '-P'], ['status']]) {
    const r = await runCommand('zpool', args, { timeoutMs: 15_000 });
    if (r.exitCode === 0) {
      const parsed = parseZpoolStatus(r.stdout);
      return parsed.ok ? { ok: true, pools: parsed.value } : { ok: false, reason: `unreadable \`zpool ${args.join(' ')}\`: ${parsed.error.message}` };
    }
    why = (r.error?.message ?? r.stderr.trim().split('\n')[0]) || `exit ${r.exitCode}`;
  }
  return { ok: false, reason: `\`zpool status\` failed: ${why}` };
}

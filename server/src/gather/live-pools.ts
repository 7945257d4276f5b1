/**
 * This machine's pools as `zpool status` prints them now, for the freshness check
 * (jobs/freshness.ts): one request through the collectors' own runner (collect-local.ts `fulfil`:
 * the spellings in order, stopping at the first that works), parsed by the inventory's parser.
 * `-P` for full device paths where the zpool has it (zfs-fuse's does not: plain `zpool status`).
 */
import { fulfil } from './collect-local.ts';
import { parseZpoolStatus } from '../parsers/zpool-status.ts';
import type { PoolsReading } from '../freshness/layout.ts';

export async function readLivePools(): Promise<PoolsReading> {
  const out = await fulfil({ file: 'zpool-status.txt', commands: [{ program: 'zpool', args: ['status', '-P'] }, { program: 'zpool', args: ['status'] }] }, { timeoutMs: 15_000 });
  if (out.error || out.exitCode !== 0) return { ok: false, reason: `\`${out.command?.join(' ') ?? 'zpool status'}\` failed: ${out.error ?? (out.stderr.trim().split('\n')[0] || `exit ${out.exitCode}`)}` };
  const parsed = parseZpoolStatus(out.text);
  return parsed.ok ? { ok: true, pools: parsed.value } : { ok: false, reason: `unreadable \`${out.command?.join(' ')}\`: ${parsed.error.message}` };
}

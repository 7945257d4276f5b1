/**
 * What the guards need to know about a pool, read with zpool/zfs through the runner.
 * Works on OpenZFS 2.x (`zpool list -p`, `scan:` line) and on zfs-fuse 0.7 (human sizes only,
 * `scrub:` line, no `sync` property), see shared/samples/zfs-fuse/README.md.
 */
import { createHash } from 'node:crypto';
import { realExec, type BenchExec } from './exec.ts';
import { parseHumanNumber } from '../parsers/common.ts';

export interface PoolFacts {
  name: string;
  health: string;
  sizeBytes: number;
  allocBytes: number;
  /** Space a new dataset may use (zfs `available` of the pool's root dataset). */
  availableBytes: number;
  scan: 'scrub' | 'resilver' | null;
  /** Can `sync=always` be set on a dataset (false on zfs-fuse)? */
  syncProperty: boolean;
  /**
   * Can the platform make zvols? OpenZFS can; zfs-fuse 0.7 cannot (`zfs create -V` aborts with
   * "Function not implemented", shared/samples/zfs-fuse/README.md). Told apart by what zfs-fuse
   * also lacks: `zpool list -p` and the `sync` property.
   */
  zvols: boolean;
  topologyFingerprint: string | null;
}

export type PoolFactsResult = { ok: true; facts: PoolFacts } | { ok: false; message: string };

/** Parses one `zpool list -H [-p] -o name,size,allocated,free,health` line. */
export function parsePoolListLine(line: string): { name: string; size: number; alloc: number; health: string } | null {
  const f = line.split('\t');
  if (f.length < 5) return null;
  const size = parseHumanNumber(f[1]!);
  const alloc = parseHumanNumber(f[2]!);
  if (size === null || alloc === null) return null;
  return { name: f[0]!, size, alloc, health: f[4]!.trim() };
}

export function scanInProgress(statusText: string): 'scrub' | 'resilver' | null {
  const m = /\b(scrub|resilver) in progress\b/.exec(statusText);
  return m ? (m[1] as 'scrub' | 'resilver') : null;
}

export function stateOf(statusText: string): string | null {
  return /^\s*state:\s*(\S+)/m.exec(statusText)?.[1] ?? null;
}

/**
 * A fingerprint of the pool's vdev tree (names and nesting only: not states or counters), so a
 * run after adding a SLOG or special vdev is recognisably "after".
 */
export function topologyFingerprint(statusText: string): string | null {
  const lines = statusText.split('\n');
  const start = lines.findIndex((l) => /^\s*config:\s*$/.test(l));
  if (start < 0) return null;
  const tree: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (/^\s*errors:/.test(l)) break;
    if (l.trim() === '' || /^\s*NAME\s+STATE/.test(l)) continue;
    const indent = /^\s*/.exec(l.replace(/\t/g, '        '))![0].length;
    tree.push(`${indent}:${l.trim().split(/\s+/)[0]}`);
  }
  if (tree.length === 0) return null;
  return createHash('sha256').update(tree.join('\n')).digest('hex').slice(0, 16);
}

export async function readPoolFacts(pool: string, exec: BenchExec = realExec): Promise<PoolFactsResult> {
  const runCommand = exec.run;
  let list = await runCommand('zpool', ['list', '-H', '-p', '-o', 'name,size,allocated,free,health', pool]);
  if (list.error?.code === 'not-found') return { ok: false, message: 'zpool is not installed: no ZFS on this host' };
  const parsable = list.exitCode === 0;
  if (list.exitCode !== 0) list = await runCommand('zpool', ['list', '-H', '-o', 'name,size,allocated,free,health', pool]);
  if (list.exitCode !== 0) return { ok: false, message: `pool "${pool}" not found (${(list.stderr || list.error?.message || '').trim().split('\n')[0]})` };
  const parsedLine = parsePoolListLine(list.stdout.trim().split('\n')[0] ?? '');
  if (!parsedLine) return { ok: false, message: `cannot read zpool list output for "${pool}"` };
  const status = await runCommand('zpool', ['status', pool]);
  const avail = await runCommand('zfs', ['get', '-H', '-p', '-o', 'value', 'available', pool]);
  const availableBytes = parseHumanNumber(avail.stdout.trim());
  if (avail.exitCode !== 0 || availableBytes === null) return { ok: false, message: `cannot read the free space of ${pool} (zfs get available)` };
  const sync = await runCommand('zfs', ['get', '-H', '-o', 'value', 'sync', pool]);
  const syncProperty = sync.exitCode === 0 && /^(standard|always|disabled)$/.test(sync.stdout.trim());
  return {
    ok: true,
    facts: {
      name: parsedLine.name,
      health: stateOf(status.stdout) ?? parsedLine.health,
      sizeBytes: parsedLine.size,
      allocBytes: parsedLine.alloc,
      availableBytes,
      scan: scanInProgress(status.stdout),
      syncProperty,
      zvols: syncProperty && parsable,
      topologyFingerprint: topologyFingerprint(status.stdout),
    },
  };
}

/**
 * Where a size walk started through the API may go. A walk reads every directory entry below its
 * target, so an API caller must not point it at the machine's private or virtual trees:
 *
 *   - container mode (`--bench-dir`): only at or below the bench directory;
 *   - otherwise: only inside a MOUNTED ZFS dataset (`zfs list -o mountpoint,mounted`), or inside a
 *     directory the operator allowed (`--sizes-allow DIR`, ZFS_ADVISOR_SIZES_ALLOW) — the only way on
 *     a machine without ZFS;
 *   - never /proc, /sys, /dev, /run or /root (even on a root-on-ZFS system) unless allowed that way.
 * The target is judged after symlinks are resolved (realpath), so a link cannot lead out.
 * The CLI (`zfs-advisor sizes`) is the operator at their shell and is not confined.
 */
import { realpathSync } from 'node:fs';
import { runCommand } from '../exec/runner.ts';

export const NEVER_WALKED = ['/proc', '/sys', '/dev', '/run', '/root'] as const;

export interface SizesConfinement {
  benchDir: string | null;
  /** Operator-allowed directories (realpaths). */
  allow: readonly string[];
  /** Mountpoints of mounted ZFS file systems (read when needed). */
  zfsMountpoints(): Promise<string[]>;
}

const within = (path: string, dir: string) => dir === '/' || path === dir || path.startsWith(`${dir}/`);

/** Mountpoints of the mounted ZFS file systems of this machine ([] without ZFS). */
export async function mountedZfsMountpoints(): Promise<string[]> {
  const r = await runCommand('zfs', ['list', '-H', '-o', 'mountpoint,mounted', '-t', 'filesystem'], { timeoutMs: 20_000 });
  if (r.error || r.exitCode !== 0) return [];
  return r.stdout.split('\n').map((l) => l.split('\t')).filter((f) => f[1] === 'yes' && f[0]?.startsWith('/')).map((f) => f[0]!);
}

/** Resolves operator allow-list entries; an entry that does not exist is an error at start. */
export function resolveAllowList(dirs: readonly string[]): { ok: true; dirs: string[] } | { ok: false; message: string } {
  const out: string[] = [];
  for (const d of dirs) {
    try { out.push(realpathSync(d)); } catch { return { ok: false, message: `--sizes-allow ${d}: no such directory` }; }
  }
  return { ok: true, dirs: out };
}

/** null when the walk may go to `path` (absolute), else why not. */
export async function sizeWalkRefusal(path: string, c: SizesConfinement): Promise<string | null> {
  let real: string;
  try { real = realpathSync(path); } catch { return null; } // "no such directory" is the resolver's to say
  const led = real !== path ? ` (${path} leads to ${real})` : '';
  if (c.benchDir !== null) {
    return within(real, c.benchDir) ? null : `this server measures only inside its bench directory ${c.benchDir}; ${real} is outside it${led}`;
  }
  if (c.allow.some((d) => within(real, d))) return null;
  const forbidden = NEVER_WALKED.find((d) => within(real, d));
  if (forbidden) return `${real} is under ${forbidden}, which is never walked unless the operator allows it (serve --sizes-allow DIR)${led}`;
  const mounts = await c.zfsMountpoints();
  if (mounts.some((m) => within(real, m))) return null;
  return mounts.length === 0
    ? `${real} is not in an allowed directory: this machine has no mounted ZFS dataset, so size walks are limited to directories the operator allows (serve --sizes-allow DIR)${led}`
    : `${real} is not inside a mounted ZFS dataset; measure a dataset's directory, or have the operator allow this one (serve --sizes-allow DIR)${led}`;
}

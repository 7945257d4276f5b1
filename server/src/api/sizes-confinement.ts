/**
 * Where a size walk started through the API may go. A walk reads every directory entry below its
 * target, so an API caller must not point it at the machine's private or virtual trees:
 *
 *   - container mode (`--bench-dir`): only at or below the bench directory;
 *   - otherwise: only inside a MOUNTED ZFS dataset (`zfs list -o mountpoint,mounted`), or inside a
 *     directory the operator allowed (`--sizes-allow DIR`, ZFS_ADVISOR_SIZES_ALLOW) — the only way on
 *     a machine without ZFS;
 *   - never /proc, /sys, /dev, /run or /root (even on a root-on-ZFS system) unless allowed that way.
 * The target is judged on its literal path first, then after symlinks are resolved (realpath), so a
 * link cannot lead out; see sizeWalkRefusal for why such refusals all read the same.
 * The CLI (`zfs-advisor sizes`) is the operator at their shell and is not confined.
 */
import { realpathSync } from 'node:fs';
import { normalize } from 'node:path';
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

/** The places a walk may go, judged on a path's letters alone (no file system access). */
async function literalRefusal(path: string, c: SizesConfinement): Promise<string | null> {
  if (c.benchDir !== null) {
    return within(path, c.benchDir) ? null : `this server measures only inside its bench directory ${c.benchDir}; ${path} is outside it`;
  }
  if (c.allow.some((d) => within(path, d))) return null;
  const forbidden = NEVER_WALKED.find((d) => within(path, d));
  if (forbidden) return `${path} is under ${forbidden}, which is never walked unless the operator allows it (serve --sizes-allow DIR)`;
  const mounts = await c.zfsMountpoints();
  if (mounts.some((m) => within(path, m))) return null;
  return mounts.length === 0
    ? `${path} is not in an allowed directory: this machine has no mounted ZFS dataset, so size walks are limited to directories the operator allows (serve --sizes-allow DIR)`
    : `${path} is not inside a mounted ZFS dataset; measure a dataset's directory, or have the operator allow this one (serve --sizes-allow DIR)`;
}

/**
 * null when the walk may go to `path` (absolute), else why not. The places are checked on the
 * literal path first (normalised, before anything on disk is looked at), then on where it
 * resolves. Anything decided by the file system — the path does not exist, cannot be read, or a
 * link leads out — gets ONE answer that names neither the target nor whether it exists, so the
 * refusal is no oracle for files a caller may not see.
 */
export async function sizeWalkRefusal(path: string, c: SizesConfinement): Promise<string | null> {
  const literal = normalize(path);
  const first = await literalRefusal(literal, c);
  if (first) return first;
  let real: string | null = null;
  try { real = realpathSync(literal); } catch { /* the same answer as a link leading out */ }
  if (real !== null && (await literalRefusal(real, c)) === null) return null;
  return `${literal} is not an existing directory inside the places this server may measure`;
}

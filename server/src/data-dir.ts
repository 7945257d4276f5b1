import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The one data directory every command shares (server, bench history, reports):
 * `$ZFS_ADVISOR_DATA_DIR`, else `/var/lib/zfs-advisor` for root when usable,
 * else `~/.local/share/zfs-advisor`.
 */
export function defaultDataDir(): string {
  if (process.env.ZFS_ADVISOR_DATA_DIR) return process.env.ZFS_ADVISOR_DATA_DIR;
  const system = '/var/lib/zfs-advisor';
  if (process.getuid?.() === 0) {
    try {
      if (!existsSync(system)) mkdirSync(system, { recursive: true, mode: 0o700 });
      accessSync(system, constants.W_OK);
      return system;
    } catch { /* fall through to the user directory */ }
  }
  return join(process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'zfs-advisor');
}

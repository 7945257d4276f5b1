import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Where the data directory came from, so `zfs-advisor info` can say why it is that one. */
export type DataDirSource = 'option' | 'environment' | 'system' | 'user' | 'legacy-user';

export interface ResolvedDataDir {
  dir: string;
  source: DataDirSource;
  /** One sentence: which rule picked it. */
  why: string;
}

export const SYSTEM_DATA_DIR = '/var/lib/zfs-advisor';

export interface DataDirInputs {
  /** `--data-dir D` of the command, when given. */
  option?: string | undefined;
  env?: NodeJS.ProcessEnv;
  uid?: number | undefined;
  home?: string;
  /** Whether the system directory can be used (created when missing); injected by tests. */
  systemUsable?: (dir: string) => boolean;
}

function systemDirUsable(dir: string): boolean {
  try {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The one data directory every command and the server share (store, bench history, evidence,
 * reports), in this order: `--data-dir D`; `$ZFS_ADVISOR_DATA_DIR`; `/var/lib/zfs-advisor`
 * for root (when it can be created and written); else the user's state directory,
 * `$XDG_STATE_HOME/zfs-advisor` or `~/.local/state/zfs-advisor` (XDG: state that persists
 * between runs but is not worth backing up separately, like history).
 */
export function resolveDataDir(inputs: DataDirInputs = {}): ResolvedDataDir {
  const env = inputs.env ?? process.env;
  if (inputs.option) return { dir: resolve(inputs.option), source: 'option', why: 'given with --data-dir' };
  if (env.ZFS_ADVISOR_DATA_DIR) return { dir: resolve(env.ZFS_ADVISOR_DATA_DIR), source: 'environment', why: 'set by $ZFS_ADVISOR_DATA_DIR' };
  const uid = inputs.uid ?? process.getuid?.();
  if (uid === 0 && (inputs.systemUsable ?? systemDirUsable)(SYSTEM_DATA_DIR)) {
    return { dir: SYSTEM_DATA_DIR, source: 'system', why: 'running as root: the system data directory' };
  }
  const xdg = env.XDG_STATE_HOME;
  // The XDG spec says relative values are invalid and must be ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(inputs.home ?? homedir(), '.local', 'state');
  const dir = join(base, 'zfs-advisor');
  // Releases before 0.3 kept the user store in ~/.local/share: keep using it until the new one exists.
  const legacy = join(inputs.home ?? homedir(), '.local', 'share', 'zfs-advisor');
  if (!existsSync(dir) && existsSync(join(legacy, 'zfs-advisor.db'))) {
    return { dir: legacy, source: 'legacy-user', why: `the store of an earlier version, kept until ${dir} exists` };
  }
  const why = uid === 0 ? `running as root but ${SYSTEM_DATA_DIR} is not writable: the user state directory` : 'running as a normal user: the user state directory';
  return { dir, source: 'user', why };
}

/** The directory alone; `option` is the command's `--data-dir` value when it has one. */
export function defaultDataDir(option?: string): string {
  return resolveDataDir({ option }).dir;
}

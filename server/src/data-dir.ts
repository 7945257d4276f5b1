import { accessSync, constants, existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the data directory came from, so `zfs-advisor info` can say why it is that one. */
export type DataDirSource = 'option' | 'environment' | 'system' | 'user' | 'legacy-user';

export interface ResolvedDataDir {
  dir: string;
  source: DataDirSource;
  /** One sentence: which rule picked it. */
  why: string;
}

export const SYSTEM_DATA_DIR = '/var/lib/zfs-advisor';

/** The app's root (this file is server/src/data-dir.ts, in a checkout and when installed). */
const APP_ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** A source checkout (development: `npm start`, `npx zfs-advisor`, the tests) holds `.git`; an installed copy does not. */
export function isSourceCheckout(root: string = APP_ROOT): boolean {
  return existsSync(join(root, '.git'));
}

/** The rule, in words, for `zfs-advisor info` and the README. */
export const DATA_DIR_RULE = `--data-dir, else $ZFS_ADVISOR_DATA_DIR, else ${SYSTEM_DATA_DIR} for root running the installed program (the service's; never a source checkout, \`start\` or a demo run), else the user's state directory`;

export interface DataDirInputs {
  /** `--data-dir D` of the command, when given. */
  option?: string | undefined;
  env?: NodeJS.ProcessEnv;
  uid?: number | undefined;
  home?: string;
  /** Whether the system directory can be used (created when missing); injected by tests. */
  systemUsable?: (dir: string) => boolean;
  /** Whether the program runs from a source checkout (default: `.git` beside server/); injected by tests. */
  sourceCheckout?: boolean;
  /** Why this run keeps apart from the service's directory even as root (`start`, a demo run); absent for the service's own commands. */
  apart?: string;
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
 * for root running the installed program (when it can be created and written) — not from a
 * source checkout, not for `start` or a demo run (`apart`); else the user's state directory,
 * `$XDG_STATE_HOME/zfs-advisor` or `~/.local/state/zfs-advisor` (XDG: state that persists
 * between runs but is not worth backing up separately, like history).
 */
export function resolveDataDir(inputs: DataDirInputs = {}): ResolvedDataDir {
  const env = inputs.env ?? process.env;
  if (inputs.option) return { dir: resolve(inputs.option), source: 'option', why: 'given with --data-dir' };
  if (env.ZFS_ADVISOR_DATA_DIR) return { dir: resolve(env.ZFS_ADVISOR_DATA_DIR), source: 'environment', why: 'set by $ZFS_ADVISOR_DATA_DIR' };
  const uid = inputs.uid ?? process.getuid?.();
  // The system directory is the installed service's: development, `start` and demo runs as root
  // must not add their hosts, benchmarks and reports to what the service shows.
  const checkout = inputs.sourceCheckout ?? isSourceCheckout();
  const apartWhy = checkout ? `running as root from a source checkout: kept apart from the service's ${SYSTEM_DATA_DIR}` : inputs.apart ? `running as root, ${inputs.apart}: kept apart from the service's ${SYSTEM_DATA_DIR}` : null;
  if (uid === 0 && apartWhy === null && (inputs.systemUsable ?? systemDirUsable)(SYSTEM_DATA_DIR)) {
    return { dir: SYSTEM_DATA_DIR, source: 'system', why: 'running as root, the installed program: the service\'s data directory' };
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
  const why = uid !== 0 ? 'running as a normal user: the user state directory' : apartWhy ?? `running as root but ${SYSTEM_DATA_DIR} is not writable: the user state directory`;
  return { dir, source: 'user', why };
}

/** The directory alone; `option` is the command's `--data-dir` value when it has one. */
export function defaultDataDir(option?: string, apart?: string): string {
  return resolveDataDir({ option, apart }).dir;
}

/**
 * Why `dir` may not hold this process's secrets (token, store, socket), or null when it may:
 * a real directory (not a symlink) owned by this process's user (or root), not writable by its
 * group or others; and every directory above it owned by root or this user and not writable by
 * others unless sticky (like /tmp: others may create names there but not rename or remove ours).
 * A planted directory, or one a local user could swap, is refused with the reason.
 * `missing` when it does not exist (the caller creates it, 0700).
 */
export function privateDirProblem(dir: string, uid: number = process.geteuid?.() ?? 0): string | null {
  const abs = resolve(dir);
  let st;
  try { st = lstatSync(abs); } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    return `${abs} cannot be read (${code ?? String(err)})`;
  }
  if (st.isSymbolicLink()) return `${abs} is a symlink`;
  if (!st.isDirectory()) return `${abs} is not a directory`;
  if (st.uid !== uid && st.uid !== 0) return `${abs} is owned by uid ${st.uid}, not by ${uid === 0 ? 'root' : `root or uid ${uid}`}`;
  if ((st.mode & 0o022) !== 0) return `${abs} is writable by its group or by others (mode ${(st.mode & 0o7777).toString(8)})`;
  // The directories above it, as written and as they really are (a symlink on the way, like
  // /var/run -> /run, is fine when its owner is root or this user; its target is checked too).
  let real: string;
  try { real = realpathSync(dirname(abs)); } catch (err) { return `${dirname(abs)} cannot be resolved (${(err as NodeJS.ErrnoException).code ?? String(err)})`; }
  for (const start of new Set([dirname(abs), real])) {
    for (let p = start; ; p = dirname(p)) {
      let up;
      try { up = lstatSync(p); } catch (err) { return `${p} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`; }
      if (up.uid !== uid && up.uid !== 0) return `${p} (above ${abs}) is owned by uid ${up.uid}, who could swap what is below it`;
      if (!up.isSymbolicLink() && (up.mode & 0o1000) === 0) {
        if ((up.mode & 0o002) !== 0) return `${p} (above ${abs}) is writable by others without the sticky bit`;
        if ((up.mode & 0o020) !== 0 && up.gid !== 0) return `${p} (above ${abs}) is writable by group ${up.gid} without the sticky bit`;
      }
      if (p === dirname(p)) break;
    }
  }
  return null;
}

/** Creates `dir` (0700) when missing, then refuses it unless privateDirProblem() passes; the message says what to do. */
export function ensurePrivateDir(dir: string, what: string): { ok: true } | { ok: false; message: string } {
  let why = privateDirProblem(dir);
  if (why === 'missing') {
    try { mkdirSync(dir, { recursive: true, mode: 0o700 }); } catch (err) { return { ok: false, message: `cannot create the ${what} ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` }; }
    why = privateDirProblem(dir);
  }
  if (why === null) return { ok: true };
  return { ok: false, message: `refused: the ${what} ${resolve(dir)} cannot be trusted: ${why}; another account could plant or swap what the server reads there. Use a directory owned by this user, not writable by others (mode 0700), reached without symlinks` };
}

/**
 * A throw-away unprivileged local account for the attack tests: created with `useradd` when the
 * tests run as root, removed afterwards; commands run as it through `setpriv` (real and effective
 * ids of the account, no supplementary groups). Without root, setpriv or useradd the tests cannot
 * play a local attacker: under CI=true that is a failure, elsewhere a skip.
 */
import { accessSync, constants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';

export interface Ran { exitCode: number | null; stdout: string; stderr: string }

/** Test-side commands (useradd, setpriv) are not the app's: they do not go through its runner's allow-list. */
export function run(program: string, args: string[], opts: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: opts.timeoutMs ?? 60_000, env: opts.env ?? process.env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null) : 0;
      resolve({ exitCode: code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

function onPath(p: string): boolean {
  for (const d of ['/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    try { accessSync(`${d}/${p}`, constants.X_OK); return true; } catch { /* next */ }
  }
  return false;
}

/** Root, setpriv, useradd and userdel are there; under CI=true their absence is a failure. */
export function canPlayLocalUser(): boolean {
  const ok = process.getuid?.() === 0 && ['setpriv', 'useradd', 'userdel'].every(onPath);
  if (!ok && process.env.CI === 'true') throw new Error('the local-attacker tests need root, setpriv, useradd and userdel under CI');
  return ok;
}

export interface LocalUser {
  name: string;
  uid: number;
  gid: number;
  /** Runs argv as this user (no shell). */
  run(argv: string[], opts?: { timeoutMs?: number; env?: Record<string, string> }): Promise<Ran>;
  remove(): Promise<void>;
}

export async function createLocalUser(): Promise<LocalUser> {
  const name = `zfsadv-atk-${randomBytes(3).toString('hex')}`;
  const made = await run('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', '--user-group', name]);
  if (made.exitCode !== 0) throw new Error(`useradd ${name} failed: ${made.stderr}`);
  const id = await run('id', ['-u', name]);
  const gid = await run('id', ['-g', name]);
  const uid = Number(id.stdout.trim());
  const g = Number(gid.stdout.trim());
  return {
    name, uid, gid: g,
    run: (argv, opts = {}) => run('setpriv', ['--reuid', String(uid), '--regid', String(g), '--clear-groups', '--', ...argv],
      { timeoutMs: opts.timeoutMs ?? 60_000, env: { PATH: '/usr/bin:/bin', HOME: '/tmp', ...opts.env } }),
    remove: async () => { await run('userdel', [name]); },
  };
}

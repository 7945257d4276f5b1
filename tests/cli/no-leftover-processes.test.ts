/**
 * No child process outlives a CLI command (issue 21: every run once left a tsx/esbuild service
 * behind in its process group). Each command runs as the leader of its own process group; when
 * it has exited, `ps -g` must list nobody from that group — for the bundle (what the command runs
 * when built) and for the TypeScript sources (ZFS_ADVISOR_TSX=1), on success and on failure.
 * The bundle starts no helper process at all.
 */
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const BIN = join(root, 'server', 'bin', 'zfs-advisor.js');

/** What of process group `pgid` is still running (`ps` exits 1 when it lists nobody). */
async function running(pgid: number): Promise<string[]> {
  const out = await promisify(execFile)('ps', ['-o', 'pid=,stat=,args=', '-g', String(pgid)]).then((r) => r.stdout, () => '');
  // A zombie (stat Z) has ended; it only waits to be reaped, which this container's PID 1 does not do.
  return out.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^\d+\s+Z/.test(l));
}

/**
 * Runs the command in a new process group. Under tsx the esbuild service it started ends by itself
 * when its stdin closes with the command, within milliseconds: give the group up to a second.
 */
async function leftovers(args: string[], env: Record<string, string>): Promise<{ code: number | null; left: string[] }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: root, detached: true, stdio: ['ignore', 'ignore', 'ignore'], env: { ...process.env, ...env } });
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  let left = await running(child.pid!);
  for (let i = 0; i < 10 && left.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = await running(child.pid!);
  }
  return { code, left };
}

describe('no child process outlives a CLI command', () => {
  for (const [mode, env] of [['as installed (the bundle when built)', {}], ['from the sources (tsx)', { ZFS_ADVISOR_TSX: '1' }]] as const) {
    it(`${mode}: --version, inventory, assess, and a failing command leave nothing in their process group`, async () => {
      for (const [args, expected] of [
        [['--version'], 0],
        [['inventory', '--demo', '--json'], 0],
        [['assess', '--demo', '--json'], 0],
        [['inventory', '--snapshot', join(root, 'no-such-snapshot-dir')], 66],
      ] as const) {
        const r = await leftovers([...args], env);
        expect(r.left, args.join(' ')).toEqual([]);
        if (expected === 0) expect(r.code, args.join(' ')).toBe(0);
        else expect(r.code, args.join(' ')).not.toBe(0);
      }
    }, 120_000);
  }
});

/** Helpers for the live benchmark tests: fio availability, a fresh store, request building. */
import { accessSync, closeSync, constants, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../server/src/store/db.ts';
import { BenchRequest, type BenchRequestInput } from '../../server/src/bench/types.ts';
import { runCommand } from '../../server/src/exec/runner.ts';

function onPath(p: string): boolean {
  for (const d of (process.env.PATH ?? '').split(':').concat(['/usr/bin', '/usr/sbin'])) {
    try { accessSync(join(d, p), constants.X_OK); return true; } catch { /* next */ }
  }
  return false;
}

/** fio present; under CI=true its absence is a failure, not a skip. */
export function fioAvailable(): boolean {
  const ok = onPath('fio');
  if (!ok && process.env.CI === 'true') throw new Error('fio is not installed (required under CI)');
  return ok;
}

export function losetupAvailable(): boolean {
  const ok = process.getuid?.() === 0 && onPath('losetup') && onPath('blkid') && onPath('wipefs');
  if (!ok && process.env.CI === 'true') throw new Error('loop-device tests need root, losetup, blkid and wipefs under CI');
  return ok;
}

/**
 * A 64 MiB loop device over a sparse file `<name>.img` in `dir`, the file written first by `write`
 * when given (a signature, a partition table). The caller detaches it (`losetup -d`).
 */
export async function loopDevice(dir: string, name: string, write?: (fd: number) => void): Promise<string> {
  const file = join(dir, `${name}.img`);
  const t = await runCommand('truncate', ['-s', '64M', file]);
  if (t.exitCode !== 0) throw new Error(t.stderr);
  if (write) { const fd = openSync(file, 'r+'); write(fd); closeSync(fd); }
  const l = await runCommand('losetup', ['-f', '--show', file]);
  const dev = l.stdout.trim();
  if (l.exitCode !== 0 || !/^\/dev\/loop\d+$/.test(dev)) throw new Error(`losetup: ${l.stderr}`);
  return dev;
}

/** Temporary directories made by these helpers; each test file removes them in afterAll. */
const made: string[] = [];
export function removeTempDirs(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

export async function freshStore(): Promise<Store> {
  const dir = tempDir('zfs-advisor-bench-store-');
  const r = await openStore(dir);
  if (!r.ok) throw new Error(r.error.message);
  return r.store;
}

export function tmpDir(prefix = 'zfs-advisor-bench-target-'): string {
  return tempDir(prefix);
}

/** Requests for tests: tiny files, short runtimes, a load limit this shared machine never reaches. */
export function req(input: Partial<BenchRequestInput> & Pick<BenchRequestInput, 'profile' | 'target'>): BenchRequest {
  return BenchRequest.parse({ sizeBytes: 8 * 1024 * 1024, runtimeS: 1, maxLoad1: 1000, ...input });
}

/** Files a process holds open (fio gets a directory run's file through a descriptor path, so its command line does not name it). */
function openFiles(pid: string): string[] {
  try { return readdirSync(`/proc/${pid}/fd`).map((fd) => { try { return readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { return ''; } }); } catch { return []; }
}

/** Live fio processes writing to a file under `needle` (named on their command line or held open). */
export function fioProcessesFor(needle: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      if (cmd.startsWith('fio\0') && (cmd.includes(needle) || openFiles(e).some((f) => f.includes(needle))) && !/^\d+ \(.*\) Z/.test(stat)) out.push(Number(e));
    } catch { /* exited */ }
  }
  return out;
}

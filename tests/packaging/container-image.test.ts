/**
 * The TrueNAS app's image, built and started without a Docker daemon: buildah builds
 * plugin/docker/Dockerfile (chroot isolation, overlay storage in a private directory, on a
 * debootstrap Debian 12 base with this machine's Node — see support/image-build.ts for why no
 * registry image), skopeo reads the result back as an OCI archive, and podman starts it with the
 * compose file's settings (user, dropped capabilities, no-new-privileges, init, environment,
 * data and bench volumes, CPU and memory limits). The server answers /api/health, the image's own
 * HEALTHCHECK passes, and the image's size is written to test-artifacts/container-image.json.
 *
 * What podman needs on this kind of machine (found by trying): runc with the cgroupfs manager
 * (crun refuses this host's hybrid cgroup layout: "cgroups in hybrid mode not supported, drop
 * all controllers from cgroupv2"), and explicit ulimits (podman's default RLIMIT_NOFILE/NPROC
 * are above the host's hard limits: "setrlimit RLIMIT_NOFILE: Operation not permitted").
 */
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/support/server.ts';
import { buildAppImage, hostNofile, NPROC_LIMIT, privateStore, type BuildResult, type Store } from './support/image-build.ts';
import { mustTool, tool } from './support/tool.ts';

const REPO = join(import.meta.dirname, '..', '..');
const TOOLS = ['/usr/bin/buildah', '/usr/bin/podman', '/usr/bin/skopeo', '/usr/sbin/debootstrap', '/usr/sbin/runc', '/usr/libexec/podman/catatonit'];
const missing = TOOLS.filter((t) => !existsSync(t));
const isRoot = process.getuid?.() === 0;
const canRun = missing.length === 0 && isRoot;
if (process.env.CI === 'true' && !canRun) throw new Error(`the image test needs root and ${missing.join(', ')}`);

const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const env = Object.fromEntries(readFileSync(join(REPO, 'plugin', 'release.env'), 'utf8').split('\n')
  .map((l) => /^([A-Z_]+)=(.*)$/.exec(l)).filter((m): m is RegExpExecArray => m !== null).map((m) => [m[1]!, m[2]!.replace(/^"(.*)"$/, '$1')]));
const TAG = `${env.ZFS_ADVISOR_IMAGE}:${version}`;

interface ComposeService {
  user: string; cap_drop: string[]; security_opt: string[]; init: boolean; ports: string[];
  environment: Record<string, string>; volumes: { type: string; target: string }[];
  deploy: { resources: { limits: { cpus: string; memory: string } } };
}

describe.runIf(canRun)('container image (buildah build, podman run, no daemon)', () => {
  let work = '';
  let store: Store;
  let built: BuildResult;
  const podman = (args: string[], timeoutMs = 120_000) => tool('podman', [...store.args, '--runtime', 'runc', '--cgroup-manager', 'cgroupfs', ...args], { timeoutMs });

  beforeAll(async () => {
    work = mkdtempSync('/var/tmp/zfsa-image-');
    store = privateStore(work);
    built = await buildAppImage(store, REPO, TAG);
  }, 45 * 60_000);
  afterAll(async () => {
    if (work) {
      // podman removes its containers, images and overlay mounts itself; only then the directory goes.
      await tool('podman', [...store.args, 'system', 'reset', '--force'], { timeoutMs: 300_000 });
      // The overlay driver keeps its own directory mounted (private propagation): ours, inside `work`.
      const ours = readFileSync('/proc/mounts', 'utf8').split('\n').map((l) => l.split(' ')[1] ?? '').filter((m) => m.startsWith(`${work}/`)).sort().reverse();
      for (const m of ours) await tool('umount', [m]);
      if (!readFileSync('/proc/mounts', 'utf8').includes(` ${work}/`)) rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);

  it('is the Dockerfile\'s image: non-root user, port, health check, entrypoint, app files; its size is recorded', async () => {
    const archive = join(work, 'image.oci.tar');
    await mustTool('podman', [...store.args, 'save', '--format', 'oci-archive', '-o', archive, TAG], { timeoutMs: 600_000 });
    const inspect = JSON.parse(await mustTool('skopeo', ['inspect', '--config', `oci-archive:${archive}`], { timeoutMs: 120_000 })) as {
      config: { User: string; ExposedPorts: Record<string, object>; Entrypoint: string[]; Env: string[] };
    };
    expect(inspect.config.User).toBe('568:568');
    expect(Object.keys(inspect.config.ExposedPorts)).toEqual(['8077/tcp']);
    expect(inspect.config.Entrypoint).toEqual(['/usr/bin/tini', '--', '/app/plugin/docker/entrypoint.sh']);
    expect(inspect.config.Env).toEqual(expect.arrayContaining(['ZFS_ADVISOR_DATA_DIR=/data', 'ZFS_ADVISOR_BENCH_DIR=/bench', 'ZFS_ADVISOR_NO_DEMO=1']));
    // Docker format (buildah --format docker) keeps the HEALTHCHECK; OCI's config has no such field.
    const hc = JSON.parse((await podman(['image', 'inspect', '--format', '{{json .Config.Healthcheck}}', TAG])).stdout) as { Test?: string[] } | null;
    expect(hc?.Test?.join(' ')).toContain('/api/health');
    // The files the runtime needs, nothing of the build's toolchain.
    const files = await podman(['run', '--rm', '--ulimit', `nofile=${hostNofile()}`, '--ulimit', `nproc=${NPROC_LIMIT}`, '--entrypoint', '/bin/sh', TAG, '-c',
      'ls /app/dist/server.mjs /app/ui/dist/index.html /app/docs/kb /app/node_modules/better-sqlite3/build/Release/better_sqlite3.node; command -v g++ make python3 || true']);
    expect(files.code, files.stderr).toBe(0);
    // The programs the app runs work with the libraries the image carries (it has only those):
    // a small fio job, smartctl, nvme, and the native SQLite module in node.
    const programs = await podman(['run', '--rm', '--ulimit', `nofile=${hostNofile()}`, '--ulimit', `nproc=${NPROC_LIMIT}`, '--entrypoint', '/bin/sh', TAG, '-c',
      'fio --name=t --filename=/tmp/f --size=1M --rw=write --bs=4k --ioengine=psync --output-format=json >/dev/null && echo fio-ok; smartctl --version | head -n 1; nvme version; '
      + 'node -e "const D=require(\'/app/node_modules/better-sqlite3\');console.log(new D(\':memory:\').prepare(\'select 41+1 as x\').get().x)"']);
    expect(programs.code, programs.stderr).toBe(0);
    expect(programs.stdout).toMatch(/^fio-ok$/m);
    expect(programs.stdout).toMatch(/^smartctl \d/m);
    expect(programs.stdout).toMatch(/^nvme version/m);
    expect(programs.stdout).toMatch(/^42$/m);
    expect(files.stdout).toContain('/app/dist/server.mjs');
    expect(files.stdout).toContain('slog.md');
    expect(files.stdout).not.toMatch(/\/usr\/bin\/(g\+\+|make|python3)/);

    const bytes = Number((await podman(['image', 'inspect', '--format', '{{.Size}}', TAG])).stdout.trim());
    expect(bytes).toBeGreaterThan(100e6);
    // Issue 26: at most 250 MB (was 700 MB): only the runtime's programs and libraries, no apt, no npm.
    expect(bytes).toBeLessThanOrEqual(250e6);
    const record = { image: TAG, bytes, megabytes: Math.round(bytes / 1e6), ociArchiveBytes: Number((await mustTool('stat', ['-c', '%s', archive])).trim()), buildSeconds: built.seconds, builtAt: new Date().toISOString() };
    mkdirSync(join(REPO, 'test-artifacts'), { recursive: true });
    writeFileSync(join(REPO, 'test-artifacts', 'container-image.json'), `${JSON.stringify(record, null, 2)}\n`);
    console.log(`container image ${TAG}: ${record.megabytes} MB (base ${built.seconds.base.toFixed(0)} s, build ${built.seconds.build.toFixed(0)} s)`);
  }, 900_000);

  it('starts with the compose file\'s settings and answers /api/health; the image\'s HEALTHCHECK passes', async () => {
    const compose = parse(readFileSync(join(REPO, 'plugin', 'truenas', 'compose', 'zfs-advisor.yaml'), 'utf8')) as { services: Record<string, ComposeService> };
    const svc = compose.services['zfs-advisor']!;
    const [uid, gid] = svc.user.split(':').map(Number) as [number, number];
    const hostPort = await freePort();
    const containerPort = svc.ports[0]!.split(':').at(-1)!;
    const args = ['run', '--detach', '--name', `zfsa-${process.pid}`, '--user', svc.user,
      ...svc.cap_drop.flatMap((c) => ['--cap-drop', c]), ...svc.security_opt.flatMap((o) => ['--security-opt', o.replace(/:true$/, '')]),
      ...(svc.init ? ['--init'] : []),
      '--cpus', svc.deploy.resources.limits.cpus, '--memory', svc.deploy.resources.limits.memory,
      '--ulimit', `nofile=${hostNofile()}`, '--ulimit', `nproc=${NPROC_LIMIT}`,
      // Podman's own network (the compose file publishes 31077:8077): the same port mapping, on loopback and a free port.
      '--publish', `127.0.0.1:${hostPort}:${containerPort}`];
    // The app's settings (TRUENAS_* need a TrueNAS host to register with; there is none here).
    for (const [k, v] of Object.entries(svc.environment)) if (k.startsWith('ZFS_ADVISOR_')) args.push('--env', `${k}=${v}`);
    for (const v of svc.volumes) {
      const dir = join(work, `vol${v.target.replace(/\//g, '-')}`);
      mkdirSync(dir, { recursive: true });
      chownSync(dir, uid, gid);
      args.push('--volume', `${dir}:${v.target}`);
    }
    const run = await podman([...args, TAG]);
    expect(run.code, run.stderr).toBe(0);
    let health: unknown = null;
    for (let i = 0; i < 120 && health === null; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const res = await fetch(`http://127.0.0.1:${hostPort}/api/health`).catch(() => null);
      if (res?.ok) health = await res.json();
    }
    const logs = await podman(['logs', `zfsa-${process.pid}`]);
    expect(health, logs.stdout + logs.stderr).toMatchObject({ status: 'ok', version });
    // The image's HEALTHCHECK, run by podman inside the container.
    const hc = await podman(['healthcheck', 'run', `zfsa-${process.pid}`]);
    expect(hc.code, hc.stdout + hc.stderr).toBe(0);
    // It runs as 568 without capabilities, and wrote its database to the /data volume.
    const top = await podman(['exec', `zfsa-${process.pid}`, 'sh', '-c', 'id -u; grep CapEff /proc/1/status; grep CapEff /proc/self/status']);
    expect(top.stdout.split('\n')[0]).toBe(String(uid));
    expect(top.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect((await mustTool('find', [join(work, 'vol-data'), '-name', '*.db'])).trim()).not.toBe('');
    const stop = await podman(['stop', '--time', '20', `zfsa-${process.pid}`]);
    expect(stop.code, stop.stderr).toBe(0);
  }, 300_000);
});

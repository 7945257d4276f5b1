/**
 * Issue 25's attacks, played by an unprivileged local account (created for the test, commands run
 * through setpriv) against the server running as root on loopback. Each must be refused: no file
 * outside the run's directory changes, no benchmark outside the operator's places, no limit
 * loosened, no lock believed, no state changed by a GET, no existence oracle, no 500 from an absurd
 * number. (Loopback asks for no credential yet: what is tested is what a local caller can reach.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { fioAvailable } from '../bench/support.ts';
import { canPlayLocalUser, createLocalUser, type LocalUser } from './support/local-user.ts';

const CLIENT = join(import.meta.dirname, 'support', 'http-client.mjs');
const ATTACKER = join(import.meta.dirname, 'support', 'swap-attacker.mjs');
const live = canPlayLocalUser();
const dirs: string[] = [];
const tmp = (p: string) => { const d = mkdtempSync(join(tmpdir(), p)); dirs.push(d); return d; };
const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

let user: LocalUser;
let server: RunningServer;
let scratch: string; // the operator's place: a shared scratch directory every user may write (mode 1777)
let hostId: string;

/** One request as the attacker. */
async function asUser(method: string, path: string, body?: unknown): Promise<{ status: number; body: { error?: { message: string } } & Record<string, unknown> }> {
  const argv = ['node', CLIENT, server.url, method, path];
  if (body !== undefined) argv.push(JSON.stringify(body));
  const r = await user.run(argv);
  if (r.exitCode !== 0) throw new Error(`http client failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as never;
}
const message = (r: { body: { error?: { message: string } } }) => r.body.error?.message ?? '';

beforeAll(async () => {
  if (!live) return;
  user = await createLocalUser();
  scratch = tmp('zfsa-scratch-');
  chmodSync(scratch, 0o1777);
  // This machine as the local host (no demo), the scratch directory the operator's place for
  // benchmarks and size walks.
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp('zfsa-root-data-'), 'd'), demo: false, zfs: false, noDemo: true, uiDir: null, assessOnStart: false, logSink: () => {},
    benchAllow: [scratch], sizesAllow: [scratch], benchCeiling: { maxLoad1: 1000 } });
  if (!r.ok) throw new Error(r.message);
  server = r.server;
  const local = await fetch(new URL('api/hosts', server.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'local', name: 'here' }) });
  hostId = ((await local.json()) as { id: string }).id;
  // The operator's policy on this busy shared machine (the ceiling is 1000; the API may set up to it).
  await fetch(new URL('api/settings', server.url), { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ benchmark: { maxLoad1: 1000 } }) });
}, 120_000);
afterAll(async () => {
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await user?.remove();
});

const bench = (dir: string, extra: Record<string, unknown> = {}) => ({ profile: 'seq-write-1m', target: { kind: 'path', dir }, sizeBytes: 1048576, runtimeS: 2, ...extra });

describe.runIf(live)('a local user against the root service', () => {
  it('cannot benchmark outside the operator\'s places, nor through a link or `..`; every refusal reads the same', async () => {
    const mine = join(scratch, `u-${randomBytes(3).toString('hex')}`);
    expect((await user.run(['mkdir', mine])).exitCode).toBe(0);
    expect((await user.run(['ln', '-s', '/etc', join(mine, 'to-etc')])).exitCode).toBe(0);
    const refusals = new Set<string>();
    for (const dir of ['/etc', '/root', '/', '/dev/shm', join(mine, 'to-etc'), join(mine, 'to-etc', 'ssh'), `${mine}/../../etc`, 'relative']) {
      for (const route of ['dry-run', 'runs']) {
        const r = await asUser('POST', `/api/hosts/${hostId}/bench/${route}`, bench(dir));
        expect(r.status, `${route} ${dir}`).toBe(403);
        refusals.add(message(r).replace(`"${dir}"`, '"X"'));
      }
    }
    expect([...refusals]).toHaveLength(1);
    expect(readdirSync(mine)).toEqual(['to-etc']);
  });

  it.runIf(fioAvailable())('cannot redirect a benchmark it started in its own directory: the swap race leaves the victim untouched', async () => {
    const mine = join(scratch, `race-${randomBytes(3).toString('hex')}`);
    mkdirSync(mine);
    chownSync(mine, user.uid, user.gid);
    const safe = tmp('zfsa-victim-');
    chmodSync(safe, 0o755);
    const victim = join(safe, 'victim.bin');
    writeFileSync(victim, randomBytes(2 * 1024 * 1024), { mode: 0o644 });
    const before = sha(victim);
    const attacker = user.run(['node', ATTACKER, mine, victim, '8000'], { timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 300));
    const started = await asUser('POST', `/api/hosts/${hostId}/bench/runs`, bench(mine));
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const runId = started.body.runId as string;
    for (let i = 0; i < 120; i++) {
      const v = await fetch(new URL(`api/bench/runs/${runId}`, server.url));
      if (((await v.json()) as { status: string }).status !== 'running') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const swaps = Number((await attacker).stdout.trim());
    expect(swaps).toBeGreaterThanOrEqual(1); // the attack really ran
    expect(sha(victim)).toBe(before);
    for (const e of readdirSync(mine)) if (statSync(join(mine, e)).uid === 0) expect(readdirSync(join(mine, e))).toEqual([]);
  }, 60_000);

  it('cannot loosen a benchmark limit past the operator\'s ceiling', async () => {
    const before = await asUser('GET', '/api/settings');
    const r = await asUser('PATCH', '/api/settings', { benchmark: { maxRuntimeSeconds: 3600, maxLoad1: 1000, maxPoolWriteWaitMs: 60000 } });
    expect(r.status).toBe(403);
    expect(message(r)).toMatch(/ceiling/);
    expect((await asUser('GET', '/api/settings')).body).toEqual(before.body);
    const dry = await asUser('POST', `/api/hosts/${hostId}/bench/dry-run`, bench(scratch, { runtimeS: 3600 }));
    expect(dry.status).toBe(400); // the body's own bounds and the policy both refuse it
  });

  it('cannot change state with a GET (reports are generated by POST only)', async () => {
    const kept = async () => ((await asUser('GET', `/api/hosts/${hostId}/reports`)).body as unknown as unknown[]).length;
    const before = await kept();
    for (let i = 0; i < 5; i++) expect((await asUser('GET', `/api/reports/json?host=${hostId}`)).status).toBe(404);
    expect(await kept()).toBe(before);
  });

  it('cannot plant a benchmark lock: a lock directory it made is not believed, and the refusal says why', async () => {
    const parent = tmp('zfsa-lockparent-');
    chmodSync(parent, 0o1777); // like /run/lock
    const lockDir = join(parent, 'zfs-advisor');
    expect((await user.run(['mkdir', lockDir])).exitCode).toBe(0);
    // A lock naming a live process (pid 1) and a store for root to open.
    const planted = JSON.stringify({ runId: 'planted', pid: 1, host: (await import('node:os')).hostname(), profile: 'x', target: '/', acquiredAt: new Date().toISOString(), bootId: null, procStart: null, store: '/tmp/evil.db' });
    expect((await user.run(['node', '-e', `require('fs').writeFileSync(${JSON.stringify(join(lockDir, 'bench.lock'))}, ${JSON.stringify(planted)})`])).exitCode).toBe(0);
    const saved = process.env.ZFS_ADVISOR_LOCK_DIR;
    process.env.ZFS_ADVISOR_LOCK_DIR = lockDir;
    try {
      const dry = await asUser('POST', `/api/hosts/${hostId}/bench/dry-run`, bench(scratch));
      expect(dry.status).toBe(200);
      const lockGuard = (dry.body.guards as { id: string; ok: boolean; message: string }[]).find((g) => g.id === 'lock');
      expect(lockGuard?.ok, lockGuard?.message).toBe(true); // the planted holder is not believed
      const run = await asUser('POST', `/api/hosts/${hostId}/bench/runs`, bench(scratch));
      expect(run.status).toBe(202);
      let final: { status: string; message?: string | null } = { status: 'running' };
      for (let i = 0; i < 120 && final.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 250));
        final = (await (await fetch(new URL(`api/bench/runs/${run.body.runId as string}`, server.url))).json()) as typeof final;
      }
      expect(JSON.stringify(final)).toMatch(/lock directory cannot be trusted: .*owned by uid \d+, not by root/);
      expect(JSON.stringify(final)).not.toMatch(/run unknown/); // the refusal in its own words (issue 35)
      expect(readFileSync(join(lockDir, 'bench.lock'), 'utf8')).toBe(planted); // nothing acted on it
    } finally {
      if (saved === undefined) delete process.env.ZFS_ADVISOR_LOCK_DIR; else process.env.ZFS_ADVISOR_LOCK_DIR = saved;
    }
  }, 60_000);

  it('learns nothing about files it may not see: existing and missing targets get the same answer', async () => {
    const mine = join(scratch, `o-${randomBytes(3).toString('hex')}`);
    expect((await user.run(['mkdir', mine])).exitCode).toBe(0);
    const secret = tmp('zfsa-secret-');
    chmodSync(secret, 0o700);
    mkdirSync(join(secret, 'exists'));
    expect((await user.run(['ln', '-s', join(secret, 'exists'), join(mine, 'a')])).exitCode).toBe(0);
    expect((await user.run(['ln', '-s', join(secret, 'missing'), join(mine, 'b')])).exitCode).toBe(0);
    const answers = async (route: string, body: (p: string) => unknown, paths: [string, string]) => {
      const [x, y] = await Promise.all(paths.map((p) => asUser('POST', route, body(p))));
      expect(x!.status).toBe(403);
      expect(y!.status).toBe(403);
      expect(message(x!).replace(paths[0], 'X')).toBe(message(y!).replace(paths[1], 'X'));
      expect(message(x!) + message(y!)).not.toContain(secret);
    };
    const sizes = `/api/hosts/${hostId}/sizes`;
    await answers(sizes, (path) => ({ path }), ['/root/.ssh/id_rsa', '/root/.ssh/no-such-key']);
    await answers(sizes, (path) => ({ path }), [join(mine, 'a'), join(mine, 'b')]);
    await answers(`/api/hosts/${hostId}/bench/dry-run`, (dir) => bench(dir as string), [join(mine, 'a'), join(mine, 'b')]);
    await answers(`/api/hosts/${hostId}/bench/dry-run`, (dir) => bench(dir as string), ['/root/.ssh', '/root/no-such-dir']);
    const cwd = await asUser('POST', sizes, { path: `/proc/${process.pid}/cwd` });
    expect(cwd.status).toBe(403);
    expect(message(cwd)).not.toContain(process.cwd());
  });

  it('gets a 400, never a 500, for absurd numbers', async () => {
    const r = await asUser('POST', '/api/plan/layouts', { disks: 2, diskBytes: 1e308 });
    expect(r.status).toBe(400);
  });
});

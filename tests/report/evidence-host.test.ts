/**
 * Evidence belongs to its host, and every command finds it in the one data directory:
 * - the resolver: --data-dir, $ZFS_ADVISOR_DATA_DIR, /var/lib/zfs-advisor for root, else the
 *   user's state directory ($XDG_STATE_HOME or ~/.local/state);
 * - a real non-root process resolves and reports that user directory (`zfs-advisor info`) and its
 *   `bench --history` finds a run stored there; the report's benchmark selection finds it for a
 *   live inventory of this machine;
 * - on a machine with stored local benchmarks, the demo's report — asked for with --demo, or
 *   shown because this machine has no ZFS — includes none of them, and runs another machine
 *   measured never appear.
 */
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveDataDir, SYSTEM_DATA_DIR } from '../../server/src/data-dir.ts';
import { localMachineId, machineIdentity } from '../../server/src/host-identity.ts';
import { openStore } from '../../server/src/store/db.ts';
import { finishRun, insertRun } from '../../server/src/bench/store.ts';
import { benchmarksFromStore } from '../../server/src/cli/commands/report.ts';
import { main } from '../../server/src/cli/main.ts';
import { FIXTURES } from './support.ts';

const REPO = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const tmp = (): string => { const d = mkdtempSync(join(tmpdir(), 'zfsa-evidence-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

interface HistoryRow { id: string; profile: string; targetKind: 'dataset'; target: string; pool: string | null; startedAt: string; sizeBytes: number; runtimeS: number; summary: unknown }
const fixtureRuns = (): HistoryRow[] => JSON.parse(readFileSync(join(FIXTURES, 'bench-history.json'), 'utf8')) as HistoryRow[];

/** A store in `dir` holding the fixture runs as this machine's completed runs; returns their ids. */
async function storeWithRuns(dir: string, otherMachine: string[] = []): Promise<string[]> {
  const opened = await openStore(dir);
  if (!opened.ok) throw new Error(opened.error.message);
  const db = opened.store.db;
  const ids: string[] = [];
  for (const r of fixtureRuns()) {
    insertRun(db, { id: r.id, profile: r.profile, targetKind: r.targetKind, target: r.target, pool: r.pool, status: 'running', startedAt: r.startedAt, pid: process.pid, host: 'this', sizeBytes: r.sizeBytes, runtimeS: r.runtimeS, bootId: null, procStart: null });
    finishRun(db, r.id, 'completed', null, { summary: r.summary, detail: {} } as never);
    ids.push(r.id);
  }
  for (const id of otherMachine) db.prepare('UPDATE bench_runs SET machine_id = ? WHERE id = ?').run('0123456789abcdef', id);
  opened.store.close();
  return ids;
}

async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    const code = await main(args, { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, stdin: async () => '', isTTY: false });
    return { code, out, err };
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

describe('one data directory', () => {
  it('resolves option, environment, root and user in that order', () => {
    expect(resolveDataDir({ option: '/srv/zfsa', env: { ZFS_ADVISOR_DATA_DIR: '/x' }, uid: 0 })).toMatchObject({ dir: '/srv/zfsa', source: 'option' });
    expect(resolveDataDir({ env: { ZFS_ADVISOR_DATA_DIR: '/x' }, uid: 0 })).toMatchObject({ dir: '/x', source: 'environment' });
    expect(resolveDataDir({ env: {}, uid: 0, sourceCheckout: false, systemUsable: () => true })).toMatchObject({ dir: SYSTEM_DATA_DIR, source: 'system' });
    expect(resolveDataDir({ env: {}, uid: 0, sourceCheckout: false, home: '/root', systemUsable: () => false })).toMatchObject({ dir: '/root/.local/state/zfs-advisor', source: 'user' });
    // The service's directory is the installed program's: a source checkout (npm start, the
    // tests), `start` and demo runs as root keep apart from it, and say why.
    const never = () => { throw new Error('the system directory must not even be created'); };
    expect(resolveDataDir({ env: {}, uid: 0, sourceCheckout: true, home: '/root', systemUsable: never })).toMatchObject({ dir: '/root/.local/state/zfs-advisor', source: 'user', why: expect.stringContaining('source checkout') });
    expect(resolveDataDir({ env: {}, uid: 0, sourceCheckout: false, apart: 'a demo run', home: '/root', systemUsable: never })).toMatchObject({ dir: '/root/.local/state/zfs-advisor', why: expect.stringContaining('a demo run') });
    // This very checkout is one.
    expect(resolveDataDir({ env: {}, uid: 0, home: '/root', systemUsable: never }).source).toBe('user');
    expect(resolveDataDir({ env: { XDG_STATE_HOME: '/home/u/st' }, uid: 1000, home: '/home/u' })).toMatchObject({ dir: '/home/u/st/zfs-advisor', source: 'user' });
    // A relative XDG_STATE_HOME is invalid by the spec and ignored.
    expect(resolveDataDir({ env: { XDG_STATE_HOME: 'rel' }, uid: 1000, home: '/home/u' }).dir).toBe('/home/u/.local/state/zfs-advisor');
  });

  it('keeps using an earlier version\'s user store (~/.local/share) until the new one exists', async () => {
    const home = tmp();
    await storeWithRuns(join(home, '.local', 'share', 'zfs-advisor'));
    expect(resolveDataDir({ env: {}, uid: 1000, home })).toMatchObject({ dir: join(home, '.local', 'share', 'zfs-advisor'), source: 'legacy-user' });
    mkdirSync(join(home, '.local', 'state', 'zfs-advisor'), { recursive: true });
    expect(resolveDataDir({ env: {}, uid: 1000, home }).source).toBe('user');
  });

  it('the machine id is stable, hashed, and falls back to the host name', () => {
    const a = machineIdentity();
    expect(a.id).toMatch(/^[0-9a-f]{16}$/);
    expect(machineIdentity().id).toBe(a.id);
    const raw = (() => { try { return readFileSync('/etc/machine-id', 'utf8').trim(); } catch { return ''; } })();
    if (raw) expect(a.id).not.toContain(raw.slice(0, 8));
    expect(machineIdentity(['/nonexistent'], () => 'nas1')).toEqual({ id: machineIdentity(['/nonexistent'], () => 'nas1').id, source: 'hostname' });
    expect(machineIdentity(['/nonexistent'], () => 'nas1').id).not.toBe(machineIdentity(['/nonexistent'], () => 'nas2').id);
  });

  const canDropPrivileges = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
  it.runIf(canDropPrivileges)('a non-root user: info names the user state directory and bench --history finds the run stored there', async () => {
    const home = tmp();
    chownSync(home, 65534, 65534);
    const env = { ...process.env, HOME: home, XDG_STATE_HOME: '', ZFS_ADVISOR_DATA_DIR: '' };
    delete (env as Record<string, string | undefined>).ZFS_ADVISOR_DATA_DIR;
    delete (env as Record<string, string | undefined>).XDG_STATE_HOME;
    const asUser = (args: string[]) => spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'node', join(REPO, 'server/bin/zfs-advisor.js'), ...args], { env, encoding: 'utf8', cwd: home, timeout: 120_000 });
    const info = asUser(['info', '--json']);
    expect(info.status, info.stderr).toBe(0);
    const parsed = JSON.parse(info.stdout) as { dataDir: string; dataDirSource: string; user: number };
    expect(parsed).toMatchObject({ dataDir: join(home, '.local', 'state', 'zfs-advisor'), dataDirSource: 'user', user: 65534 });
    // A run stored in that directory (as bench would store it) is found by the user's commands.
    const ids = await storeWithRuns(parsed.dataDir);
    spawnSync('chown', ['-R', '65534:65534', join(home, '.local')]);
    const hist = asUser(['bench', '--history', '--json']);
    expect(hist.status, hist.stderr).toBe(0);
    for (const id of ids) expect(hist.stdout).toContain(id);
    // And the report's selection takes them for a live inventory of this machine.
    const sel = await benchmarksFromStore(parsed.dataDir, { source: { kind: 'local', label: 'this', capturedAt: '', demo: false, redacted: false } });
    expect(sel.ok && sel.value.map((r) => (r as { id: string }).id).sort()).toEqual([...ids].sort());
  }, 240_000);
});

describe('evidence belongs to its host', () => {
  it('the demo report on a machine with stored local benchmarks includes none of them', async () => {
    const data = tmp();
    const ids = await storeWithRuns(data);
    expect(ids.length).toBeGreaterThan(0);
    for (const args of [['report', '--demo', '--format', 'json'], ['report', '--format', 'json']]) {
      const r = await cli([...args, '--data-dir', data, '--generated-at', '2026-01-01T00:00:00Z']);
      expect(r.code, r.err).toBe(0);
      const doc = JSON.parse(r.out) as { source: { demo: boolean; kind: string }; benchmarks: unknown[] };
      // Without flags this machine (no ZFS here) shows the demo: still none of its runs.
      if (doc.source.kind !== 'local') expect(doc.benchmarks, args.join(' ')).toEqual([]);
      else expect(doc.benchmarks.length).toBe(ids.length);
      for (const id of ids) if (doc.source.kind !== 'local') expect(r.out).not.toContain(id);
    }
    const md = await cli(['report', '--demo', '--format', 'md', '--data-dir', data]);
    expect(md.out).toContain('No benchmark of this host is recorded.');
  });

  it('a live report of this machine takes its own runs, and never a run another machine measured', async () => {
    const data = tmp();
    const [mine, other] = await storeWithRuns(data, [fixtureRuns()[1]!.id]);
    const local = { source: { kind: 'local' as const, label: 'this', capturedAt: '', demo: false, redacted: false } };
    const sel = await benchmarksFromStore(data, local);
    expect(sel.ok).toBe(true);
    const got = sel.ok ? sel.value.map((r) => (r as { id: string }).id) : [];
    expect(got).toContain(mine);
    expect(got).not.toContain(other);
    for (const kind of ['snapshot', 'truenas', 'proxmox', 'demo'] as const) {
      const s = await benchmarksFromStore(data, { source: { ...local.source, kind, demo: kind === 'demo' } });
      expect(s.ok && s.value, kind).toEqual([]);
    }
    // The run stored through the bench store carries this machine's id.
    const opened = await openStore(data);
    if (!opened.ok) throw new Error(opened.error.message);
    const row = opened.store.db.prepare('SELECT machine_id FROM bench_runs WHERE id = ?').get(mine) as { machine_id: string };
    opened.store.close();
    expect(row.machine_id).toBe(localMachineId());
  });
});

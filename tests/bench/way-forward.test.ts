/**
 * Every refusal says how to go on (issue 38 §3): who may change the limit, the exact setting or
 * flag, and what it risks — authored once (bench/way-forward.ts, model/usable.ts), carried as a
 * field of the refusal (a guard's `wayForward`, PlanRefused/JobError/HttpError `wayForward`), and
 * rendered by the CLI ("how to go on:") and the API (`error.wayForward`, also the end of `message`).
 * Pool states come from real `zpool status` outputs (tests/fixtures/bench).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateGuards, evaluateSuiteGuards, guardSentence, refusals, type GuardFacts } from '../../server/src/bench/guards.ts';
import { scanInProgress, stateOf, type PoolFacts } from '../../server/src/bench/pool-facts.ts';
import { applyBenchPolicy, raiseLimitSentence } from '../../server/src/api/bench-policy.ts';
import { guardLines } from '../../server/src/cli/commands/bench-format.ts';
import { HttpError, httpErrorOf } from '../../server/src/api/errors.ts';
import { JobError } from '../../server/src/model/jobs.ts';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { admitBenchStart } from '../../server/src/api/bench-admission.ts';
import { dryRun } from '../../server/src/bench/context.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', 'bench', name), 'utf8');
const GiB = 1024 ** 3;
const pool = (over: Partial<PoolFacts> = {}): PoolFacts => ({
  name: 'tank', health: 'ONLINE', sizeBytes: 100 * GiB, allocBytes: 10 * GiB, availableBytes: 80 * GiB,
  scan: null, syncProperty: true, zvols: true, topologyFingerprint: 'abc', ...over,
});
const facts = (over: Partial<GuardFacts> = {}): GuardFacts => ({
  nameProblems: [], sizeBytes: GiB, runtimeS: 30, wallCapS: 150, load1: 0.5, maxLoad1: 4, lock: null,
  pool: pool(), poolError: null, path: null, device: null, deviceError: null, confirmSerial: null, ...over,
});
const refused = (f: GuardFacts) => refusals(evaluateGuards(f));
const only = (f: GuardFacts) => { const r = refused(f); expect(r).toHaveLength(1); return r[0]!; };

describe('the load refusal says who may raise the limit, how, and what it risks', () => {
  it('from the CLI: the --max-load flag of this run', () => {
    const g = only(facts({ load1: 5.88, limitsFrom: 'cli' }));
    expect(g.message).toBe('refused: 1-minute load 5.88 is above the limit 4; a busy host gives meaningless numbers and the benchmark would slow its real work');
    expect(g.wayForward).toBe('Wait until the host is quieter (uptime shows the 1-minute load), or you may raise it for this run with --max-load 7. A higher limit lets the run start beside the host\'s own work: its numbers then measure a shared machine, and it slows that work (VMs, shares) while it runs');
    expect(evaluateGuards(facts({ load1: 5.88 })).find((x) => x.id === 'load')!.wayForward).toBe(g.wayForward); // the CLI is the default
  });

  it('from the server: the setting, who may change it, and the ceiling only root raises', () => {
    const g = only(facts({ load1: 5.88, limitsFrom: 'server' }));
    expect(g.wayForward).toBe('Wait until the host is quieter (uptime shows the 1-minute load), or whoever holds this server\'s API token may raise benchmark.maxLoad1 (PATCH /api/settings with {"benchmark":{"maxLoad1":7}}) up to the ceiling root gives the service; root raises that ceiling on the service\'s command line (serve --bench-max-load 7). A higher limit lets the run start beside the host\'s own work: its numbers then measure a shared machine, and it slows that work (VMs, shares) while it runs');
    expect(guardSentence(g)).toBe(`${g.message}. ${g.wayForward}.`);
  });

  it('a request shaped by the server\'s policy reaches the guard as such (dry run on a directory)', async () => {
    const policy = { maxRuntimeSeconds: 600, maxLoad1: 4, maxPoolWriteWaitMs: 2000 };
    const p = applyBenchPolicy({ profile: 'sync-write-4k-qd1', target: { kind: 'path', dir: tmpdir() }, sizeBytes: 16 * 2 ** 20, runtimeS: 5 } as never, policy);
    if (!p.ok) throw new Error(p.message);
    const load = (await dryRun(p.request, { readLoad: () => 5.88 })).guards.find((g) => g.id === 'load')!;
    expect(load.ok).toBe(false);
    expect(load.wayForward).toContain('benchmark.maxLoad1 (PATCH /api/settings');
    const cli = (await dryRun({ ...p.request, limitsFrom: undefined }, { readLoad: () => 5.88 })).guards.find((g) => g.id === 'load')!;
    expect(cli.wayForward).toContain('--max-load 7');
  });

  it('a guard that passes carries no way forward', () => {
    expect(evaluateGuards(facts()).every((g) => g.wayForward === undefined)).toBe(true);
  });
});

describe('pool-state refusals', () => {
  it('degraded (real zpool status): nobody waives it; repair first, with the command', () => {
    const g = only(facts({ pool: pool({ health: stateOf(fixture('zpool_status_DEGRADED_fmirror.txt'))! }) }));
    expect(g.id).toBe('pool-health');
    expect(g.wayForward).toBe('Nobody can waive this guard. Find the cause with zpool status -v tank and repair the pool first (root: zpool replace tank OLD NEW for a failed device, then let it resilver); benchmark once it is ONLINE');
  });

  it('scrub in progress (real zpool status): wait, or pause it with zpool scrub -p, and what that costs', () => {
    const g = only(facts({ pool: pool({ scan: scanInProgress(fixture('zpool_status_fbig_scrub_in_progress.txt')) }) }));
    expect(g.id).toBe('pool-scan');
    expect(g.wayForward).toBe('Wait for the scrub to finish (zpool status tank shows its progress), or root may pause it with zpool scrub -p tank and resume it afterwards with zpool scrub tank; a paused scrub leaves errors undetected for longer');
  });

  it('resilver: wait, never pause', () => {
    expect(only(facts({ pool: pool({ scan: 'resilver' }) })).wayForward).toMatch(/^Wait for the resilver to finish .* nobody can waive this guard, and a resilver is never worth slowing/);
  });

  it('nearly full: a smaller test or freed space; the 80 % line is fixed, and why', () => {
    const full = only(facts({ pool: pool({ allocBytes: 79.5 * GiB }), limitsFrom: 'cli' }));
    expect(full.id).toBe('pool-fill');
    expect(full.wayForward).toBe('Give a smaller test size (--size), or free space on tank (root: destroy old snapshots — zfs list -t snapshot -o name,used -s used tank lists them); the 80 % limit is fixed: above it ZFS allocates more slowly and the pool\'s own work suffers');
    const space = only(facts({ pool: pool({ availableBytes: 2.9 * GiB }), limitsFrom: 'server' }));
    expect(space.id).toBe('free-space');
    expect(space.wayForward).toMatch(/^Give a smaller test size \(the File size field, or sizeBytes\), or free space on the target; the factor 3 is fixed/);
  });
});

describe('the other limits', () => {
  it('wall-clock cap, lock, a device that is not blank, a suite over its total cap', () => {
    expect(only(facts({ runtimeS: 200, wallCapS: 150, limitsFrom: 'cli' })).wayForward).toBe('Give a shorter --runtime, or a larger cap: you may raise it for this run with --wall-cap 660. A larger cap lets a stalled run hold the pool longer before it is stopped');
    expect(only(facts({ runtimeS: 200, wallCapS: 150, limitsFrom: 'server' })).wayForward).toMatch(/raise benchmark\.maxRuntimeSeconds .*\(serve --bench-max-runtime 660\)\. A larger cap lets a stalled run/);
    const lock = { runId: 'abcdef012345', pid: 4242, host: 'nas1', profile: 'rand-read-4k', target: 'tank/x', acquiredAt: '2026-01-01T00:00:00Z', bootId: null, procStart: null };
    expect(only(facts({ lock })).wayForward).toMatch(/^Wait for that run to end, or cancel it/);
    const device = { path: '/dev/sdq', realPath: '/dev/sdq', isBlockDevice: true, sizeBytes: 64 * GiB, serial: 'S1', inUse: ['carries a signature (blkid): TYPE=ext4'] };
    const blank = refused(facts({ pool: null, device, confirmSerial: 'S1' }));
    expect(blank.map((g) => g.id)).toEqual(['device-blank']);
    // The inventory's sentence (model/usable.ts), with the step the blank check's finding calls for.
    expect(blank[0]!.wayForward).toBe('Choose another drive, or — only when what is on /dev/sdq is no longer needed — root on this host may remove its signatures and partition table (wipefs -a /dev/sdq), and try again. That destroys everything on it');
    const parted = refused(facts({ pool: null, device: { ...device, inUse: ['has 2 partition(s)/holder(s): sdq1, sdq2', 'carries a signature (blkid): TYPE=zfs_member'] }, confirmSerial: 'S1' }));
    expect(parted[0]!.wayForward).toBe('Choose another drive, or — only when what is on /dev/sdq is no longer needed — root on this host may take down what is built on it (its LVM volume group, md array or dm-crypt mapping), then clear the old ZFS label (zpool labelclear -f /dev/sdq), then remove its signatures and partition table (wipefs -a /dev/sdq), and try again. That destroys everything on it');
    const suite = evaluateSuiteGuards({ runCount: 4, skippedReasons: [], estimatedSeconds: 1900, maxTotalS: 1800 }).find((g) => !g.ok)!;
    expect(suite.wayForward).toBe('Shrink the matrix (fewer profiles or values, a shorter --runtime or --pause), or raise the cap with --max-total 33m (the one who starts the suite). A larger cap keeps the host busy with benchmarks for longer');
  });

  it('a request above the server\'s limit: the setting, the ceiling flag and the risk', () => {
    const policy = { maxRuntimeSeconds: 600, maxLoad1: 4, maxPoolWriteWaitMs: 2000 };
    const r = applyBenchPolicy({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'tank' }, sizeBytes: GiB, runtimeS: 10, maxLoad1: 9 } as never, policy);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.wayForward).toBe(raiseLimitSentence('maxLoad1', 9));
    expect(raiseLimitSentence('maxLoad1', 9)).toBe('To allow it, whoever holds this server\'s API token may raise benchmark.maxLoad1 (PATCH /api/settings with {"benchmark":{"maxLoad1":9}}) up to the ceiling root gives the service; root raises that ceiling on the service\'s command line (serve --bench-max-load 9); a higher load limit lets a benchmark run beside the host\'s own work, slowing it and measuring a shared machine');
    const ok = applyBenchPolicy({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'tank' }, sizeBytes: GiB, runtimeS: 10 } as never, policy);
    expect(ok.ok && ok.request.limitsFrom).toBe('server');
  });
});

describe('benchmark admission over HTTP', () => {
  const req = { socket: { remoteAddress: '192.0.2.7' } } as never;
  const attempt = (over: { hit?: boolean; busy?: boolean }) => {
    const headers: Record<string, string> = {};
    const ctx = { benchLimiter: { hit: () => over.hit ?? true, retryAfterSeconds: () => 42 }, benchSuites: { busy: () => over.busy ?? false } };
    try { admitBenchStart(ctx as never, 'local', req, { setHeader: (k: string, v: string) => { headers[k] = v; } } as never); return { err: null, headers }; } catch (e) { return { err: e as HttpError, headers }; }
  };

  it('too many starts: when to try again, and that nobody raises the limit over HTTP (and why)', () => {
    const { err, headers } = attempt({ hit: false });
    expect(headers['Retry-After']).toBe('42');
    expect([err?.status, err?.wayForward]).toEqual([429, 'Start again in 42 s. The limit is fixed per client so that typed device confirmations cannot be guessed faster than runs start; nobody can raise it over HTTP']);
  });

  it('a suite running: wait or cancel it, and why one at a time', () => {
    const { err } = attempt({ busy: true });
    expect(err?.status).toBe(409);
    expect(err?.message).toBe('a benchmark suite is running on host "local". Wait for the suite to end or cancel it on the Benchmarks page, then start again: one benchmark runs per host at a time, so that runs do not measure each other');
    expect(attempt({}).err).toBeNull();
  });
});

describe('one author, every surface renders it', () => {
  it('the CLI prints the way forward under the refused guard', () => {
    const g = only(facts({ load1: 5.88 }));
    const lines = guardLines(g);
    expect(lines[0]).toBe(`  REFUSED load           ${g.message}`);
    expect(lines[1]).toBe(`                         how to go on: ${g.wayForward}`);
    expect(guardLines(evaluateGuards(facts())[0]!)).toHaveLength(1);
  });

  it('the API answers a domain error\'s way forward as its own field and at the end of the message', () => {
    const e = httpErrorOf(new JobError('refused', 'refused: a scrub is running', 'Wait for it'));
    expect([e.status, e.message, e.wayForward]).toEqual([403, 'refused: a scrub is running. Wait for it', 'Wait for it']);
    expect(new HttpError('conflict', 'x').wayForward).toBeNull();
  });

  describe('over HTTP (demo host)', () => {
    let s: RunningServer;
    const dir = mkdtempSync(join(tmpdir(), 'zfsa-way-forward-'));
    beforeAll(async () => {
      const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {} });
      if (!r.ok) throw new Error(r.message);
      s = r.server;
    });
    afterAll(async () => { await s?.close(); rmSync(dir, { recursive: true, force: true }); });
    const post = async (path: string, body: unknown) => {
      const res = await fetch(new URL(path, s.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, json: await res.json() as { error: { message: string; wayForward?: string } } };
    };

    it('a plan naming a pool member: 409, the reason, and how to go on', async () => {
      expect((await post('api/hosts/demo/assessments', {})).status).toBe(201);
      const r = await post('api/hosts/demo/plan/add-vdev', { kind: 'slog', pool: 'bench-pool', devices: ['/dev/da1'] });
      expect(r.status).toBe(409);
      expect(r.json.error.wayForward).toMatch(/^Choose a drive listed as unused \(the Planner's device list, or zfs-advisor inventory\); a device leaves its pool only through zpool remove or zpool detach/);
      expect(r.json.error.message).toMatch(/^device \/dev\/da1 is already in use: pool bench-pool uses .*\. Choose a drive listed as unused/);
    });
  });
});

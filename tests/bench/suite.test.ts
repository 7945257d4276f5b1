/**
 * Benchmark suites: the matrix and plan (pure), real fio suites on a directory (completed,
 * canceled mid-suite, total cap), the comparison and exports, the demo example from reference 000,
 * and the zvol path on a fake OpenZFS platform with the real fio command lines.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { parseMatrix, SuiteRequest, resolveSuite, expandCells, SUITES } from '../../server/src/bench/suites.ts';
import { planJson, planSuite, runSuite } from '../../server/src/bench/suite-runner.ts';
import { compareSuites, suiteCsv, suitePairs, suiteTable, suiteExport } from '../../server/src/bench/compare.ts';
import { demoSuites } from '../../server/src/bench/demo-suite.ts';
import { suiteText } from '../../server/src/cli/commands/bench-format.ts';
import { getSuiteRow, latestSuite, listSuites } from '../../server/src/bench/suite-store.ts';
import type { SuiteProgress } from '../../server/src/bench/suite-types.ts';
import { fioAvailable, fioProcessesFor, freshStore, removeTempDirs, tmpDir } from './support.ts';
import { fakeZfs } from './fake-zfs.ts';

afterAll(() => removeTempDirs(), 60_000);
const live = fioAvailable();
const MiB = 1024 * 1024;
/** Short, small runs and a load limit this shared machine never reaches. */
const small = { runtimeS: 1, sizeBytes: 8 * MiB, pauseS: 0.2, maxLoad1: 1000 };

describe('suite matrix and plan (pure)', () => {
  it('parses --matrix words and rejects bad ones with the reason', () => {
    const m = parseMatrix(['sync=always,standard,disabled io=direct,buffered', 'qd=1,16', 'bs=4k,1m']);
    expect(m).toEqual({ ok: true, matrix: { sync: ['always', 'standard', 'disabled'], io: ['direct', 'buffered'], qd: [1, 16], bs: [4096, MiB] } });
    expect(parseMatrix(['sync=sometimes'])).toMatchObject({ ok: false, message: expect.stringMatching(/matrix sync/) });
    expect(parseMatrix(['qd=0'])).toMatchObject({ ok: false });
    expect(parseMatrix(['bs=huge'])).toMatchObject({ ok: false, message: expect.stringMatching(/block size "huge"/) });
    expect(parseMatrix(['depth=4'])).toMatchObject({ ok: false, message: expect.stringMatching(/KEY=V1,V2/) });
    expect(parseMatrix(['qd=1', 'qd=2'])).toMatchObject({ ok: false, message: expect.stringMatching(/twice/) });
  });

  it('expands a suite with sync innermost, so each sync run sits next to its async twin', () => {
    const req = SuiteRequest.parse({ suite: 'sync-vs-async', target: { kind: 'dataset', pool: 'tank' }, zvol: true });
    const r = resolveSuite(req);
    if (!r.ok) throw new Error(r.message);
    const cells = expandCells(req, r.suite);
    expect(cells).toHaveLength(12); // 3 block sizes × 2 sync × (dataset, zvol)
    expect(cells.slice(0, 2).map((c) => [c.bs, c.sync, c.targetKind])).toEqual([[4096, 'always', 'dataset'], [4096, 'standard', 'dataset']]);
    expect(cells[6]!.request.target).toEqual({ kind: 'zvol', pool: 'tank', volblocksize: 16384 });
    expect(cells.every((c) => c.request.blockSize === c.bs && c.request.iodepth === c.iodepth)).toBe(true);
  });

  it('every built-in suite resolves; quick fits in 2 minutes by its own estimate', async () => {
    const dir = tmpDir();
    for (const s of SUITES) {
      const p = await planSuite(SuiteRequest.parse({ suite: s.id, target: { kind: 'path', dir }, maxLoad1: 1000 }));
      if (!p.ok) throw new Error(p.message);
      expect(p.plan.runs.length, s.id).toBeGreaterThan(0);
      if (s.id === 'quick') expect(p.plan.estimatedSeconds).toBeLessThanOrEqual(120);
    }
    expect((await planSuite(SuiteRequest.parse({ suite: 'nope', target: { kind: 'path', dir } })))).toMatchObject({ ok: false, message: expect.stringMatching(/unknown suite "nope"/) });
  });

  it('--dry-run --json plan has exactly the documented shape; cells the target cannot do are skipped with why', async () => {
    const dir = tmpDir();
    const p = await planSuite(SuiteRequest.parse({ suite: 'custom', profiles: ['sync-write-4k-qd1'], matrix: { sync: ['always', 'standard', 'disabled'], bs: [4096, MiB] }, target: { kind: 'path', dir }, ...small }));
    if (!p.ok) throw new Error(p.message);
    const j = planJson(p.plan);
    expect(Object.keys(j)).toEqual(['suite', 'runs', 'estimatedSeconds']);
    expect(j.runs).toHaveLength(4);
    for (const r of j.runs) expect(Object.keys(r)).toEqual(['profile', 'sync', 'io', 'iodepth', 'bs', 'target', 'commands']);
    expect(j.runs.map((r) => [r.bs, r.sync])).toEqual([[4096, 'always'], [4096, 'standard'], [MiB, 'always'], [MiB, 'standard']]);
    const fio = j.runs[0]!.commands.filter((c) => c[0] === 'fio').at(-1)!;
    expect(fio).toContain('--fsync=1'); // a directory has no sync property: fio's fallback
    expect(j.runs[1]!.commands.at(-2)).toContain('--end_fsync=1');
    expect(j.runs[2]!.commands.at(-2)).toContain(`--bs=${MiB}`);
    expect(p.plan.skipped.map((s) => s.sync)).toEqual(['disabled', 'disabled']);
    expect(p.plan.skipped[0]!.reason).toMatch(/sync=disabled needs a ZFS dataset or zvol/);
    expect(j.estimatedSeconds).toBe(Math.round(p.plan.estimatedSeconds));
  });

  it('refuses a suite whose estimate is beyond --max-total, and one with no runnable cell', async () => {
    const dir = tmpDir();
    const over = await planSuite(SuiteRequest.parse({ suite: 'zvol-study', target: { kind: 'path', dir }, maxTotalS: 30, maxLoad1: 1000 }));
    if (!over.ok) throw new Error(over.message);
    expect(over.plan.wouldRun).toBe(false);
    expect(over.plan.guards.find((g) => g.id === 'max-total')!.message).toMatch(/more than the total cap of 30 s/);
    const none = await planSuite(SuiteRequest.parse({ profiles: ['async-write-4k'], matrix: { sync: ['disabled'] }, target: { kind: 'path', dir }, ...small }));
    if (!none.ok) throw new Error(none.message);
    expect(none.plan.guards.find((g) => g.id === 'suite-runs')!.message).toMatch(/no run of this suite can be done on this target \(sync=disabled needs/);
  });
});

describe('demo example suite (reference 000, published numbers)', () => {
  it('is labelled demo data, cites 000, and compares before/after the P1600X SLOG', () => {
    const { before, after } = demoSuites();
    for (const s of [before, after]) {
      expect(s.demo).toBe(true);
      expect(s.citation?.url).toBe('https://austinsnerdythings.com/tag/nvme');
      expect(s.citation?.locator).toMatch(/000_a5b8e6cc27024805\.txt/);
      expect(s.title).toMatch(/demo data/);
    }
    const rows = suiteTable(before);
    expect(rows.map((r) => [r.sync, r.iops, r.p50Us])).toEqual([['always', 894, 12000], ['disabled', 48300, 400]]);
    // Two separate things (issue 27): what fio did, and the dataset's sync property.
    expect(rows.map((r) => [r.fioSync, r.datasetSync])).toEqual([
      ['plain writes', 'sync=always'],
      ['end_fsync only', 'sync=disabled'],
    ]);
    // The CLI's table shows both, as two columns side by side (the lab found them missing there).
    const text = suiteText(before);
    expect(text).toMatch(/^run +fio sync +dataset sync +status /m);
    expect(text).toMatch(/ · sync=always · dataset +plain writes +sync=always +completed /);
    expect(text).toMatch(/ · sync=disabled · dataset +end_fsync only +sync=disabled +completed /);
    const pair = suitePairs(before, 'sync')[0]!;
    expect(pair.ratio).toBeCloseTo(894 / 48300, 2);
    const c = compareSuites(before, after);
    expect(c.rows).toHaveLength(1); // QD16 sync=always is in both
    expect(c.rows[0]!.iopsRatio).toBeCloseTo(39200 / 894, 1);
    expect(c.onlyAfter[0]).toMatch(/QD1 /);
  });
});

describe('suites with real fio on a directory', () => {
  it.runIf(live)('runs every cell with its KPIs, stores the suite, compares and exports it, and leaves the directory empty', async () => {
    const s = await freshStore();
    const dir = tmpDir();
    try {
      const p = await planSuite(SuiteRequest.parse({ profiles: ['sync-write-4k-qd1'], matrix: { sync: ['always', 'standard'], io: ['direct', 'buffered'] }, target: { kind: 'path', dir }, ...small }), { db: s.db });
      if (!p.ok) throw new Error(p.message);
      expect(p.plan.wouldRun).toBe(true);
      const progress: SuiteProgress[] = [];
      const r = await runSuite(p.plan, { db: s.db, onProgress: (e) => progress.push(e) });
      expect(r.status, r.stopReason ?? '').toBe('completed');
      expect(r.runs).toHaveLength(4);
      for (const run of r.runs) {
        const x = run.result!;
        expect(x.status, run.message ?? '').toBe('completed');
        expect(x.writeIops).toBeGreaterThan(0);
        expect(x.suiteId).toBe(r.id);
        expect(x.zfsTarget).toBe(false);
        expect(x.syncText).not.toMatch(/ZIL/);
        expect(x.wallSeconds).toBe(Math.round(x.wallSeconds! * 100) / 100);
        if (run.sync === 'always') expect(x.syncOpLatency?.source).toBe('sync'); // fsync after each write on a directory
        else expect(x.syncOpLatency).toBeNull();
        expect(x.system?.load1Max).not.toBeNull();
      }
      // Progress: every run, its steps, the pause, an ETA, then done at 100 %.
      expect(new Set(progress.map((e) => e.runIndex))).toEqual(new Set([0, 1, 2, 3]));
      expect(progress.some((e) => e.step === 'run' && e.etaS !== null)).toBe(true);
      expect(progress.some((e) => e.step === 'pause')).toBe(true);
      expect(progress.at(-1)).toMatchObject({ step: 'done', pct: 100 });
      expect(readdirSync(dir)).toEqual([]);
      expect(fioProcessesFor(dir)).toEqual([]);
      // Stored, and the newest suite is what the report shows.
      expect(getSuiteRow(s.db, r.id)?.status).toBe('completed');
      expect(latestSuite(s.db)?.id).toBe(r.id);
      expect(suitePairs(r, 'sync')).toHaveLength(2);
      expect(suitePairs(r, 'io')).toHaveLength(2);
      const csv = suiteCsv(r).trim().split('\n');
      expect(csv).toHaveLength(5);
      expect(csv[0]).toMatch(/^label,profile,targetKind,bs,iodepth,io,sync,fioSync,datasetSync,status,iops,/);
      // A directory target: fio's own durability is named, and no ZFS property is claimed.
      for (const row of suiteTable(r)) {
        expect(row.datasetSync).toBe('not set by the run (a directory: its dataset\'s own setting applies)');
        if (row.sync === 'standard') expect(row.fioSync).toBe('end_fsync only');
        else expect(row.fioSync).toMatch(/^(O_SYNC|fsync per write)$/);
      }
      expect(suiteExport(r).table).toHaveLength(4);
    } finally { s.close(); }
  }, 180_000);

  it.runIf(live)('cancel mid-suite: fio stops, the run is removed, later runs never start', async () => {
    const s = await freshStore();
    const dir = tmpDir();
    try {
      const p = await planSuite(SuiteRequest.parse({ profiles: ['sync-write-4k-qd1', 'async-write-4k', 'seq-write-1m'], target: { kind: 'path', dir }, ...small, runtimeS: 6 }), { db: s.db });
      if (!p.ok) throw new Error(p.message);
      const ac = new AbortController();
      const r = await runSuite(p.plan, { db: s.db, signal: ac.signal, onProgress: (e) => { if (e.runIndex === 1 && e.step === 'run' && e.iops !== null) ac.abort(); } });
      expect(r.status).toBe('canceled');
      expect(r.stopReason).toMatch(/canceled during run 2 of 3/);
      expect(r.runs).toHaveLength(2);
      expect(r.runs[1]!.result!.status).toBe('aborted');
      expect(readdirSync(dir)).toEqual([]);
      expect(fioProcessesFor(dir)).toEqual([]);
      expect(listSuites(s.db)[0]!.status).toBe('canceled');
    } finally { s.close(); }
  }, 120_000);

  it.runIf(live)('stops at the total cap before a run that would not fit', async () => {
    const s = await freshStore();
    const dir = tmpDir();
    try {
      const p = await planSuite(SuiteRequest.parse({ profiles: ['sync-write-4k-qd1', 'async-write-4k'], target: { kind: 'path', dir }, ...small, pauseS: 8, maxTotalS: 60 }), { db: s.db });
      if (!p.ok) throw new Error(p.message);
      expect(p.plan.wouldRun).toBe(true);
      // The runner enforces the cap whatever the estimate said (runs can be slower than planned):
      // with 10 s, run 1 (~5 s estimated) starts, but after it and the 8 s pause run 2 no longer fits.
      const r = await runSuite({ ...p.plan, maxTotalS: 10 }, { db: s.db });
      expect(r.status).toBe('stopped');
      expect(r.stopReason).toMatch(/total cap of 10 s was reached before run 2 of 2/);
      expect(r.runs).toHaveLength(1);
      expect(readdirSync(dir)).toEqual([]);
    } finally { s.close(); }
  }, 120_000);
});

describe('zvol targets (fake OpenZFS platform, real fio command lines)', () => {
  it.runIf(live)('creates each zvol with an explicit volblocksize, runs fio on its device, destroys it; stops early on the 002 stall watch', async () => {
    const s = await freshStore();
    const zfs = fakeZfs(tmpDir('zfs-advisor-fakezfs-'), 'vx');
    try {
      const req = SuiteRequest.parse({ profiles: ['async-write-4k'], matrix: { io: ['direct', 'buffered'], sync: ['always', 'standard'] }, target: { kind: 'dataset', pool: 'vx' }, zvol: true, volblocksize: 8192, ...small, maxWallRatio: 1 });
      const p = await planSuite(req, { db: s.db, exec: zfs });
      if (!p.ok) throw new Error(p.message);
      // The plan asked the pool once for all eight cells (each run asks again when it starts).
      expect(zfs.calls.filter((c) => c[0] === 'zpool' && c[1] === 'list')).toHaveLength(1);
      expect(zfs.calls.filter((c) => c[0] === 'zfs' && c[1] === 'get')).toHaveLength(2);
      expect(p.plan.skipped).toEqual([]);
      expect(p.plan.runs.map((r) => `${r.targetKind}/${r.io}/${r.sync}`)).toEqual([
        'dataset/direct/always', 'dataset/direct/standard', 'dataset/buffered/always', 'dataset/buffered/standard',
        'zvol/direct/always', 'zvol/direct/standard', 'zvol/buffered/always', 'zvol/buffered/standard',
      ]);
      expect(p.plan.notes.join(' ')).toMatch(/zvol with buffered async writes: .*limit 1×/);
      const zv = p.plan.runs[4]!.commands;
      expect(zv[0]).toEqual(['zfs', 'create', '-V', String(8 * MiB), '-o', 'volblocksize=8192', '-o', 'compression=off', '-o', 'primarycache=all', '-o', 'sync=always', 'vx/zfs-advisor-bench-<id>']);
      // A random-write profile's dataset: records of one write (000's method), data cached (no read-modify-write).
      expect(p.plan.runs[0]!.commands[0]!.slice(0, 7)).toEqual(['zfs', 'create', '-o', 'recordsize=4K', '-o', 'compression=off', '-o']);
      expect(p.plan.runs[0]!.commands[0]).toContain('primarycache=all');
      expect(zv[1]).toContain('--direct=1');
      expect(zv[1]).toContain('--allow_mounted_write=0');
      expect(p.plan.runs[6]!.commands[1]).not.toContain('--direct=1'); // buffered on the zvol's block device

      const r = await runSuite(p.plan, { db: s.db, exec: zfs });
      // The zvol runs before the watched one ran through; the buffered async zvol run tripped the ratio limit.
      expect(r.runs.slice(0, 7).map((x) => x.result?.status)).toEqual(Array(7).fill('completed'));
      expect(r.status).toBe('stopped');
      expect(r.stopReason).toMatch(/stopped early after async-write-4k · 4k · QD16 · buffered · sync=standard · zvol: wall time was [\d.]+× fio's runtime \(limit 1×\) — a zvol written through the page cache without sync can stall the host \(002\)/);
      expect(r.notes.some((n) => /wall\/runtime [\d.]+×, peak load1/.test(n))).toBe(true);
      const zvolRun = r.runs[4]!.result!;
      expect(zvolRun.targetKind).toBe('zvol');
      expect(zvolRun.syncMode).toBe('property');
      expect(zvolRun.syncOpLatency?.source).toBe('clat');
      expect(zvolRun.syncText).toMatch(/temporary zvol.*ZIL/);
      // Every zvol and dataset made was destroyed; each creation was journaled first and undone.
      expect(zfs.existing()).toEqual([]);
      const creates = zfs.calls.filter((c) => c[1] === 'create');
      const destroys = zfs.calls.filter((c) => c[1] === 'destroy');
      expect(zfs.calls.filter((c) => c[0] === 'zpool' && c[1] === 'list')).toHaveLength(1 + 8);
      expect(creates).toHaveLength(8);
      expect(destroys.map((c) => c.at(-1)).sort()).toEqual(creates.map((c) => c.at(-1)).sort());
      const fioRuns = zfs.calls.filter((c) => c[0] === 'fio' && c.includes('--time_based=1'));
      expect(fioRuns.filter((c) => c.some((a) => a.startsWith(`--filename=${zfs.zvolDevDir}/vx/zfs-advisor-bench-`)))).toHaveLength(4);
      expect(s.db.prepare('SELECT COUNT(*) AS n FROM bench_journal WHERE removed_at IS NULL').get()).toEqual({ n: 0 });
    } finally { s.close(); }
  }, 240_000);

  it('on a platform without zvols the plan says zvol runs are unsupported and skips them', async () => {
    const zfs = fakeZfs(tmpDir('zfs-advisor-fakezfs-'), 'fx');
    // zfs-fuse: no `zpool list -p`, no sync property.
    const noZvols = { ...zfs, run: async (program: string, args: string[]) => {
      if (program === 'zpool' && args.includes('-p')) return { program, args, exitCode: 2, signal: null, stdout: '', stderr: "invalid option 'p'", durationMs: 1, error: null };
      if (program === 'zfs' && args.includes('sync')) return { program, args, exitCode: 1, signal: null, stdout: '', stderr: "bad property list: invalid property 'sync'", durationMs: 1, error: null };
      return zfs.run(program, args);
    } };
    const p = await planSuite(SuiteRequest.parse({ suite: 'quick', target: { kind: 'dataset', pool: 'fx' }, zvol: true, maxLoad1: 1000 }), { exec: noZvols });
    if (!p.ok) throw new Error(p.message);
    expect(p.plan.runs.every((r) => r.targetKind === 'dataset')).toBe(true);
    expect(p.plan.skipped.filter((x) => x.targetKind === 'zvol')).toHaveLength(4);
    expect(p.plan.notes[0]).toMatch(/^zvol runs are unsupported on this target: zvols are not supported on this platform \(zfs-fuse has no zvols/);
  });
});

/**
 * One sync-write evidence record per pool (issue 34 §6, server/src/forecast/sync-evidence.ts):
 *   - computed once per assessment: the expensive helpers behind it (sync demand, the ZIL path,
 *     the measured "now", the candidate choice and its forecasts, the unused drives) run once per
 *     pool through an assessment (rules + Optane verdict), the report and a forecast of the same
 *     artifacts — counted by spies wrapped around the real helpers;
 *   - its fields are what the fixtures say (demo snapshots, another project's snapshot, a lab capture);
 *   - the verdict, the slog-benefit rule, the report and `forecast` state the same numbers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { assess } from '../../server/src/assess/assess.ts';
import { DEMO_DIR, loadSnapshotInventory, type LoadedInventory } from '../../server/src/gather/load.ts';
import { renderReport } from '../../server/src/report/render.ts';
import { ForecastRequest, runForecast } from '../../server/src/forecast/request.ts';
import { PoolSyncEvidenceArtifact, SYNC_EVIDENCE_INPUTS, poolSyncEvidence } from '../../server/src/forecast/sync-evidence.ts';
import type { Artifacts } from '../../server/src/model/artifacts.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { ALL_RULES } from '../../rules/index.ts';
import { chooseSlog } from '../../server/src/forecast/slog-choice.ts';
import { measuredNow } from '../../server/src/forecast/measured-now.ts';
import { syncEvidence } from '../../rules/lib/slog-evidence.ts';
import { unusedDrives, zilPath } from '../../rules/lib/slog-devices.ts';
import { artifacts000, benchPool, da1, da3, host000, p1600x, testPool, testPoolDrivesAll, workload } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, host } from '../support/builders.ts';
import { buildOptaneVerdict } from '../../server/src/optane/verdict.ts';
import { runRules } from '../../rules/engine/engine.ts';
import { measuredArtifacts } from '../../server/src/assess/measured-artifacts.ts';
import { artifactsFromInventory } from '../../server/src/model/artifacts.ts';
import { Inventory } from '../../server/src/model/inventory.ts';
import { saveObservation } from '../../server/src/observe/stored.ts';
import { asPool, syncHeavyPair } from '../observe/recorded-pairs.ts';

// Spies around the real helpers: every module that imports them calls through the spy.
vi.mock('../../server/src/forecast/slog-choice.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../server/src/forecast/slog-choice.ts')>();
  return { ...m, chooseSlog: vi.fn(m.chooseSlog) };
});
vi.mock('../../server/src/forecast/measured-now.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../server/src/forecast/measured-now.ts')>();
  return { ...m, measuredNow: vi.fn(m.measuredNow) };
});
vi.mock('../../rules/lib/slog-evidence.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../rules/lib/slog-evidence.ts')>();
  return { ...m, syncEvidence: vi.fn(m.syncEvidence) };
});
vi.mock('../../rules/lib/slog-devices.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../rules/lib/slog-devices.ts')>();
  return { ...m, zilPath: vi.fn(m.zilPath), unusedDrives: vi.fn(m.unusedDrives) };
});

const SPIES = { syncEvidence, zilPath, measuredNow, chooseSlog, unusedDrives } as const;
const AT = new Date('2026-11-28T12:00:00Z');
const LAB_24_SPECIAL = join(import.meta.dirname, '..', 'fixtures', 'lab', '2.4', 'special-no-slog');
const PROXMOX_ZVOLS = join(import.meta.dirname, '..', 'fixtures', 'snapshots', '002-proxmox-zvols');
const demo = (name: string) => loadSnapshotInventory(join(DEMO_DIR, name), true);

/** A completed QD1 4 KiB sync-write probe of `pool` (what `bench sync-write-4k-qd1` stores), at `iops`. */
function probe(id: string, pool: string, iops: number, extra: Partial<BenchmarkSummary> = {}): BenchmarkSummary {
  return {
    id, profile: 'sync-write-4k-qd1', pool, target: `${pool}/zfs-advisor-bench`, startedAt: '2026-11-28T10:00:00Z', status: 'completed',
    syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: iops, readBytesPerSec: 0, writeBytesPerSec: iops * 4096,
    writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: 'fp-1', notes: [], ...extra,
  };
}

/** Assessment (rules + verdict), the Markdown report, and a forecast per pool, all from one set of artifacts. */
async function everyReader(loaded: LoadedInventory, extra: Partial<Artifacts> = {}) {
  const r = assess(loaded.inventory, extra, AT);
  const report = await renderReport({
    inventory: loaded.inventory, raw: loaded.raw, assessment: r.assessment, optane: r.optane,
    appVersion: '0.0.0-test', ruleCatalogVersion: r.assessment.ruleCatalogVersion, generatedAt: AT.toISOString(),
  }, { format: 'md' });
  const forecasts = (r.artifacts.Pools ?? []).map((p) => runForecast(r.artifacts, ForecastRequest.parse({ pool: p.name, slogModel: 'P1600X' })));
  return { ...r, markdown: String(report.body), forecasts };
}

describe('the record is computed once per assessment', () => {
  beforeEach(() => { for (const s of Object.values(SPIES)) vi.mocked(s).mockClear(); });

  const cases: [string, () => Promise<LoadedInventory>, Partial<Artifacts>][] = [
    ['demo 000 (a probe stored)', () => demo('000-hdd-mirror-optane'), { Benchmarks: [probe('p125', 'bench-pool', 125)] }],
    ['demo 001', () => demo('001-raidz2-12disk'), {}],
    ['lab capture, OpenZFS 2.4, special vdev, no SLOG', () => loadSnapshotInventory(LAB_24_SPECIAL, true), {}],
  ];
  for (const [name, load, extra] of cases) {
    it(`${name}: rules, verdict, report and forecast build it once per pool; each expensive helper runs once per pool`, async () => {
      const loaded = await load();
      const before = PoolSyncEvidenceArtifact.builds;
      const r = await everyReader(loaded, extra);
      const pools = loaded.inventory.pools.map((p) => p.name);
      expect(r.forecasts.every((f) => f.ok)).toBe(true);
      expect(r.markdown).toContain('Should I add Optane?');
      expect(PoolSyncEvidenceArtifact.builds - before).toBe(pools.length);
      for (const [helper, spy] of Object.entries(SPIES)) expect(vi.mocked(spy).mock.calls.length, helper).toBe(pools.length);
      // The per-pool helpers ran once for each pool, not twice for one.
      expect(vi.mocked(chooseSlog).mock.calls.map((c) => c[1].name).sort()).toEqual([...pools].sort());
    });
  }

  it('two pools: once each, and a rule handed only its declared artifacts gets the same object as the verdict', () => {
    const a: Artifacts = {
      Host: host000, Pools: [benchPool, testPool], Drives: [da1, da3, ...testPoolDrivesAll],
      Datasets: [dataset('bench-pool', { sync: 'always' }), dataset('test-pool')],
    };
    const r = assess({
      schemaVersion: 1, source: { kind: 'snapshot', label: 'two pools', capturedAt: AT.toISOString(), demo: false, redacted: false },
      host: a.Host!, pools: a.Pools!, drives: a.Drives!, datasets: a.Datasets!, zil: null, arc: null, gaps: [],
    }, {}, AT);
    expect(vi.mocked(chooseSlog).mock.calls.map((c) => c[1].name).sort()).toEqual(['bench-pool', 'test-pool']);
    for (const spy of Object.values(SPIES)) expect(vi.mocked(spy)).toHaveBeenCalledTimes(2);
    // What the engine hands slog-benefit: a new object with only the artifacts it declared, the same values.
    const rule = ALL_RULES.find((x) => x.meta.id === 'slog-benefit')!;
    const subset = Object.fromEntries([...rule.meta.requiredArtifacts, ...(rule.meta.optionalArtifacts ?? [])].flatMap((n) => (r.artifacts[n] ? [[n, r.artifacts[n]]] : [])));
    for (const p of r.artifacts.Pools!) expect(poolSyncEvidence(subset, p)).toBe(poolSyncEvidence(r.artifacts, p));
    expect(vi.mocked(chooseSlog)).toHaveBeenCalledTimes(2);
    // Other artifacts (a probe stored since) are another assessment: built again, for that pool's new facts.
    const next = { ...r.artifacts, Benchmarks: [probe('p90', 'bench-pool', 90)] };
    expect(poolSyncEvidence(next, benchPool)).not.toBe(poolSyncEvidence(r.artifacts, benchPool));
    expect(poolSyncEvidence(next, benchPool).measured.measuredQd1).toBe(90);
  });

  it('every rule that reads the record declares all its inputs (else it would build a second one from less)', async () => {
    const { readFileSync } = await import('node:fs');
    const readers = ALL_RULES.filter((r) => readFileSync(join(import.meta.dirname, '..', '..', 'rules', `${r.meta.id}.ts`), 'utf8').includes('poolSyncEvidence('));
    expect(readers.map((r) => r.meta.id).sort()).toEqual(['slog-benefit', 'slog-on-2.4-special', 'slog-without-sync-writes', 'special-does-not-replace-slog']);
    for (const r of readers) {
      const declared = new Set<string>([...r.meta.requiredArtifacts, ...(r.meta.optionalArtifacts ?? [])]);
      expect(SYNC_EVIDENCE_INPUTS.filter((n) => !declared.has(n)), r.meta.id).toEqual([]);
    }
  });
});

describe('the record says what the fixtures hold', () => {
  /** The fields a fixture settles, for its one pool. */
  const table: { name: string; load: () => Promise<LoadedInventory>; extra?: Partial<Artifacts>; expected: Record<string, unknown> }[] = [
    {
      // TrueNAS CORE, OpenZFS 2.1.6: `zfs set sync=always bench-pool`, a mirror of two WD Red, the P1600X 58GB unused (nvd1).
      name: 'demo 000-hdd-mirror-optane', load: () => demo('000-hdd-mirror-optane'),
      expected: {
        demand: 'configured', commitsPerSec: null, syncAlways: ['bench-pool'], zvols: [], demanded: true,
        zilHome: 'data', zilClass: 'hdd', zilDrives: 2, zilTarget: 'data', measured: 'model', measuredQd1: null, runs: [null, null, null],
        unused: ['INTEL SSDPEK1A058GA'], logDrives: ['INTEL SSDPEK1A058GA'], mirrorLog: false, target: '/dev/nvd1 (Intel Optane SSD P1600X 58GB)', targetLatency: 'catalog',
        inBox: 1, purchase: null,
        // The P1600X's published QD1 SLOG measurement on this very pool shape (000: 13.7k).
        withQd1: 13_700,
      },
    },
    {
      // Twelve Seagate ST4000NM0043 in one raidz2; nothing says sync writes happen; no drive left over.
      name: 'demo 001-raidz2-12disk', load: () => demo('001-raidz2-12disk'),
      expected: {
        demand: 'unknown', commitsPerSec: null, syncAlways: [], zvols: [], demanded: false,
        zilHome: 'data', zilClass: 'hdd', zilDrives: 12, zilTarget: 'data', measured: 'model', measuredQd1: null, runs: [null, null, null],
        unused: [], logDrives: [], mirrorLog: false, target: 'Intel Optane SSD P1600X 118GB (to buy)', targetLatency: 'catalog',
        inBox: 0, purchase: 'optane-p1600x',
      },
    },
    {
      // Proxmox VE, OpenZFS 2.0.3 (another project's snapshot): a zvol, and a Crucial MX300 SATA SSD as the log vdev.
      name: 'snapshot 002-proxmox-zvols', load: () => loadSnapshotInventory(PROXMOX_ZVOLS, true),
      expected: {
        demand: 'configured', commitsPerSec: null, syncAlways: [], zvols: ['fiotestpool/testenc/zvol1M'], demanded: true,
        zilHome: 'log', zilClass: 'consumer-flash', zilDrives: 1, zilTarget: 'slog', measured: 'model', measuredQd1: null, runs: [null, null, null],
        unused: [], logDrives: [], mirrorLog: true, target: 'Intel Optane SSD P1600X 118GB (to buy)', targetLatency: 'catalog',
        inBox: 0, purchase: 'optane-p1600x',
      },
    },
    {
      // The lab's OpenZFS 2.4.4 guest: tank = mirror of two virtio disks + special mirror of two QEMU NVMe, no log;
      // tank/db sync=always took 200 fio sync writes (kstat zil: 200 commits); zil_special_is_slog puts the ZIL on special.
      name: 'lab capture 2.4/special-no-slog', load: () => loadSnapshotInventory(LAB_24_SPECIAL, true),
      expected: {
        demand: 'counters', commitsPerSec: 2.56, syncAlways: ['tank/db'], zvols: [], demanded: true,
        zilHome: 'special', zilClass: 'virtual', zilDrives: 2, zilTarget: 'special', measured: 'model', measuredQd1: null, runs: [null, null, null],
        logDrives: [], mirrorLog: false, target: 'Intel Optane SSD P1600X 118GB (to buy)', targetLatency: 'catalog',
        inBox: 0, purchase: 'optane-p1600x',
      },
    },
    {
      // Demo 000 with a probe and a 16-writer run stored on the same layout: "now" is measured, the runs are named.
      name: 'demo 000 with a QD1 probe (125 IOPS) and a 16-writer run', load: () => demo('000-hdd-mirror-optane'),
      extra: { Benchmarks: [probe('p125', 'bench-pool', 125), probe('p16', 'bench-pool', 900, { profile: 'sync-write-4k-qd16', iodepth: 16, writers: 16, startedAt: '2026-11-28T10:05:00Z' })] },
      expected: {
        demand: 'configured', zilHome: 'data', zilClass: 'hdd', measured: 'benchmark', measuredQd1: 125, runs: ['p125', 'p16', null],
        nowQd1: { iops: 125, low: 113, high: 138 }, target: '/dev/nvd1 (Intel Optane SSD P1600X 58GB)', targetLatency: 'catalog',
      },
    },
  ];

  for (const row of table) {
    it(row.name, async () => {
      const loaded = await row.load();
      const r = assess(loaded.inventory, row.extra ?? {}, AT);
      expect(r.artifacts.Pools).toHaveLength(1);
      const e = poolSyncEvidence(r.artifacts, r.artifacts.Pools![0]!);
      const got: Record<string, unknown> = {
        demand: e.demand.level, commitsPerSec: e.demand.commitsPerSec === null ? null : Math.round(e.demand.commitsPerSec * 100) / 100,
        syncAlways: e.demand.syncAlwaysDatasets, zvols: e.demand.zvols, demanded: e.demanded,
        zilHome: e.zil.home, zilClass: e.zil.latency?.cls ?? null, zilDrives: e.zil.drives.length, zilTarget: e.zilTarget.kind,
        measured: e.measured.source, measuredQd1: e.measured.measuredQd1, runs: [e.measured.runs.qd1?.id ?? null, e.measured.runs.manyWriters?.id ?? null, e.measured.runs.bandwidth?.id ?? null],
        unused: e.unused.map((d) => d.model), logDrives: e.logDrives.map((d) => d.model), mirrorLog: e.mirrorLog, target: e.target.candidate.label, targetLatency: e.targetLatency,
        inBox: e.inBox.length, purchase: e.purchase ? e.purchase[0]!.entry.id : null, withQd1: e.qd1.with?.iops, nowQd1: e.nowQd1,
      };
      expect(Object.fromEntries(Object.keys(row.expected).map((k) => [k, got[k]]))).toEqual(row.expected);
      // Invariants of every record: the gain lies in its range; the candidate is the first in the box or the first to buy.
      expect(e.gainRange.low).toBeLessThanOrEqual(Math.round(e.gain * 100) / 100);
      expect(e.gainRange.high).toBeGreaterThanOrEqual(Math.round(e.gain * 100) / 100);
      expect(e.target).toBe(e.inBox[0] ?? e.purchase![0]!.target);
      // The ZIL's class as the model sees it is the same place: the same drives' class.
      expect(e.zilTarget.kind === 'slog' ? 'log' : e.zilTarget.kind).toBe(e.zil.home);
    });
  }
});

describe('the verdict, slog-benefit, the report and forecast state the same numbers', () => {
  it('demo 000 with a 125-IOPS probe: measured sync writes, where the ZIL lands, and the forecast with the P1600X', async () => {
    const loaded = await demo('000-hdd-mirror-optane');
    const r = await everyReader(loaded, { Benchmarks: [probe('p125', 'bench-pool', 125)] });
    const pool = r.artifacts.Pools![0]!;
    const e = poolSyncEvidence(r.artifacts, pool);
    const v = r.optane;
    const finding = r.assessment.findings.find((f) => f.ruleId === 'slog-benefit')!;
    expect(finding).toBeDefined();
    const ev = (xs: { label: string; value: unknown }[]) => Object.fromEntries(xs.map((x) => [x.label, x.value]));
    const vEv = ev(v.evidence);
    const fEv = ev(finding.evidence);

    // The measured sync IOPS: one number on every surface.
    expect(e.measured.measuredQd1).toBe(125);
    expect(vEv['measured QD1 sync IOPS']).toBe(125);
    expect(v.expected!.qd1.now.iops).toBe(125);
    expect(fEv['expected QD1 sync IOPS now']).toBe(125);
    expect(v.decisive).toContain('measured 125 sync writes/s, 8.0 ms each');
    expect(finding.explanation).toContain('measured 125 sync writes/s at QD1: 8.0 ms each');
    expect(r.markdown).toContain('| measured QD1 sync IOPS | 125 |');
    expect(r.markdown).toContain('| expected QD1 sync IOPS now | 125 IOPS |');

    // Where the ZIL lands and on what: the data vdevs, hard disks.
    expect(e.zil.home).toBe('data');
    expect(vEv['ZIL written to']).toBe('data vdevs');
    expect(vEv['ZIL device class']).toBe(e.zil.latency!.label);
    expect(fEv['data vdev devices']).toBe(e.zil.latency!.label);
    expect(fEv['log vdev']).toBe('none');
    expect(r.markdown).toContain(`| ZIL device class | ${e.zil.latency!.label} |`);

    // The forecast with the P1600X at QD1 and QD16, and the sync-write evidence level.
    expect(v.expected!.qd1.withOptane.iops).toBe(e.qd1.with!.iops);
    expect(fEv['expected QD1 sync IOPS with Optane SLOG']).toBe(e.qd1.with!.iops);
    expect(fEv['expected QD16 sync IOPS now → with SLOG']).toBe(`${e.qd16.now.iops.toLocaleString('en-US')} → ${e.qd16.with!.iops.toLocaleString('en-US')}`);
    expect(vEv['sync-write evidence']).toBe(e.demand.level);
    expect(fEv['sync-write evidence']).toBe(e.demand.level);
    const f = r.forecasts[0]!;
    expect(f.ok && f.result.now.iops).toBe(e.qd1.now.iops);
    expect(f.ok && f.result.now.basis).toBe(e.qd1.now.basis);
    // The same "now" as the verdict's: the probe's measurement, named.
    expect(f.ok && f.result.now.basis).toContain('benchmark p125');
  });
});

describe('the slog-benefit finding proposes the log the verdict proposes (they disagreed: the rule always proposed a mirror)', () => {
  const zvol = dataset('bench-pool/vm-100-disk-0', { type: 'volume' });
  const p1600xB = { ...p1600x, id: 'nvme-INTEL_SSDPEK1A058GA_PHOC209200KC058B', serial: 'PHOC209200KC058B', devPath: '/dev/nvd2', byIdPath: null, aliases: [] };
  const cases: [string, Artifacts, string][] = [
    ['nothing in the box, no zvols: one device to buy', { ...artifacts000({ Workload: workload('bench-pool', 300) }), Drives: [da1, da3], Host: host('2.2.6') }, 'log /dev/disk/by-id/<new-optane-1>'],
    ['nothing in the box, zvols: a mirror of two to buy', { ...artifacts000({ Workload: workload('bench-pool', 300) }), Drives: [da1, da3], Host: host('2.2.6'), Datasets: [dataset('bench-pool'), zvol] }, 'log mirror /dev/disk/by-id/<new-optane-1> /dev/disk/by-id/<new-optane-2>'],
    ['two P1600X in the box, no zvols: the first alone', artifacts000({ Workload: workload('bench-pool', 300), Drives: [da1, da3, p1600x, p1600xB] }), 'log /dev/nvd1'],
    ['two P1600X in the box, zvols: both, mirrored', artifacts000({ Workload: workload('bench-pool', 300), Drives: [da1, da3, p1600x, p1600xB], Datasets: [dataset('bench-pool'), zvol] }), 'log mirror /dev/nvd1 /dev/nvd2'],
  ];
  for (const [name, a, spec] of cases) {
    it(name, () => {
      const assessment = runRules(ALL_RULES, a, AT);
      const v = buildOptaneVerdict(a, assessment);
      const f = assessment.findings.find((x) => x.ruleId === 'slog-benefit');
      expect(v.verdict).toBe('yes');
      expect(v.layout.commands).toEqual([`zpool add -n bench-pool ${spec}`, `zpool add bench-pool ${spec}`]);
      expect(f?.action?.commands).toEqual(v.layout.commands);
    });
  }
});

describe('forecast on the CLI reads the measurements optane reads (it left out the stored observation)', () => {
  it('a local run: the newest stored observation gives the forecast the verdict\'s "now"', async () => {
    const recorded = asPool(syncHeavyPair(), 'bench-pool');
    const data = mkdtempSync(join(tmpdir(), 'zfs-advisor-evidence-'));
    expect((await saveObservation(data, { fingerprint: recorded, commands: [] }, { durationS: 10, intervalS: 10, pools: null })).ok).toBe(true);
    const at = new Date(Date.parse(recorded.endedAt) + 3600_000);
    const a0 = artifacts000();
    const inv = Inventory.parse({
      schemaVersion: 1, source: { kind: 'local', label: 'this machine', capturedAt: at.toISOString(), demo: false, redacted: false },
      host: a0.Host, pools: a0.Pools, drives: a0.Drives, datasets: a0.Datasets, zil: null, arc: null, gaps: [],
    });
    // What `forecast` and `optane`/`assess` (assess/cli-run.ts) add to the inventory on this machine.
    const m = await measuredArtifacts(inv, { opts: {}, workloadFile: null, dataDir: data }, at);
    expect(m.ok && m.extra.Workload).toEqual(recorded);
    const f = runForecast({ ...artifactsFromInventory(inv), ...(m.ok ? m.extra : {}) }, ForecastRequest.parse({ pool: 'bench-pool', slogModel: 'P1600X' }));
    const r = assess(inv, m.ok ? m.extra : {}, at);
    expect(f.ok && f.result.now.basis).toContain('ZIL on the data vdevs: observed over 10 s');
    expect(f.ok && f.result.now.iops).toBe(r.optane.expected!.qd1.now.iops);
    // The verdict's "now" rests on the same observation, in the same words.
    expect(f.ok && f.result.now.basis).toContain(String(r.optane.evidence.find((e) => e.label === '"now" based on')?.value));
  });
});

describe('computed artifacts (rules/engine/computed.ts)', () => {
  it('keyed by the artifacts it reads, then the subject: same values → same object; another value, or one missing → built again; no first input → not kept', async () => {
    const { computedArtifact } = await import('../../rules/engine/computed.ts');
    const seen: string[] = [];
    const c = computedArtifact('Probe', ['Pools', 'Host'] as const, (s: string) => s, (a, s) => {
      seen.push(s);
      return { s, pools: a.Pools?.length ?? null, host: a.Host?.hostname ?? null, extra: Object.keys(a).sort() };
    });
    const pools = [benchPool];
    const one = c.request({ Pools: pools, Host: host000 }, 'x');
    // Another object holding the same values (what the engine hands a rule), with an artifact the value does not read.
    expect(c.request({ Pools: pools, Host: host000, Drives: [da1] } as Artifacts, 'x')).toBe(one);
    // The builder saw only what it declared.
    expect(one.extra).toEqual(['Host', 'Pools']);
    expect(c.request({ Pools: pools, Host: host000 }, 'y')).not.toBe(one);
    expect(c.request({ Pools: pools }, 'x')).toEqual({ s: 'x', pools: 1, host: null, extra: ['Pools'] });
    expect(c.request({ Pools: [...pools], Host: host000 }, 'x')).not.toBe(one);
    expect(c.request({ Host: host000 }, 'x')).not.toBe(c.request({ Host: host000 }, 'x'));
    expect(seen).toEqual(['x', 'y', 'x', 'x', 'x', 'x']);
    expect(c.builds).toBe(6);
  });
});

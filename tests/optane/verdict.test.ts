import { describe, expect, it } from 'vitest';
import { buildOptaneVerdict, OptaneVerdict } from '../../server/src/optane/verdict.ts';
import { runRules } from '../../rules/engine/engine.ts';
import { ALL_RULES } from '../../rules/index.ts';
import type { Artifacts } from '../../server/src/model/artifacts.ts';
import { artifacts000, benchDataset, benchPoolEvoLog, benchPoolOptaneLog, da1, da3, evo850, host000, p1600x, workload } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, group, host, leaf, pool } from '../support/builders.ts';

const verdict = (a: Artifacts) => {
  const v = buildOptaneVerdict(a, runRules(ALL_RULES, a, new Date('2026-01-01T00:00:00Z')));
  OptaneVerdict.parse(v);
  return v;
};

describe('Optane verdict', () => {
  it('000 system, observed sync writes (constructed workload): yes, with the unused P1600X as candidate', () => {
    const v = verdict(artifacts000({ Workload: workload('bench-pool', 300) }));
    expect(v.verdict).toBe('yes');
    expect(v.pool).toBe('bench-pool');
    // 000 is TrueNAS CORE (FreeBSD): the candidate is named by its /dev node, not a Linux by-id path.
    expect(v.candidates).toEqual([{ device: p1600x.devPath, product: 'Intel Optane SSD P1600X 58GB', role: expect.stringContaining('SLOG'), layout: expect.stringContaining('single') }]);
    expect(v.purchase).toEqual([]);
    expect(v.layout.commands).toContain(`zpool add bench-pool log ${p1600x.devPath}`);
    expect(v.layout.reversible).toBe('yes');
    // Now = the 000 HDD mirror at QD16: measured 894 IOPS; the model's range contains it.
    expect(v.expected!.qd16.now.low).toBeLessThanOrEqual(894);
    expect(v.expected!.qd16.now.high).toBeGreaterThanOrEqual(894);
    // Group commit (16 writers share each round) puts the typical within 50 % of it.
    expect(Math.abs(v.expected!.qd16.now.iops - 894) / 894).toBeLessThan(0.5);
    // QD16 with the P1600X is what 000 measured with it as SLOG (39.2k), not the sync=disabled 48.3k.
    expect(v.expected!.qd16.withOptane.iops).toBe(39_200);
    // The forecast is for the P1600X in the box: 000 measured it at 13.7k IOPS at QD1 as SLOG
    // (the P4800X's 20.2k is a different device).
    expect(v.expected!.qd1.withOptane.iops).toBe(13_700);
    expect(v.expected!.qd1.withOptane.low).toBeLessThanOrEqual(13_700);
    expect(v.expected!.qd1.withOptane.high).toBeGreaterThanOrEqual(13_700);
    expect(v.expected!.qd1.withOptane.high).toBeLessThan(13_700 * 3);
    expect(v.evidence.find((e) => e.label.startsWith('forecast'))?.value).toContain('P1600X');
    expect(v.findings.map((f) => f.ruleId)).toContain('slog-benefit');
  });

  it('000 system with only sync=always configured: yes (configured sync writes, large gain), low confidence, saying why and how to measure', () => {
    const v = verdict(artifacts000());
    expect(v.verdict).toBe('yes');
    // Nothing measured, sync writes only configured: the one confidence rule says low.
    expect(v.confidence).toBe('low');
    expect(v.reasons).toContain('confidence low: "now" is a model estimate, sync writes only configured.');
    expect(v.unknowns.map((u) => u.howToMeasure)).toContain('zfs-advisor bench sync-write-4k-qd1 --pool bench-pool');
    expect(v.headline).toContain('sync=always');
    expect(v.headline).not.toMatch(/\. [a-z]/);
  });

  it('no sync evidence at all (sync=standard, no zvols, no counters): depends, naming the guarded probe once', () => {
    const v = verdict(artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 })] }));
    expect(v.verdict).toBe('depends');
    const probes = v.unknowns.filter((u) => u.howToMeasure === 'zfs-advisor bench sync-write-4k-qd1 --pool bench-pool');
    expect(probes).toHaveLength(1);
  });

  it('ZIL commits counted since boot (kstat crtime→snaptime window): yes, with the rate in the headline', () => {
    const zil = { counters: { zil_commit_count: 864_000 }, perDataset: {}, windowSeconds: 86_400 };
    const v = verdict(artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 })], ZilStats: zil }));
    expect(v.verdict).toBe('yes');
    expect(v.headline).toContain('10 commits/s since boot');
    expect(v.evidence.find((e) => e.label === 'ZIL commits/s')?.value).toBe(10);
  });

  it('ZIL counters since boot at a negligible rate: no', () => {
    const zil = { counters: { zil_commit_count: 100 }, perDataset: {}, windowSeconds: 86_400 * 30 };
    const v = verdict(artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 })], ZilStats: zil }));
    expect(v.verdict).toBe('no');
  });

  it('a slow SATA SLOG and an unused Optane: replace — remove the old log, then add the Optane, both dry-run first', () => {
    const v = verdict({ Host: host000, Pools: [benchPoolEvoLog], Drives: [da1, da3, evo850, p1600x], Datasets: [benchDataset] });
    expect(v.verdict).toBe('replace');
    expect(v.layout.commands).toEqual([
      'zpool remove -n bench-pool /dev/disk/by-id/ata-Samsung_SSD_850_EVO_500GB_S2RANX0H000000',
      'zpool add -n bench-pool log /dev/nvd1',
      'zpool remove bench-pool /dev/disk/by-id/ata-Samsung_SSD_850_EVO_500GB_S2RANX0H000000',
      'zpool add bench-pool log /dev/nvd1',
    ]);
    expect(v.headline).toMatch(/^bench-pool's SLOG \(consumer-grade SSD.*\) is slow for sync writes: .* would be [\d.]+–\d+× faster per write at QD1 \(forecast range.*\)\. Remove the old log, then add the faster one\.$/);
    expect(v.reasons.join(' ')).toContain('stripe the ZIL');
  });

  it('nothing in the box: the forecast is for the recommended purchase (P1600X), with Linux by-id placeholders on Linux', () => {
    const v = verdict({ ...artifacts000({ Workload: workload('bench-pool', 300) }), Drives: [da1, da3], Host: host('2.2.6') });
    expect(v.purchase[0]?.product).toContain('P1600X');
    // Optane is discontinued: the text says so with a link, where to find it, and current alternatives.
    expect(v.purchase[0]?.why).toContain('Discontinued');
    expect(v.purchase[0]?.why).toMatch(/https:\/\/www\.tomshardware\.com\//);
    expect(v.purchase[0]?.why).toContain('used');
    const alternatives = v.purchase.filter((p) => p.product.includes('current alternative'));
    expect(alternatives.map((p) => p.product).join(' ')).toContain('Micron 7450');
    for (const p of alternatives) expect(p.why).toContain('In production, power-loss protection');
    expect(v.expected!.qd1.withOptane.iops).toBe(13_700);
    // No zvols, no business-data evidence: one device (a mirror only where the rule asks for it: buying-card.test.ts).
    expect(v.layout.commands[0]).toBe('zpool add -n bench-pool log /dev/disk/by-id/<new-optane-1>');
  });

  it('a P4800X in the box: forecast with the P4800X measured in 000 (20.2k at QD1)', () => {
    const p4800x = drive('ms:INTEL_SSDPED1K375GA:X', { model: 'INTEL SSDPED1K375GA', media: 'nvme', transport: 'nvme', rotational: false, rpm: null, devPath: '/dev/nvd0', byIdPath: null, sizeBytes: 375e9 });
    const v = verdict({ ...artifacts000({ Workload: workload('bench-pool', 300) }), Drives: [da1, da3, p4800x] });
    expect(v.candidates[0]?.device).toBe('/dev/nvd0');
    expect(v.expected!.qd1.withOptane.iops).toBe(20_200);
  });

  it('no sync writes observed: no', () => {
    const v = verdict(artifacts000({ Workload: workload('bench-pool', 0), Datasets: [dataset('bench-pool')] }));
    expect(v.verdict).toBe('no');
    expect(v.purchase).toEqual([]);
  });

  it('ZIL already on Optane: no', () => {
    const v = verdict({ Host: host('2.1.6'), Pools: [benchPoolOptaneLog], Drives: [da1, da3, p1600x], Workload: workload('bench-pool', 300) });
    expect(v.verdict).toBe('no');
    expect(v.headline).toContain('already');
  });

  it('all-flash pool of PLP NVMe: no, the gain is too small', () => {
    const nv = (id: string) => drive(id, { model: 'INTEL SSDPE2KX020T7', media: 'nvme', transport: 'nvme', rotational: false, rpm: null });
    const p = pool('fast', [group('mirror', 'mirror-0', [leaf('nvme0n1', { driveId: 'a' }), leaf('nvme1n1', { driveId: 'b' })])]);
    const v = verdict({ Host: host('2.2.6'), Pools: [p], Drives: [nv('a'), nv('b')], Workload: workload('fast', 500) });
    expect(v.verdict).toBe('no');
    // Decided by the ZIL devices' known low latency (not by a ceiling holding the forecast down).
    expect(v.decisive).toBe('the ZIL lands on NVMe with power-loss protection (~30 µs per flushed write, class figure): already fast');
  });

  it('a measured QD1 benchmark replaces the model for "now"', () => {
    const bench = {
      id: 'b1', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench', startedAt: '2026-01-01T00:00:00Z', status: 'completed' as const,
      syncMode: 'property' as const, iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 80, readBytesPerSec: 0, writeBytesPerSec: 80 * 4096,
      writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
    };
    const v = verdict(artifacts000({ Workload: workload('bench-pool', 300), Benchmarks: [bench] }));
    expect(v.expected!.qd1.now.iops).toBe(80);
    expect(v.confidence).toBe('high');
    expect(v.verdict).toBe('yes');
    expect(v.decisive).toBe('measured 80 sync writes/s, 13 ms each on hard disk');
    expect(v.headline).toContain('measured 80 sync writes/s, 13 ms each');
  });

  const probeRun = (iops: number) => ({
    id: 'b2', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench', startedAt: '2026-01-02T00:00:00Z', status: 'completed' as const,
    syncMode: 'property' as const, iodepth: 1, blockSize: 4096, readIops: 0, writeIops: iops, readBytesPerSec: 0, writeBytesPerSec: iops * 4096,
    writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
  });

  it('issue 34 newcomer: a stored probe is read — "Run bench sync-write-4k-qd1 … to decide" does not appear, the measured number decides', () => {
    const v = verdict(artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 })], Benchmarks: [probeRun(88)] }));
    expect(v.verdict).not.toBe('no');
    expect(v.reasons.join(' ')).not.toContain('Run `zfs-advisor bench sync-write-4k-qd1');
    expect(v.decisive).toContain('measured 88 sync writes/s, 11 ms each');
  });

  it('issue 34 newcomer: a stored observation is read — no "No workload observation", no request to observe', () => {
    const v = verdict(artifacts000({ Workload: workload('bench-pool', 300) }));
    expect(v.reasons.join(' ')).not.toContain('No workload observation');
    expect(v.reasons.join(' ')).not.toContain('zfs-advisor observe');
    // An observation without figures for this pool is named as such, not as missing.
    const w = workload('other-pool', 300);
    const u = verdict({ ...artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 })] }), Workload: { ...w, zil: null } });
    expect(u.reasons.join(' ')).not.toContain('No workload observation');
    expect(u.reasons.join(' ')).toContain('has no sync-write figures for bench-pool');
    expect(u.reasons.join(' ')).not.toMatch(/Run .*zfs-advisor observe/);
  });

  it('issue 34: a measured slow probe is never "no": yes with the measured number, never "low-latency"', () => {
    const v = verdict(artifacts000({ Workload: workload('bench-pool', 300), Benchmarks: [probeRun(88)] }));
    expect(v.verdict).toBe('yes');
    expect(v.headline).not.toContain('low-latency');
  });

  it('no pools: depends, low confidence', () => {
    expect(verdict({ Pools: [], Drives: [] }).verdict).toBe('depends');
  });
});

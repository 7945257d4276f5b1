/**
 * Measure before forecasting (issue 27 §2): after the app's QD1 probe on a pool, the verdict and
 * the slog-benefit finding use the measured value for "now", state the same confidence, and
 * forecast only the "with" side; an async or sync=disabled run never counts as the probe.
 */
import { describe, expect, it } from 'vitest';
import { buildOptaneVerdict } from '../../server/src/optane/verdict.ts';
import slogBenefit from '../../rules/slog-benefit.ts';
import { measuredNow, newestQd1Probe } from '../../server/src/forecast/measured-now.ts';
import { ForecastRequest, runForecast } from '../../server/src/forecast/request.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { artifacts000 } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, group, host, leaf, pool } from '../support/builders.ts';

const probe = (o: Partial<BenchmarkSummary> = {}): BenchmarkSummary => ({
  id: 'b1', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench-b1', startedAt: '2026-11-26T01:00:00Z',
  status: 'completed', syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 220, readBytesPerSec: 0, writeBytesPerSec: 220 * 4096,
  writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
  targetKind: 'dataset', sync: 'always', ...o,
});
const ev = (v: ReturnType<typeof buildOptaneVerdict>) => Object.fromEntries(v.evidence.map((e) => [e.label, e.value]));

describe('measured "now"', () => {
  it('the probe is the "now": measured QD1 sync IOPS shown, the forecast names it, and the gain is against it', () => {
    const v = buildOptaneVerdict(artifacts000({ Benchmarks: [probe()] }), null);
    expect(ev(v)['measured QD1 sync IOPS']).toBe(220);
    expect(v.expected!.qd1.now.iops).toBe(220);
    expect(String(ev(v)['"now" based on'])).toContain('measured on this host: 220 sync IOPS at QD1, 4 KiB (benchmark b1');
    expect(v.unknowns.some((u) => u.what.startsWith('Current sync-write latency'))).toBe(false);
  });

  it('verdict and finding state one confidence', () => {
    for (const a of [artifacts000({ Benchmarks: [probe({ writeIops: 90 })] }), artifacts000()]) {
      const v = buildOptaneVerdict(a, null);
      const out = slogBenefit.check(a as never);
      const findings = 'findings' in out ? out.findings : [];
      expect(findings.length).toBe(1);
      expect(findings[0]!.confidence).toBe(v.confidence);
    }
    const v = buildOptaneVerdict(artifacts000({ Benchmarks: [probe()] }), null);
    expect(v.confidence).toBe('medium'); // measured now, sync writes only configured (sync=always)
    expect(v.reasons).toContain('confidence medium: "now" measured by a benchmark, sync writes only configured.');
  });

  it('end_fsync-only, sync=disabled, other pools and unfinished runs are not the probe', () => {
    expect(newestQd1Probe([probe({ syncMode: 'async' })], 'bench-pool')).toBeNull();
    expect(newestQd1Probe([probe({ sync: 'disabled' })], 'bench-pool')).toBeNull();
    expect(newestQd1Probe([probe({ pool: 'other' })], 'bench-pool')).toBeNull();
    expect(newestQd1Probe([probe({ status: 'aborted' })], 'bench-pool')).toBeNull();
    expect(newestQd1Probe([probe({ id: 'old', startedAt: '2026-01-01T00:00:00Z', writeIops: 90 }), probe()], 'bench-pool')?.id).toBe('b1');
  });

  it('without a probe the verdict says "now" is a model estimate and how to measure it in one click', () => {
    const v = buildOptaneVerdict(artifacts000(), null);
    expect(ev(v)['measured QD1 sync IOPS']).toBeNull();
    expect(String(ev(v)['"now" based on'])).toMatch(/^model estimate, not measured on this host .*zfs-advisor bench sync-write-4k-qd1 --pool bench-pool/);
  });
});

describe('the same binding limit for every candidate', () => {
  it('4 KiB sync writes into 128 KiB records on two hard disks: QD16 is the pool\'s ceiling for all, and the verdict ranks by what differs', () => {
    const disks = [0, 1].map((i) => drive(`h${i}`, { model: 'WDC WD40EFRX-68N32N0', media: 'hdd', rotational: true, rpm: 5400 }));
    const p = pool('tank', [group('mirror', 'mirror-0', disks.map((d, i) => leaf(`sd${i}`, { driveId: d.id })))]);
    const v = buildOptaneVerdict({ Host: host('2.3.0'), Pools: [p], Drives: disks, Datasets: [dataset('tank', { sync: 'always' })] }, null);
    const r = v.reasons.join(' ');
    expect(r).toMatch(/At QD16 every candidate reaches the same ~[\d,]+ sync IOPS: tank's sustained ceiling binds/);
    expect(r).toContain('Micron 7450 PRO / MAX: ~');
    expect(r).toMatch(/Intel Optane SSD P1600X 118GB: ~[\d,]+ IOPS per writer at QD1 \(measured\), 6 DWPD/);
    expect(r).toContain('endurance unknown');
    expect(r).not.toContain('? DWPD');
    expect(v.purchase.map((x) => x.why).join(' ')).not.toContain('? DWPD');
  });
});

describe('a measured many-writer limit (the QD16 probe)', () => {
  // The lab's numbers (BENCHMARKS.md, "Advice followed"): 142 sync IOPS at QD1 and 292 with 16
  // writers on a hard-disk mirror, where group commit on 7 ms would allow ~2,000.
  const runs = (qd16: number, o: Partial<BenchmarkSummary> = {}): BenchmarkSummary[] => [
    probe({ writeIops: 142, topologyFingerprint: 'f1' }),
    probe({ id: 'b16', profile: 'sync-write-4k-qd16', iodepth: 16, writers: 16, writeIops: qd16, startedAt: '2026-11-26T01:01:00Z', topologyFingerprint: 'f1', ...o }),
  ];
  const busy = (pct: number): Partial<BenchmarkSummary> => ({ system: { load1Max: 3, load1Mean: 2, iowaitPctMean: 1, arcHitPct: null, cpuBusyPctMean: pct, cpus: 2 } });
  const at = (a: ReturnType<typeof artifacts000>, numjobs: number) => {
    const r = runForecast(a, ForecastRequest.parse({ pool: 'bench-pool', slog: '/dev/nvd1', workload: { rw: 'randwrite', bs: 4096, iodepth: 1, numjobs, sync: 'always' } }));
    if (!r.ok) throw new Error(r.message);
    return r.result;
  };

  it('CPUs busy throughout: the host binds; "now" and "with" held at what 16 writers measured, for 16 and more writers; fewer writers interpolated for "now" only', () => {
    const a = artifacts000({ Benchmarks: runs(292, busy(96)) });
    expect(measuredNow(a, a.Pools![0]!).ceiling).toMatchObject({ iops: 292, writers: 16, qd1Iops: 142, binds: 'host', holdsWith: true, runId: 'b16' });
    const f16 = at(a, 16);
    expect(f16.now.iops).toBe(292);
    expect(f16.with!.iops).toBe(292);
    expect(f16.with!.high).toBeLessThanOrEqual(Math.round(292 * 1.1));
    expect(f16.with!.basis).toMatch(/measured on this host: 292 sync IOPS with 16 writers \(benchmark b16, .*\) with the CPUs 96 % busy.*the host binds.*no log device lifts it for 16 or more writers/);
    const f64 = at(a, 64);
    expect([f64.now.iops, f64.with!.iops]).toEqual([292, 292]);
    const f4 = at(a, 4);
    // Between the two measurements, linearly in the writers: 142 + (292 − 142) × 3 / 15 = 172.
    expect(f4.now.iops).toBe(172);
    expect(at(a, 8).now.iops).toBe(Math.round(142 + (150 * 7) / 15));
    expect(f4.now.basis).toContain('Interpolated between the QD1 probe (142 IOPS) and measured on this host: 292 sync IOPS with 16 writers');
    expect(f4.with!.iops).toBeGreaterThan(292);
    expect(f4.with!.basis).not.toContain('16 writers');
  });

  it('CPUs mostly idle: the data vdevs bind (they carry the ZIL); "now" is the measurement, "with" is not held', () => {
    const a = artifacts000({ Benchmarks: runs(292, busy(42)) });
    expect(measuredNow(a, a.Pools![0]!).ceiling).toMatchObject({ binds: 'pool', holdsWith: false });
    const f16 = at(a, 16);
    expect(f16.now.iops).toBe(292);
    expect(f16.now.basis).toContain('with the CPUs 42 % busy');
    expect(f16.with!.iops).toBeGreaterThan(292 * 2);
    expect(f16.with!.basis).not.toContain('Held by a measurement');
    // 64 writers share each ZIL block more: "now" rises from the measurement (lab: 362 → 694–750 from 16 to 64), under the model's ceiling and at most 4×.
    const f64 = at(a, 64);
    expect(f64.now.iops).toBeGreaterThan(292);
    expect(f64.now.iops).toBeLessThanOrEqual(292 * 4);
    expect(f64.now.iops).toBeLessThanOrEqual(f64.now.latencyIops);
  });

  it("runs stored before the CPUs' share was recorded: the model's bandwidth decides, as before", () => {
    const a = artifacts000({ Benchmarks: runs(292) });
    expect(measuredNow(a, a.Pools![0]!).ceiling).toMatchObject({ binds: 'host', holdsWith: true });
  });

  it('no limit from a run near what group commit allows, nor any reading of async, mixed, pre-thread (posixaio) or other-layout runs', () => {
    const ceilingOf = (r: BenchmarkSummary[]) => measuredNow(artifacts000({ Benchmarks: r }), artifacts000().Pools![0]!).ceiling;
    expect(ceilingOf(runs(2_000))).toMatchObject({ binds: null, holdsWith: false });
    expect(ceilingOf(runs(292, { syncMode: 'async' }))).toBeNull();
    expect(ceilingOf(runs(292, { readIops: 600, profile: 'mixed-70-30-4k' }))).toBeNull();
    expect(ceilingOf(runs(292, { writers: undefined }))).toBeNull(); // stored before fio ran threads: its "QD16" was one at a time
    expect(ceilingOf(runs(292, { topologyFingerprint: 'f0' }))).toBeNull(); // measured before the layout changed
    expect(ceilingOf(runs(292))).not.toBeNull();
  });

  it('leaves async datasets, logbias=throughput and zvols to the model', () => {
    const a = artifacts000({ Benchmarks: runs(292), Datasets: [dataset('bench-pool', { sync: 'always', recordsize: 4096, logbias: 'throughput', properties: { logbias: { value: 'throughput', source: 'local' } } })] });
    expect(at(a, 16).with!.basis).not.toContain('16 writers');
  });
});

describe("the host's own CPU per sync write (the probe's fio usr + sys time)", () => {
  // The lab on a quiet host (BENCHMARKS.md, "Advice followed"): the QD1 probe spent ~1.1 ms of CPU
  // per sync write in fio's thread; the NVMe's blank-device test 0.54 ms per write + fdatasync.
  const withCpu = (us: number | null, cpus = 2) => probe({ writeIops: 142, cpuUsPerIo: us, system: { load1Max: 1, load1Mean: 1, iowaitPctMean: 10, arcHitPct: null, cpuBusyPctMean: 30, cpus } });
  const f = (runs: BenchmarkSummary[], numjobs = 1) => {
    const r = runForecast(artifacts000({ Benchmarks: runs }), ForecastRequest.parse({ pool: 'bench-pool', slog: '/dev/nvd1', workload: { rw: 'randwrite', bs: 4096, iodepth: 1, numjobs, sync: 'always' } }));
    if (!r.ok) throw new Error(r.message);
    return r.result;
  };

  it("is a floor under the \"with\" side's per-commit overhead: a fast log device cannot make a write cheaper than the host's CPU for it", () => {
    const fast = f([withCpu(null)]).with!;
    const slowCpu = f([withCpu(1_100)]).with!;
    expect(slowCpu.iops).toBeLessThan(fast.iops);
    expect(slowCpu.iops).toBeLessThanOrEqual(Math.round(1e6 / 1_100));
    const v = buildOptaneVerdict(artifacts000({ Benchmarks: [withCpu(1_100)] }), null);
    expect(ev(v)['host CPU per sync write (µs)']).toBe(1_100);
    expect(v.reasons.join(' ')).toContain("This host spent 1.1 ms of CPU per sync write in the probe's writing thread (benchmark b1): no log device makes a write cheaper than that");
    expect(buildOptaneVerdict(artifacts000({ Benchmarks: [withCpu(40)] }), null).reasons.join(' ')).not.toContain('of CPU per sync write');
    expect(ev(buildOptaneVerdict(artifacts000({ Benchmarks: [withCpu(null)] }), null))['host CPU per sync write (µs)']).toBeUndefined();
    // A server's few tens of µs stay under the model's own per-commit overhead and change nothing.
    expect(f([withCpu(40)]).with!.iops).toBe(fast.iops);
  });

  it("bounds many writers by the host's CPUs, and says so", () => {
    const r = f([withCpu(1_000, 2)], 16);
    expect(r.with!.iops).toBeLessThanOrEqual(2_000);
    expect(r.with!.basis).toContain("Capped by this host's CPUs: the QD1 probe (benchmark b1) spent 1 ms of CPU per sync write in the writing thread, so 2 CPUs serve at most ~2,000 writes/s.");
  });
});

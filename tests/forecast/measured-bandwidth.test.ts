/**
 * The bandwidth probe (`bench seq-write-1m` on the pool, measured-bandwidth.ts): what the data
 * vdevs write back, sustained, replaces the disks' class bandwidth in the pool's ceiling, so many
 * 4 KiB sync writes into 128 KiB records are never forecast beyond what the disks can write back,
 * log device or not. A run that wrapped around its file, a sync run, or one on another pool or
 * layout does not count.
 */
import { describe, expect, it } from 'vitest';
import { newestBandwidthRun, withMeasuredBandwidth, writesOnce, measuredBandwidth } from '../../server/src/forecast/measured-bandwidth.ts';
import { dataBandwidth } from '../../server/src/forecast/model.ts';
import { dataVdevs } from '../../server/src/forecast/pool-shape.ts';
import { ForecastRequest, runForecast } from '../../server/src/forecast/request.ts';
import { runArgs } from '../../server/src/bench/fio-args.ts';
import { PROFILES } from '../../server/src/bench/profiles.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { artifacts000, benchPool, da1, da3 } from '../fixtures/rules/slog-fixtures.ts';
import { dataset } from '../support/builders.ts';

const MiB = 2 ** 20;
// The lab's write-back on 1 GiB disks throttled to 150 IOPS (BENCHMARKS.md, "Advice followed"): 58 MiB/s.
const bwRun = (o: Partial<BenchmarkSummary> = {}): BenchmarkSummary => ({
  id: 'bw1', profile: 'seq-write-1m', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench-bw1', startedAt: '2026-11-26T01:02:00Z',
  status: 'completed', syncMode: 'async', iodepth: 4, writers: 4, blockSize: MiB, readIops: 0, writeIops: 58, readBytesPerSec: 0, writeBytesPerSec: 58 * MiB,
  writeLatency: null, readLatency: null, wallSeconds: 9, fioRuntimeSeconds: 8.8, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
  targetKind: 'dataset', sync: 'standard', fileBytes: 1024 * MiB, ...o,
});
const artifacts = (runs: BenchmarkSummary[]) => artifacts000({ Benchmarks: runs, Datasets: [dataset('bench-pool', { sync: 'always' })] });
const forecast = (runs: BenchmarkSummary[], numjobs: number) => {
  const r = runForecast(artifacts(runs), ForecastRequest.parse({ pool: 'bench-pool', slog: '/dev/nvd1', workload: { rw: 'randwrite', bs: 4096, iodepth: 1, numjobs, sync: 'always' } }));
  if (!r.ok) throw new Error(r.message);
  return r.result;
};

describe('the measured write-back', () => {
  it('the model\'s sequential bandwidth of the pool becomes the measurement', () => {
    const data = withMeasuredBandwidth(dataVdevs(benchPool, [da1, da3]), measuredBandwidth(bwRun()));
    expect(dataBandwidth(data, MiB, 131_072, 'typical', 'write')).toBeCloseTo((58 * MiB) / 1e6, 6);
    // A 4 KiB write into a 128 KiB record writes the record back: 32× fewer writes than bytes allow.
    expect(dataBandwidth(data, 4096, 131_072, 'typical', 'randwrite') * 1e6 / 4096).toBeCloseTo((58 * MiB) / 131_072, 3);
  });

  it('only runs that wrote each block once, asynchronously, to a dataset of the pool on its layout count', () => {
    expect(writesOnce(bwRun())).toBe(true);
    expect(writesOnce(bwRun({ fioRuntimeSeconds: 30 }))).toBe(false); // 1.7 GiB into a 1 GiB file: it wrapped
    expect(writesOnce(bwRun({ fileBytes: undefined }))).toBe(false); // stored before the file size was recorded
    expect(newestBandwidthRun([bwRun({ syncMode: 'property' })], 'bench-pool')).toBeNull();
    expect(newestBandwidthRun([bwRun({ pool: 'other' })], 'bench-pool')).toBeNull();
    expect(newestBandwidthRun([bwRun({ status: 'aborted' })], 'bench-pool')).toBeNull();
    expect(newestBandwidthRun([bwRun({ profile: 'async-write-4k' })], 'bench-pool')).toBeNull();
    expect(newestBandwidthRun([bwRun({ topologyFingerprint: 'old' })], 'bench-pool', 'new')).toBeNull();
    expect(newestBandwidthRun([bwRun({ id: 'older', startedAt: '2026-01-01T00:00:00Z' }), bwRun()], 'bench-pool')?.id).toBe('bw1');
  });

  it('the probe goes once through its file: no time_based for an async sequential write, so nothing is counted twice', () => {
    const seq = PROFILES.find((p) => p.id === 'seq-write-1m')!;
    const rand = PROFILES.find((p) => p.id === 'sync-write-4k-qd1')!;
    const plan = { filename: '/tank/f', sizeBytes: 1024 * MiB, runtimeS: 10, syncMode: 'async' as const, rawDevice: false };
    expect(runArgs(seq, plan)).not.toContain('--time_based=1');
    expect(runArgs(seq, plan)).toContain('--end_fsync=1');
    expect(runArgs(rand, { ...plan, syncMode: 'property' })).toContain('--time_based=1');
  });

  it('64 writers of 4 KiB into 128 KiB records: "with" a SLOG stays under what the disks write back, and says so', () => {
    const modelled = forecast([], 64);
    const measured = forecast([bwRun()], 64);
    const writeBack = (58 * MiB) / 131_072; // records a second
    expect(measured.with!.iops).toBeLessThanOrEqual(Math.ceil(writeBack));
    expect(measured.with!.iops).toBeLessThan(modelled.with!.iops);
    // The optimistic end: records rewritten within one txg are written back once (×1.25), and the measurement's spread (×1.15).
    expect(measured.with!.high).toBeLessThanOrEqual(Math.ceil(writeBack * 1.25 * 1.15));
    expect(measured.with!.basis).toContain('The data vdevs\' write-back was measured on this host: 58');
    expect(measured.with!.basis).toContain('benchmark bw1');
    expect(modelled.with!.basis).not.toContain('write-back was measured');
  });

  it('even one writer on an Optane log is bounded by it: 13,700 writes of 4 KiB a second would dirty 1.8 GB/s of 128 KiB records', () => {
    expect(forecast([bwRun()], 1).with!.iops).toBeLessThan(forecast([], 1).with!.iops);
    expect(forecast([bwRun()], 1).with!.iops).toBeLessThanOrEqual(Math.ceil((58 * MiB) / 131_072));
  });

  it('a write-back far above what the writers need does not bind and is not cited', () => {
    const fast = forecast([bwRun({ writeBytesPerSec: 20_000 * MiB, fioRuntimeSeconds: 0.05 })], 1);
    expect(fast.with!.basis).not.toContain('write-back was measured');
    expect(fast.now.basis).not.toContain('write-back was measured');
  });
});

/**
 * The gain range while "now" is a model estimate (issue 34, the published pairs): it carries the
 * ZIL devices' own range (a hard disk's cached append against a seek and flush), which no inventory
 * shows; once the probe measured "now" it is the "with" range's alone. What both sides share (the
 * host's per-commit overhead, the data vdevs' ceiling) takes one end on both (forecast.ts gainSpread).
 */
import { describe, expect, it } from 'vitest';
import { forecastPool, gainSpread, WorkloadSpec } from '../../server/src/forecast/forecast.ts';
import { forecastOptionsOf, measuredNow } from '../../server/src/forecast/measured-now.ts';
import { profileForDrive } from '../../server/src/forecast/catalog.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { artifacts000, benchPool, p1600x } from '../fixtures/rules/slog-fixtures.ts';

const r2 = (x: number) => Math.round(x * 100) / 100;
const optane = { label: 'P1600X', profile: profileForDrive(p1600x), mirrored: false };
const probe = (iops: number): BenchmarkSummary => ({
  id: 'b2', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench', startedAt: '2026-01-02T00:00:00Z', status: 'completed',
  syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: iops, readBytesPerSec: 0, writeBytesPerSec: iops * 4096,
  writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
}) as BenchmarkSummary;

describe('gainSpread', () => {
  it('"now" measured: the gain moves with the "with" range only', () => {
    expect(gainSpread(10, { iops: 1000, low: 500, high: 3000 }, null)).toEqual({ low: 5, high: 30 });
  });
  it('"now" a model estimate: with.low over "now" at its fast end, with.high over "now" at its slow end', () => {
    // gain 10 = 1000 / 100; "now" 50 (slow devices) … 400 (fast devices).
    expect(gainSpread(10, { iops: 1000, low: 500, high: 3000 }, { iops: 100, fast: 400, slow: 50 })).toEqual({ low: 500 / 400, high: 3000 / 50 });
  });
});

describe('forecastPool on 000\'s 2×HDD mirror with the P1600X in the box', () => {
  it('model only, QD1: "now" carries its disks\' ends, and the gain range spans with.low / fast … with.high / slow', () => {
    const f = forecastPool(artifacts000(), benchPool, WorkloadSpec.parse({}), optane);
    const e = f.now.deviceEnds!;
    expect(e).not.toBeNull();
    // The fast end is a cached append (well under a millisecond per write), the slow end a seek and flush.
    expect(1000 / e.latencyFast).toBeLessThan(1);
    expect(1000 / e.latencySlow).toBeGreaterThan(10);
    expect(e.fast).toBeGreaterThan(f.now.iops);
    expect(e.slow).toBeLessThanOrEqual(f.now.iops);
    const w = f.with!;
    expect(f.gainRange).toEqual({ low: r2(Math.min(f.gain!, w.low / e.fast)), high: r2(Math.max(f.gain!, w.high / e.slow)) });
    // Wider than the "with" range alone over the point "now", on both sides.
    expect(f.gainRange!.low).toBeLessThan(w.low / f.now.iops);
    expect(f.gainRange!.high).toBeGreaterThan(w.high / f.now.iops);
  });

  it('model only, QD16: the shared ceiling takes one end on both sides, so a faster log is never forecast slower than none', () => {
    const f = forecastPool(artifacts000(), benchPool, WorkloadSpec.parse({ iodepth: 16 }), optane);
    // Dividing the printed ends would pair the ceiling's two ends: with.low / now.high < 1.
    expect(f.with!.low / f.now.high).toBeLessThan(1);
    expect(f.gainRange!.low).toBeGreaterThanOrEqual(1);
  });

  it('after the probe measured "now": no device ends, the range is the "with" side\'s alone', () => {
    const a = artifacts000({ Benchmarks: [probe(125)] });
    const f = forecastPool(a, benchPool, WorkloadSpec.parse({}), optane, forecastOptionsOf(measuredNow(a, benchPool)));
    expect(f.now.deviceEnds).toBeNull();
    const w = f.with!;
    expect(f.gainRange).toEqual({ low: r2(Math.min(f.gain!, w.low / f.now.iops)), high: r2(Math.max(f.gain!, w.high / f.now.iops)) });
  });

  it('no sync writes: no device ends, gain exactly 1', () => {
    const f = forecastPool(artifacts000(), benchPool, WorkloadSpec.parse({ sync: 'none' }), optane);
    expect(f.now.deviceEnds).toBeNull();
    expect(f.gainRange).toEqual({ low: 1, high: 1 });
  });
});

/**
 * Calibration checks of the sync-write latency model against the measurements printed in
 * 000_a5b8e6cc27024805.txt (numbers copied by hand from its fio output lines).
 */
import { describe, expect, it } from 'vitest';
import { forecast, impliedDeviceLatencyUs, latencyOfClass, measuredLatency, predictSyncIops } from '../../server/src/optane/latency-model.ts';

const within = (r: { low: number; high: number }, x: number) => {
  expect(r.low, `low ${r.low} ≤ ${x}`).toBeLessThanOrEqual(x);
  expect(r.high, `high ${r.high} ≥ ${x}`).toBeGreaterThanOrEqual(x);
};

describe('calibration on 000', () => {
  it('2×HDD mirror, no SLOG, QD16: 894 IOPS ("write: IOPS=894")', () => {
    const r = predictSyncIops(latencyOfClass('hdd'), 16);
    expect(r.iops).toBeGreaterThan(894 * 0.9);
    expect(r.iops).toBeLessThan(894 * 1.1);
    within(r, 894);
  });
  it('P4800X SLOG, QD1: 20.2k IOPS, device 15 µs per 4K sync write (diskinfo on the same host)', () => {
    const r = predictSyncIops(measuredLatency(15), 1);
    within(r, 20_200);
    expect(Math.abs(r.iops - 20_200) / 20_200).toBeLessThan(0.15);
  });
  it('P1600X SLOG in an x1-lane slot, QD1: 13.7k IOPS, device ≈ 2 × 13.3 µs', () => {
    const r = predictSyncIops(measuredLatency(2 * 13.3), 1);
    within(r, 13_700);
    expect(Math.abs(r.iops - 13_700) / 13_700).toBeLessThan(0.15);
  });
  it('Optane as a class covers both QD1 measurements', () => {
    const r = predictSyncIops(latencyOfClass('optane-dc'), 1);
    within(r, 13_700);
    within(r, 20_200);
  });
  it('Optane SLOG at QD16 is host-bound: 38.9k–49.0k measured (30 s and 10 s runs)', () => {
    const r = predictSyncIops(latencyOfClass('optane-dc'), 16);
    for (const x of [38_900, 39_200, 47_700, 49_000]) within(r, x);
  });
  it('SS300 (PLP SAS) at QD1: 6379 IOPS falls in the PLP SATA/SAS class range', () => {
    within(predictSyncIops(latencyOfClass('plp-sata'), 1), 6379);
  });
});

describe('model shape', () => {
  it('more queue depth never lowers IOPS; faster devices never lose', () => {
    const hdd = latencyOfClass('hdd');
    expect(predictSyncIops(hdd, 16).iops).toBeGreaterThan(predictSyncIops(hdd, 1).iops);
    const f = forecast(hdd);
    expect(f.qd1.withOptane.iops).toBeGreaterThan(100 * f.qd1.now.iops);
    for (const x of [f.qd1.now, f.qd16.now, f.qd1.withOptane, f.qd16.withOptane]) {
      expect(x.low).toBeLessThanOrEqual(x.iops);
      expect(x.high).toBeGreaterThanOrEqual(x.iops);
    }
  });
  it('inverts a measured QD1 result to a device latency', () => {
    expect(impliedDeviceLatencyUs(20_000)).toBeCloseTo(10, 5);
    expect(() => predictSyncIops(latencyOfClass('hdd'), 0)).toThrow(RangeError);
  });
});

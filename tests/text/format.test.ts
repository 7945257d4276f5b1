import { describe, expect, it } from 'vitest';
import {
  ABSENT, byteScale, formatBytes, formatCount, formatGain, formatGainRange, formatLatencyNs, formatTime, formatLatencyUs, formatPct, formatPercent, formatRange,
  formatValue, plural,
} from '../../server/src/text/format.ts';

describe('the one formatter', () => {
  it('writes counts with grouped digits and fractions to three significant digits', () => {
    expect(formatCount(13700)).toBe('13,700');
    expect(formatCount(1042.89571)).toBe('1,043'); // "measured QD1 sync IOPS 1042.89571" in the issue
    expect(formatCount(75)).toBe('75');
    expect(formatCount(2.5)).toBe('2.5');
    expect(formatCount(0.12345)).toBe('0.123');
    expect(formatCount(-1500)).toBe('-1,500');
    expect(formatCount(null)).toBe(ABSENT);
    expect(formatCount(Number.NaN)).toBe(ABSENT);
  });
  it('writes a range one way', () => {
    expect(formatRange(6088, 32397)).toBe('6,088–32,397');
    expect(formatRange(200, 200)).toBe('200');
    expect(formatRange(null, 3)).toBe(ABSENT);
    expect(formatRange(1e6, 2e6, formatBytes)).toBe('977 KiB–1.91 MiB');
  });
  it('writes sizes in IEC units, three significant digits, never "1024 KiB"', () => {
    expect(formatBytes(58977157120)).toBe('54.9 GiB');
    expect(formatBytes(4096)).toBe('4 KiB');
    expect(formatBytes(131072)).toBe('128 KiB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1 MiB');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(0)).toBe('0 B');
  });
  it('writes latencies in the largest unit that keeps a whole number in front', () => {
    expect(formatLatencyUs(12000)).toBe('12 ms'); // "12000 µs" in the issue
    expect(formatLatencyUs(17695)).toBe('17.7 ms'); // "p99 17695 µs"
    expect(formatLatencyNs(73_000)).toBe('73 µs');
    expect(formatLatencyNs(999_600)).toBe('1 ms');
    expect(formatLatencyNs(2.5e9)).toBe('2.5 s');
  });
  it('writes percentages, gains, flags and absent values', () => {
    expect(formatPct(0.67)).toBe('67 %');
    expect(formatPercent(67)).toBe('67 %');
    expect(formatGain(182.67)).toBe('183×');
    expect(formatGain(6.4)).toBe('6.4×');
    expect(formatValue(null)).toBe(ABSENT);
    expect(formatValue(false)).toBe('no');
    expect(formatValue(4096, 'bytes')).toBe('4 KiB');
    expect(formatValue(12, 'ms')).toBe('12 ms');
    expect(formatValue(13700, 'IOPS')).toBe('13,700 IOPS');
    expect(formatValue(3.5, '/s')).toBe('3.5/s');
    expect(formatValue('none')).toBe('none');
  });
  it('says plurals right', () => {
    expect(plural(2, 'suggestion')).toBe('2 suggestions');
    expect(plural(1, 'suggestion')).toBe('1 suggestion');
    expect(plural(0, 'run')).toBe('0 runs');
    expect(plural(1, 'dataset or zvol', 'datasets and zvols')).toBe('1 dataset or zvol');
    expect(plural(3, 'dataset or zvol', 'datasets and zvols')).toBe('3 datasets and zvols');
    // An evidence unit is a plural noun; one of it reads in the singular (a real capture said "1 devices").
    expect(formatValue(1, 'devices')).toBe('1 device');
    expect(formatValue(2, 'devices')).toBe('2 devices');
    expect(formatValue(1, 'writes in flight per job')).toBe('1 write in flight per job');
    expect(formatValue(1, 'IOPS')).toBe('1 IOPS');
  });
  // Issue 38 §4: "110×", "40.2×", "99.6×" on one page; one rule for every gain.
  it('writes every gain by one precision rule: whole from 10×, one decimal from 2×, two below', () => {
    expect([110.4, 40.2, 99.6].map(formatGain)).toEqual(['110×', '40×', '100×']);
    expect(formatGain(9.96)).toBe('10×');
    expect(formatGain(9.94)).toBe('9.9×');
    expect(formatGain(2)).toBe('2.0×');
    expect(formatGain(1.254)).toBe('1.25×');
    expect(formatGain(1324.6)).toBe('1,325×');
    expect(formatGain(null)).toBe(ABSENT);
    expect(formatGainRange(1.05, 1.2)).toBe('1.05–1.20×');
    expect(formatGainRange(40.2, 99.6)).toBe('40–100×');
    expect(formatGainRange(3.04, 2.96)).toBe('3.0×');
  });
  // Issue 38 §4: timestamps appeared raw ("2026-11-28T04:16:32.705Z").
  it('writes times in local time with the zone, never the raw ISO string', () => {
    expect(formatTime('2026-11-28T04:16:32.705Z', 'UTC')).toBe('2026-11-28 04:16 UTC');
    expect(formatTime('2026-11-28T04:16:32.705Z', 'Europe/Berlin')).toBe('2026-11-28 05:16 GMT+1');
    expect(formatTime('2026-07-01T23:30:00Z', 'America/New_York')).toBe('2026-07-01 19:30 EDT');
    expect(formatTime('2026-11-28T00:00:00Z', 'UTC')).toBe('2026-11-28 00:00 UTC'); // h23: midnight is 00, not 24
    expect(formatTime('2026-11-28T04:16:32.705Z')).toMatch(/^2026-11-2[78] \d\d:\d\d \S+$/);
    expect(formatTime('yesterday')).toBe('yesterday');
    expect(formatTime(null)).toBe(ABSENT);
  });
  // Issue 38 §4: the sizing chart's axis ran 0–"0.009 GiB" for 10.5 MiB.
  it('chooses a chart axis unit from the largest value', () => {
    expect(byteScale(10.5 * 2 ** 20)).toEqual({ unit: 'MiB', divisor: 2 ** 20 });
    expect(byteScale(54.9 * 2 ** 30)).toEqual({ unit: 'GiB', divisor: 2 ** 30 });
    expect(byteScale(300)).toEqual({ unit: 'B', divisor: 1 });
    expect(byteScale(0)).toEqual({ unit: 'B', divisor: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import {
  ABSENT, formatBytes, formatCount, formatGain, formatLatencyNs, formatLatencyUs, formatPct, formatPercent, formatRange,
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
});

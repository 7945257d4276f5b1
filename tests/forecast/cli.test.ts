import { describe, expect, it } from 'vitest';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { ForecastResult } from '../../server/src/forecast/forecast.ts';

function capture(): { io: CliIO; out: () => string; err: () => string } {
  let o = '';
  let e = '';
  return { io: { stdout: (s) => { o += s; }, stderr: (s) => { e += s; }, stdin: async () => '', isTTY: false }, out: () => o, err: () => e };
}

describe('zfs-advisor forecast', () => {
  it('--demo with the P1600X in the box at QD16: the measured 39.2k as SLOG, JSON in the documented shape', async () => {
    const c = capture();
    expect(await main(['forecast', '--demo', '--pool', 'bench-pool', '--slog', '/dev/nvd1', '--iodepth', '16', '--json'], c.io)).toBe(0);
    const r = ForecastResult.parse(JSON.parse(c.out()));
    expect(r.pool).toBe('bench-pool');
    expect(r.with!.iops).toBe(39_200);
    expect(r.with!.device).toContain('P1600X');
    expect(r.gain).toBeGreaterThan(10);
    // gainRange came with issue 34 (added beside gain, nothing renamed): it contains the gain.
    expect(Object.keys(r).sort()).toEqual(['gain', 'gainRange', 'now', 'pool', 'with', 'workload']);
    expect(r.gainRange!.low).toBeLessThanOrEqual(r.gain!);
    expect(r.gainRange!.high).toBeGreaterThanOrEqual(r.gain!);
  });

  it('an unmeasured drive of the box: the text says the figure is the catalog\'s and how to measure the drive in one click', async () => {
    const c = capture();
    expect(await main(['forecast', '--demo', '--pool', 'bench-pool', '--slog', '/dev/nvd1'], c.io)).toBe(0);
    expect(c.out()).toContain('This drive was not measured on this host: the figure is the device catalog\'s. Measure it in one click (blank-device test, destroys its contents): the "Measure this device" button on the Optane page');
    expect(c.out()).toContain('zfs-advisor bench sync-write-4k-qd1 --device /dev/nvd1 --confirm-serial SERIAL --runtime 5 --size 256M');
  });

  it('--slog-model for a device not in the box, text output', async () => {
    const c = capture();
    expect(await main(['forecast', '--demo', '--pool', 'bench-pool', '--slog-model', 'Micron 7450 PRO', '--bs', '16k'], c.io)).toBe(0);
    expect(c.out()).toContain('with Micron 7450 PRO / MAX as SLOG');
    expect(c.out()).toContain('bs=16k');
  });

  it('--sync none: gain 1', async () => {
    const c = capture();
    expect(await main(['forecast', '--demo', '--pool', 'bench-pool', '--slog-model', 'P1600X', '--sync', 'none', '--json'], c.io)).toBe(0);
    expect(JSON.parse(c.out()).gain).toBe(1);
  });

  it('--size: the working set; a file one txg holds is written back once per txg, so the pool\'s bandwidth no longer caps "with"', async () => {
    const run = async (extra: string[]) => {
      const c = capture();
      expect(await main(['forecast', '--demo', '--pool', 'bench-pool', '--slog-model', 'Micron 7450 PRO', '--iodepth', '16', '--json', ...extra], c.io)).toBe(0);
      return JSON.parse(c.out()) as { workload: { sizeBytes?: number | null }; with: { iops: number; latencyIops: number } };
    };
    const unknown = await run([]);
    const small = await run(['--size', '256M']);
    expect(unknown.workload.sizeBytes ?? null).toBeNull();
    expect(small.workload.sizeBytes).toBe(256 * 2 ** 20);
    expect(unknown.with.iops).toBeLessThan(unknown.with.latencyIops);
    expect(small.with.iops).toBeGreaterThan(unknown.with.iops);
  });

  it.each([
    [['--demo', '--pool', 'bench-pool', '--size', '0'], /--size/],
    [['--demo'], /--pool is required/],
    [['--demo', '--pool', 'bench-pool', '--bs', '3k'], /--bs "3k" is not one of the choices — give one of 4k, 8k/],
    [['--demo', '--pool', 'bench-pool', '--iodepth', '-1'], /--iodepth "-1" is not a whole number from 1 to 1024/],
    [['--demo', '--pool', 'bench-pool', '--iodepth', '0'], /iodepth/],
    [['--demo', '--pool', 'bench-pool', '--sync', 'sometimes'], /sync/],
    [['--demo', '--pool', 'bench-pool', '--slog', 'x', '--slog-model', 'y'], /either slog or slogModel/],
    [['--demo', '--pool', 'bench-pool', '--frobnicate'], /unknown option/],
  ])('usage error %j → exit 64 with one clear line', async (args, msg) => {
    const c = capture();
    expect(await main(['forecast', ...args], c.io)).toBe(64);
    expect(c.err()).toMatch(msg);
    expect(c.out()).toBe('');
  });

  it.each([
    [['--demo', '--pool', 'nope'], /no pool "nope"/],
    [['--demo', '--pool', 'bench-pool', '--slog', '/dev/da1'], /\/dev\/da1 is in use: in pool bench-pool \(data, mirror-0\)/],
    [['--demo', '--pool', 'bench-pool', '--slog', '/dev/sdz'], /no drive "\/dev\/sdz"/],
  ])('bad input %j → exit 2', async (args, msg) => {
    const c = capture();
    expect(await main(['forecast', ...args], c.io)).toBe(2);
    expect(c.err()).toMatch(msg);
  });
});

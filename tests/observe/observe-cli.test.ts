import { describe, expect, it } from 'vitest';
import { parseDurationSec } from '../../server/src/cli/commands/observe.ts';
import { main } from '../../server/src/cli/main.ts';

async function cli(args: string[]): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const code = await main(['observe', ...args], { stdout: () => {}, stderr: (s) => { err.push(s); }, stdin: async () => '', isTTY: false });
  return { code, err: err.join('') };
}

describe('zfs-advisor observe arguments', () => {
  it('durations', () => {
    expect([parseDurationSec('10m'), parseDurationSec('30s'), parseDurationSec('1h'), parseDurationSec('45'), parseDurationSec('0'), parseDurationSec('soon')]).toEqual([600, 30, 3600, 45, 0, null]);
  });
  it('contradicting and malformed options are usage errors (exit 64), before anything runs', async () => {
    for (const args of [['--interval', '5m', '--duration', '1m'], ['--pool', '-rf'], ['--pool', 'a b'], ['--save', '--no-save'], ['--no-save', '--data-dir', '/tmp/x']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.err, args.join(' ')).toMatch(/^zfs-advisor observe: [^\n]+ — [^\n]+\n$/);
    }
  });
  it('a bad duration names the unit and an example', async () => {
    const r = await cli(['--duration', 'forever']);
    expect(r.code).toBe(64);
    expect(r.err).toBe('zfs-advisor observe: --duration "forever" is not a duration (seconds) — give seconds, or minutes/hours with m/h, e.g. --duration 10m\n');
  });
});

describe('zfs-advisor observe zero durations', () => {
  it('a zero duration is refused with the unit (it has no min: zero is never meant)', async () => {
    const err: string[] = [];
    const code = await main(['observe', '--duration', '0'], { stdout: () => {}, stderr: (s) => { err.push(s); }, stdin: async () => '', isTTY: false });
    expect(code).toBe(64);
    expect(err.join('')).toMatch(/^zfs-advisor observe: --duration "0" is not a duration \(seconds\) — /);
  });
});

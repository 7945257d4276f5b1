import { describe, expect, it } from 'vitest';
import { parseDurationSec, parseObserveArgs } from '../../server/src/cli/commands/observe.ts';
import { main } from '../../server/src/cli/main.ts';

describe('zfs-advisor observe arguments', () => {
  it('durations', () => {
    expect([parseDurationSec('10m'), parseDurationSec('30s'), parseDurationSec('1h'), parseDurationSec('45'), parseDurationSec('0'), parseDurationSec('soon')]).toEqual([600, 30, 3600, 45, null, null]);
  });
  it('defaults and options', () => {
    expect(parseObserveArgs([])).toEqual({ ok: true, value: { durationSec: 600, intervalSec: null, pools: [], json: false, save: 'default', dataDir: null } });
    expect(parseObserveArgs(['--duration', '2m', '--interval', '10s', '--pool', 'tank', '--json'])).toEqual({ ok: true, value: { durationSec: 120, intervalSec: 10, pools: ['tank'], json: true, save: 'default', dataDir: null } });
    expect(parseObserveArgs(['--interval', '5m', '--duration', '1m']).ok).toBe(false);
    expect(parseObserveArgs(['--pool', '-rf']).ok).toBe(false);
  });
  it('a usage error exits 64 with one line naming the problem', async () => {
    const err: string[] = [];
    const code = await main(['observe', '--duration', 'forever'], { stdout: () => {}, stderr: (s) => { err.push(s); }, stdin: async () => '', isTTY: false });
    expect(code).toBe(64);
    expect(err.join('')).toMatch(/^zfs-advisor observe: --duration needs a duration/);
  });
});

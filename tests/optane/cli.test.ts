import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { Inventory } from '../../server/src/model/inventory.ts';
import { Assessment } from '../../server/src/model/finding.ts';
import { OptaneVerdict } from '../../server/src/optane/verdict.ts';
import { benchDataset, benchPool, da1, da3, host000, p1600x } from '../fixtures/rules/slog-fixtures.ts';

function capture(): { io: CliIO; out: () => string; err: () => string } {
  let o = '';
  let e = '';
  return { io: { stdout: (s) => { o += s; }, stderr: (s) => { e += s; }, stdin: async () => '', isTTY: false }, out: () => o, err: () => e };
}

const inv = Inventory.parse({
  schemaVersion: 1,
  source: { kind: 'snapshot', label: '000 bench-pool (transcribed)', capturedAt: '2023-01-30T12:00:00Z', demo: false, redacted: false },
  host: host000, pools: [benchPool], drives: [da1, da3, p1600x], datasets: [benchDataset], zil: null, arc: null, gaps: [],
});
const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-assess-'));
const file = join(dir, 'inventory.json');
writeFileSync(file, JSON.stringify(inv));

describe('zfs-advisor assess / optane', () => {
  it('assess --json prints an Assessment with the slog-benefit finding', async () => {
    const c = capture();
    expect(await main(['assess', '--inventory', file, '--json'], c.io)).toBe(0);
    const a = Assessment.parse(JSON.parse(c.out()));
    expect(a.findings.map((f) => f.ruleId)).toContain('slog-benefit');
    expect(c.err()).toBe('');
  });
  it('assess human view groups by severity and pool', async () => {
    const c = capture();
    expect(await main(['assess', '--inventory', file], c.io)).toBe(0);
    expect(c.out()).toMatch(/== SUGGESTION \(\d+\) ==\npool bench-pool:/);
    expect(c.out()).toContain('$ zpool add -n bench-pool log');
  });
  it('optane --json validates against OptaneVerdict', async () => {
    const c = capture();
    expect(await main(['optane', '--inventory', file, '--json'], c.io)).toBe(0);
    const v = OptaneVerdict.parse(JSON.parse(c.out()));
    // sync=always on an HDD mirror with an unused P1600X: yes (issue 15).
    expect(v.verdict).toBe('yes');
    expect(v.candidates[0]?.product).toContain('P1600X');
  });
  it('optane human view names the verdict, the forecast and the command', async () => {
    const c = capture();
    expect(await main(['optane', '--inventory', file], c.io)).toBe(0);
    expect(c.out()).toContain('Should I add Optane? YES');
    expect(c.out()).toContain('39,200 at QD16');
    expect(c.out()).toContain('zpool add -n bench-pool log /dev/nvd1');
  });
  it('optane human view offers the blank-device test of the unused candidate, with the command', async () => {
    const c = capture();
    expect(await main(['optane', '--inventory', file], c.io)).toBe(0);
    expect(c.out()).toContain('Measure an unused device (blank-device test');
    expect(c.out()).toMatch(/ {2}> Intel Optane SSD P1600X 58GB at \S+: zfs-advisor bench sync-write-4k-qd1 --device \S+ --confirm-serial SERIAL --runtime 5 --size 256M/);
  });

  it('unreadable input: exit 2 and one line naming the file', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"schemaVersion": 1');
    const c = capture();
    expect(await main(['assess', '--inventory', bad], c.io)).toBe(2);
    expect(c.err().trim().split('\n')).toHaveLength(1);
    expect(c.err()).toContain('bad.json');
  });
  it('usage errors exit 64', async () => {
    const c = capture();
    expect(await main(['optane', '--bogus'], c.io)).toBe(64);
    expect(await main(['assess', '--snapshot'], c.io)).toBe(64);
  });
});

/**
 * The per-vdev throughput model with the host ceiling, checked against EVERY row of 001's measured
 * sequential throughput tables (26 layouts of 4 TB HDDs and 16 of 256 GB SSDs, one HBA, bonnie++).
 * What is tested is the ORDER of layouts, not absolute MB/s: for every pair of rows whose
 * measurements differ clearly (by more than 1.5×), the model must not rank them the other way by
 * more than its resolution (10 %). Per-disk rates are 001's own single drive of each table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LayoutSpec } from '../../server/src/planner/layout-spec.ts';
import { HOST_SEQ_CAP_001, HOST_SEQ_CAP_001_SSD, relativePerformance, sequentialMBps, type HostSeqCap } from '../../server/src/planner/performance.ts';

interface Row { disks: number; layout: string; w: number; r: number }
const fixture = (f: string) => readFileSync(join(import.meta.dirname, '../fixtures/planner', f), 'utf8').split('\n');

const hdd: Row[] = fixture('001-capacity-summary.txt')
  .map((l) => /^\s*(\d+)x 4TB, (.+?),\s+[\d.]+ TB,\s+w=(\d+)MB\/s , rw=\d+MB\/s\s+, r=(\d+)MB\/s/.exec(l))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ disks: Number(m[1]), layout: m[2]!, w: Number(m[3]), r: Number(m[4]) }));

const ssd: Row[] = fixture('001-ssd-summary.txt')
  .map((l) => /^(\d+)x 256GB\s+(.+?)\s{2,}[\d.]+ \w+\s+\( w=\s*(\d+)MB\/s , rw=\s*\d+MB\/s , r=\s*(\d+)MB\/s \)/.exec(l))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ disks: Number(m[1]), layout: m[2]!, w: Number(m[3]), r: Number(m[4]) }));

/** 001's layout wording (both tables) → our spec. */
function specOf(n: number, d: string): LayoutSpec {
  let m: RegExpExecArray | null;
  if (/single drive/.test(d)) return { kind: 'stripe', disks: 1 };
  if ((m = /^(\d+) striped mirrors/.exec(d))) return { kind: 'mirror', ways: n / Number(m[1]), vdevs: Number(m[1]) };
  if (/^mirror|raid1 mirror/.test(d)) return { kind: 'mirror', ways: n, vdevs: 1 };
  if ((m = /^(\d+) striped (\d+)x raidz(\d?)/.exec(d))) return { kind: 'raidz', parity: Number(m[3] || 1), width: Number(m[2]), vdevs: Number(m[1]) };
  if ((m = /^raidz(\d?) /.exec(d)) || (m = /raidz(\d)$/.exec(d))) return { kind: 'raidz', parity: Number(m[1] || 1), width: n, vdevs: 1 };
  if (/stripe|striped|raid0/.test(d)) return { kind: 'stripe', disks: n };
  throw new Error(`unknown 001 layout "${d}"`);
}

type Est = Row & { est: ReturnType<typeof sequentialMBps> };
const estimate = (rows: Row[], perDisk: { readMBps: number; writeMBps: number }, cap: HostSeqCap | null): Est[] =>
  rows.map((r) => ({ ...r, est: sequentialMBps(relativePerformance(specOf(r.disks, r.layout)), perDisk, cap) }));

const name = (r: Row) => `${r.disks}x ${r.layout}`;

/** Pairs the model orders AGAINST the measurement: measured a > ratio × b but model a more than 10 % below b. */
function inversions(m: Est[], metric: 'w' | 'r', ratio = 1.5): string[] {
  const key = metric === 'w' ? 'seqWriteMBps' : 'seqReadMBps';
  const bad: string[] = [];
  for (const a of m) for (const b of m) {
    if (a[metric] > b[metric] * ratio && a.est[key] * 1.1 < b.est[key]) bad.push(`${name(a)} (${a[metric]}, model ${a.est[key]}) vs ${name(b)} (${b[metric]}, model ${b.est[key]})`);
  }
  return bad;
}

/** Pairs the model separates in the measured direction (to show the test has teeth). */
function agreements(m: Est[], metric: 'w' | 'r', ratio = 1.5): number {
  const key = metric === 'w' ? 'seqWriteMBps' : 'seqReadMBps';
  let n = 0;
  for (const a of m) for (const b of m) if (a[metric] > b[metric] * ratio && a.est[key] > b.est[key]) n++;
  return n;
}

describe('HDD table of 001: sequential throughput ordering', () => {
  const model = estimate(hdd, { readMBps: 204, writeMBps: 108 }, HOST_SEQ_CAP_001);

  it('reads all 26 rows with throughput, every layout mapped', () => {
    expect(hdd).toHaveLength(26);
    expect(hdd[0]).toMatchObject({ disks: 1, w: 108, r: 204 });
  });

  it('write: the only pairs ordered against 001 involve its 12-wide raidz2 row, which is below its own 12-wide raidz3', () => {
    // 001's 12-wide raidz2 writes 317 MB/s, less than its 12-wide raidz3 (452) and 11-wide raidz3 (552):
    // more parity never writes faster in a model of parity cost, so it cannot follow that row.
    const bad = inversions(model, 'w');
    expect(bad).toEqual([
      '11x raidz3 (raid7) (552, model 567) vs 12x raidz2 (raid6) (317, model 638)',
      '22x 2 striped 11x raidz3 (567, model 567) vs 12x raidz2 (raid6) (317, model 638)',
    ]);
    const raidz2at12 = hdd.find((r) => r.disks === 12 && r.layout.startsWith('raidz2'))!;
    const raidz3at12 = hdd.find((r) => r.disks === 12 && r.layout.startsWith('raidz3'))!;
    expect(raidz2at12.w).toBeLessThan(raidz3at12.w);
    expect(agreements(model, 'w')).toBeGreaterThan(150);
  });

  it('read: no pair measured more than 1.5× apart is ordered the other way', () => {
    expect(inversions(model, 'r')).toEqual([]);
    expect(agreements(model, 'r')).toBeGreaterThan(100);
  });

  it('wide layouts keep their differences at the ceiling: raidz1 > raidz2 > raidz3 writes at 12 and 24 wide, as 001 measured at 24', () => {
    for (const n of [12, 24]) {
      const w = [1, 2, 3].map((p) => model.find((r) => r.disks === n && r.layout.startsWith(p === 1 ? 'raidz (' : `raidz${p}`))!.est.seqWriteMBps);
      expect(w[0]).toBeGreaterThan(w[1]!);
      expect(w[1]).toBeGreaterThan(w[2]!);
    }
    const measured24 = [1, 2, 3].map((p) => hdd.find((r) => r.disks === 24 && r.layout.startsWith(p === 1 ? 'raidz (' : `raidz${p}`))!.w);
    expect(measured24).toEqual([567, 434, 405]);
  });

  it('without the host ceiling the model contradicts 001 (wide layouts would beat the 12-wide raidz1)', () => {
    const uncapped = estimate(hdd, { readMBps: 204, writeMBps: 108 }, null);
    expect(inversions(uncapped, 'w')).toContain('12x raidz (raid5) (689, model 1188) vs 24x raidz2 (raid6) (434, model 2376)');
  });

  it('the 24-disk stripe sits at the ceiling, as 001 measured it', () => {
    const stripe24 = model.find((r) => r.disks === 24 && /raid0/.test(r.layout))!;
    expect(stripe24.est).toEqual({ seqReadMBps: 1377, seqWriteMBps: 696, busLimited: true });
    const uncapped = sequentialMBps(relativePerformance({ kind: 'stripe', disks: 24 }), { readMBps: 204, writeMBps: 108 }, null);
    expect(uncapped.seqWriteMBps).toBe(2592);
    expect(uncapped.busLimited).toBe(false);
    expect(Math.abs(stripe24.est.seqWriteMBps - stripe24.w) / stripe24.w).toBeLessThan(0.02);
  });
});

describe('SSD table of 001: sequential throughput ordering', () => {
  // The SSD host's ceilings are that table's own maxima (24-disk stripe; fastest pool per parity level).
  const cap = HOST_SEQ_CAP_001_SSD;
  const model = estimate(ssd, { readMBps: 506, writeMBps: 441 }, cap);

  it('reads all 16 rows', () => {
    expect(ssd).toHaveLength(16);
    expect(ssd[0]).toMatchObject({ disks: 1, w: 441, r: 506 });
  });

  it('write: no pair measured more than 1.5× apart is ordered the other way', () => {
    expect(inversions(model, 'w')).toEqual([]);
  });

  it('read: the only pair ordered against 001 involves its 19-wide raidz3, which reads slower than its own 7-wide raidz3', () => {
    // More data disks never read slower in the model; 001's 19-wide raidz3 (1183) did (7-wide: 1713).
    expect(inversions(model, 'r')).toEqual(['4x raid6, raidz2 (1925, model 1012) vs 19x raid7, raidz3 (1183, model 2043)']);
    const z3 = ssd.filter((r) => /raidz3/.test(r.layout));
    expect(z3.find((r) => r.disks === 19)!.r).toBeLessThan(z3.find((r) => r.disks === 7)!.r);
    expect(agreements(model, 'w') + agreements(model, 'r')).toBeGreaterThan(20);
  });
});

describe('random I/O per vdev (001: "mirrors are better for random IOPs. IOPs do not seem to differ between raidz, raidz2 or raidz3")', () => {
  it('raidz1/2/3 of one width tie on random I/O; striped mirrors of the same disks beat them', () => {
    const z = [1, 2, 3].map((parity) => relativePerformance({ kind: 'raidz', parity, width: 12, vdevs: 1 }));
    expect(new Set(z.map((x) => `${x.randomReadX}/${x.randomWriteX}`)).size).toBe(1);
    const m = relativePerformance({ kind: 'mirror', ways: 2, vdevs: 6 });
    expect(m.randomReadX).toBeGreaterThan(z[0]!.randomReadX);
    expect(m.randomWriteX).toBeGreaterThan(z[0]!.randomWriteX);
  });
});

import { describe, expect, it } from 'vitest';
import { enumerateLayouts, planLayouts } from '../../server/src/planner/layouts.ts';
import { parseDiskSize, slopSpace } from '../../server/src/planner/space.ts';

const GiB = 2 ** 30;

describe('slop space (zfs-facts C23)', () => {
  it('is 1/32 between the clamps', () => {
    expect(slopSpace(32 * 100 * GiB)).toBe(100 * GiB);
  });
  it('is capped at 128 GiB and at least 128 MiB (or half a tiny pool)', () => {
    expect(slopSpace(100 * 2 ** 40)).toBe(128 * GiB);
    expect(slopSpace(2 * GiB)).toBe(128 * 2 ** 20);
    expect(slopSpace(100 * 2 ** 20)).toBe(50 * 2 ** 20);
  });
});

describe('parseDiskSize', () => {
  it('reads vendor (decimal) and binary units', () => {
    expect(parseDiskSize('16T')).toBe(16e12);
    expect(parseDiskSize('3.84TB')).toBe(3.84e12);
    expect(parseDiskSize('960GiB')).toBe(960 * GiB);
    expect(parseDiskSize('4000787030016')).toBe(4000787030016);
    expect(parseDiskSize('lots')).toBeNull();
  });
});

describe('enumerateLayouts', () => {
  it('lists mirrors, every raidz width from P+2 and dRAID for 12 disks', () => {
    const labels = enumerateLayouts(12).map((s) => JSON.stringify(s));
    expect(labels).toContain(JSON.stringify({ kind: 'mirror', ways: 2, vdevs: 6 }));
    expect(labels).toContain(JSON.stringify({ kind: 'mirror', ways: 3, vdevs: 4 }));
    expect(labels).toContain(JSON.stringify({ kind: 'raidz', parity: 2, width: 6, vdevs: 2 }));
    expect(labels).toContain(JSON.stringify({ kind: 'raidz', parity: 3, width: 12, vdevs: 1 }));
    expect(labels).toContain(JSON.stringify({ kind: 'draid', parity: 2, data: 8, children: 12, spares: 1 }));
    expect(labels.some((l) => l.includes('"parity":2,"width":3'))).toBe(false);
    // 2 mirrors + raidz1 widths 3..12 (10) + raidz2 4..12 (9) + raidz3 5..12 (8) + dRAID 6 = 35
    expect(labels).toHaveLength(35);
  });
  it('offers no dRAID below 10 disks', () => {
    expect(enumerateLayouts(8).some((s) => s.kind === 'draid')).toBe(false);
  });
});

describe('planLayouts', () => {
  it('recommends striped mirrors for VMs and raidz2 for files on 8 × 16 TB HDDs', () => {
    const vm = planLayouts({ disks: 8, diskBytes: 16e12, media: 'hdd', workload: 'vm' });
    expect(vm.candidates[0]!.label).toBe('4 × mirror (2-way)');
    expect(vm.blockSize).toBe(16384);
    const files = planLayouts({ disks: 8, diskBytes: 16e12, media: 'hdd', workload: 'files' });
    expect(files.candidates[0]!.label).toBe('1 × raidz2 (8 wide)');
    expect(files.candidates[0]!.recommended).toBe(true);
  });

  it('warns about raidz1 on large HDDs and about padding for small blocks', () => {
    const p = planLayouts({ disks: 6, diskBytes: 16e12, media: 'hdd', workload: 'vm' });
    const z1 = p.candidates.find((c) => c.label === '1 × raidz1 (6 wide)')!;
    expect(z1.warnings.some((w) => w.includes('G9'))).toBe(true);
    const z2 = p.candidates.find((c) => c.label === '1 × raidz2 (6 wide)')!;
    // C-T2: raidz2 6 wide at 16K is charged 1.00×, raidz1 6 wide 1.20×.
    expect(z2.fit.chargeFactor).toBeCloseTo(1, 10);
    expect(z1.fit.chargeFactor).toBeCloseTo(1.2, 10);
    expect(z1.warnings.some((w) => w.includes('1.20×'))).toBe(true);
  });

  it('accounts capacity, tolerance, performance and resilver consistently', () => {
    const p = planLayouts({ disks: 12, diskBytes: 4e12, media: 'hdd', workload: 'files' });
    const m = p.candidates.find((c) => c.label === '6 × mirror (2-way)')!;
    // Mirror: one disk per vdev, minus labels/metaslab tail, minus slop.
    expect(m.space.usableBytes).toBeLessThan(6 * 4e12);
    expect(m.space.usableBytes).toBeGreaterThan(6 * 4e12 * 0.96);
    expect(m.faultTolerance).toEqual({ perVdev: 1, worstCaseLoss: 2, bestCaseSurvivable: 6 });
    expect(m.performance.randomReadX).toBe(12);
    expect(m.performance.randomWriteX).toBe(6);
    expect(m.resilver.bytesPerDiskToRead).toBe(3.2e12);
    expect(m.resilver.hours![0]).toBeCloseTo(3.2e12 / 150e6 / 3600, 6);
    const z = p.candidates.find((c) => c.label === '2 × raidz2 (6 wide)')!;
    expect(z.faultTolerance.perVdev).toBe(2);
    expect(z.performance.seqWriteX).toBe(8);
    expect(z.resilver.totalBytesRead).toBe(5 * 3.2e12);
    expect(z.fillGuidanceBytes).toBe(Math.floor(z.space.usableBytes * 0.8));
    for (const c of p.candidates) {
      expect(c.space.usableBytes).toBeLessThan(c.space.deflatedBytes);
      expect(c.disksUsed + c.spareDisks).toBe(12);
    }
    expect(p.candidates.map((c) => c.rank)).toEqual(p.candidates.map((_, i) => i + 1));
  });
});

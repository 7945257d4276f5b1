import { describe, expect, it } from 'vitest';
import { enumerateLayouts, planLayouts } from '../../server/src/planner/layouts.ts';
import { parseDiskSize, slopSpace } from '../../server/src/planner/space.ts';
import { unusedDisksForPlanning, unusedDrives } from '../../server/src/planner/unused-disks.ts';
import { drive, group, inClass, leaf, pool } from '../support/builders.ts';

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
    expect(labels).toContain(JSON.stringify({ kind: 'stripe', disks: 12 }));
    // 2 mirrors + raidz1 widths 3..12 (10) + raidz2 4..12 (9) + raidz3 5..12 (8) + dRAID 6 + the stripe = 36
    expect(labels).toHaveLength(36);
  });
  it('offers raidz up to 24 wide, as 001 measured (not 16)', () => {
    const specs = enumerateLayouts(24);
    expect(specs).toContainEqual({ kind: 'raidz', parity: 2, width: 24, vdevs: 1 });
    expect(specs).toContainEqual({ kind: 'raidz', parity: 3, width: 23, vdevs: 1 });
    expect(specs.some((s) => s.kind === 'raidz' && s.width > 24)).toBe(false);
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

  it('warns about raidz1 on large HDDs (the raidz1-large-disks rule) and about padding for small blocks', () => {
    const p = planLayouts({ disks: 6, diskBytes: 16e12, media: 'hdd', workload: 'vm' });
    const z1 = p.candidates.find((c) => c.label === '1 × raidz1 (6 wide)')!;
    expect(z1.findings).toContainEqual(expect.objectContaining({ ruleId: 'raidz1-large-disks', severity: 'warning', count: 1 }));
    expect(z1.findings.find((f) => f.ruleId === 'raidz1-large-disks')!.citations.length).toBeGreaterThan(0);
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
    expect(z.fillGuidanceBytes).toBe(Math.floor(z.fit.effectiveUsableBytes * 0.8));
    for (const c of p.candidates) {
      expect(c.space.usableBytes).toBeLessThan(c.space.deflatedBytes);
      expect(c.disksUsed + c.spareDisks).toBe(12);
    }
    expect(p.candidates.map((c) => c.rank)).toEqual(p.candidates.map((_, i) => i + 1));
  });
});

describe('80 % fill guidance (zfs-facts C24)', () => {
  it('is 80 % of the workload\'s effective usable, never above it', () => {
    for (const workload of ['vm', 'db', 'files', 'media'] as const) {
      for (const c of planLayouts({ disks: 11, diskBytes: 8e12, media: 'hdd', workload }).candidates) {
        expect(c.fillGuidanceBytes).toBe(Math.floor(c.fit.effectiveUsableBytes * 0.8));
        expect(c.fillGuidanceBytes).toBeLessThanOrEqual(c.fit.effectiveUsableBytes);
      }
    }
  });

  it('with padding (raidz1 6 wide at 16K, charged 1.20×, C-T2) it is below 80 % of the 128K usable', () => {
    const z1 = planLayouts({ disks: 6, diskBytes: 16e12, media: 'hdd', workload: 'vm' }).candidates.find((c) => c.label === '1 × raidz1 (6 wide)')!;
    expect(z1.fit.effectiveUsableBytes).toBe(Math.floor(z1.space.usableBytes / 1.2));
    expect(z1.fillGuidanceBytes).toBe(Math.floor(Math.floor(z1.space.usableBytes / 1.2) * 0.8));
    expect(z1.fillGuidanceBytes).toBeLessThan(Math.floor(z1.space.usableBytes * 0.8));
  });
});

describe('host sequential ceiling', () => {
  it('caps HDD layouts at 001\'s measured maximum, none for NVMe unless given', () => {
    const hdd = planLayouts({ disks: 12, diskBytes: 4e12, media: 'hdd' }).candidates.find((c) => c.label === '1 × raidz1 (12 wide)')!;
    // 11 data disks × 200 MB/s = 2200 MB/s, capped at 1377 read and at 001's fastest raidz1 write, 689.
    expect(hdd.performance).toMatchObject({ seqReadMBps: 1377, seqWriteMBps: 689, busLimited: true });
    const mirrors = planLayouts({ disks: 12, diskBytes: 4e12, media: 'hdd' }).candidates.find((c) => c.label === '6 × mirror (2-way)')!;
    expect(mirrors.performance).toMatchObject({ seqReadMBps: 1377, seqWriteMBps: 696 });
    const nvme = planLayouts({ disks: 12, diskBytes: 4e12, media: 'nvme' }).candidates.find((c) => c.label === '1 × raidz1 (12 wide)')!;
    expect(nvme.performance).toMatchObject({ seqReadMBps: 27500, seqWriteMBps: 27500, busLimited: false });
    const given = planLayouts({ disks: 12, diskBytes: 4e12, media: 'nvme', hostSeqCapMBps: { read: 6000, write: 4000 } }).candidates.find((c) => c.label === '1 × raidz1 (12 wide)')!;
    // A caller's ceiling without parity figures: parity writes scaled by 001's share (689/696 for raidz1).
    expect(given.performance).toMatchObject({ seqReadMBps: 6000, seqWriteMBps: Math.round(4000 * 689 / 696), busLimited: true });
    const none = planLayouts({ disks: 12, diskBytes: 4e12, media: 'hdd', hostSeqCapMBps: null }).candidates.find((c) => c.label === '1 × raidz1 (12 wide)')!;
    expect(none.performance.seqWriteMBps).toBe(2200);
  });
});

describe('unused disks of an inventory', () => {
  const drives = [
    drive('a', { devPath: '/dev/sda', aliases: ['/dev/sda'] }),
    drive('b', { devPath: '/dev/sdb', aliases: ['/dev/sdb'] }),
    drive('c', { devPath: '/dev/sdc', aliases: ['/dev/sdc'], sizeBytes: 4e12 }),
    drive('d', { devPath: '/dev/sdd', aliases: ['/dev/sdd'], sizeBytes: 3.84e12 }),
    drive('e', { devPath: '/dev/sde', aliases: ['/dev/sde'], sizeBytes: 4e12 }),
    drive('n1', { devPath: '/dev/nvme0n1', aliases: ['/dev/nvme0n1'], media: 'nvme', sizeBytes: 1e12 }),
    drive('n2', { devPath: '/dev/nvme1n1', aliases: ['/dev/nvme1n1'], media: 'nvme', sizeBytes: 1e12 }),
    drive('u', { devPath: '/dev/sdf', aliases: ['/dev/sdf'], sizeBytes: null }),
  ];
  // sda+sdb data mirror; nvme0n1 used through a partition as a log.
  const pools = [pool('tank', [group('mirror', 'mirror-0', [leaf('sda'), leaf('sdb')]), inClass('log', leaf('nvme0n1p1'))])];

  it('leaves out drives in any pool role, partitions included', () => {
    expect(unusedDrives({ pools, drives }).map((d) => d.id)).toEqual(['c', 'd', 'e', 'n2', 'u']);
  });

  it('picks count and smallest size per media; several media need a choice', () => {
    expect(unusedDisksForPlanning({ pools, drives })).toEqual({ ok: false, message: 'unused drives of several media (3 hdd, 1 nvme): choose one with --type' });
    const hdd = unusedDisksForPlanning({ pools, drives }, 'hdd');
    if (!hdd.ok) throw new Error(hdd.message);
    expect(hdd.value).toMatchObject({ media: 'hdd', disks: 3, diskBytes: 3.84e12 });
    expect(hdd.notes).toEqual(['1 unused drive left out: size unknown', 'drive sizes differ: each vdev member counts as the smallest, 3.49 TiB']);
    expect(unusedDisksForPlanning({ pools, drives }, 'ssd')).toEqual({ ok: false, message: 'no unused ssd drives in the inventory (unused: 3 hdd, 1 nvme)' });
  });
});

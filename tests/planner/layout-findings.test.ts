/**
 * The planner and the rules tell one story (issue 17 §1): each candidate layout is judged by the
 * rule catalog on a synthetic inventory, the findings are shown beside it, and the ranking never
 * puts a layout that draws a warning above one that draws none without saying why.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Drive, Pool, Dataset, Host } from '../../server/src/model/inventory.ts';
import { syntheticArtifacts } from '../../server/src/planner/layout-findings.ts';
import { planLayouts, Workload, type LayoutCandidate } from '../../server/src/planner/layouts.ts';
import { MediaKind } from '../../server/src/planner/performance.ts';

const loud = (c: LayoutCandidate) => c.findings.some((f) => f.severity === 'warning' || f.severity === 'critical');

describe('synthetic inventory per layout', () => {
  it('is built from the model types the rules consume (zod-valid Pools, Drives, Datasets, Host)', () => {
    const a = syntheticArtifacts({ kind: 'raidz', parity: 2, width: 6, vdevs: 2 }, {
      diskBytes: 8e12, media: 'hdd', workload: 'vm', blockSize: 16384, ashift: 12, openzfs: '2.2.6', hotSpares: 1,
    });
    for (const p of a.Pools!) expect(Pool.safeParse(p).success).toBe(true);
    for (const d of a.Drives!) expect(Drive.safeParse(d).success).toBe(true);
    for (const d of a.Datasets!) expect(Dataset.safeParse(d).success).toBe(true);
    expect(Host.safeParse(a.Host).success).toBe(true);
    expect(a.Drives).toHaveLength(13);
    expect(a.Pools![0]!.vdevs.map((v) => `${v.class}:${v.type}:${v.children.length}`)).toEqual(['data:raidz2:6', 'data:raidz2:6', 'spare:disk:0']);
    expect(a.Datasets!.find((d) => d.type === 'volume')!.volblocksize).toBe(16384);
    expect(a.Host!.zfs.openzfs).toBe('2.2.6');
  });
});

describe('plan layouts --disks 5 --size 4T (the issue\'s case)', () => {
  const plan = planLayouts({ disks: 5, diskBytes: 4e12 });

  it('no longer recommends raidz1 first: raidz2 (5 wide) is first and draws no warning', () => {
    expect(plan.candidates[0]!.label).toBe('1 × raidz2 (5 wide)');
    expect(loud(plan.candidates[0]!)).toBe(false);
  });

  it('raidz1 (5 wide) shows the raidz1-large-disks warning beside it, with a citation link', () => {
    const z1 = plan.candidates.find((c) => c.label === '1 × raidz1 (5 wide)')!;
    const f = z1.findings.find((x) => x.ruleId === 'raidz1-large-disks')!;
    expect(f.severity).toBe('warning');
    expect(f.title).toContain('one disk of redundancy');
    expect(z1.reasons).toContain('the rules warn once built: raidz1-large-disks');
    expect(z1.rank).toBeGreaterThan(plan.candidates.findIndex((c) => c.label === '1 × raidz2 (5 wide)') + 1);
  });

  it('layouts leaving a disk idle rank below every layout that uses all five', () => {
    const firstIdle = plan.candidates.findIndex((c) => c.spareDisks > 0);
    const lastFull = plan.candidates.map((c) => c.spareDisks === 0 && c.faultTolerance.perVdev > 0).lastIndexOf(true);
    expect(lastFull).toBeLessThan(firstIdle);
  });

  it('the stripe is offered, flagged "no redundancy", warned by no-redundancy, and ranked last', () => {
    const last = plan.candidates.at(-1)!;
    expect(last.label).toBe('stripe of 5');
    expect(last.flags).toEqual(['no redundancy']);
    expect(last.findings).toContainEqual(expect.objectContaining({ ruleId: 'no-redundancy', severity: 'warning', count: 5 }));
  });
});

describe('--spares makes hot spares explicit', () => {
  it('8 × 16 TB with one spare: 7-wide layouts use every disk and carry the spare vdev', () => {
    const without = planLayouts({ disks: 8, diskBytes: 16e12 });
    const idle7 = without.candidates.find((c) => c.label === '1 × raidz2 (7 wide)')!;
    expect(idle7.spareDisks).toBe(1);
    expect(idle7.rank).toBeGreaterThan(without.candidates.find((c) => c.label === '1 × raidz2 (8 wide)')!.rank);
    const withSpare = planLayouts({ disks: 8, diskBytes: 16e12, spares: 1 });
    expect(withSpare.candidates[0]).toMatchObject({ label: '1 × raidz2 (7 wide)', spareDisks: 0, hotSpares: 1 });
    expect(withSpare.candidates[0]!.reasons).toContain('plus 1 hot spare');
    expect(() => planLayouts({ disks: 2, diskBytes: 1e12, spares: 2 })).toThrow(/leaves no disks/);
  });
});

describe('property: no top-ranked layout draws a warning that a lower-ranked one avoids, unless the plan says why', () => {
  it('holds for random disk sets, media, workloads, OpenZFS versions and spares', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 26 }),
      fc.constantFrom(0.5e12, 1.92e12, 4e12, 8e12, 16e12, 24e12),
      fc.constantFrom(...MediaKind),
      fc.constantFrom(...Workload.options),
      fc.constantFrom(null, '2.1.6', '2.2.6', '2.3.4', '2.4.0'),
      fc.integer({ min: 0, max: 2 }),
      (disks, diskBytes, media, workload, openzfs, spares) => {
        fc.pre(spares < disks);
        const { candidates } = planLayouts({ disks, diskBytes, media, workload, openzfs, spares });
        for (let i = 0; i < candidates.length; i++) {
          const hi = candidates[i]!;
          if (!loud(hi)) continue;
          const quieter = candidates.slice(i + 1).filter((c) => !loud(c));
          if (quieter.length === 0) {
            expect(hi.rankNote).toBeNull();
            continue;
          }
          // It says why, and the reason is true: every quieter layout below leaves disks idle while this one does not.
          expect(hi.rankNote).toMatch(/without warnings .* only because (?:it leaves|they leave) .* idle/);
          expect(hi.spareDisks).toBe(0);
          for (const q of quieter) expect(q.spareDisks).toBeGreaterThan(0);
        }
        // The recommended layout: no quieter layout exists that uses as many disks.
        const top = candidates[0]!;
        if (loud(top)) expect(candidates.some((c) => !loud(c) && c.spareDisks === 0 && c.faultTolerance.perVdev > 0)).toBe(false);
      },
    ), { numRuns: 40 });
  });
});

describe('sync-write column from the sync-write forecast (server/src/forecast)', () => {
  it('every layout carries the forecast 4K QD1 sync IOPS without a SLOG, HDD < SATA SSD < NVMe, with its basis', () => {
    const iops = (media: 'hdd' | 'ssd' | 'nvme') => planLayouts({ disks: 6, diskBytes: 4e12, media, workload: 'vm' }).candidates.find((c) => c.label === '3 × mirror (2-way)')!.performance.syncWrite4kQd1;
    const [h, s, n] = [iops('hdd'), iops('ssd'), iops('nvme')];
    for (const x of [h, s, n]) {
      expect(x.low).toBeLessThanOrEqual(x.iops);
      expect(x.high).toBeGreaterThanOrEqual(x.iops);
      expect(x.basis.join(' ')).toMatch(/ZIL on the data vdevs/);
    }
    expect(h.iops).toBeLessThan(s.iops);
    expect(s.iops).toBeLessThan(n.iops);
    expect(planLayouts({ disks: 6, diskBytes: 4e12 }).assumptions.join(' ')).toMatch(/sync writes: 4K sync=always at queue depth 1/);
  });
});

describe('bounded work per plan', () => {
  it('refuses more than MAX_PLAN_DISKS disks (each layout runs the whole rule catalog)', () => {
    expect(() => planLayouts({ disks: 257, diskBytes: 4e12 })).toThrow();
    expect(planLayouts({ disks: 48, diskBytes: 4e12 }).candidates.length).toBeGreaterThan(50);
  });
});

/**
 * 001's measured capacities (26 layouts of 4 TB HDDs) reproduced within 2 %.
 *
 * Assumptions, stated because 001 does not:
 * - ashift 9: FreeBSD of that era created pools on 512e disks with 512 B sectors. With ashift 12
 *   the 12-wide raidz1 would come out at 40.2 instead of 41.3 (−2.7 %), so the table itself shows it.
 * - The "TB" column is neither 10^12 B nor 2^40 B of a 4 TB disk (a 4·10^12 B disk is 3.64 TiB,
 *   yet a single drive shows 3.7 and the 24-disk stripe 90.4 = 24 × 3.77). We fit ONE scalar —
 *   the disk size in that unit — from the 24-disk stripe row and check the other 25 rows: what is
 *   tested is how capacity depends on layout (parity, 128K deflate padding, slop), not the unit.
 * - Slop: today's 1/32 with the 128 MiB–128 GiB clamps (zfs-facts C23).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutSpace } from '../../server/src/planner/capacity.ts';
import type { LayoutSpec } from '../../server/src/planner/layout-spec.ts';

const TiB = 2 ** 40;
const rows = readFileSync(join(import.meta.dirname, '../fixtures/planner/001-capacity-summary.txt'), 'utf8')
  .split('\n')
  .map((l) => /^\s*(\d+)x 4TB, (.+?),\s+([\d.]+) TB,/.exec(l))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ disks: Number(m[1]), layout: m[2]!, tb: Number(m[3]) }));

/** 001's layout wording → our spec. */
function specOf(n: number, d: string): LayoutSpec {
  let m: RegExpExecArray | null;
  if (/single drive/.test(d)) return { kind: 'stripe', disks: 1 };
  if ((m = /^(\d+) striped mirrors/.exec(d))) return { kind: 'mirror', ways: n / Number(m[1]), vdevs: Number(m[1]) };
  if (/^mirror/.test(d)) return { kind: 'mirror', ways: n, vdevs: 1 };
  if ((m = /^(\d+) striped (\d+)x raidz(\d?)/.exec(d))) return { kind: 'raidz', parity: Number(m[3] || 1), width: Number(m[2]), vdevs: Number(m[1]) };
  if ((m = /^raidz(\d?) /.exec(d))) return { kind: 'raidz', parity: Number(m[1] || 1), width: n, vdevs: 1 };
  if (/stripe|striped raid0/.test(d)) return { kind: 'stripe', disks: n };
  throw new Error(`unknown 001 layout "${d}"`);
}

describe('001 capacity table', () => {
  it('has the 26 rows of the summary table', () => {
    expect(rows).toHaveLength(26);
  });

  const opts = { ashift: 9 };
  const stripe24 = rows.find((r) => r.disks === 24 && /raid0/.test(r.layout))!;
  // Disk size in 001's unit, from the one row used for fitting.
  const perUnit = layoutSpace({ kind: 'stripe', disks: 24 }, 1e12, opts).usableBytes;
  const diskBytes = (stripe24.tb * TiB * 1e12) / perUnit;

  for (const r of rows) {
    it(`${r.disks}× ${r.layout}: ${r.tb} TB within 2 %`, () => {
      const usable = layoutSpace(specOf(r.disks, r.layout), diskBytes, opts).usableBytes / TiB;
      expect(Math.abs(usable - r.tb) / r.tb).toBeLessThan(0.02);
    });
  }

  it('ashift 12 would not reproduce 001 (the table really is ashift 9)', () => {
    const r = rows.find((x) => x.disks === 12 && x.layout.startsWith('raidz (raid5)'))!;
    const usable = layoutSpace(specOf(12, r.layout), diskBytes, { ashift: 12 }).usableBytes / TiB;
    expect(Math.abs(usable - r.tb) / r.tb).toBeGreaterThan(0.02);
  });
});

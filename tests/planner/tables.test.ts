/**
 * The worked tables in zfs-facts section C are the oracle: every cell of C-T1 (raidz efficiency
 * and allocated KiB), C-T2 (charge factor) and C-T3 (dRAID) must come out of the planner's own
 * functions, formatted the way the table prints them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockAsize, blockFit, layoutSpace } from '../../server/src/planner/capacity.ts';
import type { LayoutSpec } from '../../server/src/planner/layout-spec.ts';

const text = readFileSync(join(import.meta.dirname, '../fixtures/planner/zfs-facts-C-tables.md'), 'utf8');

interface Table { id: string; group: string; header: string[]; rows: string[][] }

/** Splits the fixture into tables keyed by section (C-T1…) and sub-heading (**raidz1** …). */
function tables(): Table[] {
  const out: Table[] = [];
  let id = '';
  let group = '';
  let current: Table | null = null;
  for (const line of text.split('\n')) {
    const sec = /^#### (C-T\d)\./.exec(line);
    if (sec) { id = sec[1]!; group = ''; current = null; continue; }
    const g = /^\*\*(\w+)\*\*$/.exec(line.trim());
    if (g) { group = g[1]!; current = null; continue; }
    if (!line.startsWith('|')) { current = null; continue; }
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.every((c) => /^-+$/.test(c))) continue;
    if (!current) { current = { id, group, header: cells, rows: [] }; out.push(current); continue; }
    current.rows.push(cells);
  }
  return out;
}

const sizeOf = (h: string) => Number(/^(\d+)K$/.exec(h)![1]) * 1024;
const space = layoutSpace({ kind: 'stripe', disks: 1 }, 1e12, { ashift: 12 });

describe('zfs-facts C-T1/C-T2/C-T3 worked tables', () => {
  const all = tables();

  it('finds all 7 tables with their rows', () => {
    expect(all.map((t) => `${t.id}/${t.group}:${t.rows.length}`)).toEqual([
      'C-T1/raidz1:10', 'C-T1/raidz2:10', 'C-T1/raidz3:9',
      'C-T2/raidz1:10', 'C-T2/raidz2:10', 'C-T2/raidz3:9',
      'C-T3/:6',
    ]);
  });

  for (const t of all) {
    describe(`${t.id} ${t.group || 'draid'}`, () => {
      for (const row of t.rows) {
        let spec: LayoutSpec;
        if (t.id === 'C-T3') {
          const m = /^draid(\d):(\d+)d$/.exec(row[0]!)!;
          spec = { kind: 'draid', parity: Number(m[1]), data: Number(m[2]), children: 20, spares: 0 };
        } else {
          spec = { kind: 'raidz', parity: Number(t.group.slice(-1)), width: Number(row[0]), vdevs: 1 };
        }
        it(`${row[0]}: every cell`, () => {
          const sizeCols = t.header.map((h, i) => [h, i] as const).filter(([h]) => /^\d+K$/.test(h));
          for (const [h, i] of sizeCols) {
            const fit = blockFit(spec, space, sizeOf(h), 12);
            const cell = row[i]!;
            if (t.id === 'C-T2') {
              expect(`${fit.chargeFactor.toFixed(2)}×`, `${row[0]} ${h}`).toBe(cell);
            } else {
              const m = /^([\d.]+%) \[(\d+)\]$/.exec(cell)!;
              expect(`${(fit.efficiency * 100).toFixed(1)}%`, `${row[0]} ${h} efficiency`).toBe(m[1]);
              expect(blockAsize(spec, sizeOf(h), 12) / 1024, `${row[0]} ${h} KiB`).toBe(Number(m[2]));
            }
          }
          if (t.id !== 'C-T2') {
            // The "nominal" column: (N−P)/N for raidz, D/(D+P) for dRAID.
            const nominal = spec.kind === 'raidz' ? (spec.width - spec.parity) / spec.width
              : spec.kind === 'draid' ? spec.data / (spec.data + spec.parity) : NaN;
            expect(`${(nominal * 100).toFixed(1)}%`).toBe(row[1]);
          }
        });
      }
    });
  }
});

/**
 * The builder on damaged snapshots: truncated files, garbage lines, swapped file contents, empty
 * files. It must never throw, must return a schema-valid Inventory, and must say what it could
 * not read (gaps), never invent what it could not see.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInventory } from '../../server/src/gather/build.ts';
import { DEMO_DIR } from '../../server/src/gather/load.ts';
import { Inventory } from '../../server/src/model/inventory.ts';
import { readSnapshot } from '../../server/src/snapshot/directory.ts';
import type { RawSet } from '../../server/src/snapshot/raw-set.ts';

const src = { kind: 'snapshot' as const, label: 'fuzz', capturedAt: 'x', demo: false, redacted: false };
const load = async (name: string): Promise<RawSet> => {
  const r = await readSnapshot(`${DEMO_DIR}/${name}`);
  if (!r.ok) throw new Error(r.error);
  return r.value.raw;
};

describe('inventory builder on damaged snapshots', async () => {
  const bases = [await load('000-hdd-mirror-optane'), await load('001-raidz2-12disk')];

  it('survives truncation, garbage injection and swapped files, always with a valid inventory', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 1 }),
      fc.array(fc.record({ file: fc.nat(), cut: fc.double({ min: 0, max: 1, noNaN: true }), junk: fc.string({ maxLength: 40 }), mode: fc.constantFrom('truncate', 'inject', 'swap', 'empty') }), { maxLength: 6 }),
      (which, edits) => {
        const raw: RawSet = structuredClone(bases[which]!);
        const names = Object.keys(raw);
        for (const e of edits) {
          const name = names[e.file % names.length]!;
          const o = raw[name]!;
          const at = Math.floor(o.text.length * e.cut);
          if (e.mode === 'truncate') o.text = o.text.slice(0, at);
          else if (e.mode === 'inject') o.text = `${o.text.slice(0, at)}\n${e.junk}\n${o.text.slice(at)}`;
          else if (e.mode === 'swap') o.text = raw[names[(e.file + 1) % names.length]!]!.text;
          else o.text = '';
        }
        const inv = buildInventory(raw, src);
        expect(Inventory.safeParse(inv).success).toBe(true);
      },
    ), { numRuns: 150 });
  });

  it('turns an unreadable zpool status into an error gap for Pools, keeping the other artifacts', () => {
    const raw = structuredClone(bases[0]!);
    raw['zpool-status.txt']!.text = '\u0000\u0001 not a zpool status at all';
    const inv = buildInventory(raw, src);
    expect(inv.pools).toEqual([]);
    expect(inv.gaps.find((g) => g.artifact === 'Pools')?.severity).toBe('error');
    expect(inv.drives).toHaveLength(3);
    expect(inv.datasets).toHaveLength(1);
  });

  it('a truncated smartctl JSON costs that one drive its health, with the file named', () => {
    const raw = structuredClone(bases[0]!);
    raw['smartctl/da3.json']!.text = raw['smartctl/da3.json']!.text.slice(0, 200);
    const inv = buildInventory(raw, src);
    const da3 = inv.drives.find((d) => d.devPath === '/dev/da3')!;
    expect(da3.smartPassed).toBeNull();
    expect(da3.model).toBeNull();
    expect(inv.gaps.some((g) => g.source === 'smartctl/da3.json' && g.artifact === 'Drives')).toBe(true);
    expect(inv.drives.find((d) => d.devPath === '/dev/da1')!.smartPassed).toBe(true);
  });

  it('an empty snapshot gives an empty inventory made of gaps', () => {
    const inv = buildInventory({}, src);
    expect(inv.pools).toEqual([]);
    expect(inv.host.platform).toBe('unknown');
    expect(inv.gaps.filter((g) => g.severity === 'error').map((g) => g.artifact).sort()).toEqual(['ArcStats', 'Datasets', 'Drives', 'Pools', 'ZilStats']);
  });
});

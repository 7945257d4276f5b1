/**
 * Issue 38 §4: vdev GUIDs above 2^53 were shown rounded (`16906062314088253000` where `zpool`
 * prints `16906062314088254246`). `zpool status -j --json-int` and `zpool list -j --json-int`
 * print guids as bare integers; JSON.parse rounded them to the nearest double. The lab's real
 * OpenZFS 2.3 capture (tests/fixtures/lab/2.3/all-classes, PROVENANCE.md there) has such guids.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, parseJsonText } from '../../../server/src/parsers/json-fields.ts';
import { parseZpoolStatusJson } from '../../../server/src/parsers/zpool-status-json.ts';
import { parseZpoolList } from '../../../server/src/parsers/zpool-list.ts';
import { loadInventory } from '../../../server/src/gather/load.ts';
import type { VdevNode } from '../../../server/src/model/inventory.ts';

const LAB = join(import.meta.dirname, '..', '..', 'fixtures', 'lab', '2.3', 'all-classes');
const statusText = readFileSync(join(LAB, 'zpool-status.json'), 'utf8');
/** Every vdev guid exactly as zpool printed it. */
const printed = [...statusText.matchAll(/"guid":\s*"?(\d+)/g)].map((m) => m[1]!);
const big = printed.filter((g) => !Number.isSafeInteger(Number(g)));

function guids(nodes: readonly VdevNode[]): string[] {
  return nodes.flatMap((n) => [...(n.guid ? [n.guid] : []), ...guids(n.children)]);
}

describe('64-bit guids stay exact', () => {
  it('parseJsonExact: integers beyond 2^53 become their digits; everything else parses as JSON.parse does', () => {
    const text = '{"guid":16906062314088254246,"neg":-16906062314088254246,"small":9007199254740991,"size":6039797760,'
      + '"f":1234567890.12345678901234567,"e":12345678901234567e2,"s":"x:16906062314088254246}","a":[16906062314088254246]}';
    expect(parseJsonExact(text)).toEqual({
      guid: '16906062314088254246', neg: '-16906062314088254246', small: 9007199254740991, size: 6039797760,
      f: 1234567890.1234567, e: Number('12345678901234567e2'), s: 'x:16906062314088254246}', a: ['16906062314088254246'],
    });
    expect(String(JSON.parse('16906062314088254246'))).toBe('16906062314088253000'); // what JSON.parse alone gives: the figure
    const bad = parseJsonText('{\n"guid": 16906062314088254246,\n}');
    expect(bad.ok).toBe(false);
  });

  it('zpool status -j --json-int of the lab capture: every vdev guid as zpool printed it', () => {
    expect(big.length).toBeGreaterThan(3);
    const r = parseZpoolStatusJson(statusText);
    if (!r.ok) throw new Error(r.error.message);
    const got = r.value.flatMap((p) => guids(p.vdevs));
    expect(got.length).toBeGreaterThan(3);
    for (const g of got) expect(printed).toContain(g);
    expect(got.filter((g) => big.includes(g)).length).toBeGreaterThan(3);
  });

  it('zpool list -j --json-int: the pool guid exact', () => {
    const listText = readFileSync(join(LAB, 'zpool-list.json'), 'utf8');
    const poolGuid = /"pool_guid":(\d+)/.exec(listText)![1]!;
    expect(Number.isSafeInteger(Number(poolGuid))).toBe(false);
    const r = parseZpoolList(listText);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]!.guid).toBe(poolGuid);
  });

  it('the inventory (model, API JSON) carries them as strings, never a rounded number', async () => {
    const { inventory } = await loadInventory({ snapshot: LAB });
    const got = inventory.pools.flatMap((p) => guids(p.vdevs as VdevNode[]));
    expect(got.filter((g) => big.includes(g)).length).toBeGreaterThan(3);
    const json = JSON.stringify(inventory);
    for (const g of big) expect(json).not.toContain(String(Number(g)));
  });
});

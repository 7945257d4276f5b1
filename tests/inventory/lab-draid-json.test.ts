/**
 * `zpool status -j` of OpenZFS 2.3.2 prints a dRAID top-level vdev with no `state` (nor type or
 * guid) — found in the lab guest; the text output of the same capture has it. The pools collector
 * fills a missing vdev state from the text tree (tests/fixtures/lab/2.3/draid-spare-in-use).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { parseZpoolStatusJson } from '../../server/src/parsers/zpool-status-json.ts';

const dir = join(import.meta.dirname, '../fixtures/lab/2.3/draid-spare-in-use');

describe('dRAID in zpool status -j (OpenZFS 2.3.2, real capture)', () => {
  it('the JSON itself lacks the dRAID vdev state', () => {
    const r = parseZpoolStatusJson(readFileSync(join(dir, 'zpool-status.json'), 'utf8'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]!.vdevs[0]!.state).toBeNull();
  });
  it('the inventory has it, from the text output of the same capture', async () => {
    const { inventory } = await loadSnapshotInventory(dir);
    const data = inventory.pools[0]!.vdevs.find((v) => v.class === 'data')!;
    expect([data.type, data.name, data.state]).toEqual(['draid', 'draid1:2d:5c:1s-0', 'DEGRADED']);
    expect(inventory.pools[0]!.vdevs.find((v) => v.class === 'spare')).toMatchObject({ name: 'draid1-0-0', state: 'INUSE' });
  });
});

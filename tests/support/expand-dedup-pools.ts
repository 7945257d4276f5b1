/**
 * Pools built by the real Pools collector from the outputs in tests/fixtures/zfs/derived (written
 * from OpenZFS 2.4.4's print code, see its PROVENANCE.md), for the raidz-expansion and dedup-table
 * rule tests.
 */
import { readFileSync } from 'node:fs';
import { poolsCollector } from '../../server/src/gather/collectors/pools.ts';
import type { Pool } from '../../server/src/model/inventory.ts';
import type { RawSet } from '../../server/src/snapshot/raw-set.ts';

export const derivedFixture = (name: string): string => readFileSync(new URL(`../fixtures/zfs/derived/${name}`, import.meta.url), 'utf8');

/** file name in the RawSet → its text; JSON files stand for `zpool status -v -P -D -j --json-int`. */
export function collectPools(files: Record<string, string>): Pool[] {
  const raw: Record<string, unknown> = {};
  for (const [file, text] of Object.entries(files)) {
    const command = file === 'zpool-get.txt' ? ['zpool', 'get', '-H', '-p', 'all', 'tank']
      : file.endsWith('.json') ? ['zpool', 'status', '-v', '-P', '-D', '-j', '--json-int'] : ['zpool', 'status', '-v', '-P', '-D'];
    raw[file] = { text, command, exitCode: 0, stderr: '', error: null };
  }
  const out = poolsCollector.build(raw as RawSet, { platform: 'linux' });
  if (!out.value) throw new Error(`no pools: ${out.gaps.map((g) => g.message).join('; ')}`);
  return out.value;
}

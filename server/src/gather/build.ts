/**
 * The pure inventory builder: RawSet → Inventory. The same function serves the live host and a
 * snapshot directory, which is why `inventory --snapshot DIR` anywhere equals the host's.
 * Each collector builds its artifact; a collector that throws (a parser bug) becomes a gap too.
 */
import { INVENTORY_SCHEMA_VERSION, Inventory, type Dataset, type Drive, type Gap, type Host, type Pool } from '../model/inventory.ts';
import type { RawSet } from '../snapshot/raw-set.ts';
import { arcCollector, datasetsCollector, drivesCollector, hostCollector, poolsCollector, zilCollector } from './collectors/index.ts';
import { gap } from './gaps.ts';
import { platformFromUname, type Collector, type CollectorOutput, type GatherContext } from './request.ts';
import { resolvePoolDrives } from './resolve-drives.ts';

export type InventorySourceInfo = Inventory['source'];

function safeBuild<T>(c: Collector<T>, raw: RawSet, ctx: GatherContext): CollectorOutput<T> {
  try {
    return c.build(raw, ctx);
  } catch (e) {
    return { value: null, gaps: [gap(c.artifact, c.artifact, `could not build: ${e instanceof Error ? e.message : String(e)}`, 'error')] };
  }
}

const UNKNOWN_HOST: Host = {
  hostname: null, platform: 'unknown', distribution: 'unknown', distributionVersion: null, kernel: null,
  zfs: { userland: null, kernel: null, openzfs: null, flavour: 'unknown' }, memoryBytes: null,
};

export function buildInventory(raw: RawSet, source: InventorySourceInfo): Inventory {
  const ctx: GatherContext = { platform: platformFromUname(raw['uname.txt']?.text) };
  const gaps: Gap[] = [];
  const take = <T>(o: CollectorOutput<T>): T | null => { gaps.push(...o.gaps); return o.value; };
  const host = take(safeBuild(hostCollector, raw, ctx)) ?? UNKNOWN_HOST;
  const pools: Pool[] = take(safeBuild(poolsCollector, raw, ctx)) ?? [];
  const datasets: Dataset[] = take(safeBuild(datasetsCollector, raw, ctx)) ?? [];
  const drives: Drive[] = take(safeBuild(drivesCollector, raw, ctx)) ?? [];
  const zil = take(safeBuild(zilCollector, raw, ctx));
  const arc = take(safeBuild(arcCollector, raw, ctx));
  const inv: Inventory = {
    schemaVersion: INVENTORY_SCHEMA_VERSION,
    source,
    host,
    pools: resolvePoolDrives(pools, drives),
    drives,
    datasets,
    zil,
    arc,
    gaps,
  };
  // The model is the contract: a builder bug must show up here, not in a rule three layers later.
  // The checked copy zod makes is dropped: the builder's own objects already have the schema's
  // shape (tests/inventory/build-validates.test.ts), and a large host would be held twice.
  const checked = Inventory.safeParse(inv);
  if (!checked.success) throw checked.error;
  return inv;
}

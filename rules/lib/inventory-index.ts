/**
 * Look-ups over the inventory, built once per artifact array and shared by every rule of an
 * assessment (a WeakMap keyed by the array the engine hands out), so a rule asking "which drive
 * is behind this leaf?" or "which datasets live in this pool?" costs a map look-up instead of a
 * scan: hosts with 240 drives and thousands of datasets made those scans quadratic.
 * Pure: the same array always gives the same index, and nothing here changes the inventory.
 */
import type { Dataset, Drive } from '../../server/src/model/inventory.ts';

function memo<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) { v = build(key); cache.set(key, v); }
    return v;
  };
}

/** Drive by id. */
export const drivesById = memo((drives: readonly Drive[]): Map<string, Drive> => {
  const m = new Map<string, Drive>();
  for (const d of drives) if (!m.has(d.id)) m.set(d.id, d);
  return m;
});

const noDev = (s: string): string => s.replace(/^\/dev\//, '');
/** A name without /dev/, by-id/ and a partition suffix: `ata-X-part1` and `/dev/disk/by-id/ata-X` meet. */
export const strippedName = (s: string): string => noDev(s).replace(/^disk\/by-id\//, '').replace(/-part\d+$/, '');

export interface AliasIndex {
  /** name without /dev/ → position of the first drive that has it. */
  exact: Map<string, number>;
  /** strippedName → position of the first drive that has it. */
  stripped: Map<string, number>;
}

/** Every name a drive goes by (device path, by-id path, aliases), indexed both ways. */
export const driveAliases = memo((drives: readonly Drive[]): AliasIndex => {
  const exact = new Map<string, number>();
  const stripped = new Map<string, number>();
  drives.forEach((d, i) => {
    for (const a of [d.devPath ?? '', d.byIdPath ?? '', ...d.aliases]) {
      if (!a) continue;
      const e = noDev(a);
      if (!exact.has(e)) exact.set(e, i);
      const s = strippedName(a);
      if (!stripped.has(s)) stripped.set(s, i);
    }
  });
  return { exact, stripped };
});

/** Datasets by pool name, in inventory order. */
export const datasetsByPool = memo((datasets: readonly Dataset[]): Map<string, Dataset[]> => {
  const m = new Map<string, Dataset[]>();
  for (const d of datasets) {
    const list = m.get(d.pool);
    if (list) list.push(d); else m.set(d.pool, [d]);
  }
  return m;
});

/** The datasets of one pool (an empty list when it has none). */
export const datasetsOfPool = (datasets: readonly Dataset[], pool: string): readonly Dataset[] => datasetsByPool(datasets).get(pool) ?? [];

/** Dataset by full name. */
export const datasetsByName = memo((datasets: readonly Dataset[]): Map<string, Dataset> => {
  const m = new Map<string, Dataset>();
  for (const d of datasets) if (!m.has(d.name)) m.set(d.name, d);
  return m;
});

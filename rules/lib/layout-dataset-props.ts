/**
 * Where a dataset property comes from, so a rule reports a setting once, on the dataset where it
 * is set, and not again on every child that inherits it.
 */
import type { Dataset } from '../../server/src/model/inventory.ts';

const INHERITED = 'inherited from ';

/** The dataset named in `inherited from X`, or null when the value is local/default/received/unknown. */
export function inheritedFrom(ds: Dataset, prop: string): string | null {
  const src = ds.properties[prop]?.source ?? null;
  return src !== null && src.startsWith(INHERITED) ? src.slice(INHERITED.length).trim() || null : null;
}

/** The property's source as printed (`local`, `default`, `inherited from tank`, …), or null. */
export const sourceOf = (ds: Dataset, prop: string): string | null => ds.properties[prop]?.source ?? null;

/**
 * Datasets to report for a property condition: those matching `cond` whose value is not simply
 * inherited from another dataset that is also reported. Each result lists the inheriting children.
 * Linear in the number of datasets: one pass groups the matches by the dataset they inherit from
 * (hosts with thousands of datasets set the same value locally on each one).
 */
export function reportOnce(
  datasets: readonly Dataset[],
  prop: string,
  cond: (ds: Dataset) => boolean,
): Array<{ dataset: Dataset; inheritedBy: string[] }> {
  const matching = datasets.filter((d) => d.type !== 'snapshot' && d.type !== 'bookmark' && cond(d));
  const names = new Set(matching.map((d) => d.name));
  const childrenOf = new Map<string, string[]>();
  const heads: Dataset[] = [];
  for (const d of matching) {
    const from = inheritedFrom(d, prop);
    if (from === null || !names.has(from)) { heads.push(d); continue; }
    const list = childrenOf.get(from);
    if (list) list.push(d.name); else childrenOf.set(from, [d.name]);
  }
  return heads.map((h) => ({ dataset: h, inheritedBy: childrenOf.get(h.name) ?? [] }));
}

/** A dataset is a zvol. */
export const isZvol = (ds: Dataset): boolean => ds.type === 'volume';

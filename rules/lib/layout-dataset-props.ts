/**
 * Where a dataset property comes from, so a rule reports a setting once, on the dataset where it
 * is set, and not again on every child that inherits it.
 */
import type { Dataset } from '../../server/src/model/inventory.ts';

/** The dataset named in `inherited from X`, or null when the value is local/default/received/unknown. */
export function inheritedFrom(ds: Dataset, prop: string): string | null {
  const src = ds.properties[prop]?.source ?? null;
  const m = src ? /^inherited from (.+)$/.exec(src) : null;
  return m ? m[1]!.trim() : null;
}

/** The property's source as printed (`local`, `default`, `inherited from tank`, …), or null. */
export const sourceOf = (ds: Dataset, prop: string): string | null => ds.properties[prop]?.source ?? null;

/**
 * Datasets to report for a property condition: those matching `cond` whose value is not simply
 * inherited from another dataset that is also reported. Each result lists the inheriting children.
 */
export function reportOnce(
  datasets: readonly Dataset[],
  prop: string,
  cond: (ds: Dataset) => boolean,
): Array<{ dataset: Dataset; inheritedBy: string[] }> {
  const matching = datasets.filter((d) => d.type !== 'snapshot' && d.type !== 'bookmark' && cond(d));
  const names = new Set(matching.map((d) => d.name));
  const heads = matching.filter((d) => {
    const from = inheritedFrom(d, prop);
    return from === null || !names.has(from);
  });
  return heads.map((h) => ({
    dataset: h,
    inheritedBy: matching.filter((d) => d !== h && inheritedFrom(d, prop) === h.name).map((d) => d.name),
  }));
}

/** A dataset is a zvol. */
export const isZvol = (ds: Dataset): boolean => ds.type === 'volume';

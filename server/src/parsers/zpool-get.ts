/**
 * `zpool get -H -p all [pool…]` or the human `zpool get all pool` table →
 * pool → property → {value, source}. zfs-fuse has neither -H nor -p (values like 123M stay as
 * printed: this parser does not convert, the inventory reads typed values where it needs them).
 * `zpool get -j` (OpenZFS ≥ 2.3) is accepted too.
 */
import { z } from 'zod';
import { PropertyValue } from '../model/inventory.ts';
import { failed, parsed, type ParseIssue, type ParseOutcome } from './common.ts';
import { isObject, parseJsonExact } from './json-fields.ts';
import { jsonPropertyValue, readPropertyRows } from './zfs-property-table.ts';

export const ZpoolProperties = z.record(z.string(), z.record(z.string(), PropertyValue));
export type ZpoolProperties = z.infer<typeof ZpoolProperties>;

export function parseZpoolGet(text: string): ParseOutcome<ZpoolProperties> {
  const issues: ParseIssue[] = [];
  const out: ZpoolProperties = {};
  if (text.trim().startsWith('{')) {
    let doc: unknown;
    try { doc = parseJsonExact(text); } catch (e) { return failed(`not JSON: ${(e as Error).message}`); }
    if (!isObject(doc) || !isObject(doc.pools)) return failed('not zpool get -j output: no "pools" object');
    for (const [key, pool] of Object.entries(doc.pools)) {
      if (!isObject(pool) || !isObject(pool.properties)) continue;
      const name = typeof pool.name === 'string' ? pool.name : key;
      const props: Record<string, PropertyValue> = {};
      for (const [prop, v] of Object.entries(pool.properties)) {
        const pv = jsonPropertyValue(v);
        if (pv !== null) props[prop] = pv; else issues.push({ line: null, message: `${name} ${prop}: no value` });
      }
      out[name] = props;
    }
    return parsed(out, issues);
  }
  const rows = readPropertyRows(text, issues);
  if (rows.length === 0) {
    const first = issues[0];
    return failed(first ? `not zpool get output: ${first.message}` : 'empty zpool get output', first?.line ?? null, issues);
  }
  for (const r of rows) (out[r.name] ??= {})[r.property] = { value: r.value, source: r.source };
  return parsed(out, issues);
}

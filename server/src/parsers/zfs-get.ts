/**
 * `zfs get -H -p all` (scripted), the human `zfs get all` table (values with spaces such as
 * creation dates are read by column position) and `zfs get -j` (OpenZFS ≥ 2.3) →
 * [{name, type, properties}] in the order datasets first appear. `type` comes from the `type`
 * property (null when the output did not include it).
 */
import { z } from 'zod';
import { DatasetType, PropertyValue } from '../model/inventory.ts';
import { failed, parsed, type ParseIssue, type ParseOutcome } from './common.ts';
import { isObject } from './json-fields.ts';
import { jsonPropertyValue, readPropertyRows } from './zfs-property-table.ts';

export const ZfsGetDataset = z.object({
  name: z.string(),
  type: DatasetType.nullable(),
  properties: z.record(z.string(), PropertyValue),
});
export type ZfsGetDataset = z.infer<typeof ZfsGetDataset>;

const datasetType = (v: string | undefined): z.infer<typeof DatasetType> | null => {
  const parsedType = DatasetType.safeParse(v?.toLowerCase());
  return parsedType.success ? parsedType.data : null;
};

function fromJson(text: string): ParseOutcome<ZfsGetDataset[]> {
  let doc: unknown;
  try { doc = JSON.parse(text); } catch (e) { return failed(`not JSON: ${(e as Error).message}`); }
  if (!isObject(doc) || !isObject(doc.datasets)) return failed('not zfs get -j output: no "datasets" object');
  const issues: ParseIssue[] = [];
  const out: ZfsGetDataset[] = [];
  for (const [key, ds] of Object.entries(doc.datasets)) {
    if (!isObject(ds)) continue;
    const name = typeof ds.name === 'string' ? ds.name : key;
    const properties: Record<string, PropertyValue> = {};
    if (isObject(ds.properties)) for (const [prop, v] of Object.entries(ds.properties)) {
      const pv = jsonPropertyValue(v);
      if (pv !== null) properties[prop] = pv; else issues.push({ line: null, message: `${name} ${prop}: no value` });
    }
    out.push({ name, type: datasetType(typeof ds.type === 'string' ? ds.type : properties.type?.value), properties });
  }
  return parsed(out, issues);
}

export function parseZfsGet(text: string): ParseOutcome<ZfsGetDataset[]> {
  if (text.trim().startsWith('{')) return fromJson(text);
  const issues: ParseIssue[] = [];
  const rows = readPropertyRows(text, issues);
  if (rows.length === 0) {
    const first = issues[0];
    return failed(first ? `not zfs get output: ${first.message}` : 'empty zfs get output', first?.line ?? null, issues);
  }
  const byName = new Map<string, ZfsGetDataset>();
  for (const r of rows) {
    let ds = byName.get(r.name);
    if (ds === undefined) { ds = { name: r.name, type: null, properties: {} }; byName.set(r.name, ds); }
    ds.properties[r.property] = { value: r.value, source: r.source };
    if (r.property === 'type') ds.type = datasetType(r.value);
  }
  return parsed([...byName.values()], issues);
}

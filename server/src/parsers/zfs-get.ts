/**
 * `zfs get -H -p all` (scripted), the human `zfs get all` table (values with spaces such as
 * creation dates are read by column position) and `zfs get -j` (OpenZFS ≥ 2.3) →
 * [{name, type, properties}] in the order datasets first appear. `type` comes from the `type`
 * property (null when the output did not include it).
 *
 * Text is read as a stream of lines (`ZfsGetStream`: feed chunks as a command prints them, or the
 * whole text at once) and never split into an array of lines or rows: a host with 5,000 datasets
 * prints ~285,000 lines. `keep` drops properties nobody reads before they are stored, and repeated
 * strings (property names, sources, short values) are interned, so 5,000 datasets cost a few MB.
 */
import { z } from 'zod';
import { DatasetType, PropertyValue } from '../model/inventory.ts';
import { failed, parsed, type ParseIssue, type ParseOutcome } from './common.ts';
import { isObject, parseJsonExact } from './json-fields.ts';
import { jsonPropertyValue, PropertyRowReader, SKIPPED } from './zfs-property-table.ts';

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

/** Which properties to store; the default keeps every one. */
export interface ZfsGetOptions { keep?: (property: string) => boolean }
const keepAll = (): boolean => true;

/**
 * One canonical copy of strings that repeat on every dataset. Numbers and long values (guids,
 * byte counts, mountpoints) are unique per dataset and are not worth a map entry.
 */
class Interner {
  private readonly seen = new Map<string, string>();
  get(s: string): string {
    const hit = this.seen.get(s);
    if (hit !== undefined) return hit;
    this.seen.set(s, s);
    return s;
  }
  value(s: string): string {
    return s.length <= 24 && !/^\d/.test(s) ? this.get(s) : s;
  }
}

function fromJson(text: string, keep: (property: string) => boolean): ParseOutcome<ZfsGetDataset[]> {
  let doc: unknown;
  try { doc = parseJsonExact(text); } catch (e) { return failed(`not JSON: ${(e as Error).message}`); }
  if (!isObject(doc) || !isObject(doc.datasets)) return failed('not zfs get -j output: no "datasets" object');
  const issues: ParseIssue[] = [];
  const out: ZfsGetDataset[] = [];
  for (const [key, ds] of Object.entries(doc.datasets)) {
    if (!isObject(ds)) continue;
    const name = typeof ds.name === 'string' ? ds.name : key;
    const properties: Record<string, PropertyValue> = {};
    let typeText: string | undefined;
    if (isObject(ds.properties)) for (const [prop, v] of Object.entries(ds.properties)) {
      const pv = jsonPropertyValue(v);
      if (pv === null) { issues.push({ line: null, message: `${name} ${prop}: no value` }); continue; }
      if (prop === 'type') typeText = pv.value;
      if (keep(prop)) properties[prop] = pv;
    }
    out.push({ name, type: datasetType(typeof ds.type === 'string' ? ds.type : typeText), properties });
  }
  return parsed(out, issues);
}

/**
 * `zfs get` text, fed in chunks of any size (`push`), finished with `end()`. Lines are read as they
 * complete; only the unfinished tail of the last chunk is held.
 */
export class ZfsGetStream {
  private readonly reader = new PropertyRowReader();
  private readonly byName = new Map<string, ZfsGetDataset>();
  private readonly issues: ParseIssue[] = [];
  private readonly strings = new Interner();
  private readonly keep: (property: string) => boolean;
  private tail = '';
  private lineNo = 0;
  private rows = 0;
  private last: ZfsGetDataset | null = null;

  /** `type` is always read (it types the dataset) even when it is not stored. */
  private readonly wanted = (property: string): boolean => property === 'type' || this.keep(property);

  constructor(opts: ZfsGetOptions = {}) { this.keep = opts.keep ?? keepAll; }

  push(chunk: string): void {
    const text = this.tail + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl >= 0; nl = text.indexOf('\n', start)) {
      this.line(text.slice(start, text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl));
      start = nl + 1;
    }
    this.tail = text.slice(start);
  }

  end(): ParseOutcome<ZfsGetDataset[]> {
    if (this.tail !== '') { this.line(this.tail.endsWith('\r') ? this.tail.slice(0, -1) : this.tail); this.tail = ''; }
    if (this.rows === 0) {
      const first = this.issues[0];
      return failed(first ? `not zfs get output: ${first.message}` : 'empty zfs get output', first?.line ?? null, this.issues);
    }
    return parsed([...this.byName.values()], this.issues);
  }

  private line(line: string): void {
    this.lineNo++;
    const r = this.reader.read(line, this.lineNo, this.issues, this.wanted);
    if (r === null) return;
    this.rows++;
    // A skipped row is scripted: its name runs to the first tab. The dataset still exists.
    // Rows come grouped by dataset: most lines belong to the dataset of the line before.
    const last = this.last;
    let ds: ZfsGetDataset | undefined;
    if (last !== null && line.charCodeAt(last.name.length) === 9 && line.startsWith(last.name)) ds = last;
    else {
      const name = r === SKIPPED ? line.slice(0, line.indexOf('\t')) : r.name;
      ds = this.byName.get(name);
      if (ds === undefined) { ds = { name, type: null, properties: {} }; this.byName.set(name, ds); }
    }
    this.last = ds;
    if (r === SKIPPED) return;
    if (r.property === 'type') ds.type = datasetType(r.value);
    if (!this.keep(r.property)) return;
    const s = this.strings;
    ds.properties[s.get(r.property)] = { value: s.value(r.value), source: r.source === null ? null : s.get(r.source) };
  }
}

export function parseZfsGet(text: string, opts: ZfsGetOptions = {}): ParseOutcome<ZfsGetDataset[]> {
  if (text.trimStart().startsWith('{')) return fromJson(text, opts.keep ?? keepAll);
  const stream = new ZfsGetStream(opts);
  stream.push(text);
  return stream.end();
}

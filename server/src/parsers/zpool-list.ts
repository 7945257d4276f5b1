/**
 * `zpool list` in its four shapes → ZpoolListPool[]:
 * - human table with header (`zpool list`, `zpool list -v`; OpenZFS 2.x, ZoL 0.6/0.7 without
 *   CKPOINT, zfs-fuse's NAME SIZE ALLOC FREE CAP DEDUP HEALTH ALTROOT),
 * - scripted `-H [-p]` (tab-separated, no header): columns given by the caller (`-o a,b,c`) or
 *   inferred from the field count of the default column sets,
 * - `zpool list -j [--json-int] [-v]` (OpenZFS ≥ 2.3).
 * `-` means "not applicable" and becomes null; sizes are bytes, FRAG/CAP percent, DEDUP a ratio.
 */
import { z } from 'zod';
import { VdevClass, VdevType } from '../model/inventory.ts';
import { failed, parseHumanNumber, parsed, parsePercent, parseRatio, splitLines, type ParseIssue, type ParseOutcome } from './common.ts';
import { isObject, parseJsonExact, type JsonObject } from './json-fields.ts';
import { interiorType, isFilePath, SECTION_CLASS } from './zpool-status-vdev.ts';

export const ZpoolListVdev = z.object({
  name: z.string(),
  class: VdevClass,
  /** 1 = top-level vdev, 2 = its children, … (indentation / 2); null when -H hid it. */
  depth: z.number().int().nullable(),
  type: VdevType,
  sizeBytes: z.number().nullable(),
  allocBytes: z.number().nullable(),
  freeBytes: z.number().nullable(),
  expandszBytes: z.number().nullable(),
  fragmentationPct: z.number().nullable(),
  capacityPct: z.number().nullable(),
  health: z.string().nullable(),
});
export type ZpoolListVdev = z.infer<typeof ZpoolListVdev>;

export const ZpoolListPool = z.object({
  name: z.string(),
  guid: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  allocBytes: z.number().nullable(),
  freeBytes: z.number().nullable(),
  ckpointBytes: z.number().nullable(),
  expandszBytes: z.number().nullable(),
  fragmentationPct: z.number().nullable(),
  capacityPct: z.number().nullable(),
  dedupRatio: z.number().nullable(),
  health: z.string().nullable(),
  altroot: z.string().nullable(),
  vdevs: z.array(ZpoolListVdev),
});
export type ZpoolListPool = z.infer<typeof ZpoolListPool>;

/** Column names as headers print them or as `-o` takes them → one canonical key. */
const COLUMN_ALIASES: Readonly<Record<string, string>> = {
  name: 'name', size: 'size', alloc: 'alloc', allocated: 'alloc', free: 'free', ckpoint: 'ckpoint', checkpoint: 'ckpoint',
  expandsz: 'expandsz', expandsize: 'expandsz', frag: 'frag', fragmentation: 'frag', cap: 'cap', capacity: 'cap',
  dedup: 'dedup', dedupratio: 'dedup', health: 'health', altroot: 'altroot', guid: 'guid',
};
/** Default `zpool list -H` column sets by field count. */
const DEFAULT_COLUMNS: Readonly<Record<number, string[]>> = {
  8: ['name', 'size', 'alloc', 'free', 'cap', 'dedup', 'health', 'altroot'], // zfs-fuse / pre-feature-flags
  10: ['name', 'size', 'alloc', 'free', 'expandsz', 'frag', 'cap', 'dedup', 'health', 'altroot'], // ZoL 0.6–0.7
  11: ['name', 'size', 'alloc', 'free', 'ckpoint', 'expandsz', 'frag', 'cap', 'dedup', 'health', 'altroot'], // OpenZFS ≥ 0.8
};

const dash = (v: string | undefined): string | null => (v === undefined || v === '-' || v === '' ? null : v);
const bytes = (v: string | undefined): number | null => (dash(v) === null ? null : parseHumanNumber(v!));
const percent = (v: string | undefined): number | null => (dash(v) === null ? null : parsePercent(v!));
const ratio = (v: string | undefined): number | null => (dash(v) === null ? null : parseRatio(v!));

function poolFrom(values: Record<string, string>): ZpoolListPool {
  return {
    name: values.name ?? '',
    guid: dash(values.guid),
    sizeBytes: bytes(values.size), allocBytes: bytes(values.alloc), freeBytes: bytes(values.free),
    ckpointBytes: bytes(values.ckpoint), expandszBytes: bytes(values.expandsz),
    fragmentationPct: percent(values.frag), capacityPct: percent(values.cap), dedupRatio: ratio(values.dedup),
    health: dash(values.health), altroot: dash(values.altroot), vdevs: [],
  };
}

function vdevFrom(values: Record<string, string>, cls: ZpoolListVdev['class'], depth: number | null, isLeaf: boolean): ZpoolListVdev {
  const name = values.name ?? '';
  const interior = interiorType(name);
  return {
    name, class: cls, depth,
    type: interior ?? (isLeaf ? (isFilePath(name) ? 'file' : 'disk') : 'mirror'),
    sizeBytes: bytes(values.size), allocBytes: bytes(values.alloc), freeBytes: bytes(values.free),
    expandszBytes: bytes(values.expandsz), fragmentationPct: percent(values.frag), capacityPct: percent(values.cap),
    health: dash(values.health),
  };
}

const zip = (columns: string[], fields: string[]): Record<string, string> => {
  const out: Record<string, string> = {};
  columns.forEach((c, i) => { if (fields[i] !== undefined) out[c] = fields[i]!; });
  return out;
};

function canonicalColumns(names: string[]): string[] | null {
  const out = names.map((n) => COLUMN_ALIASES[n.toLowerCase()] ?? n.toLowerCase());
  return out.includes('name') ? out : null;
}

/** Leaf vs interior is decided after the rows are read: a row is a leaf when the next row is not deeper. */
function settleLeaves(pool: ZpoolListPool): void {
  pool.vdevs.forEach((v, i) => {
    const next = pool.vdevs[i + 1];
    const leaf = next === undefined || next.depth === null || v.depth === null || next.depth <= v.depth;
    if (!leaf && interiorType(v.name) === null) v.type = 'mirror';
    if (leaf && interiorType(v.name) === null) v.type = isFilePath(v.name) ? 'file' : 'disk';
  });
}

function parseTable(lines: string[], issues: ParseIssue[]): ZpoolListPool[] {
  const pools: ZpoolListPool[] = [];
  let columns: string[] | null = null;
  let cur: ZpoolListPool | null = null;
  let cls: ZpoolListVdev['class'] = 'data';
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    const fields = trimmed.split(/\s+/);
    if (fields[0] === 'NAME' && fields.length > 1) {
      columns = canonicalColumns(fields);
      return;
    }
    if (columns === null) {
      issues.push({ line: i + 1, message: `no NAME header before: ${trimmed.slice(0, 120)}` });
      return;
    }
    const indent = line.length - line.trimStart().length;
    const values = zip(columns, fields);
    if (indent === 0) {
      const name = fields[0]!;
      // Class rows of -v (`special`, `logs`, `cache`, `spare`, `dedup`) carry only dashes.
      if (cur !== null && name in SECTION_CLASS && fields.slice(1).every((f) => f === '-')) {
        cls = SECTION_CLASS[name]!;
        return;
      }
      if (fields.length < 2) { issues.push({ line: i + 1, message: `pool row without values: ${trimmed}` }); return; }
      cur = poolFrom(values);
      cls = 'data';
      pools.push(cur);
      return;
    }
    if (cur === null) { issues.push({ line: i + 1, message: `vdev row before any pool: ${trimmed.slice(0, 120)}` }); return; }
    cur.vdevs.push(vdevFrom(values, cls, Math.max(1, Math.round(indent / 2)), true));
  });
  pools.forEach(settleLeaves);
  return pools;
}

function parseScripted(lines: string[], given: string[] | undefined, issues: ParseIssue[]): ZpoolListPool[] | null {
  const pools: ZpoolListPool[] = [];
  let cur: ZpoolListPool | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const isVdev = line.startsWith('\t');
    const fields = (isVdev ? line.slice(1) : line).split('\t');
    const columns = given ?? DEFAULT_COLUMNS[fields.length];
    if (columns === undefined) {
      if (pools.length === 0) return null;
      issues.push({ line: i + 1, message: `${fields.length} tab-separated fields do not match a known zpool list column set` });
      continue;
    }
    const values = zip(columns, fields);
    // Guessed column sets must prove themselves: HEALTH has to hold a pool state.
    if (given === undefined && !isVdev && !/^(ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|SUSPENDED)$/.test(values.health ?? '')) {
      if (pools.length === 0) return null;
      issues.push({ line: i + 1, message: `HEALTH column holds "${values.health}": column set not recognised` });
      continue;
    }
    if (!isVdev) {
      cur = poolFrom(values);
      pools.push(cur);
    } else if (cur !== null) {
      // -H -v drops the indentation, so nesting is unknown.
      cur.vdevs.push(vdevFrom(values, 'data', null, interiorType(values.name ?? '') === null));
    }
  }
  return pools;
}

function jsonProp(props: unknown, key: string): string | undefined {
  if (!isObject(props)) return undefined;
  const p = props[key];
  const v = isObject(p) ? p.value : undefined;
  return typeof v === 'number' ? String(v) : typeof v === 'string' ? v : undefined;
}
const JSON_PROPS: Readonly<Record<string, string>> = {
  size: 'size', allocated: 'alloc', free: 'free', checkpoint: 'ckpoint', expandsize: 'expandsz', fragmentation: 'frag',
  capacity: 'cap', dedupratio: 'dedup', health: 'health', altroot: 'altroot',
};
const jsonValues = (o: JsonObject): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, c] of Object.entries(JSON_PROPS)) { const v = jsonProp(o.properties, k); if (v !== undefined) out[c] = v; }
  if (typeof o.name === 'string') out.name = o.name;
  // The pool's guid is `pool_guid` in `zpool list -j` (2.3); kept as its digits (parseJsonExact).
  const guid = o.guid ?? o.pool_guid;
  if (typeof guid === 'string' || typeof guid === 'number') out.guid = String(guid);
  return out;
};

const JSON_CLASS: Readonly<Record<string, ZpoolListVdev['class']>> = { dedup: 'dedup', special: 'special', logs: 'log', l2cache: 'cache', spares: 'spare' };

function jsonVdevs(group: unknown, cls: ZpoolListVdev['class'], depth: number, out: ZpoolListVdev[]): void {
  if (!isObject(group)) return;
  for (const [key, v] of Object.entries(group)) {
    if (!isObject(v)) continue;
    if (depth === 1 && key in JSON_CLASS && !('vdev_type' in v) && !('properties' in v)) {
      jsonVdevs(v, JSON_CLASS[key]!, 1, out);
      continue;
    }
    const children = isObject(v.vdevs) ? v.vdevs : null;
    const row = vdevFrom(jsonValues(v), cls, depth, children === null);
    const t = typeof v.vdev_type === 'string' ? v.vdev_type : null;
    if (t === 'disk' || t === 'file' || t === 'mirror' || t === 'replacing' || t === 'indirect') row.type = t;
    out.push(row);
    if (children !== null) jsonVdevs(children, cls, depth + 1, out);
  }
}

function parseJson(doc: unknown): ParseOutcome<ZpoolListPool[]> {
  if (!isObject(doc) || !isObject(doc.pools)) return failed('not zpool list -j output: no "pools" object');
  const pools: ZpoolListPool[] = [];
  for (const [key, p] of Object.entries(doc.pools)) {
    if (!isObject(p)) continue;
    const pool = poolFrom({ name: key, ...jsonValues(p) });
    if (isObject(p.vdevs)) {
      // With -v the root vdev is keyed by the pool name; its children are the top-level vdevs.
      const root = p.vdevs[pool.name];
      jsonVdevs(isObject(root) && isObject(root.vdevs) ? { ...root.vdevs, ...Object.fromEntries(Object.entries(p.vdevs).filter(([k]) => k !== pool.name)) } : p.vdevs, 'data', 1, pool.vdevs);
    }
    pools.push(pool);
  }
  return validate(pools, []);
}

function validate(pools: ZpoolListPool[], issues: ParseIssue[]): ParseOutcome<ZpoolListPool[]> {
  const checked = z.array(ZpoolListPool).safeParse(pools);
  return checked.success ? parsed(checked.data, issues) : failed(`invalid zpool list data: ${checked.error.issues[0]?.message}`, null, issues);
}

/**
 * @param columns for `-H -o a,b,c` output: the `-o` list (header-less output cannot say it).
 */
export function parseZpoolList(text: string, columns?: string[]): ParseOutcome<ZpoolListPool[]> {
  const trimmed = text.trim();
  if (trimmed === '') return failed('empty zpool list output');
  if (trimmed.startsWith('{')) {
    try {
      return parseJson(parseJsonExact(trimmed));
    } catch (e) {
      return failed(`not JSON: ${(e as Error).message}`, null);
    }
  }
  const lines = splitLines(text);
  const issues: ParseIssue[] = [];
  const given = columns === undefined ? undefined : canonicalColumns(columns) ?? undefined;
  if (columns !== undefined && given === undefined) return failed(`columns must include name: ${columns.join(',')}`);
  const firstLine = lines.findIndex((l) => l.trim() !== '');
  const first = lines[firstLine]!;
  if (/^NAME\s/.test(first.trim())) return validate(parseTable(lines, issues), issues);
  if (first.includes('\t')) {
    const pools = parseScripted(lines, given, issues);
    if (pools === null) return failed(`tab-separated output with ${first.split('\t').length} fields: pass the -o column list`, firstLine + 1, issues);
    return validate(pools, issues);
  }
  if (given !== undefined && given.length === 1) return validate(parseScripted(lines, given, issues) ?? [], issues);
  return failed(`not zpool list output: ${first.trim().slice(0, 120)}`, firstLine + 1, issues);
}

/**
 * `zdb -C [pool]` → per pool the vdev tree with type/guid/path/ashift (the only place ashift per
 * top-level vdev is printed). Two layouts: the MOS config (`MOS Configuration:` then 8-space
 * indents) and the cached config of every pool (`tank:` at column 0, 4-space indents). Both are a
 * dump of nvlists: `key: value`, `key:` opening a nested list, bare flags such as
 * `com.delphix:has_per_vdev_zaps`, string values in single quotes.
 */
import { z } from 'zod';
import { failed, parsed, splitLines, type ParseIssue, type ParseOutcome } from './common.ts';
import { expandTabs } from './zpool-status.ts';

export interface ZdbVdev {
  type: string;
  id: number | null;
  guid: string | null;
  path: string | null;
  ashift: number | null;
  asize: number | null;
  nparity: number | null;
  isLog: boolean;
  /** `special` / `dedup` for allocation-class vdevs (alloc_bias), else null. */
  allocBias: string | null;
  children: ZdbVdev[];
}
export const ZdbVdev: z.ZodType<ZdbVdev> = z.lazy(() => z.object({
  type: z.string(), id: z.number().nullable(), guid: z.string().nullable(), path: z.string().nullable(),
  ashift: z.number().nullable(), asize: z.number().nullable(), nparity: z.number().nullable(),
  isLog: z.boolean(), allocBias: z.string().nullable(), children: z.array(ZdbVdev),
}));

export const ZdbPoolConfig = z.object({
  name: z.string(),
  version: z.number().nullable(),
  poolGuid: z.string().nullable(),
  hostname: z.string().nullable(),
  vdevTree: ZdbVdev.nullable(),
  featuresForRead: z.array(z.string()),
});
export type ZdbPoolConfig = z.infer<typeof ZdbPoolConfig>;

interface NvNode { key: string; value: string | null; indent: number; line: number; children: NvNode[] }

const unquote = (v: string): string => (v.length >= 2 && v.startsWith("'") && v.endsWith("'") ? v.slice(1, -1) : v);
const int = (v: string | null | undefined): number | null => (v != null && /^\d+$/.test(v) ? Number(v) : null);

function readTree(text: string, issues: ParseIssue[]): NvNode[] {
  const roots: NvNode[] = [];
  const stack: NvNode[] = [];
  splitLines(text).map(expandTabs).forEach((line, i) => {
    if (line.trim() === '') return;
    const indent = line.length - line.trimStart().length;
    const body = line.trim();
    const kv = /^(.+?):(?: (.*))?$/.exec(body);
    const node: NvNode = kv
      ? { key: kv[1]!, value: kv[2] === undefined ? null : unquote(kv[2].trim()), indent, line: i + 1, children: [] }
      : { key: body, value: null, indent, line: i + 1, children: [] };
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else if (indent === 0 && kv && kv[2] === undefined) roots.push(node);
    else { issues.push({ line: i + 1, message: `not part of a zdb config: ${body.slice(0, 120)}` }); return; }
    stack.push(node);
  });
  return roots;
}

const child = (n: NvNode, key: string): NvNode | undefined => n.children.find((c) => c.key === key);

function toVdev(n: NvNode): ZdbVdev {
  return {
    type: child(n, 'type')?.value ?? 'unknown',
    id: int(child(n, 'id')?.value),
    guid: child(n, 'guid')?.value ?? null,
    path: child(n, 'path')?.value ?? null,
    ashift: int(child(n, 'ashift')?.value),
    asize: int(child(n, 'asize')?.value),
    nparity: int(child(n, 'nparity')?.value),
    isLog: child(n, 'is_log')?.value === '1',
    allocBias: child(n, 'alloc_bias')?.value ?? null,
    children: n.children.filter((c) => /^children\[\d+\]$/.test(c.key)).map(toVdev),
  };
}

export function parseZdbConfig(text: string): ParseOutcome<ZdbPoolConfig[]> {
  const issues: ParseIssue[] = [];
  const roots = readTree(text, issues);
  const pools: ZdbPoolConfig[] = [];
  for (const r of roots) {
    const name = child(r, 'name')?.value ?? (r.key === 'MOS Configuration' ? null : r.key);
    if (name === null) { issues.push({ line: r.line, message: `${r.key}: no pool name` }); continue; }
    const tree = child(r, 'vdev_tree');
    if (tree === undefined) issues.push({ line: r.line, message: `pool ${name}: no vdev_tree` });
    pools.push({
      name,
      version: int(child(r, 'version')?.value),
      poolGuid: child(r, 'pool_guid')?.value ?? null,
      hostname: child(r, 'hostname')?.value ?? null,
      vdevTree: tree === undefined ? null : toVdev(tree),
      featuresForRead: child(r, 'features_for_read')?.children.map((c) => c.key) ?? [],
    });
  }
  if (pools.length === 0) {
    const first = issues[0];
    return failed(first ? `not zdb -C output: ${first.message}` : 'empty zdb output', first?.line ?? null, issues);
  }
  const checked = z.array(ZdbPoolConfig).safeParse(pools);
  return checked.success ? parsed(checked.data, issues) : failed(`invalid zdb config: ${checked.error.issues[0]?.message}`, null, issues);
}

/** Top-level vdev ashift by position (children[N] of the root = top-level vdev N). */
export const topLevelAshifts = (pool: ZdbPoolConfig): (number | null)[] => pool.vdevTree?.children.map((c) => c.ashift) ?? [];

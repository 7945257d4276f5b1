/**
 * Pools collector: the vdev tree from `zpool status` (-j JSON when the version has it, else the
 * richest text: `-v -P`, then `-v` for zfs-fuse), sizes from `zpool list` (-j, `-v -p`, `-v`,
 * plain for zfs-fuse), properties/features from `zpool get`, per-vdev ashift from `zdb -C`.
 */
import type { DedupTable, DedupTableStats, Gap, ParsedPoolStatus, Pool, PropertyValue, VdevNode } from '../../model/inventory.ts';
import { parseHumanNumber, parsePercent, parseRatio } from '../../parsers/common.ts';
import { parseKstat } from '../../parsers/kstat.ts';
import {
  parseDraidName, parseZdbConfig, parseZpoolGet, parseZpoolList, parseZpoolStatus, parseZpoolStatusJson,
  type ZdbVdev, type ZpoolListPool, type ZpoolProperties,
} from '../../parsers/zfs.ts';
import { usable, type RawSet } from '../../snapshot/raw-set.ts';
import { gap, issueGaps, missingGap } from '../gaps.ts';
import { baseName, stripDev } from '../device-names.ts';
import { cmd, type Collector, type RawRequest } from '../request.ts';

const A = 'Pools';

/** Pool names known so far (for commands that need them, like zfs-fuse's `zpool get all POOL…`). */
export function knownPoolNames(raw: RawSet): string[] {
  const st = raw['zpool-status.txt'];
  if (usable(st)) {
    const r = parseZpoolStatus(st.text);
    if (r.ok) return r.value.map((p) => p.name);
  }
  return [];
}

/**
 * `zpool status -j` of OpenZFS 2.3.2 prints a dRAID top-level vdev with no state, type or guid (seen
 * in the lab: tests/fixtures/lab/2.3/draid-spare-in-use); the text output of the same capture has
 * the state. Fill a missing vdev state from the text node of the same name at the same place.
 */
function fillStatesFromText(json: ParsedPoolStatus[], raw: RawSet): ParsedPoolStatus[] {
  const missing = (ns: VdevNode[]): boolean => ns.some((n) => n.state === null || missing(n.children));
  if (!json.some((p) => missing(p.vdevs))) return json;
  const st = raw['zpool-status.txt'];
  const text = usable(st) ? parseZpoolStatus(st.text) : null;
  if (!text?.ok) return json;
  const fill = (ns: VdevNode[], from: VdevNode[]): VdevNode[] => ns.map((n) => {
    const t = from.find((x) => x.name === n.name && x.class === n.class);
    return { ...n, state: n.state ?? t?.state ?? null, children: fill(n.children, t?.children ?? []) };
  });
  return json.map((p) => {
    const t = text.value.find((x) => x.name === p.name);
    return t ? { ...p, vdevs: fill(p.vdevs, t.vdevs) } : p;
  });
}

function statuses(raw: RawSet, gaps: Gap[]): ParsedPoolStatus[] | null {
  const js = raw['zpool-status.json'];
  if (usable(js) && js.exitCode === 0 && js.text.trim().startsWith('{')) {
    const r = parseZpoolStatusJson(js.text);
    if (r.ok) { gaps.push(...issueGaps(A, 'zpool-status.json', r.issues)); return fillStatesFromText(r.value, raw); }
    gaps.push(gap(A, 'zpool-status.json', `unreadable zpool status JSON (${r.error.message}); using the text output`, 'info', r.error.line));
  }
  const st = raw['zpool-status.txt'];
  if (!usable(st)) { gaps.push(missingGap(A, 'zpool-status.txt', st, 'pool layout and health unknown', 'error')); return null; }
  if (/^no pools available/m.test(st.text)) return [];
  const r = parseZpoolStatus(st.text);
  if (!r.ok) { gaps.push(gap(A, 'zpool-status.txt', `unreadable zpool status: ${r.error.message}`, 'error', r.error.line)); return null; }
  gaps.push(...issueGaps(A, 'zpool-status.txt', r.issues));
  return r.value;
}

function lists(raw: RawSet, gaps: Gap[]): Map<string, ZpoolListPool> {
  const out = new Map<string, ZpoolListPool>();
  for (const file of ['zpool-list.json', 'zpool-list.txt']) {
    const o = raw[file];
    if (!usable(o) || o.text.trim() === '' || (file.endsWith('.json') && !o.text.trim().startsWith('{'))) continue;
    const r = parseZpoolList(o.text);
    if (!r.ok) { gaps.push(gap(A, file, `unreadable zpool list: ${r.error.message}`, 'warning', r.error.line)); continue; }
    gaps.push(...issueGaps(A, file, r.issues, 'info'));
    for (const p of r.value) out.set(p.name, p);
    return out;
  }
  if (!usable(raw['zpool-list.txt'])) gaps.push(missingGap(A, 'zpool-list.txt', raw['zpool-list.txt'], 'per-vdev sizes unknown', 'info'));
  return out;
}

function properties(raw: RawSet, gaps: Gap[]): ZpoolProperties {
  const o = raw['zpool-get.txt'];
  if (!usable(o) || o.text.trim() === '') {
    if (o) gaps.push(missingGap(A, 'zpool-get.txt', o, 'pool properties (ashift, autotrim, features) unknown', 'warning'));
    return {};
  }
  const r = parseZpoolGet(o.text);
  if (!r.ok) { gaps.push(gap(A, 'zpool-get.txt', `unreadable zpool get: ${r.error.message}`, 'warning', r.error.line)); return {}; }
  gaps.push(...issueGaps(A, 'zpool-get.txt', r.issues, 'info'));
  return r.value;
}

const leafKeys = (names: string[]): Set<string> => new Set(names.flatMap((n) => [stripDev(n), baseName(n)]));
const leavesOf = (n: VdevNode): string[] => (n.children.length === 0 ? [n.name] : n.children.flatMap(leavesOf));
const zdbLeaves = (v: ZdbVdev): string[] => (v.children.length === 0 ? (v.path ? [v.path] : []) : v.children.flatMap(zdbLeaves));

const ZDB_POOL_DIR = 'zdb-e-C/';
const zdbPoolFile = (n: number): string => `${ZDB_POOL_DIR}${n}.txt`;

/** ashift per top-level vdev from `zdb -C`, matched to status nodes by their leaf devices. */
function zdbAshifts(raw: RawSet, gaps: Gap[], pools: readonly string[]): Map<string, ZdbVdev[]> {
  const o = raw['zdb-C.txt'];
  const out = new Map<string, ZdbVdev[]>();
  if (!usable(o) || o.text.trim() === '') return out;
  // zdb prints its complaints (no cache file: pools made with cachefile=none) on stdout with exit 1;
  // then each pool's own `zdb -e -C POOL` (from its labels) stands in.
  if (o.exitCode !== null && o.exitCode !== 0) {
    for (const [file, e] of Object.entries(raw)) {
      if (!file.startsWith(ZDB_POOL_DIR) || !usable(e) || e.exitCode !== 0) continue;
      const r = parseZdbConfig(e.text);
      const cfg = r.ok ? r.value[0] : undefined;
      if (cfg && pools.includes(cfg.name)) out.set(cfg.name, cfg.vdevTree?.children ?? []);
    }
    if (out.size < pools.length) gaps.push(missingGap(A, 'zdb-C.txt', o, `per-vdev ashift unknown${out.size ? ` for ${pools.filter((p) => !out.has(p)).join(', ')}` : ''}`, 'info'));
    return out;
  }
  const r = parseZdbConfig(o.text);
  if (!r.ok) { gaps.push(gap(A, 'zdb-C.txt', `unreadable zdb -C: ${r.error.message}`, 'info', r.error.line)); return out; }
  for (const p of r.value) out.set(p.name, p.vdevTree?.children ?? []);
  return out;
}

const num = (pv: PropertyValue | undefined): number | null => (pv ? parseHumanNumber(pv.value) : null);

/**
 * The `zpool list -v` row of a status node. `zpool status -P` names leaves by full path
 * (`/dev/disk/by-id/ata-X-part1`, `/dev/disk/by-partuuid/…`) while `zpool list -v` prints the
 * bare name (`ata-X-part1`), so leaves fall back to the last path component — only when that
 * picks exactly one row of the same class, never a guess between two.
 */
function listRow(node: VdevNode, list: ZpoolListPool | undefined): ZpoolListPool['vdevs'][number] | undefined {
  if (!list) return undefined;
  const exact = list.vdevs.find((v) => v.name === node.name && v.class === node.class);
  if (exact || node.children.length > 0) return exact;
  const base = baseName(stripDev(node.name));
  const byBase = list.vdevs.filter((v) => v.class === node.class && baseName(stripDev(v.name)) === base);
  return byBase.length === 1 ? byBase[0] : undefined;
}

function enrich(node: VdevNode, list: ZpoolListPool | undefined, zdb: ZdbVdev[], top: boolean): VdevNode {
  const out: VdevNode = { ...node, children: node.children.map((c) => enrich(c, list, zdb, false)) };
  if (node.type === 'draid') out.draid = parseDraidName(node.name);
  const row = listRow(node, list);
  if (row) { out.sizeBytes = row.sizeBytes; out.allocBytes = row.allocBytes; }
  if (top && zdb.length > 0) {
    const mine = leafKeys(leavesOf(node));
    const z = zdb.find((v) => { const l = zdbLeaves(v); return l.length > 0 && l.every((p) => mine.has(stripDev(p)) || mine.has(baseName(p))); });
    if (z) { out.ashift = z.ashift; if (z.guid) out.guid ??= z.guid; }
  }
  return out;
}

/** `dedup_table_quota` as `zpool get` prints it: `auto` (UINT64_MAX), `none` (or `0` with -p), or a size. */
function dedupQuota(pv: PropertyValue | undefined): DedupTable['quota'] {
  if (!pv) return null;
  const v = pv.value.trim();
  if (v === 'auto' || v === 'none') return v;
  const n = parseHumanNumber(v);
  return n === null ? null : n === 0 ? 'none' : n;
}

const FEATURE_STATES = new Set(['active', 'enabled', 'disabled']);

/**
 * The checksums a dedup table can be kept for (zfsprops(7) `dedup`: on = sha256, or sha512, skein,
 * edonr, blake3). OpenZFS 2.3+ keeps a `ddt_stats_<checksum>` kstat for each of them on every pool
 * (module/zfs/ddt.c ddt_create → ddt_table_alloc_kstats); unused and legacy tables read 0 log entries,
 * and OpenZFS before 2.3 has none of these files.
 */
const DDT_CHECKSUMS = ['sha256', 'sha512', 'skein', 'edonr', 'blake3'] as const;
const DDT_KSTAT_DIR = 'kstat-ddt/';
/** Numbered by the pool's place in `zpool status`, not named after it (a redacted snapshot keeps no pool names in file names). */
const ddtKstatFile = (poolIndex: number, checksum: string): string => `${DDT_KSTAT_DIR}${poolIndex + 1}-${checksum}.txt`;

/** Pools (index, name) whose `zpool status -D` text shows DDT entries: only they have DDT kstats worth reading. */
function poolsWithDdt(raw: RawSet): Array<{ index: number; name: string }> {
  const st = raw['zpool-status.txt'];
  if (!usable(st)) return [];
  const r = parseZpoolStatus(st.text);
  return r.ok ? r.value.flatMap((p, index) => ((p.dedup?.entries ?? 0) > 0 ? [{ index, name: p.name }] : [])) : [];
}

/** log_active_entries + log_flushing_entries over the pool's DDT kstats; null when none was read. */
function ddtLogEntries(raw: RawSet, poolIndex: number, gaps: Gap[]): number | null {
  let total: number | null = null;
  for (const c of DDT_CHECKSUMS) {
    const file = ddtKstatFile(poolIndex, c);
    const o = raw[file];
    if (!usable(o) || o.text.trim() === '') continue; // not read (OpenZFS < 2.3, another platform)
    const r = parseKstat(o.text);
    if (!r.ok) { gaps.push(gap(A, file, `unreadable DDT kstat: ${r.error.message}`, 'info', r.error.line)); continue; }
    const active = r.value.counters.log_active_entries;
    const flushing = r.value.counters.log_flushing_entries;
    if (active === undefined && flushing === undefined) continue;
    total = (total ?? 0) + (active ?? 0) + (flushing ?? 0);
  }
  return total;
}

/** The `-D` summary joined with the properties and the feature that govern the table (2.3+; null where absent). */
function dedupTable(stats: DedupTableStats, props: Record<string, PropertyValue>, features: Record<string, string>, logEntries: number | null): DedupTable {
  const fast = features.fast_dedup;
  return {
    ...stats,
    tableSizeBytes: num(props.dedup_table_size),
    quota: dedupQuota(props.dedup_table_quota),
    fastDedup: fast !== undefined && FEATURE_STATES.has(fast) ? (fast as DedupTable['fastDedup']) : null,
    logEntries,
  };
}

export const poolsCollector: Collector<Pool[]> = {
  artifact: A,
  requests(raw, ctx): RawRequest[] {
    const reqs: RawRequest[] = [
      // -D adds the dedup table summary after `errors:` (print_dedup_stats); the tree is printed as without it.
      { file: 'zpool-status.txt', commands: [cmd('zpool', 'status', '-v', '-P', '-D'), cmd('zpool', 'status', '-v', '-P'), cmd('zpool', 'status', '-v')] },
      { file: 'zpool-status.json', commands: [cmd('zpool', 'status', '-v', '-P', '-D', '-j', '--json-int')] },
      { file: 'zpool-list.txt', commands: [cmd('zpool', 'list', '-v', '-p'), cmd('zpool', 'list', '-v'), cmd('zpool', 'list')] },
      { file: 'zpool-list.json', commands: [cmd('zpool', 'list', '-v', '-j', '--json-int')] },
      { file: 'zpool-iostat.txt', commands: [cmd('zpool', 'iostat', '-v')] },
      { file: 'zdb-C.txt', commands: [cmd('zdb', '-C')] },
    ];
    const pools = knownPoolNames(raw);
    if (pools.length > 0) {
      reqs.push({ file: 'zpool-get.txt', commands: [cmd('zpool', 'get', '-H', '-p', 'all', ...pools), cmd('zpool', 'get', 'all', ...pools)] });
    }
    // The fast-dedup log of each pool with a dedup table: Linux kstats (FreeBSD's sysctl tree is not read).
    if (ctx?.platform === 'linux') {
      for (const p of poolsWithDdt(raw)) {
        if (!/^[A-Za-z0-9][\w.:-]*$/.test(p.name)) continue;
        for (const c of DDT_CHECKSUMS) reqs.push({ file: ddtKstatFile(p.index, c), readPath: `/proc/spl/kstat/zfs/${p.name}/ddt_stats_${c}` });
      }
    }
    // `zdb -C` reads the cache file; a pool imported without one (cachefile=none, TrueNAS's own
    // cache path) is missing there. `zdb -e -C POOL` reads the same config from the pool's labels.
    const zdb = raw['zdb-C.txt'];
    if (zdb && zdb.exitCode !== 0) {
      // Files are numbered, not named after the pool: a redacted snapshot must not carry pool names in
      // its file names; the output names its pool, and that is what the build reads.
      pools.forEach((p, i) => { if (/^[A-Za-z0-9][\w.:-]*$/.test(p)) reqs.push({ file: zdbPoolFile(i + 1), commands: [cmd('zdb', '-e', '-C', p)] }); });
    }
    return reqs;
  },
  build(raw) {
    const gaps: Gap[] = [];
    const st = statuses(raw, gaps);
    if (st === null) return { value: null, gaps };
    const list = lists(raw, gaps);
    const props = properties(raw, gaps);
    const zdb = zdbAshifts(raw, gaps, st.map((s) => s.name));
    // DDT kstat files are numbered by the pool's place in the text `zpool status` (see requests).
    const textOrder = knownPoolNames(raw);
    const pools: Pool[] = st.map((s) => {
      const l = list.get(s.name);
      const p = props[s.name] ?? {};
      const features: Record<string, string> = {};
      for (const [k, v] of Object.entries(p)) if (k.startsWith('feature@')) features[k.slice('feature@'.length)] = v.value;
      const ashift = num(p.ashift);
      return {
        name: s.name,
        guid: p.guid?.value ?? l?.guid ?? null,
        state: s.state,
        status: s.status,
        action: s.action,
        see: s.see,
        scan: s.scan,
        errors: s.errors,
        errorFiles: s.errorFiles,
        vdevs: s.vdevs.map((v) => enrich(v, l, zdb.get(s.name) ?? [], true)),
        ...(s.partial ? { partial: true } : {}),
        sizeBytes: l?.sizeBytes ?? num(p.size),
        allocBytes: l?.allocBytes ?? num(p.allocated),
        freeBytes: l?.freeBytes ?? num(p.free),
        fragmentationPct: l?.fragmentationPct ?? (p.fragmentation ? parsePercent(p.fragmentation.value) : null),
        capacityPct: l?.capacityPct ?? (p.capacity ? parsePercent(p.capacity.value) : null),
        dedupRatio: l?.dedupRatio ?? (p.dedupratio ? parseRatio(p.dedupratio.value) : null),
        ashift: ashift === null ? null : Math.trunc(ashift),
        features,
        properties: p,
        ...(s.expand ? { expansion: s.expand } : {}),
        ...(s.dedup ? { dedupTable: dedupTable(s.dedup, p, features, (s.dedup.entries ?? 0) > 0 && textOrder.includes(s.name) ? ddtLogEntries(raw, textOrder.indexOf(s.name), gaps) : null) } : {}),
      };
    });
    return { value: pools, gaps };
  },
};

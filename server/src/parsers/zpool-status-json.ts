/**
 * `zpool status -j` (OpenZFS ≥ 2.3) → the same ParsedPoolStatus[] as the text parser, plus the
 * vdev guid and sizes JSON gives us. Accepts string numbers (default), `--json-int` numbers,
 * `--json-flat-vdevs` (every vdev at one level with a `parent` key) and `--json-pool-key-guid`.
 *
 * Shape (zfs@HEAD:cmd/zpool/zpool_main.c status_callback_json / vdev_stats_nvlist):
 * {output_version, pools: {<name|guid>: {name, state, guid, status?, action?, msgid?, moreinfo?,
 *  scan_stats?, vdevs: {<pool>: {vdevs: {…}}}, dedup?, special?, logs?, l2cache?, spares?,
 *  error_count, errlist?}}}
 * Older 2.3 builds print vdev state "HEALTHY" (now "ONLINE") and pool status "OK" when healthy:
 * we map them to what the text output says (ONLINE, and null for no status).
 */
import { ParsedPoolStatus, type ScanInfo, type VdevClass, type VdevNode } from '../model/inventory.ts';
import { failed, parseHumanNumber, parsed, type ParseIssue, type ParseOutcome } from './common.ts';
import { parseDraidName } from './draid-name.ts';
import { isObject, parseJsonExact, type JsonObject } from './json-fields.ts';
import { dedupFromJson, expandFromJson } from './zpool-status-expand-dedup.ts';
import { epochToIso, parseCtimeDate } from './zpool-status-scan.ts';
import { vdevType } from './zpool-status-vdev.ts';

const CLASS_KEYS: Readonly<Record<string, VdevClass>> = { dedup: 'dedup', special: 'special', logs: 'log', l2cache: 'cache', spares: 'spare' };
/** The per-vdev `class` field of flat output → our class. */
const CLASS_FIELD: Readonly<Record<string, VdevClass>> = { normal: 'data', special: 'special', dedup: 'dedup', log: 'log', l2cache: 'cache', spare: 'spare' };
const STATE_NAME: Readonly<Record<string, string>> = { HEALTHY: 'ONLINE', CANT_OPEN: 'UNAVAIL' };

const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
/** "62.6G" / "1234" / 1234 → bytes or count. */
const amount = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' ? parseHumanNumber(v) : null);
const timestamp = (v: unknown): string | null => {
  if (typeof v === 'number') return epochToIso(v);
  if (typeof v !== 'string' || v === '-' || v === '') return null;
  return /^\d+$/.test(v) ? epochToIso(Number(v)) : parseCtimeDate(v);
};

function scanFromJson(s: JsonObject): ScanInfo {
  const func = text(s.function) ?? 'NONE';
  const state = text(s.state) ?? 'NONE';
  const kind: ScanInfo['kind'] = func === 'SCRUB' || func === 'ERRORSCRUB' ? 'scrub' : func === 'RESILVER' ? 'resilver' : func === 'NONE' ? 'none' : 'unknown';
  const st: ScanInfo['state'] = state === 'SCANNING' || state === 'ERRORSCRUBBING' ? (timestamp(s.scrub_pause) ? 'paused' : 'in-progress')
    : state === 'FINISHED' ? 'finished' : state === 'CANCELED' ? 'canceled' : state === 'NONE' ? 'none' : 'unknown';
  const examined = amount(s.examined);
  const toExamine = amount(s.to_examine);
  const issued = amount(s.issued);
  return {
    kind, state: st, raw: JSON.stringify(s),
    startedAt: timestamp(s.start_time),
    endedAt: st === 'finished' || st === 'canceled' ? timestamp(s.end_time) : null,
    errors: amount(s.errors),
    // zpool's own "% done" is issued / to_examine.
    progressPct: st === 'in-progress' && toExamine ? Math.round(((issued ?? examined ?? 0) / toExamine) * 10000) / 100 : null,
  };
}

function noteOf(v: JsonObject): string | null {
  const was = text(v.was);
  if (was !== null) return `was ${was}`;
  const aux = text(v.aux);
  if (aux !== null && aux !== 'NONE') return aux.toLowerCase().replace(/_/g, ' ');
  return null;
}

function toNode(v: JsonObject, cls: VdevClass, path: string, issues: ParseIssue[]): VdevNode {
  const name = text(v.name) ?? path;
  const rawState = text(v.state);
  const children: VdevNode[] = [];
  if (isObject(v.vdevs)) for (const [k, c] of Object.entries(v.vdevs)) {
    if (isObject(c)) children.push(toNode(c, cls, `${path}/${k}`, issues));
    else issues.push({ line: null, message: `${path}/${k}: vdev is not an object` });
  }
  const note = noteOf(v);
  const spareRow = cls === 'spare' && children.length === 0 && (rawState === 'AVAIL' || rawState === 'INUSE');
  const node: VdevNode = {
    class: cls,
    type: jsonType(text(v.vdev_type), name, children.length > 0, note),
    name,
    state: rawState === null ? null : (STATE_NAME[rawState] ?? rawState),
    read: spareRow ? null : amount(v.read_errors),
    write: spareRow ? null : amount(v.write_errors),
    cksum: spareRow ? null : amount(v.checksum_errors),
    note,
    children,
    guid: text(v.guid),
    sizeBytes: amount(v.total_space) ?? amount(v.phys_space),
    allocBytes: amount(v.alloc_space),
  };
  if (node.type === 'draid') node.draid = parseDraidName(name);
  return node;
}

/** vdev_type from the JSON (raidz has the parity only in the name) → our VdevType. */
function jsonType(vdevTypeField: string | null, name: string, hasChildren: boolean, note: string | null): VdevNode['type'] {
  switch (vdevTypeField) {
    case 'disk': return 'disk';
    case 'file': return 'file';
    case 'mirror': return 'mirror';
    case 'replacing': return 'replacing';
    case 'spare': return hasChildren ? 'spare' : vdevType(name, false, note);
    case 'indirect': return 'indirect';
    case 'hole': return 'hole';
    case 'draid': return 'draid';
    case 'dspare': return 'spare';
    case 'missing': return 'missing';
    default: return vdevType(name, hasChildren, note);
  }
}

/** --json-flat-vdevs: rebuild the tree from `parent` links (leaves are listed twice by zpool). */
function unflatten(all: JsonObject, poolName: string): JsonObject {
  const byName = new Map<string, JsonObject>();
  for (const [k, v] of Object.entries(all)) if (isObject(v)) byName.set(text(v.name) ?? k, { ...v, vdevs: {} });
  const root: JsonObject = {};
  for (const [name, v] of byName) {
    const parent = text(v.parent);
    const holder = parent !== null && parent !== poolName ? byName.get(parent) : undefined;
    if (holder !== undefined && isObject(holder.vdevs)) holder.vdevs[name] = v;
    else if (name !== poolName) root[name] = v;
  }
  return root;
}

function poolFromJson(key: string, p: JsonObject, issues: ParseIssue[]): ParsedPoolStatus {
  const name = text(p.name) ?? key;
  const status = text(p.status);
  const vdevs: VdevNode[] = [];
  const pushClass = (cls: VdevClass, group: unknown, path: string) => {
    if (!isObject(group)) return;
    for (const [k, v] of Object.entries(group)) if (isObject(v)) vdevs.push(toNode(v, cls, `${path}/${k}`, issues));
  };
  const rawVdevs = isObject(p.vdevs) ? p.vdevs : {};
  const flat = Object.values(rawVdevs).some((v) => isObject(v) && 'parent' in v);
  if (flat) {
    for (const v of Object.values(unflatten(rawVdevs, name))) {
      if (!isObject(v)) continue;
      const cls = CLASS_FIELD[text(v.class) ?? 'normal'] ?? 'data';
      vdevs.push(toNode(v, cls, `${name}/${text(v.name)}`, issues));
    }
  } else {
    const root = rawVdevs[name] ?? Object.values(rawVdevs)[0];
    if (isObject(root)) pushClass('data', root.vdevs, name);
    else issues.push({ line: null, message: `pool ${name}: no vdev tree in JSON` });
  }
  for (const [k, cls] of Object.entries(CLASS_KEYS)) pushClass(cls, p[k], `${name}/${k}`);

  const scanStats = isObject(p.scan_stats) ? p.scan_stats : null;
  const scan = scanStats !== null && 'function' in scanStats ? scanFromJson(scanStats) : null;
  const extraScans: ScanInfo[] = [];
  if (scanStats !== null && isObject(scanStats.rebuild_stats)) {
    for (const r of Object.values(scanStats.rebuild_stats)) {
      if (!isObject(r)) continue;
      const st = text(r.state);
      extraScans.push({
        kind: 'rebuild',
        state: st === 'ACTIVE' ? 'in-progress' : st === 'COMPLETE' ? 'finished' : st === 'CANCELED' ? 'canceled' : 'unknown',
        raw: JSON.stringify(r), startedAt: timestamp(r.start_time), endedAt: st === 'ACTIVE' ? null : timestamp(r.end_time),
        errors: amount(r.errors), progressPct: null,
      });
    }
  }
  const expand = isObject(p.raidz_expand_stats) ? expandFromJson(p.raidz_expand_stats) : null;
  const dedup = isObject(p.dedup_stats) ? dedupFromJson(p.dedup_stats) : null;
  const errorCount = amount(p.error_count);
  const errlist = Array.isArray(p.errlist) ? p.errlist.filter((e): e is string => typeof e === 'string') : [];
  return {
    name,
    state: text(p.state),
    status: status === null || status === 'OK' ? null : status.replace(/\s*\n\s*/g, ' ').trim(),
    action: text(p.action)?.replace(/\s*\n\s*/g, ' ').trim() ?? null,
    see: text(p.moreinfo),
    scan,
    extraScans,
    // The text output says "No known data errors" for 0; JSON has only the count.
    errors: errorCount === null ? null : errorCount === 0 ? 'No known data errors' : `${errorCount} data errors`,
    errorFiles: errlist,
    remove: isObject(p.removal_stats) ? JSON.stringify(p.removal_stats) : null,
    vdevs,
    ...(expand ? { expand } : {}),
    ...(dedup ? { dedup } : {}),
  };
}

export function parseZpoolStatusJson(input: string): ParseOutcome<ParsedPoolStatus[]> {
  let doc: unknown;
  try {
    doc = parseJsonExact(input);
  } catch (e) {
    const m = /position (\d+)/.exec(String(e));
    const line = m ? input.slice(0, Number(m[1])).split('\n').length : null;
    return failed(`not JSON: ${(e as Error).message}`, line);
  }
  if (!isObject(doc) || !isObject(doc.pools)) return failed('not zpool status -j output: no "pools" object');
  const issues: ParseIssue[] = [];
  const out: ParsedPoolStatus[] = [];
  for (const [key, p] of Object.entries(doc.pools)) {
    if (!isObject(p)) { issues.push({ line: null, message: `pool ${key}: not an object` }); continue; }
    const checked = ParsedPoolStatus.safeParse(poolFromJson(key, p, issues));
    if (checked.success) out.push(checked.data);
    else issues.push({ line: null, message: `pool ${key}: ${checked.error.issues[0]?.message ?? 'invalid'}` });
  }
  return parsed(out, issues);
}

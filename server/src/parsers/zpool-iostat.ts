/**
 * `zpool iostat` in the forms the advisor reads (zfs-facts F14–F18):
 *  - the table: default, `-v` (indented vdev tree with `logs`/`special`/`dedup`/`cache`/`spares`
 *    section rows), `-l` (latency columns), `-q` (queue columns), `-p` (exact integers, times in ns),
 *    `-H` (tab-separated, no headers), and interval streams (`zpool iostat -v 1`) with many samples;
 *  - the histograms: `-w` (latency: row label = bucket UPPER bound, bucket j = [2^j, 2^(j+1)) ns)
 *    and `-r` (request size: row label = bucket LOWER bound, 512 B … 16 MiB).
 * zfs-fuse prints the table without `-p/-l/-q/-w/-r`, names vdevs `mirror`/`raidz2` (no `-N`) and
 * does not head log vdevs with a `logs` row — such vdevs are reported as class `data`.
 */
import type { VdevClass } from '../model/inventory.ts';
import { failed, parseHumanNumber, parsed, splitLines, type ParseIssue, type ParseOutcome } from './common.ts';

export interface IostatRow {
  name: string;
  /** 0 = pool, 1 = top-level vdev, 2 = leaf … ; null in scripted (-H) output where indentation is lost. */
  depth: number | null;
  pool: string;
  class: VdevClass;
  kind: 'pool' | 'vdev';
  /** Column → value: bytes, ops/s, bytes/s, ns for *_wait columns, counts for queues; null for "-". */
  values: Record<string, number | null>;
}

export interface IostatTable {
  columns: string[];
  rows: IostatRow[];
  /** `-T u|d` stamp printed before the sample, verbatim. */
  timestamp: string | null;
}

export interface IostatHistogramBucket {
  /** Label as printed ("131us", "4K", or the raw number with -p). */
  label: string;
  /** Latency: bucket upper bound in ns (exclusive). Request size: bucket lower bound in bytes. */
  bound: number;
  values: Record<string, number | null>;
}

export interface IostatHistogram {
  kind: 'latency' | 'req_size';
  /** Pool or vdev name heading the block. */
  name: string;
  columns: string[];
  buckets: IostatHistogramBucket[];
}

export interface ZpoolIostat {
  /** One table per printed sample, in order (interval streams give many). */
  tables: IostatTable[];
  histograms: IostatHistogram[];
}

const CLASS_HEADERS: Record<string, VdevClass> = {
  logs: 'log', log: 'log', special: 'special', dedup: 'dedup', cache: 'cache', spares: 'spare', spare: 'spare',
};
const PAIR_SUBS = new Set(['read', 'write', 'ind', 'agg', 'pend', 'activ', 'alloc', 'free']);
const RENAME: Record<string, string> = {
  capacity_alloc: 'alloc', capacity_free: 'free', operations_read: 'ops_read', operations_write: 'ops_write',
  bandwidth_read: 'bw_read', bandwidth_write: 'bw_write',
};
const BASE_COLUMNS = ['alloc', 'free', 'ops_read', 'ops_write', 'bw_read', 'bw_write'];
const L_COLUMNS = ['total_wait_read', 'total_wait_write', 'disk_wait_read', 'disk_wait_write', 'syncq_wait_read',
  'syncq_wait_write', 'asyncq_wait_read', 'asyncq_wait_write', 'scrub_wait', 'trim_wait'];
const Q_GROUPS = ['syncq_read', 'syncq_write', 'asyncq_read', 'asyncq_write', 'scrubq_read', 'trimq_write'];
const Q_COLUMNS = Q_GROUPS.flatMap((g) => [`${g}_pend`, `${g}_activ`]);

/** "95ms" → 95e6, "1us" → 1000, "52ns", "1s", "4.2ms", plain integer = ns (-p). "-" → null. */
export function parseIostatTime(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s)?$/.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const mult = { ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9 }[m[2] ?? 'ns'] ?? 1;
  return Math.round(n * mult);
}

const valueOf = (column: string, text: string): number | null =>
  text === '-' ? null : column.includes('wait') ? parseIostatTime(text) : parseHumanNumber(text);

/** Turns the two header lines into column names (see file comment for the naming). */
export function columnsFromHeader(groupLine: string, subLine: string): string[] {
  const groups = groupLine.trim().split(/\s+/);
  const subs = subLine.trim().split(/\s+/).slice(1);
  // In histogram blocks the first token of the group line is the pool/vdev name.
  if (groups.length > 0 && !/^(capacity|operations|bandwidth|total_wait|sync_read)$/.test(groups[0]!)) groups.shift();
  const out: string[] = [];
  let g = 0;
  let inPair = 0;
  for (const sub of subs) {
    if (PAIR_SUBS.has(sub)) {
      const name = `${groups[g] ?? `col${g}`}_${sub}`;
      out.push(RENAME[name] ?? name);
      if (++inPair === 2) { g++; inPair = 0; }
    } else if (sub === 'wait') {
      out.push(`${groups[g] ?? `col${g}`}_wait`);
      g++;
    } else {
      out.push(sub);
      if (groups[g] === sub) g++;
    }
  }
  return out;
}

/** Columns of scripted (-H) rows, inferred from the field count (no header is printed). */
function scriptedColumns(fields: number): string[] | null {
  const extra = fields - 1 - BASE_COLUMNS.length;
  const lWith = [...L_COLUMNS, 'rebuild_wait'];
  const qWith = [...Q_COLUMNS, 'rebuildq_write_pend', 'rebuildq_write_activ'];
  const options: Record<number, string[]> = {
    0: [], 10: L_COLUMNS, 11: lWith, 12: Q_COLUMNS, 14: qWith, 22: [...L_COLUMNS, ...Q_COLUMNS], 25: [...lWith, ...qWith],
  };
  const o = options[extra];
  return o ? [...BASE_COLUMNS, ...o] : null;
}

const isDashes = (line: string) => /^-{3,}[\s-]*$/.test(line.trim());

/** Latency label → exclusive upper bound in ns: bucket j covers [2^j, 2^(j+1)). */
function latencyBound(label: string): number | null {
  const v = parseIostatTime(label);
  if (v === null) return null;
  return 2 ** Math.round(Math.log2(v + 1));
}

export interface IostatParseOptions {
  /** Pool names, to tell pool rows from vdev rows in scripted (-H -v) output. */
  pools?: string[];
}

export function parseZpoolIostat(text: string, opts: IostatParseOptions = {}): ParseOutcome<ZpoolIostat> {
  const lines = splitLines(text).map((l) => l.replace(/\t/g, '\t'));
  const out: ZpoolIostat = { tables: [], histograms: [] };
  const issues: ParseIssue[] = [];
  let table: IostatTable | null = null;
  let hist: IostatHistogram | null = null;
  let pool = '';
  let cls: VdevClass = 'data';
  let stamp: string | null = null;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    if (t === '' || isDashes(line)) {
      if (isDashes(line) && hist && hist.buckets.length > 0) hist = null;
      continue;
    }
    const next = lines[i + 1]?.trim() ?? '';
    // Table header: "capacity operations bandwidth …" then "pool|vdev alloc free …".
    if (/\bcapacity\b/.test(t) && /\boperations\b/.test(t) && /^(pool|vdev)\b/.test(next)) {
      table = { columns: columnsFromHeader(t, next), rows: [], timestamp: stamp };
      out.tables.push(table);
      hist = null;
      stamp = null;
      pool = '';
      cls = 'data';
      i++;
      continue;
    }
    // Histogram header: "NAME total_wait …" / "latency read write …", or "NAME sync_read …" / "req_size ind agg …".
    if (/^(latency|req_size)\b/.test(next) && /\b(total_wait|sync_read|disk_wait|sync_write)\b/.test(t)) {
      const name = t.split(/\s+/)[0]!;
      hist = { kind: next.startsWith('latency') ? 'latency' : 'req_size', name, columns: columnsFromHeader(t, next), buckets: [] };
      out.histograms.push(hist);
      table = null;
      i++;
      continue;
    }
    if (/^\d{9,}$/.test(t) || /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b.*\d{2}:\d{2}:\d{2}/.test(t)) {
      stamp = t;
      continue;
    }
    if (hist) {
      const f = t.split(/\s+/);
      const bound = hist.kind === 'latency' ? latencyBound(f[0]!) : parseHumanNumber(f[0]!);
      if (bound === null || f.length - 1 !== hist.columns.length) {
        issues.push({ line: i + 1, message: `unreadable ${hist.kind} histogram row: ${t.slice(0, 80)}` });
        continue;
      }
      const values: Record<string, number | null> = {};
      hist.columns.forEach((c, k) => { values[c] = f[k + 1] === '-' ? null : parseHumanNumber(f[k + 1]!); });
      hist.buckets.push({ label: f[0]!, bound, values });
      continue;
    }
    // Scripted output: tab-separated rows and no header at all.
    if (line.includes('\t') && !table) {
      const f = line.split('\t').map((s) => s.trim());
      const cols = scriptedColumns(f.length);
      if (!cols) {
        issues.push({ line: i + 1, message: `scripted row with ${f.length} fields matches no known column set` });
        continue;
      }
      let scripted = out.tables.find((x) => x.timestamp === '-H');
      if (!scripted) {
        scripted = { columns: cols, rows: [], timestamp: '-H' };
        out.tables.push(scripted);
      }
      const name = f[0]!;
      const isPool = opts.pools ? opts.pools.includes(name) : true;
      if (isPool) pool = name;
      const values: Record<string, number | null> = {};
      cols.forEach((c, k) => { values[c] = valueOf(c, f[k + 1]!); });
      scripted.rows.push({ name, depth: isPool ? 0 : null, pool: pool || name, class: 'data', kind: isPool ? 'pool' : 'vdev', values });
      continue;
    }
    if (!table) {
      issues.push({ line: i + 1, message: `text outside any iostat table: ${t.slice(0, 80)}` });
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const f = t.split(/\s+/);
    // Long device paths (zfs-fuse) can swallow the separating spaces but never merge fields.
    const name = f.slice(0, f.length - table.columns.length).join(' ');
    const vals = f.slice(f.length - table.columns.length);
    if (name === '' || vals.length !== table.columns.length) {
      issues.push({ line: i + 1, message: `row has ${f.length - 1} values, header has ${table.columns.length}: ${t.slice(0, 80)}` });
      continue;
    }
    const depth = Math.floor(indent / 2);
    if (depth === 0 && CLASS_HEADERS[name] && vals.every((v) => v === '-')) {
      cls = CLASS_HEADERS[name]!;
      continue;
    }
    if (depth === 0) {
      pool = name;
      cls = 'data';
    }
    const values: Record<string, number | null> = {};
    table.columns.forEach((c, k) => { values[c] = valueOf(c, vals[k]!); });
    table.rows.push({ name, depth, pool, class: depth === 0 ? 'data' : cls, kind: depth === 0 ? 'pool' : 'vdev', values });
  }
  if (out.tables.length === 0 && out.histograms.length === 0) {
    const usage = lines.find((l) => /invalid option|usage:/i.test(l));
    return failed(usage ? `zpool iostat refused the options: ${usage.trim()}` : 'no zpool iostat table or histogram found', null, issues);
  }
  return parsed(out, issues);
}

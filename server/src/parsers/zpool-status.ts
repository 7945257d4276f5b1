/**
 * `zpool status` text → ParsedPoolStatus[] (the `parse zpool-status` contract).
 *
 * Handles every variant we have seen in the wild: OpenZFS 2.x on Linux/FreeBSD/macOS, ZoL 0.6–0.8,
 * Solaris/illumos, zfs-fuse 0.7 (` scrub:` instead of ` scan:`), the -v/-P/-L/-s/-t/-x/-i flags,
 * outputs pasted into forums with tabs expanded, blank lines stripped or indentation shifted.
 *
 * The vdev tree comes from indentation (a stack of open nodes, so any indent step works); the
 * section rows `logs`/`cache`/`spares`/`special`/`dedup` set the class of everything beneath them.
 * Lines we cannot read are skipped and recorded as issues with their line number, never guessed.
 * A pool block without its closing `errors:` line is a partial read: it is marked `partial` and an
 * issue says so. Its state stays what the `state:` line said: that line is printed before the config
 * and is true of the whole pool; only the tree below may lack vdevs.
 */
import { ParsedPoolStatus, type VdevNode } from '../model/inventory.ts';
import { failed, parseHumanNumber, parsed, splitLines, type ParseIssue, type ParseOutcome } from './common.ts';
import { parseDraidName } from './draid-name.ts';
import { parseDedupText, parseExpandText } from './zpool-status-expand-dedup.ts';
import { parseScanText } from './zpool-status-scan.ts';
import { interiorType, SECTION_CLASS, vdevType } from './zpool-status-vdev.ts';

/** States a vdev row can show (zpool_state_to_name + spare states). */
const VDEV_STATES = new Set(['ONLINE', 'DEGRADED', 'FAULTED', 'OFFLINE', 'UNAVAIL', 'REMOVED', 'AVAIL', 'INUSE', 'SPLIT', 'UNKNOWN', 'SUSPENDED', 'CLOSED', 'CANT_OPEN']);
/** `key:` lines of the pool header, right-aligned to 6 columns by zpool. */
const KEYS = new Set(['pool', 'id', 'state', 'status', 'action', 'see', 'scan', 'scrub', 'remove', 'expand', 'checkpoint', 'config', 'errors', 'dedup', 'comment', 'prefetch']);
const KEY_LINE = /^ {0,7}([a-z]+):(?:\s+(.*))?$/;
/** A counter column: 0, 13, 1.2K, 3.4M, or `-` (SLOW on interior vdevs). */
const COUNTER = /^(?:\d+(?:\.\d+)?[KMGTPE]?|-)$/;
/** Column titles after STATE that hold one value each (-s SLOW, --power POWER, DIO …). */
const VALUE_COLUMNS = new Set(['READ', 'WRITE', 'CKSUM', 'SLOW', 'POWER', 'DIO']);

/** Expands tabs to 8-column stops so tabbed and forum-pasted outputs indent alike. */
export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(8 - (out.length % 8)) : ch;
  return out;
}

interface OpenNode { node: VdevNode; indent: number }

interface PoolBuilder {
  pool: ParsedPoolStatus;
  /** Header (NAME STATE …) seen: rows follow. */
  headerColumns: string[] | null;
  rootIndent: number | null;
  rootName: string | null;
  section: keyof typeof SECTION_CLASS | null;
  sectionIndent: number;
  stack: OpenNode[];
  /** `config:` was seen (a cut after it lands in, or right after, the tree). */
  sawConfig: boolean;
  /** The `expand:` block as read so far (decoded once the pool is complete). */
  expandText: string | null;
}

type Block = 'status' | 'action' | 'see' | 'scan' | 'remove' | 'expand' | 'errors' | 'ignored' | 'config' | null;

const newPool = (name: string): PoolBuilder => ({
  pool: { name, state: null, status: null, action: null, see: null, scan: null, extraScans: [], errors: null, errorFiles: [], remove: null, vdevs: [] },
  headerColumns: null, rootIndent: null, rootName: null, section: null, sectionIndent: 0, stack: [], sawConfig: false, expandText: null,
});

/** Wrapped prose (status/action/errors) is joined with spaces; the remove: block keeps its lines. */
const appendText = (prev: string | null, line: string, sep = ' '): string => (prev === null || prev === '' ? line : `${prev}${sep}${line}`);

/** One config row split into its fields; null when the line is not a row. */
function splitRow(line: string, valueColumns: number): { name: string; state: string | null; counters: (number | null)[]; note: string | null } | null {
  const re = /\S+/g;
  const tokens: { text: string; end: number }[] = [];
  for (let m = re.exec(line); m !== null; m = re.exec(line)) tokens.push({ text: m[0], end: m.index + m[0].length });
  if (tokens.length === 0) return null;
  const name = tokens[0]!.text;
  if (tokens.length === 1) return /^[\w./:@+%,-]+$/.test(name) ? { name, state: null, counters: [], note: null } : null;
  const state = tokens[1]!.text;
  if (!VDEV_STATES.has(state)) return null;
  let used = 2;
  const counters: (number | null)[] = [];
  while (counters.length < valueColumns && used < tokens.length && COUNTER.test(tokens[used]!.text)) {
    const t = tokens[used]!.text;
    counters.push(t === '-' ? null : parseHumanNumber(t));
    used++;
  }
  const noteText = used < tokens.length ? line.slice(tokens[used - 1]!.end).trim() : '';
  return { name, state, counters, note: noteText === '' ? null : noteText };
}

function addRow(b: PoolBuilder, line: string, lineNo: number, issues: ParseIssue[]): void {
  const indent = line.length - line.trimStart().length;
  const cols = b.headerColumns ?? ['READ', 'WRITE', 'CKSUM'];
  const valueColumns = cols.filter((c) => VALUE_COLUMNS.has(c)).length;
  const row = splitRow(line, valueColumns);
  if (row === null) {
    issues.push({ line: lineNo, message: `pool ${b.pool.name}: not a vdev row: ${line.trim().slice(0, 120)}` });
    return;
  }
  // The first row is the pool itself (its counters are the pool totals; its note e.g.
  // "insufficient replicas" repeats the pool state). Everything else hangs below it.
  if (b.rootIndent === null) {
    b.rootIndent = indent;
    b.rootName = row.name;
    if (row.name !== b.pool.name) issues.push({ line: lineNo, message: `pool ${b.pool.name}: first config row is ${row.name}, not the pool` });
    return;
  }
  const sectionClass = row.name in SECTION_CLASS && indent <= b.rootIndent + 1 && row.counters.every((c) => c === null || c === 0)
    ? SECTION_CLASS[row.name]! : null;
  if (sectionClass !== null) {
    b.section = row.name as keyof typeof SECTION_CLASS;
    b.sectionIndent = indent;
    b.stack = [];
    return;
  }
  const cls = b.section === null ? 'data' : SECTION_CLASS[b.section]!;
  const counters = row.state === 'AVAIL' || row.state === 'INUSE' || row.counters.length === 0
    ? [null, null, null] : [row.counters[0] ?? null, row.counters[1] ?? null, row.counters[2] ?? null];
  const node: VdevNode = {
    class: cls, type: 'disk', name: row.name, state: row.state,
    read: counters[0]!, write: counters[1]!, cksum: counters[2]!, note: row.note, children: [],
  };
  while (b.stack.length > 0 && b.stack[b.stack.length - 1]!.indent >= indent) b.stack.pop();
  const parent = b.stack[b.stack.length - 1];
  if (parent !== undefined) {
    parent.node.children.push(node);
  } else {
    const floor = b.section === null ? b.rootIndent : b.sectionIndent;
    if (indent <= floor) issues.push({ line: lineNo, message: `pool ${b.pool.name}: row ${row.name} is not indented below ${b.section ?? b.pool.name}; taken as a top-level vdev` });
    b.pool.vdevs.push(node);
  }
  b.stack.push({ node, indent });
}

/** Types are decided once the children are known (a `spare-0` with children vs a leaf). */
function finishTypes(nodes: VdevNode[], poolName: string, issues: ParseIssue[]): void {
  const walk = (n: VdevNode): void => {
    n.children.forEach(walk);
    n.type = vdevType(n.name, n.children.length > 0, n.note);
    if (n.children.length > 0 && interiorType(n.name) === null) {
      issues.push({ line: null, message: `pool ${poolName}: vdev ${n.name} has children but its name does not say its type; taken as mirror` });
    }
    if (n.type === 'draid') n.draid = parseDraidName(n.name);
  };
  nodes.forEach(walk);
}

export function parseZpoolStatus(text: string): ParseOutcome<ParsedPoolStatus[]> {
  const issues: ParseIssue[] = [];
  const lines = splitLines(text).map(expandTabs);
  const pools: PoolBuilder[] = [];
  let cur: PoolBuilder | null = null;
  let block: Block = null;
  let healthyMessage = false;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    const trimmed = line.trim();
    const key = KEY_LINE.exec(line);
    if (key && KEYS.has(key[1]!)) {
      const k = key[1]!;
      const value = (key[2] ?? '').trim();
      if (k === 'pool') {
        cur = newPool(value);
        pools.push(cur);
        block = null;
        continue;
      }
      if (cur === null) {
        issues.push({ line: lineNo, message: `${k}: line before any pool: line` });
        continue;
      }
      const p = cur.pool;
      switch (k) {
        case 'state': p.state = value || null; block = null; break;
        case 'status': p.status = value; block = 'status'; break;
        case 'action': p.action = value; block = 'action'; break;
        case 'see': p.see = value; block = 'see'; break;
        case 'scan': case 'scrub': {
          if (p.scan === null) p.scan = parseScanText(value); else p.extraScans.push(parseScanText(value));
          block = 'scan';
          break;
        }
        case 'remove': p.remove = value; block = 'remove'; break;
        case 'expand': cur.expandText = value; block = 'expand'; break;
        case 'dedup': {
          const d = parseDedupText(value);
          if (d) p.dedup = d; else issues.push({ line: lineNo, message: `pool ${p.name}: dedup line not understood: ${value.slice(0, 120)}` });
          block = 'ignored';
          break;
        }
        case 'errors': p.errors = value; block = 'errors'; break;
        case 'config': block = 'config'; cur.sawConfig = true; break;
        default: block = 'ignored';
      }
      continue;
    }
    if (trimmed === '') {
      // A blank line ends the config tree once rows were read; other blocks may span blanks
      // (the permanent-error file list follows one).
      if (block === 'config' && cur?.rootIndent != null) block = null;
      continue;
    }
    if (cur === null) {
      if (/^all pools are healthy$|^no pools available$|^pool '.*' is healthy$/.test(trimmed)) healthyMessage = true;
      else issues.push({ line: lineNo, message: trimmed.slice(0, 160) });
      continue;
    }
    const p = cur.pool;
    switch (block) {
      case 'status': p.status = appendText(p.status, trimmed); break;
      case 'action': p.action = appendText(p.action, trimmed); break;
      case 'see': p.see = appendText(p.see, trimmed); break;
      case 'remove': p.remove = appendText(p.remove, trimmed, '\n'); break;
      case 'expand': cur.expandText = appendText(cur.expandText, trimmed, '\n'); break;
      case 'scan': {
        const last = p.extraScans.length > 0 ? p.extraScans[p.extraScans.length - 1]! : p.scan!;
        const updated = parseScanText(`${last.raw}\n${trimmed}`);
        if (p.extraScans.length > 0) p.extraScans[p.extraScans.length - 1] = updated; else p.scan = updated;
        break;
      }
      case 'errors':
        if (/Permanent errors/.test(p.errors ?? '')) p.errorFiles.push(trimmed);
        else p.errors = appendText(p.errors, trimmed);
        break;
      case 'config':
        if (cur.headerColumns === null && /^NAME\s+STATE\b/.test(trimmed)) {
          cur.headerColumns = trimmed.split(/\s+/).slice(2);
        } else {
          if (cur.headerColumns === null) issues.push({ line: lineNo, message: `pool ${p.name}: config row before the NAME STATE header` });
          addRow(cur, line, lineNo, issues);
        }
        break;
      case 'ignored': break;
      default:
        issues.push({ line: lineNo, message: `pool ${p.name}: unexpected line: ${trimmed.slice(0, 120)}` });
    }
  }

  if (pools.length === 0) {
    if (healthyMessage) return parsed([], issues);
    const firstBad = issues[0];
    return failed(firstBad ? `not zpool status output: ${firstBad.message}` : 'empty zpool status output', firstBad?.line ?? null, issues);
  }
  const out: ParsedPoolStatus[] = [];
  for (const b of pools) {
    if (b.rootIndent === null) issues.push({ line: null, message: `pool ${b.pool.name}: no config tree` });
    // Every complete pool block ends with its `errors:` line. Without it the output was cut (a
    // pipe closed, a paste shortened): the tree may lack disks or whole vdevs, so the read is
    // partial. The `state:` line came before the cut and describes the whole pool, so it stays.
    if (b.pool.errors === null) {
      const inConfig = b.sawConfig;
      issues.push({
        line: lines.length,
        message: `pool ${b.pool.name}: partial read — ${inConfig ? 'output ends inside the config block' : 'no errors: line (the output was cut short)'}; the vdev tree may be incomplete (the pool's state line said ${b.pool.state ?? 'nothing'})`,
      });
      b.pool.partial = true;
    }
    if (b.expandText !== null) {
      const e = parseExpandText(b.expandText);
      if (e) b.pool.expand = e;
      else issues.push({ line: null, message: `pool ${b.pool.name}: expand block not understood: ${b.expandText.slice(0, 120)}` });
    }
    finishTypes(b.pool.vdevs, b.pool.name, issues);
    if (b.pool.status !== null) b.pool.status = b.pool.status.trim();
    const checked = ParsedPoolStatus.safeParse(b.pool);
    if (checked.success) out.push(checked.data);
    else issues.push({ line: null, message: `pool ${b.pool.name}: ${checked.error.issues[0]?.message ?? 'invalid'}` });
  }
  return parsed(out, issues);
}

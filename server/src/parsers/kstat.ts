/**
 * ZFS kstat counters in both spellings:
 *  - Linux SPL text (`/proc/spl/kstat/zfs/zil`, `arcstats`, `<pool>/objset-0x…`), zfs-facts F8:
 *      26 1 0x01 20 5440 2747653314 1351144218241567      ← kid type flags ndata data_size crtime snaptime
 *      name                            type data
 *      zil_commit_count                4    52922839
 *  - FreeBSD sysctl (`sysctl kstat.zfs.misc.zil`, `… arcstats`, `-a`):
 *      kstat.zfs.misc.zil.zil_commit_count: 52922839
 *
 * Values are uint64. JavaScript numbers are exact only to 2^53, so the exact decimal text is kept
 * in `raw` (deltas are computed from it with BigInt) and values ≥ 2^63 — an unsigned counter
 * that went "negative", like the real zil_itx_needcopy_bytes = 18446744073709537686 — are listed
 * in `wrapped` so nobody reads them as 18 exabytes.
 */
import { failed, parsed, splitLines, type ParseIssue, type ParseOutcome } from './common.ts';

export interface KstatSnapshot {
  format: 'linux' | 'freebsd';
  /** Counter name → value as a number (approximate above 2^53; see `raw`). */
  counters: Record<string, number>;
  /** Counter name → exact decimal text as printed. */
  raw: Record<string, string>;
  /** String-typed kstats (type 7), e.g. objset `dataset_name`. */
  strings: Record<string, string>;
  /** Counters ≥ 2^63: an unsigned counter that underflowed / wrapped. Keep, but never trust. */
  wrapped: string[];
  /** Linux header: `snaptime` (ns since boot) of this read, null for FreeBSD. */
  snaptimeNs: number | null;
  crtimeNs: number | null;
  /** FreeBSD: the sysctl module (zil, arcstats, …) of the rows kept. */
  module: string | null;
}

export const UINT64_WRAP_THRESHOLD = 2n ** 63n;

/** True when an unsigned 64-bit counter value can only be an underflow (≥ 2^63). */
export function isWrappedCounter(raw: string | bigint): boolean {
  try {
    const v = typeof raw === 'bigint' ? raw : BigInt(raw);
    return v >= UINT64_WRAP_THRESHOLD;
  } catch {
    return false;
  }
}

const LINUX_HEADER = /^\s*\d+\s+\d+\s+0x[0-9a-f]+\s+(\d+)\s+\d+\s+(\d+)\s+(\d+)\s*$/i;
const LINUX_ROW = /^(\S+)\s+(\d+)\s+(.*?)\s*$/;
const BSD_ROW = /^kstat\.zfs\.(?:misc\.)?([^:]+)\.([^.:\s]+):\s*(.*?)\s*$/;
const INTEGER = /^-?\d+$/;

function store(snap: KstatSnapshot, name: string, value: string, numeric: boolean): void {
  if (numeric && INTEGER.test(value)) {
    snap.raw[name] = value;
    snap.counters[name] = Number(value);
    if (isWrappedCounter(value)) snap.wrapped.push(name);
  } else {
    snap.strings[name] = value;
  }
}

/**
 * Parses one kstat file or sysctl dump. For a FreeBSD dump holding several modules, pass
 * `module` ("zil", "arcstats") to keep one; otherwise all rows are kept under their last name.
 */
export function parseKstat(text: string, module?: string): ParseOutcome<KstatSnapshot> {
  const lines = splitLines(text);
  const firstLine = lines.findIndex((l) => l.trim() !== '');
  if (firstLine < 0) return failed('empty kstat input');
  const issues: ParseIssue[] = [];
  const head = lines[firstLine]!;
  const snap: KstatSnapshot = {
    format: 'linux', counters: {}, raw: {}, strings: {}, wrapped: [], snaptimeNs: null, crtimeNs: null, module: null,
  };

  if (/^kstat\./.test(head.trim())) {
    snap.format = 'freebsd';
    snap.module = module ?? null;
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const m = BSD_ROW.exec(line.trim());
      if (!m) {
        issues.push({ line: i + 1, message: `not a kstat sysctl line: ${line.trim().slice(0, 80)}` });
        continue;
      }
      const [, mod, name, value] = m as unknown as [string, string, string, string];
      // Per-dataset sysctls (kstat.zfs.POOL.dataset.objset-0x36.zil_commit_count) carry the
      // objset in the module part; keep only the requested module when one is given.
      if (module && mod !== module && !mod.endsWith(`.${module}`)) continue;
      store(snap, name, value, true);
    }
  } else {
    const h = LINUX_HEADER.exec(head);
    let start = firstLine;
    let ndata: number | null = null;
    if (h) {
      ndata = Number(h[1]);
      snap.crtimeNs = Number(h[2]);
      snap.snaptimeNs = Number(h[3]);
      start = firstLine + 1;
    } else {
      issues.push({ line: firstLine + 1, message: 'no kstat header line (kid type flags ndata …); reading rows only' });
    }
    let rows = 0;
    for (let i = start; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.trim() === '') continue;
      if (/^name\s+type\s+data\s*$/.test(line.trim())) continue;
      const m = LINUX_ROW.exec(line.trim());
      if (!m) {
        issues.push({ line: i + 1, message: `not a kstat row: ${line.trim().slice(0, 80)}` });
        continue;
      }
      const [, name, type, value] = m as unknown as [string, string, string, string];
      rows++;
      // Type 7 = KSTAT_DATA_STRING; 0 = char; everything else is numeric.
      store(snap, name, value, type !== '7' && type !== '0');
      if (type !== '7' && type !== '0' && !INTEGER.test(value)) {
        issues.push({ line: i + 1, message: `non-integer value for numeric kstat ${name}: ${value.slice(0, 40)}` });
      }
    }
    if (ndata !== null && ndata !== rows) {
      issues.push({ line: firstLine + 1, message: `header says ${ndata} rows, found ${rows}` });
    }
  }
  for (const name of snap.wrapped) {
    issues.push({ line: null, message: `${name} = ${snap.raw[name]} is ≥ 2^63: an underflowed/wrapped uint64 counter, not a real value` });
  }
  if (Object.keys(snap.raw).length === 0 && Object.keys(snap.strings).length === 0) {
    return failed('no kstat counters found', issues[0]?.line ?? null, issues);
  }
  return parsed(snap, issues);
}

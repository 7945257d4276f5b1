/**
 * Parser for the "Block Size Histogram" of `zdb -Lbbbs POOL` (zfs-facts F1–F7), human (`833K`) or
 * `-P` (tab-separated raw integers), plus the `Metadata Total` row of the type table when present.
 *
 * Binning depends on the version (F5): ≤ 2.3 puts a block in row floor(log2(size)) — row "4K"
 * holds [4K, 8K); 2.4+ uses highbit(size − 1) — row "4K" holds (2K, 4K]. The text does not say
 * which, so the caller passes the OpenZFS version; without it the binning is 'unknown'.
 */
import { failed, parsed, parseHumanNumber, splitLines, type ParseOutcome } from './common.ts';

export interface ZdbColumn { count: number; bytes: number; cumulativeBytes: number }

export interface ZdbSizeRow {
  /** The row label in bytes (512 … 16M). */
  sizeBytes: number;
  psize: ZdbColumn;
  lsize: ZdbColumn;
  asize: ZdbColumn;
}

export type ZdbBinning = 'floor-log2' | 'fits-into' | 'unknown';

export interface ZdbBlockStats {
  rows: ZdbSizeRow[];
  /** 'floor-log2' (≤ 2.3: row T = [T, 2T)), 'fits-into' (2.4+: row T = (T/2, T]). */
  binning: ZdbBinning;
  /** `Metadata Total` from the type table (2.2+): blocks, lsize, psize, asize in bytes. */
  metadataTotal: { blocks: number; lsize: number; psize: number; asize: number } | null;
  /** 2.4+ notes printed under the title (--bin, --class). */
  notes: string[];
}

const num = (t: string): number | null => parseHumanNumber(t);

/** `version` as major.minor[.patch]; ≥ 2.4 → fits-into binning. */
export function binningFor(version: string | null | undefined): ZdbBinning {
  const m = /^(\d+)\.(\d+)/.exec(version ?? '');
  if (!m) return 'unknown';
  const [maj, min] = [Number(m[1]), Number(m[2])];
  return maj > 2 || (maj === 2 && min >= 4) ? 'fits-into' : 'floor-log2';
}

export function parseZdbBlockStats(text: string, opts: { version?: string | null } = {}): ParseOutcome<ZdbBlockStats> {
  const lines = splitLines(text);
  const start = lines.findIndex((l) => l.trim() === 'Block Size Histogram');
  if (start < 0) return failed('no "Block Size Histogram" section (run zdb with -bb or more b\'s)');
  const issues: { line: number; message: string }[] = [];
  const notes: string[] = [];
  const rows: ZdbSizeRow[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const t = line.trim();
    if (t === '') { if (rows.length > 0) break; continue; }
    if (t.startsWith('(note:')) { notes.push(t); continue; }
    if (/^block\b/.test(t) || /^size\b/.test(t)) continue;
    const m = /^([0-9.]+[KMGTP]?):\s*(.*)$/.exec(t);
    if (!m) { if (rows.length > 0) break; continue; }
    const fields = m[2]!.split(/\s+/).filter(Boolean);
    const size = num(m[1]!);
    const vals = fields.map(num);
    if (size === null || fields.length !== 9 || vals.some((v) => v === null)) {
      issues.push({ line: i + 1, message: `unreadable histogram row "${t}"` });
      continue;
    }
    const v = vals as number[];
    const col = (k: number): ZdbColumn => ({ count: v[k]!, bytes: v[k + 1]!, cumulativeBytes: v[k + 2]! });
    rows.push({ sizeBytes: size, psize: col(0), lsize: col(3), asize: col(6) });
  }
  if (rows.length === 0) return failed('the Block Size Histogram has no rows', start + 1, issues);
  let metadataTotal: ZdbBlockStats['metadataTotal'] = null;
  for (const l of lines) {
    const m = /^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+Metadata Total\s*$/.exec(l);
    if (m) {
      const [blocks, lsize, psize, asize] = [m[1]!, m[2]!, m[3]!, m[4]!].map(num);
      if ([blocks, lsize, psize, asize].every((x) => x !== null)) metadataTotal = { blocks: blocks!, lsize: lsize!, psize: psize!, asize: asize! };
    }
  }
  return parsed({ rows, binning: binningFor(opts.version), metadataTotal, notes }, issues);
}

/**
 * psize bytes of blocks that would go to special at threshold T (B3: per block, compressed size,
 * `<=`, B6). 2.4+: cumulative at row T (exact). ≤ 2.3: row T holds [T, 2T), so only rows < T are
 * certainly ≤ T: cumulative at row T/2 — a lower bound that misses blocks of exactly T.
 * Unknown binning: the same lower bound.
 */
export function psizeAtOrBelow(stats: ZdbBlockStats, threshold: number): { bytes: number; exact: boolean } {
  if (threshold <= 0) return { bytes: 0, exact: true };
  const exact = stats.binning === 'fits-into';
  const limit = exact ? threshold : threshold / 2;
  const bytes = stats.rows.filter((r) => r.sizeBytes <= limit).reduce((s, r) => s + r.psize.bytes, 0);
  return { bytes, exact };
}

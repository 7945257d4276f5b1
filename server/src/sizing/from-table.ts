/**
 * `sizes --from-histogram FILE` (issue 17 §6): the special-vdev projection from a size table made
 * elsewhere, without walking the files again. Three inputs, recognised by their text:
 *  - `zdb -bbb` / `zdb -Lbbbs` block statistics (OpenZFS 2.1–2.4): the existing zdb parser and
 *    projection (from-zdb.ts), unchanged;
 *  - the `find … | awk` table of reference 000 (`  1k:  14336`, `16M:  98`), or its first stage
 *    (`1024 14336`): counts of files per power-of-two size, the size being the bin's LOWER edge
 *    (awk's `int(log(size)/log(2))`; everything under 1K lands in the 1K row, which so holds [0, 2K));
 *  - a CSV or two-column table `size,count[,bytes]`: power-of-two sizes read as the same bins,
 *    other sizes as exact file sizes; a third column gives the bytes of the row.
 * A file-count table has no sizes inside a bin: each file is taken at the bin's geometric middle,
 * lower edge × √2 (stated in the notes), unless the row gives its bytes. From there the projection
 * is the walk's own (SizeAccumulator: data blocks per recordsize, metadata estimate), so the JSON
 * has the shape of `sizes PATH --json`.
 */
import { SizeHistogram } from '../model/workload.ts';
import { failed, parsed, parseHumanNumber, splitLines, type ParseIssue, type ParseOutcome } from '../parsers/common.ts';
import { parseZdbBlockStats } from '../parsers/zdb-block-stats.ts';
import { histogramFromZdb } from './from-zdb.ts';
import { METADATA_BASIS, projectCandidates, SizeAccumulator, toBins } from './histogram.ts';
import { factLinks } from '../../../rules/lib/citations.ts';

export type TableFormat = 'find-awk' | 'two-column' | 'csv';

export interface SizeTableRow {
  /** The size as written, in bytes: a bin's lower edge (power of two) or an exact file size. */
  sizeBytes: number;
  count: number;
  /** Bytes of the row when the table gives them (third column). */
  bytes: number | null;
  line: number;
}

export interface SizeTable { format: TableFormat; rows: SizeTableRow[] }

/** Rows above this many lines are refused: a size table has tens of rows, not millions. */
export const MAX_TABLE_LINES = 100_000;

const isPow2 = (n: number): boolean => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0 || (n >= 2 ** 31 && Number.isInteger(Math.log2(n)));

/** awk's `human()` prints 1k, 2M, 16G (1024-based, lower-case k). */
function sizeOf(text: string): number | null {
  const t = text.trim().replace(/^"|"$/g, '');
  if (/^\d+$/.test(t)) return Number(t);
  return parseHumanNumber(t.replace(/^(\d+(?:\.\d+)?)k/, '$1K'));
}

const countOf = (text: string): number | null => {
  const t = text.trim().replace(/^"|"$/g, '');
  return /^\d+$/.test(t) ? Number(t) : null;
};

/** Parses a find|awk, two-column or CSV size table. Header lines and blank lines are skipped. */
export function parseSizeTable(text: string): ParseOutcome<SizeTable> {
  const lines = splitLines(text);
  if (lines.length > MAX_TABLE_LINES) return failed(`more than ${MAX_TABLE_LINES} lines: not a size table`);
  const rows: SizeTableRow[] = [];
  const issues: ParseIssue[] = [];
  let format: TableFormat | null = null;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    let m: RegExpExecArray | null;
    let f: TableFormat;
    let cells: string[];
    if ((m = /^(\d+(?:\.\d+)?[kKMGTPE]?):\s*(\d+)$/.exec(line))) { f = 'find-awk'; cells = [m[1]!, m[2]!]; }
    else if (line.includes(',') || line.includes(';')) { f = 'csv'; cells = line.split(/[,;]/).map((c) => c.trim()); }
    else { f = 'two-column'; cells = line.split(/\s+/); }
    const size = sizeOf(cells[0] ?? '');
    const count = countOf(cells[1] ?? '');
    const bytes = cells.length > 2 ? countOf(cells[2]!) : null;
    if (size === null || count === null || cells.length > 3 || (cells.length === 3 && bytes === null)) {
      // A header ("size,count") or a timing line of `time` is not data; say what was skipped.
      if (rows.length === 0 && /[a-z]/i.test(line) && !/\d\s*$/.test(line.replace(/[a-z]+$/i, ''))) return;
      issues.push({ line: i + 1, message: `not a "size count" row: ${line.slice(0, 80)}` });
      return;
    }
    if (format !== null && format !== f && !(format === 'find-awk' && f === 'two-column')) {
      issues.push({ line: i + 1, message: `row format changes from ${format} to ${f}: ${line.slice(0, 80)}` });
      return;
    }
    format ??= f;
    rows.push({ sizeBytes: size, count, bytes, line: i + 1 });
  });
  if (rows.length === 0) return failed('no "size count" rows found');
  return parsed({ format: format!, rows }, issues);
}

export interface TableOptions {
  recordsize: number;
  ashift: number;
  /** Where the table came from (file name or "pasted"): the histogram's target. */
  source: string;
  capturedAt: string;
  /** OpenZFS version of zdb output (binning changed in 2.4). */
  zfsVersion?: string | null;
}

export type TableHistogramOutcome =
  | { ok: true; histogram: SizeHistogram; kind: 'zdb' | TableFormat; skipped: ParseIssue[] }
  | { ok: false; message: string; line: number | null };

/** The projection from a pasted or saved table: zdb block statistics or a file-size table. */
export function histogramFromText(text: string, opts: TableOptions): TableHistogramOutcome {
  if (/^\s*Block Size Histogram\s*$/m.test(text)) {
    const z = parseZdbBlockStats(text, { version: opts.zfsVersion ?? null });
    if (!z.ok) return { ok: false, message: z.error.message, line: z.error.line };
    const h = histogramFromZdb(opts.source, z.value, opts.recordsize, opts.ashift, opts.capturedAt);
    return { ok: true, histogram: { ...h, target: opts.source, pool: null }, kind: 'zdb', skipped: z.issues };
  }
  const t = parseSizeTable(text);
  if (!t.ok) return { ok: false, message: t.error.message, line: t.error.line };
  return { ok: true, histogram: histogramFromTable(t.value, opts), kind: t.value.format, skipped: t.issues };
}

/** A SizeHistogram with the walk's JSON shape from a file-size table. */
export function histogramFromTable(table: SizeTable, opts: TableOptions): SizeHistogram {
  const acc = new SizeAccumulator(opts.recordsize, opts.ashift);
  let binned = 0;
  for (const r of table.rows) {
    if (r.count === 0) continue;
    const bin = table.format === 'find-awk' || isPow2(r.sizeBytes);
    // awk clamps every file under 1K (and empty ones) into its 1K row, which so holds [0, 2K): its middle is 1K.
    const clamped = table.format === 'find-awk' && r.sizeBytes <= 1024;
    const each = r.bytes !== null ? r.bytes / r.count : clamped ? 1024 : bin ? Math.SQRT2 * r.sizeBytes : r.sizeBytes;
    if (bin) binned += r.count;
    acc.addFiles(Math.max(1, Math.round(each)), r.count);
  }
  const fileBins = toBins(acc.fileCount, acc.fileBytes);
  const blockBins = toBins(acc.blockCount, acc.blockBytes);
  const metadataBytes = acc.metadataBytes();
  const notes = [
    `read from a ${table.format === 'find-awk' ? '`find … | awk` file-size table (reference 000\'s command)' : table.format === 'csv' ? 'CSV size table' : 'two-column size table'}: ${table.rows.length} rows, ${acc.files} files`,
    ...(binned > 0 ? [`${binned} files were given only as counts per power-of-two bin [S, 2S): each is taken at the bin's geometric middle S·√2 (awk's 1K row, which also holds every smaller file, at 1K), so sizes inside a bin are an estimate [derived]`] : []),
    `block histogram: data blocks as stored without compression (≤ recordsize ${opts.recordsize / 1024}K → one block rounded up to ${2 ** opts.ashift} B sectors, larger → recordsize blocks), as for a walk`,
    'special_small_blocks is compared per block with the block\'s compressed physical size (' + factLinks('B3', 'B4', 'B5') + '): with compression more blocks qualify than projected here',
    'small blocks are accepted only until the special class is 75 % full (' + factLinks('B7') + '): provision projected usage ÷ 0.75 plus growth (' + factLinks('B26') + ')',
  ];
  return SizeHistogram.parse({
    target: opts.source, dataset: null, pool: null, method: 'table',
    recordsize: opts.recordsize, ashift: opts.ashift, files: acc.files, totalBytes: acc.totalBytes,
    fileBins, blockBins,
    candidates: projectCandidates(blockBins, opts.recordsize, metadataBytes),
    // A table has no directories: the estimate counts files only, and says so.
    metadataBasis: `${METADATA_BASIS} From a size table: files only (directories are not in it), file sizes per bin estimated.`,
    capturedAt: opts.capturedAt,
    notes,
  });
}

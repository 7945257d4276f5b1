/**
 * Plain-text tables for the terminal: columns padded to their widest cell, numbers (with their
 * unit) right-aligned so digits line up, words left-aligned.
 */
import { ABSENT } from './format.ts';

/** A cell is numeric when it starts with a number: "13,700", "54.9 GiB", "183×", "75 (40–270)", "—". */
const NUMERIC = /^(?:—|-?\d[\d,.]*(?:\s?\S+)?(?:\s\(.*\))?)$/;

/**
 * A row of one cell is a group heading: printed as it is across the table, left out of the
 * column widths and of the numeric test.
 */
export function textTable(headers: string[], allRows: (string | number | null)[][]): string {
  const isHeading = (r: readonly unknown[]) => r.length === 1 && headers.length > 1;
  const rows = allRows.filter((r) => !isHeading(r));
  const cells = rows.map((r) => r.map((c) => (c === null ? ABSENT : String(c))));
  const widths = headers.map((h, i) => Math.max([...h].length, ...cells.map((r) => [...r[i]!].length)));
  const numeric = headers.map((_, i) => cells.length > 0 && cells.every((r) => NUMERIC.test(r[i]!)));
  const pad = (c: string, i: number) => {
    const gap = ' '.repeat(widths[i]! - [...c].length);
    return numeric[i] ? gap + c : c + gap;
  };
  const line = (r: string[]) => r.map(pad).join('  ').trimEnd();
  let k = 0;
  const body = allRows.map((r) => (isHeading(r) ? String(r[0] ?? '') : line(cells[k++]!)));
  return `${[line(headers), line(widths.map((w) => '-'.repeat(w))), ...body].join('\n')}\n`;
}

/**
 * Plain-text tables for the terminal: columns padded to their widest cell, numbers (with their
 * unit) right-aligned so digits line up, words left-aligned.
 */
import { ABSENT } from './format.ts';

/** A cell is numeric when it starts with a number: "13,700", "54.9 GiB", "183×", "75 (40–270)", "—". */
const NUMERIC = /^(?:—|-?\d[\d,.]*(?:\s?\S+)?(?:\s\(.*\))?)$/;

export function textTable(headers: string[], rows: (string | number | null)[][]): string {
  const cells = rows.map((r) => r.map((c) => (c === null ? ABSENT : String(c))));
  const widths = headers.map((h, i) => Math.max([...h].length, ...cells.map((r) => [...r[i]!].length)));
  const numeric = headers.map((_, i) => cells.length > 0 && cells.every((r) => NUMERIC.test(r[i]!)));
  const pad = (c: string, i: number) => {
    const gap = ' '.repeat(widths[i]! - [...c].length);
    return numeric[i] ? gap + c : c + gap;
  };
  const line = (r: string[]) => r.map(pad).join('  ').trimEnd();
  return `${[line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n')}\n`;
}

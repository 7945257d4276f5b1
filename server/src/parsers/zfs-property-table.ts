/**
 * The NAME PROPERTY VALUE SOURCE output shared by `zpool get` and `zfs get`: scripted (`-H`,
 * tab-separated, values may contain spaces) or the human table (columns located from the header,
 * re-read whenever a new header appears, because logs often concatenate several outputs).
 */
import type { PropertyValue } from '../model/inventory.ts';
import { splitLines, type ParseIssue } from './common.ts';

export interface PropertyRow { name: string; property: string; value: string; source: string | null; line: number }

const SOURCE_WORDS = '-|default|local|temporary|received|inherited from \\S+';
const LOOSE_ROW = new RegExp(`^(\\S+)\\s+(\\S+)\\s+(.*?)\\s+(${SOURCE_WORDS})\\s*$`);
/** A SOURCE cell is one of these words; anything else means the row is not column-aligned. */
const KNOWN_SOURCE = new RegExp(`^(?:${SOURCE_WORDS})$`);
const PROPERTY_NAME = /^[a-z0-9_.:@/-]+$/i;
const BLANK = /^\s*$/;
const tabOrEnd = (line: string, from: number): number => { const t = line.indexOf('\t', from); return t < 0 ? line.length : t; };
/** `-` (not applicable) → null; everything else as printed ("local", "default", "inherited from tank"). */
export const sourceOf = (s: string | undefined): string | null => (s === undefined || s === '' || s === '-' ? null : s);

/**
 * Reads property rows one line at a time (the header of a human table sets the columns for the
 * lines after it), so a caller can feed lines as they arrive without holding them all.
 */
/** What `PropertyRowReader.read` returns for a row the caller said it does not want. */
export const SKIPPED = Symbol('skipped row');

export class PropertyRowReader {
  private cols: { property: number; value: number; source: number | null } | null = null;

  /**
   * The row on this line, or null for a blank/header line; an unreadable line becomes an issue.
   * `want` lets a caller skip scripted rows of properties it drops before their value is cut out
   * (SKIPPED is returned for those).
   */
  read(line: string, lineNo: number, issues: ParseIssue[], want?: (property: string) => boolean): PropertyRow | typeof SKIPPED | null {
    // Scripted (-H) rows first, cut at the tabs without splitting: hosts print ~57 rows per dataset.
    const t1 = line.indexOf('\t');
    if (t1 > 0) {
      const t2 = line.indexOf('\t', t1 + 1);
      const property = t2 < 0 ? '' : line.slice(t1 + 1, t2);
      if (PROPERTY_NAME.test(property)) {
        if (want !== undefined && !want(property)) return SKIPPED;
        const t3 = line.indexOf('\t', t2 + 1);
        const value = t3 < 0 ? line.slice(t2 + 1) : line.slice(t2 + 1, t3);
        const source = t3 < 0 ? null : sourceOf(line.slice(t3 + 1, tabOrEnd(line, t3 + 1)));
        return { name: line.slice(0, t1), property, value, source, line: lineNo };
      }
    }
    if (BLANK.test(line)) return null;
    const header = /^NAME(\s+)PROPERTY(\s+)VALUE(?:(\s+)SOURCE)?\s*$/.exec(line);
    if (header) {
      const property = line.indexOf('PROPERTY');
      const value = line.indexOf('VALUE', property);
      const source = line.indexOf('SOURCE', value);
      this.cols = { property, value, source: source < 0 ? null : source };
      return null;
    }
    const c = this.cols;
    if (c !== null && line.length > c.value) {
      const aligned = line[c.property - 1] === ' ' && line[c.value - 1] === ' ' && (c.source === null || line.length <= c.source || line[c.source - 1] === ' ');
      const name = line.slice(0, c.property).trim();
      const property = line.slice(c.property, c.value).trim();
      const value = (c.source === null ? line.slice(c.value) : line.slice(c.value, c.source)).trim();
      const source = c.source === null ? null : sourceOf(line.slice(c.source).trim());
      // A value wider than its column can still put spaces at the column edges (a value with
      // spaces): then the SOURCE cell holds the value's tail, and the word split below is right.
      const sourceCell = c.source === null ? '' : line.slice(c.source).trim();
      const sourceOk = sourceCell === '' || KNOWN_SOURCE.test(sourceCell);
      if (aligned && sourceOk && name !== '' && !/\s/.test(name) && PROPERTY_NAME.test(property)) {
        return { name, property, value, source, line: lineNo };
      }
    }
    // zfs-fuse does not widen the VALUE column for long values (guids): fall back to words,
    // with the source recognised by its vocabulary.
    const loose = c === null ? null : LOOSE_ROW.exec(line);
    if (loose && PROPERTY_NAME.test(loose[2]!)) {
      return { name: loose[1]!, property: loose[2]!, value: loose[3]!, source: sourceOf(loose[4]), line: lineNo };
    }
    issues.push({ line: lineNo, message: `not a property row: ${line.trim().slice(0, 120)}` });
    return null;
  }
}

export function readPropertyRows(text: string, issues: ParseIssue[]): PropertyRow[] {
  const reader = new PropertyRowReader();
  const rows: PropertyRow[] = [];
  splitLines(text).forEach((line, i) => {
    const row = reader.read(line, i + 1, issues);
    if (row !== null && row !== SKIPPED) rows.push(row);
  });
  return rows;
}

/** JSON `{value, source: {type, data}}` → PropertyValue with the source spelled as the text output spells it. */
export function jsonPropertyValue(p: unknown): PropertyValue | null {
  if (typeof p !== 'object' || p === null) return null;
  const o = p as { value?: unknown; source?: unknown };
  const value = typeof o.value === 'string' ? o.value : typeof o.value === 'number' ? String(o.value) : null;
  if (value === null) return null;
  const src = typeof o.source === 'object' && o.source !== null ? (o.source as { type?: unknown; data?: unknown }) : null;
  const type = typeof src?.type === 'string' ? src.type : 'NONE';
  const data = typeof src?.data === 'string' ? src.data : '-';
  const source = type === 'NONE' ? null
    : type === 'INHERITED' ? `inherited from ${data}`
      : type === 'RECEIVED' ? 'received' : type.toLowerCase();
  return { value, source };
}

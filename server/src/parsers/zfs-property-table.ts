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
/** `-` (not applicable) → null; everything else as printed ("local", "default", "inherited from tank"). */
export const sourceOf = (s: string | undefined): string | null => (s === undefined || s === '' || s === '-' ? null : s);

export function readPropertyRows(text: string, issues: ParseIssue[]): PropertyRow[] {
  const rows: PropertyRow[] = [];
  let cols: { property: number; value: number; source: number | null } | null = null;
  splitLines(text).forEach((line, i) => {
    const lineNo = i + 1;
    if (line.trim() === '') return;
    if (line.includes('\t')) {
      const f = line.split('\t');
      if (f.length >= 3 && PROPERTY_NAME.test(f[1]!) && f[0] !== '') {
        rows.push({ name: f[0]!, property: f[1]!, value: f[2]!, source: sourceOf(f[3]), line: lineNo });
        return;
      }
    }
    const header = /^NAME(\s+)PROPERTY(\s+)VALUE(?:(\s+)SOURCE)?\s*$/.exec(line);
    if (header) {
      const property = line.indexOf('PROPERTY');
      const value = line.indexOf('VALUE', property);
      const source = line.indexOf('SOURCE', value);
      cols = { property, value, source: source < 0 ? null : source };
      return;
    }
    if (cols !== null && line.length > cols.value) {
      const c: { property: number; value: number; source: number | null } = cols;
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
        rows.push({ name, property, value, source, line: lineNo });
        return;
      }
    }
    // zfs-fuse does not widen the VALUE column for long values (guids): fall back to words,
    // with the source recognised by its vocabulary.
    const loose = cols === null ? null : LOOSE_ROW.exec(line);
    if (loose && PROPERTY_NAME.test(loose[2]!)) {
      rows.push({ name: loose[1]!, property: loose[2]!, value: loose[3]!, source: sourceOf(loose[4]), line: lineNo });
      return;
    }
    issues.push({ line: lineNo, message: `not a property row: ${line.trim().slice(0, 120)}` });
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

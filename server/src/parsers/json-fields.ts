/**
 * Typed, non-throwing accessors for JSON we did not write (smartctl, nvme-cli, lsblk, fio).
 * Tools change field types between versions (lsblk 2.31 prints `"rota": "1"`, 2.33+ `true`;
 * sizes as strings or numbers), so every accessor accepts the plausible spellings and answers
 * null for anything else instead of guessing.
 */
import { failed, parsed, type ParseOutcome } from './common.ts';

export type JsonObject = { [key: string]: unknown };

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows a path of keys/indices; undefined when any step is missing. */
export function at(root: unknown, ...path: (string | number)[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (typeof key === 'number') {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[key];
    } else {
      if (!isObject(cur)) return undefined;
      cur = cur[key];
    }
  }
  return cur;
}

/** A finite number, or a numeric string ("512", " 17179869184 "); else null. */
export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

/** A trimmed non-empty string; else null. */
export function str(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** true/false, "1"/"0", 1/0; else null. */
export function bool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true') return true;
  if (v === 0 || v === '0' || v === 'false') return false;
  return null;
}

export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A JSON string, or an integer literal of 16 digits or more outside one (not part of a fraction or exponent). */
const BIG_INT_OR_STRING = /"(?:[^"\\]|\\.)*"|(?<![\w.+-])-?\d{16,}(?![\w.])/g;

/**
 * JSON.parse that keeps 64-bit integers exact: an integer literal beyond 2^53 (a vdev or pool
 * guid in `zpool status -j --json-int`, a wrapped kstat counter) becomes its decimal string
 * instead of the nearest double (16906062314088254246 would read 16906062314088253000). Every
 * other value parses as JSON.parse parses it; no newline is added, so error lines stay right.
 */
export function parseJsonExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return JSON.parse(text.replace(BIG_INT_OR_STRING, (m) => (m.startsWith('"') || Number.isSafeInteger(Number(m)) ? m : `"${m}"`)));
}

/**
 * JSON.parse as a value. The error names the line of the failure when the engine reports a
 * position, so the CLI can print "file:line".
 */
export function parseJsonText(text: string): ParseOutcome<unknown> {
  if (text.trim() === '') return failed('empty input: expected JSON');
  try {
    return parsed(parseJsonExact(text));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(message);
    const line = pos ? text.slice(0, Number(pos[1])).split('\n').length : null;
    return failed(`invalid JSON: ${message.split('\n')[0]}`, line);
  }
}

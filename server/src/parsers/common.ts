/**
 * Shared pieces of the pure parsers: errors as values, with the file line that broke.
 * A parser returns `{ok: true, value, gaps}` (possibly partial, with what it skipped) or
 * `{ok: false, error}` when nothing usable came out. Parsers never throw on bad input.
 */
export interface ParseIssue {
  /** 1-based line in the input, null when not line-oriented (JSON). */
  line: number | null;
  message: string;
}

export type ParseOutcome<T> =
  | { ok: true; value: T; issues: ParseIssue[] }
  | { ok: false; error: ParseIssue; issues: ParseIssue[] };

export const parsed = <T>(value: T, issues: ParseIssue[] = []): ParseOutcome<T> => ({ ok: true, value, issues });
export const failed = <T>(message: string, line: number | null = null, issues: ParseIssue[] = []): ParseOutcome<T> => ({
  ok: false, error: { line, message }, issues,
});

const SUFFIX = 'BKMGTPEZ';

/**
 * Expands zpool/zfs human numbers: "1.2K" → 1229 (1024-based, as zfs prints them), "3.62T",
 * "512", "0B", "-" / "none" → null. Used for both sizes and error counters.
 */
export function parseHumanNumber(text: string): number | null {
  const t = text.trim();
  if (t === '' || t === '-' || t === 'none' || t === '—') return null;
  const m = /^(-?\d+(?:[.,]\d+)?)\s*([BKMGTPEZ])?(?:i?B)?$/i.exec(t);
  if (!m) return null;
  const n = Number.parseFloat(m[1]!.replace(',', '.'));
  const exp = m[2] ? SUFFIX.indexOf(m[2].toUpperCase()) : 0;
  return Math.round(n * 1024 ** exp);
}

/** Parses a percentage like "45%" or "45" → 45; "-" → null. */
export function parsePercent(text: string): number | null {
  const m = /^(-?\d+(?:\.\d+)?)%?$/.exec(text.trim());
  return m ? Number.parseFloat(m[1]!) : null;
}

/** Parses "1.00x" → 1. */
export function parseRatio(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)x?$/.exec(text.trim());
  return m ? Number.parseFloat(m[1]!) : null;
}

/** Splits text into lines, tolerating CRLF and tabs expanded to spaces by forum paste. */
export const splitLines = (text: string): string[] => text.replace(/\r\n?/g, '\n').split('\n');

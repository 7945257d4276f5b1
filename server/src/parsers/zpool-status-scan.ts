/**
 * Decodes the `scan:` block of `zpool status` (and the ` scrub:` line of zfs-fuse / Solaris-era
 * ZFS) into ScanInfo. The raw text is always kept; the decoded fields are filled only from what
 * the text actually says (a date we cannot read stays null).
 */
import type { ScanInfo } from '../model/inventory.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `Wed Jul  7 21:51:51 2021` (ctime, optionally with a zone name before the year) → local ISO
 * `2021-07-07T21:51:51` (zpool prints local time without an offset, so we add none).
 */
export function parseCtimeDate(text: string): string | null {
  const m = /(?:[A-Z][a-z]{2}\s+)?([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s+(?:[A-Z]{2,5}\s+)?(\d{4})/.exec(text);
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]!);
  if (month < 0) return null;
  const pad = (s: string | number) => String(s).padStart(2, '0');
  return `${m[6]}-${pad(month + 1)}-${pad(m[2]!)}T${pad(m[3]!)}:${m[4]}:${m[5] ?? '00'}`;
}

/** An epoch-seconds timestamp (zpool -p / --json-int) → UTC ISO; 0 → null. */
export function epochToIso(seconds: number): string | null {
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  const d = new Date(seconds * 1000);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace('.000Z', 'Z');
}

const pct = (text: string): number | null => {
  const m = /(\d+(?:\.\d+)?)%\s+done/.exec(text);
  return m ? Number.parseFloat(m[1]!) : null;
};
const errorCount = (text: string): number | null => {
  const m = /with (\d+) errors?/.exec(text);
  return m ? Number(m[1]) : null;
};
/** The date after "on", "since" or "at" (first line only: continuation lines carry rates, not dates). */
const dateAfter = (text: string, word: string): string | null => {
  const i = text.indexOf(` ${word} `);
  return i < 0 ? null : parseCtimeDate(text.slice(i + word.length + 2));
};

export function parseScanText(raw: string): ScanInfo {
  const text = raw.trim();
  const first = text.split('\n')[0] ?? '';
  const base: ScanInfo = { kind: 'unknown', state: 'unknown', raw: text, startedAt: null, endedAt: null, errors: null, progressPct: null };
  if (/^none requested/.test(first)) return { ...base, kind: 'none', state: 'none' };

  // OpenZFS: "resilver (draid1:4d:11c:1s-0) in progress" / "resilvered (draid…) 273M in …" is a sequential rebuild.
  const rebuild = /^resilver(?:ed)? \(draid/.test(first);
  const kind: ScanInfo['kind'] = rebuild ? 'rebuild'
    : /^(scrub|errorscrub)/.test(first) ? 'scrub'
      : /^resilver/.test(first) ? 'resilver'
        : /^(removal|evacuation)/i.test(first) ? 'removal' : 'unknown';

  if (/in progress|^(?:scrub|resilver) in progress/.test(first)) {
    return { ...base, kind, state: 'in-progress', startedAt: dateAfter(first, 'since'), progressPct: pct(text) };
  }
  if (/paused/.test(first)) {
    return { ...base, kind, state: 'paused', startedAt: dateAfter(first, 'since'), progressPct: pct(text) };
  }
  if (/canceled|stopped/.test(first)) {
    return { ...base, kind, state: 'canceled', endedAt: dateAfter(first, 'on'), errors: errorCount(first) };
  }
  // "scrub repaired 0B in 00:00:49 with 0 errors on …", "resilvered 4.42G in …",
  // zfs-fuse/Solaris: "scrub completed after 0h0m with 0 errors on …", "resilver completed after …".
  if (/repaired|resilvered|completed|rebuilt/.test(first)) {
    return { ...base, kind, state: 'finished', endedAt: dateAfter(first, 'on'), errors: errorCount(first), progressPct: null };
  }
  return { ...base, kind };
}

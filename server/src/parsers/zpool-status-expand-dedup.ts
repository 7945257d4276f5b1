/**
 * Two `zpool status` blocks of OpenZFS 2.3+, in text and in `-j` JSON:
 *
 * - the raidz expansion (`expand:`; JSON `raidz_expand_stats`), printed by
 *   zfs@zfs-2.4.4:cmd/zpool/zpool_main.c print_raidz_expand_status (identical in zfs-2.3.9):
 *     `expand: expansion of raidz1-0 in progress since <ctime>`
 *     `\t1.20G / 3G copied at 12.3M/s, 40.00% done, 00:02:30 to go` (or `, paused for resilver or clear`,
 *     or `, (copy is slow, no estimated time)`)
 *     `expand: expanded raidz1-0 copied 743K in 00:02:03, on <ctime>`
 *   and by raidz_expand_status_nvlist: `{name: "raidz1", state: "SCANNING"|"FINISHED", expanding_vdev,
 *   start_time, end_time, to_reflow, reflowed, waiting_for_resilver}` (the name is the type without
 *   the index: zpool_vdev_name(…, 0); the text appends `-<expanding_vdev>`, so do we).
 * - the dedup table summary of `-D` (print_dedup_stats / dedup_stats_nvlist):
 *     ` dedup: DDT entries 8192, size 1.50M on disk, 2.50M in core` (`-p`: exact numbers), or
 *     ` dedup: no DDT entries`; JSON `dedup_stats: {obj_count, dspace, mspace, cspace, …}`.
 *
 * Pure: text or JSON in, the model's objects out; what a line does not say stays null.
 */
import type { DedupTableStats, RaidzExpansion } from '../model/inventory.ts';
import { parseHumanNumber } from './common.ts';
import type { JsonObject } from './json-fields.ts';
import { epochToIso, parseCtimeDate } from './zpool-status-scan.ts';

const NUM = String.raw`\d+(?:\.\d+)?[KMGTPEZ]?`;
const IN_PROGRESS = /^expansion of (\S+) in progress since (.+)$/;
const FINISHED = new RegExp(String.raw`^expanded (\S+) copied (${NUM}) in .*?, on (.+)$`);
const PROGRESS = new RegExp(String.raw`(${NUM}) / (${NUM}) copied at \S+, (\d+(?:\.\d+)?)% done`);

/** The `expand:` block (its value plus the continuation line) → RaidzExpansion; null when not one we know. */
export function parseExpandText(raw: string): RaidzExpansion | null {
  const text = raw.trim();
  const [first = '', ...rest] = text.split('\n').map((l) => l.trim());
  const done = FINISHED.exec(first);
  if (done) {
    return {
      vdev: done[1]!, state: 'finished', copiedBytes: parseHumanNumber(done[2]!), totalBytes: null, progressPct: 100,
      startedAt: null, endedAt: parseCtimeDate(done[3]!), waitingForResilver: null, raw: text,
    };
  }
  const going = IN_PROGRESS.exec(first);
  if (!going) return null;
  const detail = rest.join(' ');
  const p = PROGRESS.exec(detail);
  return {
    vdev: going[1]!, state: 'in-progress',
    // zpool prints max(reflowed, 1) as "copied": a fresh expansion reads "1 / 3G".
    copiedBytes: p ? parseHumanNumber(p[1]!) : null,
    totalBytes: p ? parseHumanNumber(p[2]!) : null,
    progressPct: p ? Number.parseFloat(p[3]!) : null,
    startedAt: parseCtimeDate(going[2]!), endedAt: null,
    waitingForResilver: detail === '' ? null : /paused for resilver/.test(detail),
    raw: text,
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const amount = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' ? parseHumanNumber(v) : null);
const when = (v: unknown): string | null => {
  if (typeof v === 'number') return epochToIso(v);
  if (typeof v !== 'string' || v === '' || v === '-') return null;
  return /^\d+$/.test(v) ? epochToIso(Number(v)) : parseCtimeDate(v);
};

/** `raidz_expand_stats` of `zpool status -j` → RaidzExpansion; null for DSS_NONE (the text prints nothing then). */
export function expandFromJson(s: JsonObject): RaidzExpansion | null {
  const state = str(s.state);
  if (state === null || state === 'NONE') return null;
  const index = amount(s.expanding_vdev);
  const name = str(s.name) ?? 'raidz';
  const copied = amount(s.reflowed);
  const total = amount(s.to_reflow);
  const st: RaidzExpansion['state'] = state === 'SCANNING' ? 'in-progress' : state === 'FINISHED' ? 'finished' : state === 'CANCELED' ? 'canceled' : 'unknown';
  const waiting = amount(s.waiting_for_resilver);
  return {
    // zpool_vdev_name() without VDEV_NAME_TYPE_ID gives "raidz1"; the text output adds "-<index>".
    vdev: index === null || /-\d+$/.test(name) ? name : `${name}-${index}`,
    state: st,
    copiedBytes: copied,
    totalBytes: total,
    progressPct: st === 'finished' ? 100 : st === 'in-progress' && copied !== null && total ? Math.round((Math.max(copied, 1) / total) * 10000) / 100 : null,
    startedAt: st === 'finished' ? null : when(s.start_time),
    endedAt: st === 'finished' ? when(s.end_time) : null,
    waitingForResilver: waiting === null ? null : waiting !== 0,
    raw: JSON.stringify(s),
  };
}

const DDT_LINE = new RegExp(String.raw`^DDT entries (\d+), size (${NUM}) on disk, (${NUM}) in core`);

/** The value of the ` dedup:` line → DedupTableStats; null when it is neither form zpool prints. */
export function parseDedupText(value: string): DedupTableStats | null {
  const text = value.trim();
  if (/^no DDT entries$/.test(text)) return { entries: 0, onDiskBytes: 0, inCoreBytes: 0, raw: text };
  const m = DDT_LINE.exec(text);
  if (!m) return null;
  return { entries: Number(m[1]), onDiskBytes: parseHumanNumber(m[2]!), inCoreBytes: parseHumanNumber(m[3]!), raw: text };
}

/** `dedup_stats` of `zpool status -D -j` → DedupTableStats. */
export function dedupFromJson(d: JsonObject): DedupTableStats | null {
  const entries = amount(d.obj_count);
  if (entries === null) return null;
  if (entries === 0) return { entries: 0, onDiskBytes: 0, inCoreBytes: 0, raw: JSON.stringify(d) };
  return { entries, onDiskBytes: amount(d.dspace), inCoreBytes: amount(d.mspace), raw: JSON.stringify(d) };
}

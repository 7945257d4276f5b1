/**
 * `zfs-advisor observe [--duration 10m] [--interval 10s] [--pool NAME]… [--json]`: watches the
 * counters for a window and prints the workload fingerprint (sync share, ZIL traffic, sync-write
 * latency per vdev class, request sizes, ARC metadata). Reads counters only.
 */
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { observeWorkload } from '../../observe/collect.ts';
import { summariseFingerprint } from '../../observe/summary.ts';

const USAGE = 'usage: zfs-advisor observe [--duration 10m] [--interval 10s] [--pool NAME]... [--json]\n';

/** "10m" → 600, "30s" → 30, "1h" → 3600, "45" → 45; null when unreadable or not positive. */
export function parseDurationSec(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (!m) return null;
  const v = Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] ?? 's']!;
  return v > 0 ? v : null;
}

export interface ObserveArgs { durationSec: number; intervalSec: number | null; pools: string[]; json: boolean }

export function parseObserveArgs(args: string[]): { ok: true; value: ObserveArgs } | { ok: false; message: string } {
  const out: ObserveArgs = { durationSec: 600, intervalSec: null, pools: [], json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = () => args[++i];
    if (a === '--json') out.json = true;
    else if (a === '--duration' || a === '--interval') {
      const v = next();
      const s = v === undefined ? null : parseDurationSec(v);
      if (s === null) return { ok: false, message: `${a} needs a duration such as 30s, 10m or 1h` };
      if (a === '--duration') out.durationSec = s; else out.intervalSec = s;
    } else if (a === '--pool') {
      const v = next();
      if (!v || v.startsWith('-') || !/^[A-Za-z][\w.:-]*$/.test(v)) return { ok: false, message: '--pool needs a pool name' };
      out.pools.push(v);
    } else return { ok: false, message: `unknown option ${a}` };
  }
  if (out.intervalSec !== null && out.intervalSec > out.durationSec) return { ok: false, message: '--interval is longer than --duration' };
  return { ok: true, value: out };
}

const command: CliCommand = {
  summary: 'Watch the ZFS counters for a while: sync-write share, ZIL traffic, latency, request sizes.',
  async run(args, io) {
    const p = parseObserveArgs(args);
    if (!p.ok) { io.stderr(`zfs-advisor observe: ${p.message}\n${USAGE}`); return EXIT.usage; }
    const { durationSec, intervalSec, pools, json } = p.value;
    if (!json) io.stderr(`observing for ${durationSec} s (counters only)…\n`);
    const r = await observeWorkload({ durationSec, intervalSec: intervalSec ?? undefined, pools: pools.length ? pools : undefined });
    if (json) {
      io.stdout(`${JSON.stringify({ fingerprint: r.fingerprint, summary: summariseFingerprint(r.fingerprint), series: r.series, commands: r.commands }, null, 2)}\n`);
    } else {
      io.stdout(`${summariseFingerprint(r.fingerprint).join('\n')}\n`);
      if (r.fingerprint.notes.length) io.stdout(`\nNotes:\n${r.fingerprint.notes.map((n) => `  - ${n}`).join('\n')}\n`);
    }
    return r.fingerprint.pools.length === 0 && r.fingerprint.zil === null ? EXIT.failure : EXIT.ok;
  },
};
export default command;

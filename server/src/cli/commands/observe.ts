/**
 * `zfs-advisor observe [--duration 10m] [--interval 10s] [--pool NAME]… [--json] [--save | --no-save] [--data-dir D]`:
 * watches the counters for a window and prints the workload fingerprint (sync share, ZIL traffic,
 * sync-write latency per vdev class, request sizes, ARC metadata). Reads counters only.
 *
 * Saving is ON by default: the window is minutes long and its only purpose is to feed `assess`,
 * `optane` and the server, so it goes into the shared evidence store (observe/stored.ts) as an
 * observation of the local host. Without a flag a store that cannot be written is a warning on
 * stderr; with `--save` it is a failure (exit 1); `--no-save` does not touch the store.
 */
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { observeWorkload } from '../../observe/collect.ts';
import { summariseFingerprint } from '../../observe/summary.ts';
import { saveObservation } from '../../observe/stored.ts';
import { defaultDataDir } from '../../data-dir.ts';

const USAGE = 'usage: zfs-advisor observe [--duration 10m] [--interval 10s] [--pool NAME]... [--json] [--save | --no-save] [--data-dir D]\n';

/** "10m" → 600, "30s" → 30, "1h" → 3600, "45" → 45; null when unreadable or not positive. */
export function parseDurationSec(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (!m) return null;
  const v = Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] ?? 's']!;
  return v > 0 ? v : null;
}

/** save: 'default' = try and warn on failure, 'required' = --save (failure is an error), 'off' = --no-save. */
export interface ObserveArgs { durationSec: number; intervalSec: number | null; pools: string[]; json: boolean; save: 'default' | 'required' | 'off'; dataDir: string | null }

export function parseObserveArgs(args: string[]): { ok: true; value: ObserveArgs } | { ok: false; message: string } {
  const out: ObserveArgs = { durationSec: 600, intervalSec: null, pools: [], json: false, save: 'default', dataDir: null };
  let saveFlags = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = () => args[++i];
    if (a === '--json') out.json = true;
    else if (a === '--save' || a === '--no-save') { out.save = a === '--save' ? 'required' : 'off'; saveFlags++; }
    else if (a === '--data-dir') {
      const v = next();
      if (!v || v.startsWith('-')) return { ok: false, message: '--data-dir needs a directory' };
      out.dataDir = v;
    }
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
  if (saveFlags > 1) return { ok: false, message: 'choose one of --save and --no-save' };
  if (out.dataDir !== null && out.save === 'off') return { ok: false, message: '--data-dir does not apply with --no-save' };
  return { ok: true, value: out };
}

const command: CliCommand = {
  summary: 'Watch the ZFS counters for a while: sync-write share, ZIL traffic, latency, request sizes.',
  async run(args, io) {
    const p = parseObserveArgs(args);
    if (!p.ok) { io.stderr(`zfs-advisor observe: ${p.message}\n${USAGE}`); return EXIT.usage; }
    const { durationSec, intervalSec, pools, json, save, dataDir } = p.value;
    if (!json) io.stderr(`observing for ${durationSec} s (counters only)…\n`);
    const r = await observeWorkload({ durationSec, intervalSec: intervalSec ?? undefined, pools: pools.length ? pools : undefined });
    const observedNothing = r.fingerprint.pools.length === 0 && r.fingerprint.zil === null;
    let saved: { id: number; file: string } | null = null;
    if (save !== 'off' && !observedNothing) {
      const s = await saveObservation(dataDir ?? defaultDataDir(), r, { durationS: durationSec, intervalS: intervalSec ?? durationSec, pools: pools.length ? pools : null });
      if (s.ok) {
        saved = { id: s.id, file: s.file };
        io.stderr(`saved as observation ${s.id} of host "${s.hostId}" in ${s.file} (assess/optane use it for 7 days; --no-save to skip)\n`);
      } else if (save === 'required') {
        io.stderr(`zfs-advisor observe: could not save the observation: ${s.message}\n`);
        return EXIT.failure;
      } else io.stderr(`warning: observation not saved: ${s.message}\n`);
    }
    if (json) {
      io.stdout(`${JSON.stringify({ fingerprint: r.fingerprint, summary: summariseFingerprint(r.fingerprint), series: r.series, commands: r.commands, saved }, null, 2)}\n`);
    } else {
      io.stdout(`${summariseFingerprint(r.fingerprint).join('\n')}\n`);
      if (r.fingerprint.notes.length) io.stdout(`\nNotes:\n${r.fingerprint.notes.map((n) => `  - ${n}`).join('\n')}\n`);
    }
    return observedNothing ? EXIT.failure : EXIT.ok;
  },
};
export default command;

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
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/observe.ts';
import { refusal, usageError } from '../framework/errors.ts';
import { requireZfs } from '../framework/zfs-probe.ts';
import { observeWorkload } from '../../observe/collect.ts';
import { summariseFingerprint } from '../../observe/summary.ts';
import { saveObservation } from '../../observe/stored.ts';
import { defaultDataDir } from '../../data-dir.ts';

export { parseDurationSec } from '../framework/values.ts';

export const run: Handler<typeof options> = async ({ values: o }, io) => {
  const durationSec = o.duration ?? 600;
  const intervalSec = o.interval ?? null;
  const pools = o.pool ?? [];
  for (const p of pools) if (!/^[A-Za-z][\w.:-]*$/.test(p)) throw usageError(`--pool "${p}" is not a pool name`, 'give a pool name as `zpool list` shows it, e.g. --pool tank');
  if (intervalSec !== null && intervalSec > durationSec) throw usageError(`--interval ${intervalSec} s is longer than --duration ${durationSec} s`, 'give a shorter interval or a longer duration');
  if (o.save && o['no-save']) throw usageError('--save and --no-save contradict each other', 'give one');
  if (o['data-dir'] !== undefined && o['no-save']) throw usageError('--data-dir does not apply with --no-save', 'leave out one of them');
  const save = o.save ? 'required' : o['no-save'] ? 'off' : 'default';
  await requireZfs('observe', 'run it on the ZFS host (or in its container with the pool devices)');
  if (!o.json) io.stderr(`observing for ${durationSec} s (counters only)…\n`);
  const r = await observeWorkload({ durationSec, intervalSec: intervalSec ?? undefined, pools: pools.length ? pools : undefined });
  const observedNothing = r.fingerprint.pools.length === 0 && r.fingerprint.zil === null;
  if (observedNothing) {
    throw refusal(`no pool counters could be read${pools.length ? ` for ${pools.join(', ')}` : ''} (${r.fingerprint.notes[0] ?? 'no pools'})`, pools.length ? 'check the pool names with `zpool list`' : 'check that a pool is imported (`zpool list`)');
  }
  let saved: { id: number; file: string } | null = null;
  if (save !== 'off') {
    const s = await saveObservation(o['data-dir'] ?? defaultDataDir(), r, { durationS: durationSec, intervalS: intervalSec ?? durationSec, pools: pools.length ? pools : null });
    if (s.ok) {
      saved = { id: s.id, file: s.file };
      io.stderr(`saved as observation ${s.id} of host "${s.hostId}" in ${s.file} (assess/optane use it for 7 days; --no-save to skip)\n`);
    } else if (save === 'required') {
      throw refusal(`could not save the observation: ${s.message}`, 'give a writable --data-dir, or --no-save');
    } else io.stderr(`warning: observation not saved: ${s.message}\n`);
  }
  if (o.json) {
    io.stdout(`${JSON.stringify({ fingerprint: r.fingerprint, summary: summariseFingerprint(r.fingerprint), series: r.series, commands: r.commands, saved }, null, 2)}\n`);
  } else {
    io.stdout(`${summariseFingerprint(r.fingerprint).join('\n')}\n`);
    if (r.fingerprint.notes.length) io.stdout(`\nNotes:\n${r.fingerprint.notes.map((n) => `  - ${n}`).join('\n')}\n`);
  }
  return EXIT.ok;
};

/**
 * Live observation: read counters, let the workload run for the window, read them again.
 * Reads only — kstat files, `sysctl kstat.zfs.misc.*` on FreeBSD, and `zpool iostat` — and does
 * no I/O of its own. Every program runs through the runner; anything unavailable becomes a note.
 *
 * Commands (falling back when the platform refuses an option, e.g. zfs-fuse has no -p/-y/-l/-q/-w/-r):
 *  - at start and end: `zpool iostat -v -p -w`, `zpool iostat -v -p -r` (cumulative histograms);
 *  - during the window: ONE `zpool iostat -y -v -p -l -q INTERVAL COUNT` that sleeps in the kernel
 *    between samples (zfs-fuse: `zpool iostat -v INTERVAL COUNT+1`, first since-boot sample dropped);
 *  - the vdev layout (class of each vdev) is the window's last table; `zpool iostat -v -p` runs
 *    only when the window gave none.
 * CPU cost (issue 10: < 1 %): the cost is process spawns, not parsing (scripts/bench/observe.ts),
 * so an option the platform refused once is not asked again in the same observation, and the
 * spawn count does not grow with the window: 5 spawns for any duration on OpenZFS 2.x.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describeFailure, runCommand, type CommandResult } from '../exec/runner.ts';
import type { WorkloadFingerprint } from '../model/workload.ts';
import { parseZpoolIostat, type IostatTable } from '../parsers/zpool-iostat.ts';
import { buildFingerprint } from './fingerprint.ts';
import { snapshotFromTexts, type CounterSnapshot } from './snapshot.ts';

export interface ObserveOptions {
  durationSec: number;
  /** Sample interval for the time series; defaults to the whole window as one sample. */
  intervalSec?: number;
  platform?: NodeJS.Platform;
  /** Root of the SPL kstats (tests may point elsewhere). */
  kstatDir?: string;
  /** Pools to observe (default: all). */
  pools?: string[];
  signal?: AbortSignal;
}

export interface ObserveResult {
  fingerprint: WorkloadFingerprint;
  /** The window samples (one per interval), for a time-series view. */
  series: IostatTable[];
  /** Every command run, for the evidence trail. */
  commands: { command: string; exitCode: number | null; ms: number }[];
}

const readText = async (path: string): Promise<string | null> => {
  try { return await readFile(path, 'utf8'); } catch { return null; }
};

async function objsetTexts(kstatDir: string): Promise<string[]> {
  let pools: string[];
  try { pools = await readdir(kstatDir); } catch { return []; }
  const out: string[] = [];
  for (const p of pools) {
    let files: string[];
    try { files = await readdir(join(kstatDir, p)); } catch { continue; }
    for (const f of files.filter((x) => x.startsWith('objset-'))) {
      const t = await readText(join(kstatDir, p, f));
      if (t) out.push(t);
    }
  }
  return out;
}

export class CommandLog {
  readonly entries: ObserveResult['commands'] = [];
  readonly notes: string[] = [];
  /** Variants (e.g. 'iostat -w') that failed once: the platform does not have them, don't spawn again. */
  private readonly refused = new Set<string>();
  async run(program: string, args: string[], timeoutMs = 60_000, signal?: AbortSignal): Promise<string | null> {
    const r: CommandResult = await runCommand(program, args, { timeoutMs, signal });
    this.entries.push({ command: [program, ...args].join(' '), exitCode: r.exitCode, ms: Math.round(r.durationMs) });
    const failure = describeFailure(r);
    if (failure) { this.notes.push(failure); return null; }
    return r.stdout;
  }
  /** Like run, but remembers a failure under `variant` and skips that variant from then on. */
  async runOnce(variant: string, program: string, args: string[], timeoutMs?: number, signal?: AbortSignal): Promise<string | null> {
    if (this.refused.has(variant)) return null;
    const out = await this.run(program, args, timeoutMs, signal);
    if (out === null && !signal?.aborted) this.refused.add(variant);
    return out;
  }
}

/** The `-v` layout table (vdev classes) from its own command, when no window table supplies it. */
async function layoutText(opts: ObserveOptions, log: CommandLog): Promise<string | null> {
  const pools = opts.pools ?? [];
  return (await log.runOnce('iostat -v -p', 'zpool', ['iostat', '-v', '-p', ...pools], 60_000, opts.signal))
    ?? (await log.run('zpool', ['iostat', '-v', ...pools], 60_000, opts.signal));
}

/**
 * One counter reading (kstats + cumulative iostat histograms). The layout is read only when
 * `withLayout` (observeWorkload takes it from the window's samples instead).
 */
export async function takeSnapshot(opts: ObserveOptions, log: CommandLog, withLayout = true): Promise<CounterSnapshot> {
  const platform = opts.platform ?? process.platform;
  const kstatDir = opts.kstatDir ?? '/proc/spl/kstat/zfs';
  const pools = opts.pools ?? [];
  const takenAt = new Date().toISOString();
  const monotonicMs = performance.now();
  let zil: string | null;
  let arc: string | null;
  let objsets: string[] = [];
  if (platform === 'freebsd') {
    zil = await log.run('sysctl', ['kstat.zfs.misc.zil'], 10_000, opts.signal);
    arc = await log.run('sysctl', ['kstat.zfs.misc.arcstats'], 10_000, opts.signal);
  } else {
    zil = await readText(join(kstatDir, 'zil'));
    arc = await readText(join(kstatDir, 'arcstats'));
    objsets = await objsetTexts(kstatDir);
  }
  const [iostatW, iostatR] = await Promise.all([
    log.runOnce('iostat -w', 'zpool', ['iostat', '-v', '-p', '-w', ...pools], 60_000, opts.signal),
    log.runOnce('iostat -r', 'zpool', ['iostat', '-v', '-p', '-r', ...pools], 60_000, opts.signal),
  ]);
  const iostatV = withLayout ? await layoutText(opts, log) : null;
  const snap = snapshotFromTexts({ takenAt, monotonicMs, zil, arc, objsets, iostatW, iostatR, iostatV });
  if (!zil) snap.notes.push(platform === 'freebsd' ? 'sysctl kstat.zfs.misc.zil unavailable' : `${join(kstatDir, 'zil')} not readable (no OpenZFS kernel module?)`);
  return snap;
}

/** The window itself: interval samples of the iostat table (rates averaged by zpool over each interval). */
async function windowSamples(opts: ObserveOptions, log: CommandLog): Promise<IostatTable[]> {
  const interval = Math.max(1, Math.round(opts.intervalSec ?? opts.durationSec));
  const count = Math.max(1, Math.round(opts.durationSec / interval));
  const timeout = (opts.durationSec + 60) * 1000;
  const pools = opts.pools ?? [];
  const full = await log.runOnce('iostat -y -l -q', 'zpool', ['iostat', '-y', '-v', '-p', '-l', '-q', ...pools, String(interval), String(count)], timeout, opts.signal);
  const parsedFull = full ? parseZpoolIostat(full) : null;
  if (parsedFull?.ok && parsedFull.value.tables.length > 0) return parsedFull.value.tables;
  // Older OpenZFS / zfs-fuse: no -y/-p/-l/-q. The first report is the since-boot average: drop it.
  const plain = await log.run('zpool', ['iostat', '-v', ...pools, String(interval), String(count + 1)], timeout, opts.signal);
  const parsedPlain = plain ? parseZpoolIostat(plain) : null;
  if (parsedPlain?.ok) {
    log.notes.push('zpool iostat without -y/-p/-l/-q (older ZFS or zfs-fuse): rates rounded by zpool, no latency or queue columns');
    return parsedPlain.value.tables.slice(1);
  }
  return [];
}

export async function observeWorkload(opts: ObserveOptions): Promise<ObserveResult> {
  const log = new CommandLog();
  const start = await takeSnapshot(opts, log, false);
  const series = await windowSamples(opts, log);
  const fromWindow = series.at(-1) ?? null;
  const end = await takeSnapshot(opts, log, fromWindow === null);
  if (fromWindow) end.layout = fromWindow;
  const fingerprint = buildFingerprint({ start, end, window: series, source: 'live', notes: log.notes });
  return { fingerprint, series, commands: log.entries };
}

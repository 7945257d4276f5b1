/**
 * Builds fio's argument array for a profile on a prepared target. Pure: the same inputs give
 * the same command, which is what `--dry-run` prints and what the fidelity script runs bare.
 *
 * Method choices (and why):
 * - 4k random writes, time-based, QD1 and QD16: the method of 000 (SLOG comparison). Concurrency
 *   comes from jobs, not from an AIO queue: 000 used posixaio on FreeBSD, where the kernel runs each
 *   request, but glibc's POSIX AIO runs one file descriptor's requests one after another, so on
 *   Linux posixaio at iodepth=16 measured QD1 (lab, OpenZFS 2.3: 109 sync IOPS at "QD16" and the
 *   same at QD1, where 16 writers did 330; each write waited ~140 ms = 16 queued writes). So N
 *   outstanding I/Os are N threads doing psync, reported as one group; sequential profiles give
 *   each thread its own contiguous part of the file.
 * - incompressible data: refill_buffers=1, zero_buffers=0, so compression cannot flatter writes.
 * - the file is laid out by a separate `create_only` run first, so layout time is neither in
 *   fio's runtime nor in the measured wall time (002 compares exactly those two).
 * - sync writes: sync=always on the temporary dataset (the 000 method) when the platform has the
 *   property; otherwise fio's own fallback: fsync after every write at QD1 (its latency is then
 *   in jobs[].sync.lat_ns) and O_SYNC writes at QD16.
 * - raw devices: O_DIRECT, and allow_mounted_write=0 stays explicit; directories whose file system
 *   honours it: O_DIRECT for read profiles (read-honesty.ts).
 * - `--thread`: one process to stop, whatever happens.
 */
import type { Profile } from './profiles.ts';

export type SyncMode = 'property' | 'fio-sync' | 'fio-fsync' | 'async';

export interface FioPlan {
  /** The data file, or the device node for a raw-device target. */
  filename: string;
  sizeBytes: number;
  runtimeS: number;
  syncMode: SyncMode;
  rawDevice: boolean;
  /**
   * O_DIRECT. Files: only when asked (honest reads, or a suite's io=direct). Raw devices and zvols:
   * on unless a suite asks for buffered I/O (002's zvol + buffered case).
   */
  direct?: boolean;
}

/** Which sync mechanism a profile gets on a target. */
export function chooseSyncMode(profile: Profile, syncPropertyUsable: boolean): SyncMode {
  if (!profile.sync) return 'async';
  if (syncPropertyUsable) return 'property';
  return profile.iodepth === 1 ? 'fio-fsync' : 'fio-sync';
}

const isSequential = (p: Profile): boolean => p.rw === 'write' || p.rw === 'read';

/**
 * The threads a measured run starts: the profile's outstanding I/Os, but for a sequential profile
 * never more than the file has blocks, so every thread streams its own part inside the file.
 */
export function fioThreads(profile: Profile, plan: Pick<FioPlan, 'sizeBytes'>): number {
  if (!isSequential(profile)) return Math.max(1, profile.iodepth);
  return Math.max(1, Math.min(profile.iodepth, Math.floor(plan.sizeBytes / profile.blockSize)));
}

/** Outstanding I/Os = threads (see above); the layout run is always one. */
function baseArgs(profile: Profile, plan: FioPlan, jobs: number = fioThreads(profile, plan)): string[] {
  // Sequential: each thread streams its own part (offset_increment), so N threads never read the same blocks.
  const part = isSequential(profile) && jobs > 1 ? Math.floor(plan.sizeBytes / jobs / profile.blockSize) * profile.blockSize : null;
  const args = [
    `--name=${profile.id}`,
    `--filename=${plan.filename}`,
    '--ioengine=psync',
    `--rw=${profile.rw}`,
    `--bs=${profile.blockSize}`,
    '--iodepth=1',
    `--numjobs=${jobs}`,
    // Jobs as threads of the one fio process: killing its pid stops all I/O (no forked job left
    // writing into a directory being removed).
    '--thread',
    ...(jobs > 1 ? ['--group_reporting=1'] : []),
    ...(part !== null ? [`--size=${part}`, `--offset_increment=${part}`] : [`--size=${plan.sizeBytes}`]),
    '--refill_buffers=1',
    '--zero_buffers=0',
    '--randrepeat=0',
  ];
  if (profile.rwmixread !== null) args.push(`--rwmixread=${profile.rwmixread}`);
  if (plan.direct ?? plan.rawDevice) args.push('--direct=1');
  if (plan.rawDevice) args.push('--allow_mounted_write=0');
  return args;
}

/**
 * An async sequential write goes once through its file (the runtime only caps it): wrapping around
 * would overwrite blocks still dirty in memory, which never reach the disks, and fio would count
 * them, so the run would measure RAM instead of what the pool writes back (measured-bandwidth.ts).
 * And it writes a new file, as a backup or a media copy does, not over a laid-out one.
 */
const writesOnce = (profile: Profile, plan: FioPlan): boolean => plan.syncMode === 'async' && profile.writes && isSequential(profile);

/** Lays out the test file (skipped for raw devices, with nothing to create, and for a new file written once). */
export function layoutArgs(profile: Profile, plan: FioPlan): string[] | null {
  if (plan.rawDevice || writesOnce(profile, plan)) return null;
  return [...baseArgs(profile, plan, 1), '--create_only=1', '--output-format=json'];
}

/** The measured run. */
export function runArgs(profile: Profile, plan: FioPlan): string[] {
  const args = [...baseArgs(profile, plan), `--runtime=${plan.runtimeS}`, ...(writesOnce(profile, plan) ? [] : ['--time_based=1'])];
  if (plan.syncMode === 'fio-fsync') args.push('--fsync=1');
  if (plan.syncMode === 'fio-sync') args.push('--sync=1');
  // Async writes: count the flush at the end, or RAM alone would be measured.
  if (plan.syncMode === 'async' && profile.writes) args.push('--end_fsync=1');
  args.push('--output-format=json', '--status-interval=1');
  return args;
}

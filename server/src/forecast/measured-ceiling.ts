/**
 * What a many-writer sync-write run measured on the pool (the QD16 probe, `bench
 * sync-write-4k-qd16`), read against the QD1 probe:
 *   - "now" for that many writers is the measurement, and between one writer and that many it is
 *     interpolated between the two measurements, not modelled: group commit batches fewer writers
 *     per log block than the model assumes when the log device queues (lwbs are issued before the
 *     previous completes, zfs_commit_timeout_pct);
 *   - when it did far less than group commit on the measured ZIL latency allows, something binds.
 *     If the CPUs were busy throughout (≥ HOST_BUSY_PCT), it is the host (each writer's system
 *     call, log record and wake-up), and no log device lifts it: "with" is held there too. If not,
 *     it is the data vdevs, which also carry the ZIL, and a SLOG takes that away: "with" stays
 *     the model's, under the host's CPU limit (forecast.ts).
 *
 * Why: in the lab (OpenZFS 2.3, QEMU TCG, two vCPUs, a mirror of disks throttled to 150 IOPS) on
 * a quiet host, plain fio with 16 writers on 4 KiB records did 451 sync IOPS with the CPUs less
 * than half busy, and 1,915 once a log device was added; on a host shared with two other guests
 * (load 5) the probe's 16 writers did 332, and 266–300 after (BENCHMARKS.md, "Advice followed").
 */
import type { BenchmarkSummary } from '../model/workload.ts';
import { DEFAULT_PARAMS, estimate, poolCeiling, type DataVdevs, type DatasetSide, type LogTarget, type Workload } from './model.ts';
import { recordsizeFor } from '../bench/profiles.ts';
import { formatCount } from '../text/format.ts';

export interface MeasuredCeiling {
  /** Sync IOPS measured with `writers` outstanding. */
  iops: number;
  writers: number;
  blockSize: number;
  /** The QD1 probe's IOPS on the same layout (the other end of the interpolation). */
  qd1Iops: number;
  /** What binds those writers, when they did far less than the ZIL path allows; null when they did not. */
  binds: 'host' | 'pool' | null;
  /** A new log device does not lift it: "with" is held at the measurement too. */
  holdsWith: boolean;
  runId: string;
  startedAt: string;
  /** One sentence: what was measured and what it means. */
  basis: string;
}

/** A measurement below this share of what the ZIL path allows shows another limit. */
export const BIND_SHARE = 0.5;
/** CPUs at least this busy (mean over the run) bound the run: the host, not a device. */
export const HOST_BUSY_PCT = 85;

export function measuredCeiling(run: BenchmarkSummary, qd1Iops: number, data: DataVdevs, log: LogTarget, side: DatasetSide): MeasuredCeiling {
  const T = Math.max(1, run.writers ?? 1);
  // As the run was made: T threads of one write each, on the probe's own dataset (records of one write).
  const w: Workload = { rw: 'randwrite', bs: run.blockSize, iodepth: 1, numjobs: T, sync: 'always' };
  const probeSide: DatasetSide = { ...side, sync: 'always', logbias: 'latency', target: 'dataset', blockSize: recordsizeFor({ rw: 'randwrite', blockSize: run.blockSize }) };
  // What group commit on the measured ZIL latency would give these writers, before any ceiling.
  const zilAllows = estimate(data, log, probeSide, w, DEFAULT_PARAMS).latencyIops;
  const iops = run.writeIops;
  const base = { iops, writers: T, blockSize: run.blockSize, qd1Iops, runId: run.id, startedAt: run.startedAt };
  const measured = `measured on this host: ${formatCount(Math.round(iops))} sync IOPS with ${T} writers (benchmark ${run.id}, ${run.startedAt})`;
  if (iops >= BIND_SHARE * zilAllows) return { ...base, binds: null, holdsWith: false, basis: `${measured}.` };
  const busy = run.system?.cpuBusyPctMean ?? null;
  const embedded = log.kind === 'data';
  const shared = poolCeiling(data, probeSide, w, 'typical', embedded ? w.bs : 0);
  // The CPUs' busy share says which: busy throughout = the host. Runs stored before it was
  // recorded fall back to the model's bandwidth: near it the disks bind, far below it the host.
  const hostBinds = busy !== null ? busy >= HOST_BUSY_PCT : iops < BIND_SHARE * shared;
  const cpu = busy !== null ? ` with the CPUs ${Math.round(busy)} % busy` : '';
  const why = `${measured}${cpu}, where group commit on the measured ZIL latency would allow ~${formatCount(Math.round(zilAllows))}: `;
  if (hostBinds) {
    return { ...base, binds: 'host', holdsWith: true, basis: `${why}the host binds (its CPU per writer: system call, log record, wake-up), and no log device lifts it for ${T} or more writers.` };
  }
  // A SLOG takes the ZIL's blocks off the data disks (their IOPS, not only their bandwidth); how
  // much that lifts is the model's, under the host's CPU limit (forecast.ts).
  return {
    ...base, binds: 'pool', holdsWith: !embedded,
    basis: embedded
      ? `${why}the data vdevs bind (they also hold the ZIL's blocks), and a log vdev takes those off them.`
      : `${why}the data vdevs bind, and another log device does not lift it for ${T} or more writers.`,
  };
}

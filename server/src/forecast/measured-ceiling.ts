/**
 * A limit the ZIL device does not set, measured: a sync-write run on the pool with several writers
 * outstanding (the QD16 probe, `bench sync-write-4k-qd16`) that did far less than group commit on
 * the pool's measured ZIL latency allows. Then something else binds those writers — the host's CPU
 * (each writer's record, wake-up and system call) or the data vdevs — and a new log device cannot
 * lift it: the forecast holds "now" and "with" at what was measured for at least as many writers,
 * raised only by what a SLOG really takes off the data disks (their share of the ZIL's copies).
 *
 * Why: in the lab (OpenZFS 2.3, QEMU TCG, two vCPUs) 16 writers did 292 sync IOPS on a hard-disk
 * mirror and 402 and 394 after either log device was added; 64 writers 304, then 283 and 273; the
 * model without this forecast ~2× both times (BENCHMARKS.md, "Advice followed").
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
  /** What a SLOG may add on top: the data vdevs' share of the ZIL copies, 1 when the host binds. */
  relief: number;
  runId: string;
  startedAt: string;
  /** One sentence: what was measured and what it means. */
  basis: string;
}

/** A measurement below this share of what the ZIL path allows shows another limit. */
export const BIND_SHARE = 0.5;

export function measuredCeiling(run: BenchmarkSummary, data: DataVdevs, log: LogTarget, side: DatasetSide): MeasuredCeiling | null {
  const T = Math.max(1, run.writers ?? 1);
  // As the run was made: T threads of one write each, on the probe's own dataset (records of one write).
  const w: Workload = { rw: 'randwrite', bs: run.blockSize, iodepth: 1, numjobs: T, sync: 'always' };
  const probeSide: DatasetSide = { ...side, sync: 'always', logbias: 'latency', target: 'dataset', blockSize: recordsizeFor({ rw: 'randwrite', blockSize: run.blockSize }) };
  // What group commit on the measured ZIL latency would give these writers, before any ceiling.
  const zilAllows = estimate(data, log, probeSide, w, DEFAULT_PARAMS).latencyIops;
  if (run.writeIops >= BIND_SHARE * zilAllows) return null;
  // Near the data vdevs' modelled bandwidth (which also carries the ZIL's copies when there is no
  // log vdev) the disks bind, and a SLOG takes those copies away; far below it, the host binds
  // (CPU per writer: system call, log record, wake-up) and nothing is taken away.
  const embedded = log.kind === 'data';
  const shared = poolCeiling(data, probeSide, w, 'typical', embedded ? w.bs : 0);
  const poolBinds = run.writeIops >= BIND_SHARE * shared;
  const relief = poolBinds && embedded ? poolCeiling(data, probeSide, w, 'typical', 0) / shared : 1;
  const iops = run.writeIops;
  const limit = poolBinds
    ? embedded
      ? `the data vdevs bind (they also hold the ZIL's copies), so a SLOG lifts it at most to ~${formatCount(Math.round(iops * relief))} for ${T} or more writers.`
      : `the data vdevs bind, and another log device does not lift it for ${T} or more writers.`
    : `a limit other than the disks binds (the host's CPU per writer), and no log device lifts it for ${T} or more writers.`;
  return {
    iops, writers: T, blockSize: run.blockSize, relief, runId: run.id, startedAt: run.startedAt,
    basis: `measured on this host: ${formatCount(Math.round(iops))} sync IOPS with ${T} writers (benchmark ${run.id}, ${run.startedAt}), ` +
      `where group commit on the measured ZIL latency would allow ~${formatCount(Math.round(zilAllows))}: ${limit}`,
  };
}

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
import { DEFAULT_PARAMS, asyncCeiling, estimate, type DataVdevs, type DatasetSide, type LogTarget, type Workload } from './model.ts';
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
  const T = Math.max(1, run.iodepth);
  const w: Workload = { rw: 'randwrite', bs: run.blockSize, iodepth: T, numjobs: 1, sync: 'always' };
  // What group commit on the measured ZIL latency would give these writers, before any ceiling.
  const zilAllows = estimate(data, log, side, w, DEFAULT_PARAMS).latencyIops;
  if (run.writeIops >= BIND_SHARE * zilAllows) return null;
  // Where the data vdevs bind (the measurement near their modelled ceiling with the ZIL's copies on
  // them), a SLOG takes those copies away; far below it, the host binds and nothing is taken away.
  const shared = asyncCeiling(data, side, w, DEFAULT_PARAMS, 'typical', log.kind === 'data' ? w.bs : 0);
  const alone = asyncCeiling(data, side, w, DEFAULT_PARAMS, 'typical', 0);
  const poolBinds = run.writeIops >= BIND_SHARE * shared;
  const relief = poolBinds ? alone / shared : 1;
  const iops = run.writeIops;
  return {
    iops, writers: T, blockSize: run.blockSize, relief, runId: run.id, startedAt: run.startedAt,
    basis: `measured on this host: ${formatCount(Math.round(iops))} sync IOPS with ${T} writers (benchmark ${run.id}, ${run.startedAt}), ` +
      `where group commit on the measured ZIL latency would allow ~${formatCount(Math.round(zilAllows))}: ` +
      (poolBinds
        ? `the data vdevs bind (they also hold the ZIL's copies), so a SLOG lifts at most that share (${formatCount(Math.round(iops * relief))}) for ${T} or more writers.`
        : `a limit other than the disks binds (the host's CPU per writer), and no log device lifts it for ${T} or more writers.`),
  };
}

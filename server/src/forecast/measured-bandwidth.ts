/**
 * What this pool's data vdevs write back, sustained, as the app's `seq-write-1m` probe measured it
 * (async 1 MiB writes into 128 KiB records, the run ending with an fsync that fio counts in its
 * runtime). Every dirty record reaches the disks at txg sync whatever the log device, so many small
 * sync writes into larger records are bounded by this bandwidth with or without a SLOG (a 4 KiB
 * write rewrites its whole 128 KiB record): the pool's ceiling then rests on it instead of the
 * disks' class figure.
 *
 * Why measured: in the lab (OpenZFS 2.3, a mirror of two disks QEMU throttles to 150 IOPS) plain
 * fio wrote back 58 MiB/s on 1 GiB disks (a small vdev's metaslabs fragment and its aggregated
 * writes shrink), 102–112 MiB/s on 4 GiB disks, and this probe 94–105 MiB/s on 8 GiB disks holding a
 * 2 GiB file, where the class figure says 170 MB/s. 16 and 64 writers of 4 KiB into 128 KiB records
 * with a log device then ran at 0.75–1.05× this bandwidth ÷ 128 KiB (BENCHMARKS.md, "Advice
 * followed"). Until the bench dataset's quota left room for writes in RAM (targets.ts), the quota
 * throttled this probe to 69–83 MiB/s.
 */
import type { BenchmarkSummary } from '../model/workload.ts';
import { formatRate } from '../text/format.ts';
import { dataBandwidth, type DataVdevs } from './model.ts';
import { newestRun } from './newest-run.ts';

export interface MeasuredBandwidth {
  /** User bytes per second the pool wrote back, the end fsync included. */
  bytesPerSec: number;
  runId: string;
  startedAt: string;
  /** One sentence: what was measured and what the forecast does with it. */
  basis: string;
}

/** The profile that measures it. */
export const BANDWIDTH_PROFILE = 'seq-write-1m';

/**
 * A run measures the write-back only when no block was written twice: a time-based run that wrapped
 * around its file overwrote dirty blocks in memory, which never reach the disks (fio would count
 * them all). Runs stored before the file size was recorded cannot show that.
 */
export function writesOnce(run: BenchmarkSummary): boolean {
  if (run.fileBytes === undefined || run.fioRuntimeSeconds === null) return false;
  return run.writeBytesPerSec * run.fioRuntimeSeconds <= run.fileBytes * 1.02;
}

/** The newest completed bandwidth probe on a dataset of `pool` that measured the write-back, on `fingerprint`'s layout when given. */
export function newestBandwidthRun(runs: readonly BenchmarkSummary[] | undefined, pool: string, fingerprint?: string | null): BenchmarkSummary | null {
  return newestRun(runs, (x) => x.pool === pool && x.status === 'completed' && x.profile === BANDWIDTH_PROFILE && x.syncMode === 'async'
    && x.targetKind === 'dataset' && x.writeBytesPerSec > 0 && writesOnce(x)
    && (fingerprint == null || x.topologyFingerprint === fingerprint));
}

export function measuredBandwidth(run: BenchmarkSummary): MeasuredBandwidth {
  return {
    bytesPerSec: run.writeBytesPerSec, runId: run.id, startedAt: run.startedAt,
    basis: `The data vdevs' write-back was measured on this host: ${formatRate(run.writeBytesPerSec)} (benchmark ${run.id}, ${run.startedAt}); every record a write dirties is written back at txg sync whatever the log device, so the pool's sustained ceiling rests on it, not on the disks' class figure.`,
  };
}

/** `data` with the per-disk bandwidth that makes the model's 1 MiB sequential write-back equal the measurement (unchanged without one). */
export function withMeasuredBandwidth(data: DataVdevs, bw: MeasuredBandwidth | null | undefined): DataVdevs {
  if (!bw) return data;
  const unit = dataBandwidth({ ...data, measuredDiskMBps: 1 }, 2 ** 20, 131_072, 'typical', 'write');
  return { ...data, measuredDiskMBps: bw.bytesPerSec / 1e6 / unit };
}

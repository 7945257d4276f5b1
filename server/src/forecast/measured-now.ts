/**
 * Measure before forecasting: what this host already measured about a pool's sync writes, as the
 * forecast's "now". A completed QD1 4 KiB sync-write benchmark on the pool (the app's probe,
 * `bench sync-write-4k-qd1`) wins; else the sync-write latency a workload observation saw on the
 * ZIL's vdevs; else nothing, and the forecast is a model estimate that says how to measure it.
 * The Optane verdict and the slog-benefit rule both read it here, so they state the same "now" and
 * the same confidence (confidence.ts).
 */
import type { BenchmarkSummary, WorkloadFingerprint } from '../model/workload.ts';
import type { Host, Pool, Drive, Dataset } from '../model/inventory.ts';
import { zilHome } from '../../../rules/lib/slog-devices.ts';
import { observedSyncLatency, type ObservedSyncLatency } from '../optane/observed-latency.ts';
import type { DeviceProfile } from './catalog.ts';
import { DEFAULT_PARAMS, estimate, latencyForMeasured } from './model.ts';
import { currentLog, dataVdevs, datasetSide } from './pool-shape.ts';
import { formatCount } from '../text/format.ts';
import { measurePoolHint, probeCommand, type ForecastOptions, type HostCpu } from './forecast.ts';
import { measuredCeiling, type MeasuredCeiling } from './measured-ceiling.ts';
import { measuredBandwidth, newestBandwidthRun, withMeasuredBandwidth, type MeasuredBandwidth } from './measured-bandwidth.ts';
import { newestRun } from './newest-run.ts';

export type NowSource = 'benchmark' | 'observed' | 'model';

export interface MeasuredNow {
  source: NowSource;
  /** QD1 4 KiB sync IOPS the newest completed probe measured on the pool, else null. */
  measuredQd1: number | null;
  /** The benchmark it came from (id and start), when one did. */
  benchmark: Pick<BenchmarkSummary, 'id' | 'startedAt' | 'target'> | null;
  observed: ObservedSyncLatency | null;
  /** The current ZIL device with the measured latency, for the forecast's `nowDevice`; undefined for 'model'. */
  device: DeviceProfile | undefined;
  /** One sentence: what "now" rests on. */
  basis: string;
  /** µs per QD1 write the probe measured beyond the model's estimate for the same device (possibly host overhead), else 0. */
  hostExtraUs: number;
  /** A many-writer sync run on the pool, read against the probe (measured-ceiling.ts), else null. */
  ceiling: MeasuredCeiling | null;
  /** The probe's CPU per sync write in the writing thread, when it recorded one (forecast.ts HostCpu). */
  hostCpu: HostCpu | null;
  /** The data vdevs' write-back, measured by the bandwidth probe on the same layout (measured-bandwidth.ts), else null. */
  bandwidth: MeasuredBandwidth | null;
  /** The newest probes of the pool these figures rest on: QD1, many writers (read against it), write-back bandwidth. */
  runs: { qd1: BenchmarkSummary | null; manyWriters: BenchmarkSummary | null; bandwidth: BenchmarkSummary | null };
}

/**
 * The newest completed 4 KiB sync-write run with several writer threads (`writers`: runs stored
 * before they were threads had none) on a dataset of `pool`, writes only, on the same pool layout
 * as the QD1 probe `probe` it is read against.
 */
export function newestManyWriterRun(runs: readonly BenchmarkSummary[] | undefined, pool: string, probe: BenchmarkSummary): BenchmarkSummary | null {
  return newestSyncRun(runs, pool, (x) => (x.writers ?? 1) > 1 && x.readIops === 0 && (x.targetKind === undefined || x.targetKind === 'dataset')
    && x.topologyFingerprint !== null && x.topologyFingerprint === probe.topologyFingerprint);
}

/** The options every forecast of this pool takes from what was measured on it. */
export function forecastOptionsOf(now: MeasuredNow): ForecastOptions {
  return {
    ...(now.device ? { nowDevice: now.device } : {}), ...(now.hostExtraUs > 0 ? { hostExtraUs: now.hostExtraUs } : {}),
    ...(now.ceiling ? { ceiling: now.ceiling } : {}), ...(now.hostCpu ? { hostCpu: now.hostCpu } : {}),
    ...(now.bandwidth ? { bandwidth: now.bandwidth } : {}),
  };
}

/** The one-click measurement that replaces a model estimate of "now" (forecast.ts, re-exported for the verdict). */
export { probeCommand };

/** The newest completed run on `pool` that measured real 4 KiB sync writes and passes `also`. */
function newestSyncRun(runs: readonly BenchmarkSummary[] | undefined, pool: string, also: (x: BenchmarkSummary) => boolean): BenchmarkSummary | null {
  return newestRun(runs, (x) => x.pool === pool && x.status === 'completed' && x.blockSize === 4096 && x.writeIops > 0
    // end_fsync-only runs and sync=disabled datasets do not measure the ZIL.
    && x.syncMode !== 'async' && x.sync !== 'disabled' && also(x));
}

/** The newest completed run that measured real sync writes at QD1, 4 KiB, on a dataset of `pool`. */
export function newestQd1Probe(runs: readonly BenchmarkSummary[] | undefined, pool: string): BenchmarkSummary | null {
  return newestSyncRun(runs, pool, (x) => x.iodepth === 1 && (x.targetKind === undefined || x.targetKind === 'dataset' || x.targetKind === 'zvol'));
}

/**
 * µs per write a measurement of `iops` (with T writers) shows beyond the model's `modelled` for the
 * same device. Counted only for flash: a hard disk's own latency spreads over 10× (write cache,
 * seeks), so there the excess is more likely the disk than the host; so does a LUN's.
 */
export function hostExtraOf(device: DeviceProfile, iops: number, modelled: number, T: number): number {
  // Nor for a virtual disk or LUN, or a device of unknown kind: their class latency is a wide guess,
  // and the excess is the device's (a network round trip, the storage behind it), not the host's.
  if (device.cls === 'hdd' || device.cls === 'virtual' || device.cls === 'unknown' || iops >= modelled) return 0;
  return (T * 1e6) / iops - (T * 1e6) / modelled;
}

const withLatency = (base: DeviceProfile, typical: number, low: number, high: number, basis: string): DeviceProfile => ({
  ...base, id: `measured:${base.id}`, matched: 'measured', slogMeasurements: [], basis,
  lat4kUs: { typical, low, high, kind: 'measured', source: 'this host', quote: basis },
});

export function measuredNow(
  a: { Benchmarks?: readonly BenchmarkSummary[] | undefined; Workload?: WorkloadFingerprint | undefined; Drives?: readonly Drive[] | undefined; Datasets?: readonly Dataset[] | undefined; Host?: Host | null | undefined },
  pool: Pool,
): MeasuredNow {
  const drives = a.Drives ?? [];
  const log = currentLog(pool, drives, a.Host);
  const probe = newestQd1Probe(a.Benchmarks, pool.name);
  const bwRun = newestBandwidthRun(a.Benchmarks, pool.name, probe?.topologyFingerprint);
  const bandwidth = bwRun ? measuredBandwidth(bwRun) : null;
  if (probe) {
    const m = probe.writeIops;
    const basis = `measured on this host: ${formatCount(Math.round(m))} sync IOPS at QD1, 4 KiB (benchmark ${probe.id}, ${probe.startedAt})`;
    const { side } = datasetSide(pool, a.Datasets ? [...a.Datasets] : undefined, a.Host);
    const w = { rw: 'randwrite' as const, bs: 4096, iodepth: 1, numjobs: 1, sync: 'always' as const };
    const data = withMeasuredBandwidth(dataVdevs(pool, drives), bandwidth);
    const us = (iops: number) => latencyForMeasured(data, log, { ...side, sync: 'always' }, w, iops, DEFAULT_PARAMS) ?? 1;
    const modelled = estimate(data, log, { ...side, sync: 'always' }, w, DEFAULT_PARAMS).latencyIops;
    const device = withLatency(log.device, us(m), us(m * 1.1), us(m * 0.9), basis);
    const many = newestManyWriterRun(a.Benchmarks, pool.name, probe);
    return {
      bandwidth, runs: { qd1: probe, manyWriters: many, bandwidth: bwRun },
      ceiling: many ? measuredCeiling(many, m, data, { ...log, device }, { ...side, sync: 'always' }) : null,
      hostCpu: probe.cpuUsPerIo ? { usPerWrite: probe.cpuUsPerIo, cpus: probe.system?.cpus ?? null, runId: probe.id } : null,
      hostExtraUs: hostExtraOf(log.device, m, modelled, 1),
      source: 'benchmark', measuredQd1: m, benchmark: { id: probe.id, startedAt: probe.startedAt, target: probe.target }, observed: null,
      device, basis,
    };
  }
  const observed = observedSyncLatency(a.Workload, pool.name, zilHome(pool, a.Host?.zfs.openzfs));
  if (observed) {
    const l = observed.latency;
    return { bandwidth, runs: { qd1: null, manyWriters: null, bandwidth: bwRun }, ceiling: null, hostCpu: null, hostExtraUs: 0, source: 'observed', measuredQd1: null, benchmark: null, observed, device: withLatency(log.device, l.typicalUs, l.lowUs, l.highUs, observed.basis), basis: observed.basis };
  }
  return {
    bandwidth, runs: { qd1: null, manyWriters: null, bandwidth: bwRun }, ceiling: null, hostCpu: null, hostExtraUs: 0, source: 'model', measuredQd1: null, benchmark: null, observed: null, device: undefined,
    basis: `model estimate, not measured on this host (${log.device.basis}); measure it in one click: ${measurePoolHint(pool.name)}`,
  };
}

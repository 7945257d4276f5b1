/**
 * The sync-write model: IOPS of a write workload on a pool shape through one ZIL path. Pure
 * arithmetic on a `PoolShape` (pool-shape.ts builds it from an inventory, calibration.ts from a
 * published record), so the same code forecasts a user's pool and scores the calibration set.
 *
 * Per write at queue depth 1 (zfs-facts A7, A19):
 *   copied    (SLOG, 2.4+ special with zil_special_is_slog, or a small write without SLOG):
 *             L = O + D_log(bs)                               data goes into the log block
 *   indirect  (logbias=throughput, or ≥ zfs_immediate_write_sz without a SLOG):
 *             L = O + max(T_data(bs), D_log(4 KiB))          data written in place, log holds a pointer;
 *                                                             both writes are issued together (lwb root zio)
 *   D(s) = latency_4k × slowest-of-k + (s − 4 KiB) / bandwidth
 * Group commit: with T = iodepth × numjobs writers outstanding, the writers that arrive while one
 * log block is written and flushed all go into the next one, so one write and one flush (A18, A19)
 * serve up to T waiting writers. A round costs the flush latency once, the batch's bytes once, and
 * a small per-writer penalty q (more records to assemble, the flush draining a fuller cache):
 *   R(T) = O + D × (1 + q × f_class × (T − 1) / parallel) + (T − 1) × bs_copied / bandwidth
 *   IOPS = T / R(T)
 * so a flush-bound log device gains almost T-fold from concurrency until the batch transfer or the
 * ceiling binds. IOPS are capped by the pool's sustained (async) ceiling and the host (a SLOG does
 * not raise sustained throughput, A17) and, for copied writes, by the log device's bandwidth (large
 * sync writes through a slow SLOG, A11).
 * ZIL blocks on hard-disk data vdevs are appended in the embedded log metaslab (A3) into the disks'
 * write cache, so their cost is a share h of a random 4 KiB write: from a cached append (fast end)
 * to a full seek (slow end). O (per-commit ZFS overhead), q, h and the ceiling scale are fitted on
 * the calibration set.
 */
import type { DeviceProfile } from './catalog.ts';
import { factLink } from './cite.ts';
import { formatLatencyUs, formatRange } from '../text/format.ts';

export interface Range3 { typical: number; low: number; high: number }

export interface ModelParams {
  /** Per-commit ZFS software overhead, µs (000: 34.5 and 46.4 µs on its two Optane runs). */
  overheadUs: Range3;
  /** Queue penalty per extra outstanding write, relative to the device latency (000: 894 IOPS at QD16 on the HDD mirror). */
  queuePenalty: number;
  /** Sync IOPS cap as a share of the pool's async ceiling. */
  ceilingScale: Range3;
  /** Host ceiling for 4 KiB writes of one fio job, IOPS (000: 48.3k with sync=disabled on a Xeon D-1541). */
  hostIops: Range3;
  /** Multiplicative slack on both ends of a range: the model's own error on the calibration set. */
  slack: number;
  /** A ZIL write on hard-disk data vdevs as a share of a random 4 KiB write (appended into the write cache, A3). */
  hddZilScale: number;
}

/** The model's parameters with the fixed ratios around each fitted value (fit.ts searches the fitted ones). */
export function paramsOf(overhead: number, queue: number, ceiling: number, host: number, slack: number, hddZil = 1): ModelParams {
  return {
    hddZilScale: hddZil,
    overheadUs: { typical: overhead, low: overhead * 0.6, high: overhead * 1.5 },
    queuePenalty: queue,
    ceilingScale: { typical: ceiling, low: ceiling * 0.7, high: ceiling * 1.4 },
    hostIops: { typical: host, low: host * 0.5, high: host * 2.5 },
    slack,
  };
}

/**
 * Fitted on the whole calibration set (`fit()` in fit.ts; tests/forecast/calibration.test.ts checks
 * these are still what the fit gives): 40 µs per commit, queue penalty 0.001 (flash; hard disks use
 * the 0.0325 measured in 000, device-catalog.json), ceiling scale 1, range slack 1 (the ranges'
 * own ends already hold ≥ 80 % of the set), hard-disk ZIL share 0.6. The host ceiling, 60k IOPS per
 * job, is a class estimate, not fitted (000: 48.3k async and 80.7k in an 8 s SLOG burst on a Xeon D-1541).
 */
export const DEFAULT_PARAMS: ModelParams = paramsOf(40, 0.001, 1, 60_000, 1, 0.6);

export type Layout = 'mirror' | 'raidz' | 'draid' | 'stripe';

export interface DataVdevs {
  layout: Layout;
  /** Top-level data vdevs. */
  vdevs: number;
  /** Devices per top-level vdev. */
  width: number;
  parity: number;
  media: DeviceProfile;
}

export interface LogTarget {
  kind: 'slog' | 'special' | 'data';
  device: DeviceProfile;
  /** Top-level vdevs of that class (log blocks are spread across them). */
  vdevs: number;
  /** Devices each log write waits for (mirror width, raidz columns). */
  waitsFor: number;
  /** Devices a large log write streams across (raidz data columns), 1 for a single device or mirror. */
  streams: number;
}

export interface DatasetSide {
  sync: 'standard' | 'always' | 'disabled';
  logbias: 'latency' | 'throughput';
  target: 'dataset' | 'zvol';
  /** recordsize (dataset) or volblocksize (zvol), bytes. */
  blockSize: number;
  /** OpenZFS version ("2.1.6"), null when unknown (treated as ≤ 2.3). */
  openzfs: string | null;
}

export interface Workload {
  rw: 'randwrite' | 'write';
  bs: number;
  iodepth: number;
  numjobs: number;
  sync: 'always' | 'fsync' | 'none';
}

export interface Estimate {
  iops: number;
  low: number;
  high: number;
  /** What the ZIL path's latency alone allows (before the pool's async ceiling and the log bandwidth cap). */
  latencyIops: number;
  basis: string[];
  /** The published measurement the typical value is, when one was used (forecast.ts), else absent. */
  measured?: string;
}

const IMMEDIATE_WRITE_SZ = 32_768;

const atLeast24 = (v: string | null): boolean => {
  const m = /^(\d+)\.(\d+)/.exec(v ?? '');
  return m !== null && (Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 4));
};

/** Is this write logged indirectly (data written in place, only a pointer in the log)? zfs-facts A7, A8. */
export function writeState(ds: DatasetSide, log: LogTarget, bs: number): 'copied' | 'indirect' {
  if (ds.logbias === 'throughput') return 'indirect';
  if (log.kind === 'slog' || log.kind === 'special') return 'copied';
  if (ds.target === 'zvol' && !atLeast24(ds.openzfs)) return bs >= ds.blockSize && ds.blockSize > IMMEDIATE_WRITE_SZ ? 'indirect' : 'copied';
  if (atLeast24(ds.openzfs)) return bs >= IMMEDIATE_WRITE_SZ && bs >= ds.blockSize / 2 ? 'indirect' : 'copied';
  return bs >= IMMEDIATE_WRITE_SZ ? 'indirect' : 'copied';
}

/** The expected wait for the slowest of k devices, relative to one [class estimate: grows like ln k for seek-bound disks]. */
const slowestOf = (k: number, cls: string): number => (cls === 'hdd' ? 1 + 0.15 * Math.log(Math.max(1, k)) : 1);

type End = 'typical' | 'low' | 'high';
/** For a *fast* result: low latency, high bandwidth. */
const flip = (e: End): End => (e === 'low' ? 'high' : e === 'high' ? 'low' : 'typical');

/** µs of one write of `bytes` (latency + transfer); `latScale` shrinks the latency (hard-disk ZIL appends). */
function deviceUs(dev: DeviceProfile, bytes: number, waitsFor: number, streams: number, end: End, latScale = 1): number {
  // end = 'high' means the optimistic (fast) end: low latency, high bandwidth.
  const lat = dev.lat4kUs[flip(end)] * slowestOf(waitsFor, dev.cls) * latScale;
  const bw = dev.mbps[end] * Math.max(1, streams); // MB/s = bytes/µs
  return lat + Math.max(0, bytes - 4096) / bw;
}

/**
 * The share of a random write a ZIL append on hard disks costs, per end of the range: the fitted
 * h typically, a cached append at the fast end, a full random write at the slow end (whether the
 * disks' write cache is on and the embedded log metaslab exists is not known from an inventory).
 */
function zilScale(log: LogTarget, p: ModelParams, end: End): number {
  if (log.kind !== 'data' || log.device.cls !== 'hdd' || log.device.matched === 'measured') return 1;
  return end === 'typical' ? p.hddZilScale : end === 'high' ? Math.min(p.hddZilScale, 0.08) : 1;
}

/** Bytes per second the data vdevs absorb for writes of `bs` into blocks of `blockSize`. */
export function dataBandwidth(data: DataVdevs, bs: number, blockSize: number, end: End, rw: Workload['rw'] = 'randwrite'): number {
  // Random writes smaller than the block rewrite the whole block at txg sync; sequential ones fill
  // it, so each byte is written once (in blocks of up to 128 KiB for the raidz efficiency).
  const write = rw === 'randwrite' ? Math.max(bs, blockSize) : Math.max(bs, Math.min(blockSize, 131_072));
  const disk = data.media.mbps[end];
  const sectors = Math.max(1, Math.round(write / 4096));
  const perVdev = data.layout === 'mirror' ? disk
    : data.layout === 'stripe' ? disk * data.width
    : (() => { const d = Math.min(data.width - data.parity, sectors); return data.width * disk * (d / (d + data.parity)); })();
  // A small random write into a larger block rewrites the block (amplification); sequential does not.
  return (perVdev * data.vdevs) * (rw === 'randwrite' ? bs / write : 1);
}

/** The pool's async ceiling for this workload (IOPS): data-vdev bandwidth or the host, whichever is lower. */
export function asyncCeiling(data: DataVdevs, ds: DatasetSide, w: Workload, p: ModelParams, end: End): number {
  const host = p.hostIops[end] * Math.sqrt(Math.max(1, w.numjobs)) * (4096 / Math.max(4096, w.bs)) ** 0.3;
  const pool = (dataBandwidth(data, w.bs, ds.blockSize, end, w.rw) * 1e6) / w.bs;
  return Math.min(host, pool);
}

function syncIops(data: DataVdevs, log: LogTarget, ds: DatasetSide, w: Workload, p: ModelParams, end: End, capped = true): number {
  const O = p.overheadUs[flip(end)];
  const state = writeState(ds, log, w.bs);
  const copiedBytes = state === 'copied' ? w.bs : 4096;
  const logUs = deviceUs(log.device, copiedBytes, log.waitsFor, log.streams, end, zilScale(log, p, end));
  let devUs = logUs;
  if (state === 'indirect') {
    const dataStreams = data.layout === 'mirror' ? 1 : Math.max(1, data.width - data.parity);
    const dataUs = deviceUs(data.media, w.bs, data.layout === 'mirror' ? data.width : Math.min(data.width, Math.ceil(w.bs / 4096) + data.parity), dataStreams, end);
    devUs = Math.max(dataUs, logUs);
  }
  const T = Math.max(1, w.iodepth * w.numjobs);
  const parallel = Math.max(1, log.vdevs);
  const q = log.device.queuePenaltyAbsolute ?? p.queuePenalty * log.device.queuePenaltyFactor;
  // Group commit: one round (write + flush) serves the T waiting writers; the batch's extra
  // bytes cross the log device once each.
  const batchUs = state === 'copied' ? ((T - 1) * w.bs) / (log.device.mbps[end] * Math.max(1, log.streams) * parallel) : 0;
  const roundUs = O + devUs * (1 + (q * (T - 1)) / parallel) + batchUs;
  let iops = (T * 1e6) / roundUs;
  if (!capped) return iops;
  const ceiling = asyncCeiling(data, ds, w, p, end) * p.ceilingScale[end];
  iops = Math.min(iops, ceiling);
  if (state === 'copied' && log.kind !== 'data') {
    const logBw = log.device.mbps[end] * log.streams * parallel * 1e6;
    iops = Math.min(iops, logBw / w.bs);
  }
  return iops;
}

/** Sync writes do not happen: the workload is async or the dataset ignores sync (zfs-facts A1, A20). */
export const isAsync = (ds: DatasetSide, w: Workload): boolean => w.sync === 'none' || ds.sync === 'disabled';

/** IOPS with its range for one ZIL path. The basis lists what the number rests on. */
export function estimate(data: DataVdevs, log: LogTarget, ds: DatasetSide, w: Workload, p: ModelParams = DEFAULT_PARAMS): Estimate {
  const round = (x: number) => Math.max(1, Math.round(x));
  if (isAsync(ds, w)) {
    const why = w.sync === 'none' ? 'the workload is asynchronous' : 'sync=disabled ignores sync requests';
    return {
      iops: round(asyncCeiling(data, ds, w, p, 'typical')), latencyIops: round(asyncCeiling(data, ds, w, p, 'typical')), low: round(asyncCeiling(data, ds, w, p, 'low') / p.slack), high: round(asyncCeiling(data, ds, w, p, 'high') * p.slack),
      basis: [`No ZIL involved (${why}): the pool's async ceiling (data-vdev bandwidth or host; ${factLink('A1')}).`],
    };
  }
  const state = writeState(ds, log, w.bs);
  const typical = syncIops(data, log, ds, w, p, 'typical');
  const basis = [
    `ZIL on the ${log.kind === 'slog' ? 'log vdev' : log.kind === 'special' ? 'special vdev (OpenZFS ≥ 2.4, zil_special_is_slog)' : 'data vdevs'}: ${log.device.basis}.`,
    state === 'indirect'
      ? `${w.bs / 1024} KiB writes are logged indirectly (${ds.logbias === 'throughput' ? 'logbias=throughput' : `≥ zfs_immediate_write_sz 32 KiB without a SLOG`}): each waits for its data block on the data vdevs (${factLink('A7')}).`
      : `Writes are copied into the log (${log.kind === 'data' ? 'small writes without a SLOG' : 'a SLOG takes all sync data with logbias=latency'}; ${factLink('A7')})${log.kind === 'slog' && w.bs >= 131_072 ? `; large writes all pass through the SLOG's bandwidth and above zil_slog_bulk go at async priority (${factLink('A10')}; ${factLink('A11')})` : ''}.`,
    `Per-commit ZFS overhead ${formatLatencyUs(p.overheadUs.typical)} (${formatRange(p.overheadUs.low, p.overheadUs.high, formatLatencyUs)}); ${w.iodepth * w.numjobs} write${w.iodepth * w.numjobs === 1 ? '' : 's'} outstanding; capped by the pool's async ceiling (${factLink('A17')}).`,
  ];
  return {
    iops: round(typical),
    latencyIops: round(syncIops(data, log, ds, w, p, 'typical', false)),
    low: round(Math.min(typical, syncIops(data, log, ds, w, p, 'low')) / p.slack),
    high: round(Math.max(typical, syncIops(data, log, ds, w, p, 'high')) * p.slack),
    basis,
  };
}

/**
 * The device latency (µs per 4 KiB write + flush) that makes the model give `iops` for this
 * workload: a measured result turned into the "now" device, so the forecast for other workloads
 * starts from what was measured. Bisection on the uncapped model (the measurement already
 * includes whatever capped it). Null when no device latency reproduces it (faster than the model's
 * overhead allows).
 */
export function latencyForMeasured(data: DataVdevs, log: LogTarget, ds: DatasetSide, w: Workload, iops: number, p: ModelParams = DEFAULT_PARAMS): number | null {
  const at = (us: number) => syncIops(data, { ...log, device: { ...log.device, matched: 'measured', lat4kUs: { ...log.device.lat4kUs, typical: us } } }, ds, w, p, 'typical', false);
  if (isAsync(ds, w) || at(0.01) < iops) return null;
  let lo = 0.01;
  let hi = 1e6;
  for (let i = 0; i < 60; i++) {
    const mid = Math.sqrt(lo * hi);
    if (at(mid) > iops) lo = mid; else hi = mid;
  }
  return Math.sqrt(lo * hi);
}

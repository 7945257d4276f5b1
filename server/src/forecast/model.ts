/**
 * The sync-write model: IOPS of a write workload on a pool shape through one ZIL path. Pure
 * arithmetic on a `PoolShape` (pool-shape.ts builds it from an inventory, calibration.ts from a
 * published record), so the same code forecasts a user's pool and scores the calibration set.
 *
 * What one writer's sync write waits for (zfs-facts A6–A8, A19):
 *   copied    (SLOG, 2.4+ special with zil_special_is_slog, or a small write without SLOG):
 *             the log block holding its data: D_log(bs)
 *   indirect  (logbias=throughput, or ≥ zfs_immediate_write_sz without a SLOG; zil.c zil_write_state):
 *             max(D_data(bs), D_log(4 KiB)): dmu_sync writes the data in place and the log block
 *             holds a pointer; both are issued with the log block (lwb root zio)
 *   D(s) = latency_4k (write + cache flush) × slowest-of-k + (s − 4 KiB) / bandwidth
 * Group commit (zil.c zil_commit_waiter, zil_process_commit_list; zfs_commit_timeout_pct, A18):
 * with T = iodepth × numjobs writers outstanding, the commit records that arrive while one log
 * block is written and flushed go into the next one, so one block write and one flush serve every
 * writer waiting at that moment (on a flush-bound device half of them: a second block is issued
 * behind the one being flushed, see syncIops):
 *   R(T) = O + D + (T − 1) × bs_copied / bandwidth + (T − 1) × c        IOPS = T / R(T)
 * O: per-commit ZFS and host overhead; c: CPU per further writer's record. A flush-bound device
 * (consumer flash, hard disks) therefore rises almost T-fold with writers until the batch's bytes,
 * c, or a ceiling binds; the same formula serves the "now" side, where the ZIL is on the data
 * vdevs (embedded log metaslab, A3) and QD1 and many-writer runs differ only in T.
 * Ceilings: the pool's sustained write bandwidth (a SLOG does not raise it, A17; random writes
 * smaller than the block rewrite the block; with the ZIL on the data vdevs, copied writes are
 * written twice, into the log and at txg sync) and the host; for copied writes to a SLOG, the log
 * device's bandwidth (every byte crosses it, A7, A11; above zil_slog_bulk a commit's blocks go at
 * async priority, A10).
 * Sync writes on hard-disk data vdevs (log blocks, dmu_sync'd data) are appends near the previous
 * allocation: a share h of a random 4 KiB write, from an append the disk acknowledges from its
 * write cache (fast end) to a full seek plus flush (slow end). O, c, h and the ceiling scale are
 * fitted on the calibration set (fit.ts).
 */
import type { DeviceProfile } from './catalog.ts';
import { factLink } from './cite.ts';
import { formatBytes, formatLatencyUs, formatRange } from '../text/format.ts';

export interface Range3 { typical: number; low: number; high: number }

export interface ModelParams {
  /** Per-commit ZFS and host overhead, µs: syscall, log record, zio pipeline, wake-up (000: 34.5 and 46.4 µs on its two Optane runs; other published hosts up to ~175 µs). */
  overheadUs: Range3;
  /** CPU µs each further waiting writer adds to a commit round (its record copied into the log block, its waiter woken); bounds IOPS at ~1/writerUs. */
  writerUs: number;
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
export function paramsOf(overhead: number, writerUs: number, ceiling: number, host: number, slack: number, hddZil = 1): ModelParams {
  return {
    hddZilScale: hddZil,
    // Published hosts span ~35 µs (000, FreeBSD on a Xeon D) to ~175 µs (duzlov, TrueNAS SCALE) per commit.
    overheadUs: { typical: overhead, low: overhead * 0.3, high: overhead * 1.5 },
    writerUs,
    ceilingScale: { typical: ceiling, low: ceiling * 0.7, high: ceiling * 1.4 },
    hostIops: { typical: host, low: host * 0.5, high: host * 2.5 },
    slack,
  };
}

/**
 * Fitted on the whole calibration set (`fit()` in fit.ts; tests/forecast/calibration.test.ts checks
 * these are still what the fit gives): 55 µs per commit (published hosts span ~35 µs on 000's
 * FreeBSD Xeon D to ~175 µs on duzlov's TrueNAS SCALE; a host measured slower than this, by the
 * probe's CPU per write, carries its own: forecast.ts HostCpu), no measurable CPU per further
 * writer, ceiling scale 0.7 (the pool sustains 70 % of its modelled bandwidth under sync writes),
 * hard-disk append share 0.6 (a ZIL write on hard disks is an append near the previous block,
 * cheaper than a random write, but its flush still reaches the platters), range slack 1. Records
 * that publish neither the data disks' media nor their model are not part of the set
 * (calibration.ts). The host ceiling, 60k IOPS per job, is a class estimate, not fitted (000:
 * 48.3k async and 80.7k in an 8 s SLOG burst on a Xeon D-1541).
 */
export const DEFAULT_PARAMS: ModelParams = paramsOf(55, 0, 0.7, 60_000, 1, 0.6);

export type Layout = 'mirror' | 'raidz' | 'draid' | 'stripe';

export interface DataVdevs {
  layout: Layout;
  /** Top-level data vdevs. */
  vdevs: number;
  /** Devices per top-level vdev. */
  width: number;
  parity: number;
  media: DeviceProfile;
  /**
   * MB/s per disk that makes the model's sequential bandwidth equal what this pool was measured to
   * write back (measured-bandwidth.ts); it replaces the media's class figure in the pool ceiling.
   */
  measuredDiskMBps?: number;
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
  /**
   * zfs_dirty_data_max of the host, bytes (10 % of RAM, at most 4 GiB: zfs-facts A13); null or
   * absent when the host's memory is unknown (an 8 GiB host is assumed). It bounds how many records
   * one txg holds dirty.
   */
  dirtyMaxBytes?: number | null;
}

export interface Workload {
  rw: 'randwrite' | 'write';
  bs: number;
  iodepth: number;
  numjobs: number;
  sync: 'always' | 'fsync' | 'none';
  /**
   * Bytes the writes land in (all jobs' files, or the region of a zvol), when known; null or
   * absent: unknown, and every write is taken to dirty a record of its own.
   */
  sizeBytes?: number | null;
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

/** Bytes the data vdevs write at txg sync for one application write (random writes smaller than the block rewrite it). */
const txgBytes = (bs: number, blockSize: number, rw: Workload['rw']): number => (rw === 'randwrite' ? Math.max(bs, blockSize) : bs);

/** A measured bandwidth's run-to-run spread (lab: 102–112 MiB/s over two runs of the same pool). */
const MEASURED_BW_SPREAD: Record<End, number> = { typical: 1, low: 0.85, high: 1.15 };

/**
 * The share of a *measured* write-back bandwidth that many sync writes sustain (the fitted
 * ceilingScale also absorbs how far a class figure is from the real disks; a measurement has no
 * such error). Writes into a record already dirty in the open txg are written back once, so a
 * working set of a few thousand records can run above bandwidth ÷ record size; a fragmented pool
 * falls short of its sequential write-back (lab, a 2 GiB file: 0.75–1.05×, BENCHMARKS.md "Advice
 * followed"). The typical end assumes every write dirties its own record.
 */
const MEASURED_CEILING_SCALE: Record<End, number> = { typical: 1, low: 0.8, high: 1.25 };

/** Bytes per second the data vdevs absorb for writes of `bs` into blocks of `blockSize`. */
export function dataBandwidth(data: DataVdevs, bs: number, blockSize: number, end: End, rw: Workload['rw'] = 'randwrite'): number {
  // Random writes smaller than the block rewrite the whole block at txg sync; sequential ones fill
  // it, so each byte is written once (in blocks of up to 128 KiB for the raidz efficiency).
  const write = rw === 'randwrite' ? Math.max(bs, blockSize) : Math.max(bs, Math.min(blockSize, 131_072));
  const disk = data.measuredDiskMBps !== undefined ? data.measuredDiskMBps * MEASURED_BW_SPREAD[end] : data.media.mbps[end];
  const sectors = Math.max(1, Math.round(write / 4096));
  const perVdev = data.layout === 'mirror' ? disk
    : data.layout === 'stripe' ? disk * data.width
    : (() => { const d = Math.min(data.width - data.parity, sectors); return data.width * disk * (d / (d + data.parity)); })();
  // A small random write into a larger block rewrites the block (amplification); sequential does not.
  return (perVdev * data.vdevs) * (rw === 'randwrite' ? bs / write : 1);
}

/**
 * The pool's sustained ceiling for this workload (IOPS): data-vdev bandwidth or the host, whichever
 * is lower. `logBytes`: what each write also puts into ZIL blocks on the same data vdevs (an
 * embedded ZIL with copied writes): those disks then write every byte twice, once into the log
 * block and once at txg sync (zfs-facts A3, A7), and share their bandwidth between the two.
 */
export function asyncCeiling(data: DataVdevs, ds: DatasetSide, w: Workload, p: ModelParams, end: End, logBytes = 0): number {
  const host = p.hostIops[end] * Math.sqrt(Math.max(1, w.numjobs)) * (4096 / Math.max(4096, w.bs)) ** 0.3;
  return Math.min(host, poolCeiling(data, ds, w, end, logBytes));
}

/**
 * Share of zfs_dirty_data_max one txg holds when the data vdevs bind: writers are delayed from 60 %
 * of it (zfs_delay_min_dirty_percent, A12) and two txgs are dirty at once (the one syncing and the
 * one open), so about 30 % each; 20 % (zfs_dirty_data_sync_percent, a txg starts syncing there) at
 * the slow end, 40 % at the fast end (the delay grows gradually above 60 %).
 */
const TXG_DIRTY_SHARE: Record<End, number> = { typical: 0.3, low: 0.2, high: 0.4 };

/** zfs_dirty_data_max of an 8 GiB host (10 %), the least TrueNAS and Proxmox VE support: the assumption where the memory is unknown. */
const MIN_DIRTY_MAX = 0.1 * 8 * 2 ** 30;

/**
 * Writes per record the data vdevs write back at txg sync (≥ 1): a record dirtied by several writes
 * in one txg is written once. Dirty data is counted in whole records (dbuf_dirty), so a txg holds
 * about X = TXG_DIRTY_SHARE × zfs_dirty_data_max of them; of a working set of S bytes that is the
 * share f = X / S, and writes spread at random over it hit f of it after −ln(1 − f) × S/record
 * writes: −ln(1 − f) / f writes per record written. When one txg can hold the whole working set
 * (f ≥ 1), the data vdevs write each record at most once per txg, however many writes it took:
 * no bandwidth ceiling (Infinity). 1 where the working set is unknown (every write taken to dirty
 * its own record, the worst case), or for sequential writes (each record is filled once:
 * dataBandwidth counts them so). Where the host's memory is unknown, that of the smallest host the
 * platforms support (MIN_DIRTY_MAX).
 */
export function writesPerRecord(ds: DatasetSide, w: Workload, end: End): number {
  if (w.rw !== 'randwrite' || !w.sizeBytes) return 1;
  const f = (TXG_DIRTY_SHARE[end] * (ds.dirtyMaxBytes ?? MIN_DIRTY_MAX)) / w.sizeBytes;
  return f >= 1 ? Infinity : -Math.log(1 - f) / f;
}

/**
 * The data vdevs' part of asyncCeiling: IOPS their sustained bandwidth absorbs (with `logBytes` of
 * ZIL copies per write on them). What they receive is the txg's write-back: every record dirtied in
 * the txg, once (writesPerRecord), plus, with the ZIL on them, each write's log copy.
 */
export function poolCeiling(data: DataVdevs, ds: DatasetSide, w: Workload, end: End, logBytes = 0): number {
  const txg = txgBytes(w.bs, ds.blockSize, w.rw);
  const perWrite = txg / writesPerRecord(ds, w, end) + logBytes;
  return perWrite <= 0 ? Infinity : ((dataBandwidth(data, w.bs, ds.blockSize, end, w.rw) * 1e6) / w.bs) * (txg / perWrite);
}

/**
 * A sync write on hard-disk data vdevs is an append near the previous allocation — a ZIL block in
 * the embedded log metaslab (A3), or a data block dmu_sync writes in place for an indirect write
 * (A6) — so it costs a share of a random 4 KiB write; the data disks of a SLOG pool are not on the
 * sync path for copied writes.
 */
function appendScale(dev: DeviceProfile, onData: boolean, p: ModelParams, end: End): number {
  if (!onData || dev.cls !== 'hdd' || dev.matched === 'measured') return 1;
  return end === 'typical' ? p.hddZilScale : end === 'high' ? Math.min(p.hddZilScale, 0.08) : 1;
}

/** Device classes that serve one write at a time: without a SLOG an indirect write's two writes add up on them. */
const ONE_AT_A_TIME: ReadonlySet<string> = new Set(['hdd', 'virtual', 'unknown']);

/** Device classes whose cache flush waits for a volatile write cache to reach the media (zfs-facts E1, E2). */
const FLUSH_BOUND: ReadonlySet<string> = new Set(['hdd', 'consumer-nvme', 'consumer-nvme-dramless', 'consumer-sata', 'qlc-sata', 'virtual', 'unknown']);

/**
 * Group commit (zil.c, zil_commit_waiter / zil_process_commit_list): a writer's commit itx joins
 * the open log block while the previous one is written and flushed, so one block write and one
 * cache flush (A18, A19) serve every writer waiting at that moment: with T = iodepth × numjobs
 * writers outstanding, one round costs the per-commit overhead, one device write + flush, the
 * batch's bytes (copied writes) and the CPU each further writer's record takes in the commit path
 * (p.writerUs: copying it into the block, waking its waiter), and serves T writers.
 */
function syncIops(data: DataVdevs, log: LogTarget, ds: DatasetSide, w: Workload, p: ModelParams, end: End, capped = true, devEnd: End = end): number {
  // `devEnd`: the end the devices the ZIL writes to take (their latency, flush behaviour and
  // bandwidth), where it differs from the end of what the host and the pool's ceilings set (deviceEnds).
  const O = p.overheadUs[flip(end)];
  const state = writeState(ds, log, w.bs);
  const onData = log.kind === 'data';
  const copiedBytes = state === 'copied' ? w.bs : 4096;
  const logUs = deviceUs(log.device, copiedBytes, log.waitsFor, log.streams, devEnd, appendScale(log.device, onData, p, devEnd));
  let devUs = logUs;
  if (state === 'indirect') {
    // dmu_sync writes the data block in place, issued with the log block (lwb root zio); each
    // writer's block is its own write, so they do not batch. With a SLOG, or on flash, the two writes
    // go to different devices or overlap: the slower of the two. Random writes without a SLOG on disks
    // that do one write at a time (hard disks; virtual disks and unknown devices, whose queue we cannot
    // see): the data block and the log block are two places on the same disks, done one after the
    // other: the sum. Seen in the lab on a mirror throttled to 150 IOPS: 128 KiB random sync writes at
    // QD1 did 71–72/s against 130 for 4 KiB (BENCHMARKS.md, "Advice followed"). A sequential stream is
    // left at the slower of the two: its data blocks follow one another, and one 5,400 rpm disk took
    // 1 MiB sequential sync writes at 85/s, its streaming rate (calibration record zvolperf-3).
    const serial = onData && w.rw === 'randwrite' && ONE_AT_A_TIME.has(data.media.cls);
    const dataStreams = data.layout === 'mirror' ? 1 : Math.max(1, data.width - data.parity);
    const dataUs = deviceUs(data.media, w.bs, data.layout === 'mirror' ? data.width : Math.min(data.width, Math.ceil(w.bs / 4096) + data.parity), dataStreams, devEnd, appendScale(data.media, true, p, devEnd));
    devUs = serial ? dataUs + logUs : Math.max(dataUs, logUs);
  }
  const T = Math.max(1, w.iodepth * w.numjobs);
  // Writers one round serves. On a device whose flush waits for a volatile cache, half (all of
  // them only at the optimistic end): the open log block is issued after zfs_commit_timeout_pct of
  // the last block's latency (zil_commit_waiter_timeout), so a second block is queued behind the
  // one being flushed and the waiting writers split between the two. Seen in the lab: 4 writers on
  // a log device throttled to 300 IOPS did 357–516, about 2× one writer, not 4× (BENCHMARKS.md).
  const b = devEnd !== 'high' && FLUSH_BOUND.has(log.device.cls) ? Math.max(1, T / 2) : T;
  const parallel = Math.max(1, log.vdevs);
  // The batch's extra bytes cross the log device once each (log blocks spread over its top-level vdevs).
  const batchUs = state === 'copied' ? ((b - 1) * w.bs) / (log.device.mbps[devEnd] * Math.max(1, log.streams) * parallel) : 0;
  const writerUs = end === 'high' ? p.writerUs * 0.5 : end === 'low' ? p.writerUs * 2 : p.writerUs;
  const roundUs = O + devUs + batchUs + writerUs * (b - 1);
  let iops = (b * 1e6) / roundUs;
  if (!capped) return iops;
  const scale = data.measuredDiskMBps !== undefined ? MEASURED_CEILING_SCALE[end] : p.ceilingScale[end];
  const ceiling = asyncCeiling(data, ds, w, p, end, onData && state === 'copied' ? w.bs : 0) * scale;
  iops = Math.min(iops, ceiling);
  if (state === 'copied' && !onData) {
    // Every copied byte crosses the log device (A7, A11). Above zil_slog_bulk bytes per commit the
    // blocks go at async priority (A10; zil.c zil_lwb_write_issue), which can leave the SLOG below
    // this bandwidth (pr14378); that share is not modelled, so this cap is an upper bound.
    const logBw = log.device.mbps[devEnd] * log.streams * parallel * 1e6;
    iops = Math.min(iops, logBw / w.bs);
  }
  return iops;
}

/** Sync writes do not happen: the workload is async or the dataset ignores sync (zfs-facts A1, A20). */
export const isAsync = (ds: DatasetSide, w: Workload): boolean => w.sync === 'none' || ds.sync === 'disabled';

/** What the data vdevs write back per write at txg sync, in words, where a small random write rewrites a larger record. */
function writeBackText(ds: DatasetSide, w: Workload): string {
  if (w.rw !== 'randwrite' || w.bs >= ds.blockSize) return '';
  const rec = `${ds.blockSize / 1024} KiB`;
  if (!w.sizeBytes) return `; each ${w.bs / 1024} KiB write is taken to dirty a ${rec} record of its own, written back whole at txg sync (working set not given: the worst case)`;
  const m = writesPerRecord(ds, w, 'typical');
  return Number.isFinite(m)
    ? `; a ${rec} record dirtied by several writes in one txg is written back once: ~${m.toFixed(1)} writes per record over this ${formatBytes(w.sizeBytes)} working set`
    : `; one txg holds this whole ${formatBytes(w.sizeBytes)} working set, so each record is written back at most once per txg and the disks' bandwidth sets no ceiling`;
}

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
  const T = Math.max(1, w.iodepth * w.numjobs);
  const typical = syncIops(data, log, ds, w, p, 'typical');
  const basis = [
    `ZIL on the ${log.kind === 'slog' ? 'log vdev' : log.kind === 'special' ? 'special vdev (OpenZFS ≥ 2.4, zil_special_is_slog)' : 'data vdevs'}: ${log.device.basis}.`,
    state === 'indirect'
      ? `${w.bs / 1024} KiB writes are logged indirectly (${ds.logbias === 'throughput' ? 'logbias=throughput' : `≥ zfs_immediate_write_sz 32 KiB without a SLOG`}): each waits for its data block on the data vdevs (${factLink('A7')}).`
      : `Writes are copied into the log (${log.kind === 'data' ? 'small writes without a SLOG' : 'a SLOG takes all sync data with logbias=latency'}; ${factLink('A7')})${log.kind === 'slog' && w.bs >= 131_072 ? `; large writes all pass through the SLOG's bandwidth and above zil_slog_bulk go at async priority (${factLink('A10')}; ${factLink('A11')})` : ''}.`,
    `Per-commit ZFS overhead ${formatLatencyUs(p.overheadUs.typical)} (${formatRange(p.overheadUs.low, p.overheadUs.high, formatLatencyUs)}); ${T} write${T === 1 ? '' : 's'} outstanding${T > 1 ? ', and one log write and flush serve every writer waiting (group commit)' : ''}; capped by the pool's sustained ceiling (${factLink('A17')})${log.kind === 'data' && state === 'copied' ? ', which the ZIL on the same disks shares: copied writes are written into the log and again at txg sync' : ''}${writeBackText(ds, w)}.`,
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
 * IOPS through this ZIL path with its devices at their fast end while the per-commit overhead, the
 * CPU per writer and the pool's ceilings stay at the slow end ("fast"), and the reverse ("slow"):
 * the spread of an estimated "now" that is its devices' own (a hard disk's cached append against a
 * seek and flush to the platters), at the ends the "with" range's low and high ends take for what
 * both sides share (the same host, the same data vdevs). forecast.ts gainSpread pairs them.
 * Null for a workload without sync writes.
 */
export function deviceEnds(data: DataVdevs, log: LogTarget, ds: DatasetSide, w: Workload, p: ModelParams = DEFAULT_PARAMS): DeviceEnds | null {
  if (isAsync(ds, w)) return null;
  const at = (end: End, devEnd: End, capped: boolean) => syncIops(data, log, ds, w, p, end, capped, devEnd);
  return {
    fast: at('low', 'high', true) * p.slack, slow: at('high', 'low', true) / p.slack,
    latencyFast: at('low', 'high', false) * p.slack, latencySlow: at('high', 'low', false) / p.slack,
  };
}

/** deviceEnds: sustained IOPS (`fast`, `slow`) and what the ZIL path's latency alone allows (`latencyFast`, `latencySlow`: per write). */
export interface DeviceEnds { fast: number; slow: number; latencyFast: number; latencySlow: number }

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

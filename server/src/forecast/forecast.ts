/**
 * One forecast: sync-write IOPS of a workload on a pool now, and with a given log device. This is
 * the number `zfs-advisor forecast`, the API, the Optane verdict and `plan add-slog` show.
 *
 * Where a published ZFS measurement of the same device as SLOG exists for the same pool shape and
 * workload (device-catalog.json `slogMeasurements`), it is the typical value and the model's range
 * stays around it; otherwise the model (model.ts) gives both.
 */
import { z } from 'zod';
import type { Artifacts } from '../model/artifacts.ts';
import type { Pool } from '../model/inventory.ts';
import { sourceUrl, type DeviceProfile, type SlogMeasurement } from './catalog.ts';
import { factLink, mdLink } from './cite.ts';
import type { DeviceMeasurement } from './measured-device.ts';
import type { MeasuredCeiling } from './measured-ceiling.ts';
import { withMeasuredBandwidth, type MeasuredBandwidth } from './measured-bandwidth.ts';
import { DEFAULT_PARAMS, deviceEnds, estimate, isAsync, writeState, type DataVdevs, type DeviceEnds, type DatasetSide, type Estimate, type LogTarget, type ModelParams, type Workload } from './model.ts';
import { currentLog, dataVdevs, datasetSide, slogTarget } from './pool-shape.ts';
import { formatCount, formatLatencyUs } from '../text/format.ts';

export const WorkloadSpec = z.object({
  rw: z.enum(['randwrite', 'write']).default('randwrite'),
  bs: z.number().int().min(512).max(16 * 2 ** 20).default(4096),
  iodepth: z.number().int().min(1).max(1024).default(1),
  numjobs: z.number().int().min(1).max(256).default(1),
  sync: z.enum(['always', 'fsync', 'none']).default('always'),
  /** Bytes the writes land in (all jobs' files together), when known: records rewritten within a txg are written back once (model.ts writesPerRecord). */
  sizeBytes: z.number().int().positive().nullable().optional(),
});
export type WorkloadSpec = z.infer<typeof WorkloadSpec>;

const Side = z.object({
  iops: z.number(), low: z.number(), high: z.number(),
  /** IOPS the ZIL path's latency alone allows, before the pool's sustained (async) ceiling. */
  latencyIops: z.number(),
  basis: z.string(),
});
export const ForecastResult = z.object({
  pool: z.string(),
  workload: WorkloadSpec.extend({ dataset: z.string().nullable(), datasetSync: z.string(), logbias: z.string(), blockSize: z.number(), target: z.enum(['dataset', 'zvol']) }),
  now: Side.extend({
    zil: z.string(),
    /**
     * Set when the device the ZIL lands on today is a virtual disk or LUN, or of unknown kind, and
     * nothing on this host measured it: its latency is unknown, "now" is a wide class range and
     * there is no point gain; the sentence says so and how to measure the pool in one click.
     */
    guess: z.string().nullable().default(null),
    /**
     * Set while "now" is the model's estimate (nothing of this pool measured: no probe, no
     * observation, ForecastOptions.nowDevice absent): "now" with the ZIL's devices at their fast
     * and slow ends (model.ts deviceEnds), which the gain range carries (gainSpread). Null once a
     * measurement replaced it, and without sync writes.
     */
    deviceEnds: z.object({ fast: z.number(), slow: z.number(), latencyFast: z.number(), latencySlow: z.number() }).nullable().default(null),
  }),
  with: Side.extend({
    device: z.string(), catalogId: z.string(), status: z.string().nullable(),
    /** The published measurement "iops" is, when the pool shape and workload match one. */
    measured: z.string().nullable(),
    /**
     * Set when the device is not in the catalog: the range is its class's, a guess, and there is no
     * point forecast ("iops" is only the range's middle, not to be shown) and no gain; the sentence
     * says so and how to measure the device.
     */
    guess: z.string().nullable(),
    /** The whole "with" range lies below "now": this device would be slower than the current ZIL path. */
    slower: z.boolean(),
    /** The blank-device test of this very drive on this host the range rests on (measured-device.ts), else null. */
    deviceRun: z.object({ id: z.string(), startedAt: z.string() }).nullable().default(null),
    /** A drive of the box forecast from its catalog figure: the sentence saying so and how to measure it in one click; else null. */
    measure: z.string().nullable().default(null),
  }).nullable(),
  /** with ÷ now, null where either side is a guess (no point forecast). Exactly 1 for a workload without sync writes. */
  gain: z.number().nullable(),
  /**
   * The gain's range, containing the gain (gainSpread): the "with" range over "now" where "now" was
   * measured; where "now" is a model estimate, also across its devices' own range (`now.deviceEnds`).
   * [1, 1] for a workload without sync writes, whatever the device. Given where the gain is not
   * (a guessed side).
   */
  gainRange: z.object({ low: z.number(), high: z.number() }).nullable().default(null),
});
export type ForecastResult = z.infer<typeof ForecastResult>;

export interface Candidate {
  /** What to call it in the output ("/dev/nvd1 (Intel Optane SSD P1600X 58GB)"). */
  label: string;
  profile: DeviceProfile;
  mirrored: boolean;
  /** A blank-device test of this drive on this host, when the profile rests on it (measured-device.ts). */
  measurement?: DeviceMeasurement | null;
  /** How to measure this device in one click, when it is a drive of the box (measured-device.ts deviceProbeHint). */
  measureHint?: string;
}

export interface ForecastOptions {
  params?: ModelParams;
  /** Calibration: ids of catalog measurements that must not be used (the record being scored). */
  excludeMeasurements?: ReadonlySet<string>;
  /** What this pool's current ZIL device was measured to do (an observation or a benchmark), replacing its catalog figures. */
  nowDevice?: DeviceProfile;
  /**
   * µs per sync write that a measurement of "now" showed beyond the model's estimate for the same
   * device: it may be this host's own overhead, which a new log device does not remove. The "with"
   * side carries all of it at its slow end, half typically, none at its fast end (withHostExtra).
   */
  hostExtraUs?: number;
  /** A many-writer sync run measured on this pool, read against the QD1 probe (measured-ceiling.ts). */
  ceiling?: MeasuredCeiling;
  /** The host's own CPU per sync write, measured by the QD1 probe (measured-now.ts). */
  hostCpu?: HostCpu;
  /** The data vdevs' write-back measured on this pool (measured-bandwidth.ts), replacing the disks' class bandwidth. */
  bandwidth?: MeasuredBandwidth;
}

/**
 * CPU µs the writing thread spent per sync write in the QD1 probe (system call, ZIL, zio issue:
 * fio's usr + sys time), and the host's CPUs. It is host time no log device removes: on a
 * fast server it is tens of µs and below the model's per-commit overhead; on a slow or emulated
 * CPU it is milliseconds and bounds what any SLOG can give.
 */
export interface HostCpu { usPerWrite: number; cpus: number | null; runId: string }

/**
 * Parameters for the "with" side. `extraUs`: a measurement of "now" showed µs the model cannot
 * attribute (carried all at the slow end, half typically, none at the fast end). `cpuFloorUs`:
 * the host's measured CPU per sync write (cpuFloorOf), on top of the candidate's own latency;
 * the per-commit overhead is at least that (half of it at the fast end: the probe's path, with the
 * ZIL on the pool's own vdevs, does more per write than a single log device).
 */
export function withHostExtra(p: ModelParams, extraUs: number | undefined, cpuFloorUs = 0): ModelParams {
  const extra = extraUs && extraUs > 0 ? extraUs : 0;
  if (extra === 0 && cpuFloorUs <= 0) return p;
  const o = p.overheadUs;
  return { ...p, overheadUs: { low: Math.max(o.low, cpuFloorUs / 2), typical: Math.max(o.typical + extra / 2, cpuFloorUs), high: Math.max(o.high + extra, cpuFloorUs) } };
}

/**
 * µs of host CPU per write ZFS's own path takes, on top of the candidate's latency: the probe's
 * whole CPU per write. The candidate's blank-device test holds the block layer's and driver's CPU
 * for its raw write and flush, which on a log vdev runs in ZFS's I/O threads, outside the writer's
 * thread the probe measures, so the two do not overlap. In the lab a sync write through the fast
 * log took ~2.5 ms: its blank-device test's 1.18 ms, plus fio's own thread (0.67 ms with the log,
 * 1.0–1.2 ms in the probe without), plus ZFS's I/O threads. Until this round the candidate's 0.54 ms
 * of test CPU was subtracted, and QD1 "with" came out 28–38 % high in three runs (BENCHMARKS.md).
 */
export const cpuFloorOf = (cpu: HostCpu | undefined): number => (cpu ? cpu.usPerWrite : 0);

/**
 * The sentence that says a host's measured CPU per write sets the "with" side's per-commit
 * overhead, or null when it stays under the model's own (`params`): the forecast's basis and the
 * verdict's reasons both print this one.
 */
export function hostCpuSentence(cpu: HostCpu | undefined, params: ModelParams = DEFAULT_PARAMS): string | null {
  if (!cpu || cpuFloorOf(cpu) <= params.overheadUs.typical) return null;
  return `This host spent ${formatLatencyUs(cpu.usPerWrite)} of CPU per sync write in the probe's writing thread (benchmark ${cpu.runId}): no log device makes a write cheaper than that, so it is the floor of each commit's overhead, on top of the device's own latency.`;
}

/**
 * Sets an estimate to a measured or derived value `to`: its range keeps at most `high` × `to` at the
 * top and reaches at least `low` × `to` at the bottom, and the basis says why.
 */
function pinAt(e: Estimate, to: number, low: number, high: number, why: string): void {
  e.iops = Math.round(to); e.latencyIops = Math.min(e.latencyIops, e.iops);
  e.low = Math.min(e.low, Math.round(to * low)); e.high = Math.min(Math.max(e.high, e.iops), Math.round(to * high));
  e.basis.push(why);
}

/** Writers the host's CPUs can serve: each write takes `usPerWrite` of one CPU in the writer's own thread. */
function applyHostCpu(cpu: HostCpu, w: Workload, e: Estimate): void {
  const T = Math.max(1, w.iodepth * w.numjobs);
  if (T < 2 || cpu.cpus === null) return;
  const cap = (Math.min(T, cpu.cpus) * 1e6) / cpu.usPerWrite;
  if (e.iops <= cap) return;
  pinAt(e, cap, 1, 1.5, `Capped by this host's CPUs: the QD1 probe (benchmark ${cpu.runId}) spent ${formatLatencyUs(cpu.usPerWrite)} of CPU per sync write in the writing thread, so ${Math.min(T, cpu.cpus)} CPUs serve at most ~${formatCount(Math.round(cap))} writes/s.`);
}

const sameShape = (m: SlogMeasurement, data: DataVdevs, w: Workload): boolean =>
  m.bs === w.bs && m.iodepth === w.iodepth && m.numjobs === w.numjobs && w.sync !== 'none'
  && m.pool.layout === data.layout && m.pool.vdevs === data.vdevs && m.pool.width === data.width && m.pool.media === data.media.cls;

/** The model estimate, or the published measurement of this device on this pool shape when there is one. */
export function estimateWith(data: DataVdevs, log: LogTarget, ds: DatasetSide, w: Workload, opts: ForecastOptions = {}): Estimate {
  const e = estimate(data, log, ds, w, opts.params ?? DEFAULT_PARAMS);
  if (log.kind !== 'slog' || isAsync(ds, w) || ds.logbias === 'throughput' || writeState(ds, log, w.bs) !== 'copied') return e;
  const m = log.device.slogMeasurements.find((x) => !opts.excludeMeasurements?.has(x.id) && sameShape(x, data, w));
  if (!m) return e;
  // The measurement came from its own dataset (000: recordsize=4k); where this pool's sustained
  // ceiling is lower (e.g. 4 KiB writes into 128 KiB records), the ceiling still binds.
  // Capped only beyond the model's own range (the same pool at the same record size is the measurement).
  const capped = e.iops < e.latencyIops * 0.95 && m.iops > e.high;
  const iops = capped ? e.iops : m.iops;
  if (iops < m.iops) {
    return { ...e, measured: `Measured: this device as SLOG on the same pool shape did ${formatCount(m.iops)} IOPS (${mdLink('published test', sourceUrl(m.source))}: "${m.quote}"), with smaller records than here; this pool's sustained ceiling caps it at ~${formatCount(iops)}.` };
  }
  return {
    iops: m.iops, latencyIops: m.iodepth === 1 ? m.iops : Math.max(m.iops, e.latencyIops), low: Math.min(e.low, Math.round(m.iops * 0.9)), high: Math.max(e.high, Math.round(m.iops * 1.1)),
    measured: `Measured: this device as SLOG on the same pool shape and workload did ${formatCount(m.iops)} IOPS (${mdLink('published test', sourceUrl(m.source))}: "${m.quote}"); the range is the model's.`,
    basis: e.basis,
  };
}

/**
 * A many-writer run (measured-ceiling.ts) on writes of its size: "now" for that many writers is the
 * measurement, between one writer and that many it is interpolated between the QD1 probe and it
 * (linearly in the writers); beyond it, held there when the host binds or the pool already has a
 * log device, and rising from it under the model's ceiling when the data vdevs bind through the ZIL's
 * blocks on them (more writers share each block, at most in proportion). "with" is held at
 * the measurement for at least as many writers when a new log device does not lift the limit.
 */
function applyCeiling(c: MeasuredCeiling, side: DatasetSide, w: Workload, now: Estimate, withE: Estimate | null): void {
  const T = Math.max(1, w.iodepth * w.numjobs);
  // Measured: copied 4 KiB sync writes into a dataset. Async writes, logbias=throughput and zvols take other paths.
  if (isAsync(side, w) || side.logbias === 'throughput' || side.target !== 'dataset' || w.bs !== c.blockSize || T === 1) return;
  // ±10 %: run-to-run spread of a measurement, as for the measured "now" (measured-now.ts).
  const set = (e: Estimate, to: number, why: string) => pinAt(e, to, 0.9, 1.1, why);
  if (T === c.writers) set(now, c.iops, `Measured: ${c.basis}`);
  else if (T < c.writers) {
    // Linear in the writers: while log blocks queue at the ZIL's device, each waits up to 10 % of
    // the previous one's latency for more records (zfs_commit_timeout_pct, A18), and that latency
    // grows with the writers queued, so the records per block grow about linearly with them.
    // Lab mirror (runs 3–8): 134–140 with one writer, 335–412 with 16, 146–213 with 4, where the
    // geometric mean of the two ends gave 216–224.
    const at = c.qd1Iops + ((c.iops - c.qd1Iops) * (T - 1)) / (c.writers - 1);
    set(now, at, `Interpolated between the QD1 probe (${formatCount(Math.round(c.qd1Iops))} IOPS) and ${c.basis.replace(/\.$/, '')}.`);
  } else if (c.binds === 'pool' && !c.holdsWith) {
    // The data vdevs bind through the ZIL's blocks on them: more writers share each log block, so
    // "now" rises from the measurement, at most in proportion to the writers, up to the pool's
    // ceiling the model applies (lab mirror: 362 with 16 writers, 694–750 with 64; the write-back ceiling 635).
    const to = Math.min(Math.max(now.iops, c.iops), (c.iops * T) / c.writers);
    if (to !== now.iops) pinAt(now, to, 0.7, 1.3, `Beyond the ${c.writers}-writer run (${c.basis.replace(/\.$/, '')}), more writers share each log block: "now" rises from it, at most in proportion to their number, under the pool's ceiling.`);
  } else if (c.binds !== null && now.iops > c.iops) set(now, c.iops, `Held by a measurement: ${c.basis}`);
  if (withE && c.holdsWith && T >= c.writers && withE.iops > c.iops) set(withE, c.iops, `Held by a measurement: ${c.basis}`);
}

const join = (e: Estimate): string => [...(e.measured ? [e.measured] : []), ...e.basis].join(' ');

export function workloadOf(spec: WorkloadSpec): Workload {
  return { rw: spec.rw, bs: spec.bs, iodepth: spec.iodepth, numjobs: spec.numjobs, sync: spec.sync, sizeBytes: spec.sizeBytes ?? null };
}

/** Forecast for `pool` of the artifacts, now and (when a candidate is given) with it as SLOG. */
export function forecastPool(a: Artifacts, pool: Pool, spec: WorkloadSpec, candidate: Candidate | null, opts: ForecastOptions = {}): ForecastResult {
  const drives = a.Drives ?? [];
  const data = withMeasuredBandwidth(dataVdevs(pool, drives), opts.bandwidth);
  const { side, dataset } = datasetSide(pool, a.Datasets, a.Host);
  const w = workloadOf(spec);
  const current = currentLog(pool, drives, a.Host);
  const log = opts.nowDevice ? { ...current, device: opts.nowDevice } : current;
  const now = estimateWith(data, log, side, w, opts);
  const params = opts.params ?? DEFAULT_PARAMS;
  // Published SLOG measurements come from hosts whose CPU per write is within the model's per-commit
  // overhead; on a host measured slower than that they do not carry over, and the model takes it.
  const slowHost = hostCpuSentence(opts.hostCpu, params);
  const withProfile = candidate && slowHost ? { ...candidate.profile, slogMeasurements: [] } : candidate?.profile;
  const withOpts = { ...opts, params: withHostExtra(params, opts.hostExtraUs, cpuFloorOf(opts.hostCpu)) };
  const withE = candidate && withProfile ? estimateWith(data, slogTarget(withProfile, candidate.mirrored), side, w, withOpts) : null;
  if (withE && slowHost) withE.basis.push(slowHost);
  if (opts.hostCpu && !isAsync(side, w)) for (const e of withE ? [now, withE] : [now]) applyHostCpu(opts.hostCpu, w, e);
  if (opts.ceiling) applyCeiling(opts.ceiling, side, w, now, withE);
  // Said where the measured write-back is what binds (the estimate stops short of what its ZIL path allows).
  if (opts.bandwidth) for (const e of withE ? [now, withE] : [now]) if (e.iops < e.latencyIops * 0.95) e.basis.push(opts.bandwidth.basis);
  if (withE && side.logbias === 'throughput') withE.basis.push(`logbias=throughput keeps data off the SLOG: little or no gain (${factLink('A9')}).`);
  if (withE && isAsync(side, w)) withE.basis.push(`No sync writes: a SLOG changes nothing (${factLink('A1')}).`);
  const zil = log.kind === 'slog' ? 'log vdev' : log.kind === 'special' ? 'special vdev' : 'data vdevs';
  const asyncW = isAsync(side, w);
  // No sync writes: the ZIL is not on the path, so the device and the pool's ZIL home change
  // nothing (zfs-facts A1, A20): "with" is "now", the gain exactly 1, whatever the candidate.
  if (withE && asyncW) Object.assign(withE, { iops: now.iops, low: now.low, high: now.high, latencyIops: now.latencyIops });
  const guess = candidate && candidate.profile.matched === 'class' && !asyncW
    ? `Not in the device catalog: the range ${formatCount(Math.round(withE!.low))}–${formatCount(Math.round(withE!.high))} IOPS is the "${candidate.profile.classLabel}" class's, a guess, so there is no point forecast and no gain. Measure the device itself in one click (blank-device test, destroys its contents): ${candidate.measureHint ?? '`zfs-advisor bench sync-write-4k-qd1 --device DEV --confirm-serial SERIAL`'}.`
    : null;
  const nowGuess = !asyncW && !opts.nowDevice && UNMEASURED.has(log.device.cls) && log.device.matched === 'class'
    ? `The ZIL lands on ${log.device.cls === 'virtual' ? 'virtual disks or LUNs' : 'devices of unknown kind'} today (${log.device.basis.replace(/\.$/, '')}): their sync-write latency is unknown until measured, so "now" is the class's wide range ${formatCount(now.low)}–${formatCount(now.high)} IOPS and there is no point gain. Measure it in one click: ${measurePoolHint(pool.name)}.`
    : null;
  // Coherent ranges: a faster path never has a lower best case than now (the same ceilings cap
  // both); a range wholly below "now" is said to be slower.
  if (withE && withE.iops >= now.iops) withE.high = Math.max(withE.high, now.high);
  const slower = withE !== null && withE.high < now.low;
  if (withE && slower) withE.basis.push(`The whole range lies below "now": as SLOG this device would be slower than the current ZIL path.`);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const gain = !withE ? null : asyncW ? 1 : guess || nowGuess ? null : r2(withE.iops / now.iops);
  const ends = !opts.nowDevice ? nowDeviceEnds(deviceEnds(data, log, side, w, params), now) : null;
  const spread = withE ? gainSpread(withE.iops / now.iops, withE, ends ? { iops: now.iops, ...ends } : null) : null;
  const gainRange = !withE || !spread ? null : asyncW ? { low: 1, high: 1 } : {
    low: r2(Math.min(gain ?? Infinity, spread.low)),
    high: r2(Math.max(gain ?? 0, spread.high)),
  };
  return {
    pool: pool.name,
    workload: { ...spec, dataset, datasetSync: side.sync, logbias: side.logbias, blockSize: side.blockSize, target: side.target },
    now: { iops: now.iops, low: now.low, high: now.high, latencyIops: now.latencyIops, basis: join(now), zil, guess: nowGuess, deviceEnds: ends },
    with: withE && candidate ? {
      device: candidate.label, catalogId: candidate.profile.id, status: candidate.profile.status, measured: withE.measured ?? null, guess, slower,
      deviceRun: candidate.measurement ? { id: candidate.measurement.runId, startedAt: candidate.measurement.startedAt } : null,
      measure: candidate.measureHint && !candidate.measurement && !guess && !asyncW ? `This drive was not measured on this host: the figure is the device catalog's. Measure it in one click (blank-device test, destroys its contents): ${candidate.measureHint}.` : null,
      iops: withE.iops, low: withE.low, high: withE.high, latencyIops: withE.latencyIops, basis: join(withE),
    } : null,
    gain,
    gainRange,
  };
}

/**
 * "Now"'s device ends (model.ts deviceEnds) as the forecast carries them: rounded, and each on its
 * side of the estimate `now` (a published measurement of the device may have set "now").
 */
export function nowDeviceEnds(model: DeviceEnds | null, now: { iops: number; latencyIops: number }): DeviceEnds | null {
  return model ? {
    fast: Math.max(now.iops, Math.round(model.fast)), slow: Math.min(now.iops, Math.round(model.slow)),
    latencyFast: Math.max(now.latencyIops, Math.round(model.latencyFast)), latencySlow: Math.min(now.latencyIops, Math.round(model.latencySlow)),
  } : null;
}

/**
 * The range of a gain `gain` of "with" (`w`: its IOPS and range) over "now", always containing `gain`.
 * `now` null: "now" was measured (the app's probe, an observation), so only the "with" side is
 * uncertain and the gain moves with it: gain × with.low / with.iops … gain × with.high / with.iops.
 * `now` given: "now" is the model's estimate, and its devices' own spread is carried too:
 * with.low / now.fast … with.high / now.slow, where `fast` and `slow` are "now" with its devices at
 * their fast and slow ends (model.ts deviceEnds). Why these two spreads are independent:
 *   - what spreads "now" is the ZIL's devices, which no inventory shows: hard disks or a controller
 *     that acknowledge the flush from their write cache (clemtibs, five 12 TB disks: sync writes
 *     done in 0.43–0.6 ms per the author's fio log, 8,786 IOPS at 8 jobs, inside the class range
 *     227–16,980; calibration PROVENANCE.md) or that seek and flush to the platters (000's WD Red
 *     mirror: "8-15 milliseconds", median 12 ms). A SLOG gained 1.08–1.16× on the first and 7–48×
 *     on the second (BENCHMARKS.md, published pairs): the class alone cannot tell them apart;
 *   - what spreads "with" is the candidate's own flush latency, and what both sides share: the
 *     host's per-commit overhead and CPU per writer, the data vdevs' ceilings.
 * The shared part is one host and one pool, so it takes the same end on both sides: "fast" is
 * "now" with fast devices on the slow host and pool that `with.low` assumes, "slow" the reverse.
 * Dividing the printed ends instead (with.low / now.high) would pair a 17 µs host with an 83 µs
 * one, and two ends of the same data vdevs' bandwidth: at QD16 on demo 001's raidz2 it gave
 * 0.28–46×, a SLOG three times slower than none where both sides are held by the same ceiling.
 */
export function gainSpread(gain: number, w: { iops: number; low: number; high: number }, now: { iops: number; fast: number; slow: number } | null): { low: number; high: number } {
  if (w.iops <= 0) return { low: gain, high: gain };
  const nowLow = now && now.fast > 0 ? now.iops / now.fast : 1;
  const nowHigh = now && now.slow > 0 ? now.iops / now.slow : 1;
  return { low: Math.min(gain, (gain * w.low * nowLow) / w.iops), high: Math.max(gain, (gain * w.high * nowHigh) / w.iops) };
}

/** The app's QD1 sync-write probe of a pool, as a command. */
export const probeCommand = (pool: string): string => `zfs-advisor bench sync-write-4k-qd1 --pool ${pool}`;
/** The one click that measures a pool's "now", in the words every surface uses. */
export const measurePoolHint = (pool: string): string => `"Should I add Optane?" with the sync-write probe ticked, or \`${probeCommand(pool)}\``;

/** Device classes whose sync-write latency the model text cannot give: "now" on them is a guess until measured. */
const UNMEASURED: ReadonlySet<string> = new Set(['virtual', 'unknown']);

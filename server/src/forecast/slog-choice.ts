/**
 * Which log device a pool's forecast is for: the unused candidate in the box with the highest
 * QD1 forecast on this pool (Optane or PLP NVMe: rules/lib/slog-devices.ts), else the first of
 * the devices to buy as ranked by purchaseOptions (a P1600X 118 GB or a current PLP NVMe). Chosen
 * once per pool in its sync-write evidence (sync-evidence.ts), which the Optane verdict, the
 * slog-benefit rule and `forecast` read, so all show the same numbers. A drive
 * measured on this host (a blank-device test in `a.Benchmarks`) is forecast from that measurement
 * (measured-device.ts).
 */
import type { Artifacts } from '../model/artifacts.ts';
import type { Drive, Pool } from '../model/inventory.ts';
import { productName } from '../../../rules/lib/device-class.ts';
import { drivePath, fitForSlog, unusedDrives } from '../../../rules/lib/slog-devices.ts';
import { currentPlpNvme, findEntry, priceClassOf, profileForEntry, profileForText, type CatalogEntry, type PriceClass, type SlogMeasurement } from './catalog.ts';
import type { LogTarget } from './model.ts';
import { candidateProfile, deviceMeasurement, deviceProbeHint } from './measured-device.ts';
import { forecastPool, gainSpread, WorkloadSpec, type Candidate, type ForecastOptions, type ForecastResult } from './forecast.ts';

export const P1600X_MODEL = 'INTEL SSDPEK1A118GA';
export const QD1 = WorkloadSpec.parse({ iodepth: 1 });
export const QD16 = WorkloadSpec.parse({ iodepth: 16 });

export interface SlogTarget { candidate: Candidate; drive: Drive | null }

export interface SlogChoice {
  target: SlogTarget;
  /** Every unused candidate in the box, best first. */
  inBox: SlogTarget[];
  qd1: ForecastResult;
  qd16: ForecastResult;
  /** QD1 latency ratio with/now (the pool's sustained ceiling caps throughput, not the wait per write). */
  gain: number;
  /** The range of `gain` (gainRangeOf): across the "with" range, and the "now" range while "now" is a model estimate. */
  gainRange: { low: number; high: number };
  /** With no candidate in the box: the devices to buy, ranked (purchaseOptions), the first being `target`; else null. */
  purchase: PurchaseOption[] | null;
}

/** A device to buy, forecast on the pool at QD1 and QD16, in the order purchaseOptions ranks them. */
export interface PurchaseOption {
  entry: CatalogEntry;
  target: SlogTarget;
  qd1: ForecastResult;
  qd16: ForecastResult;
  /**
   * At QD1 the gain per write (latency ratio, as the decision reads it: the pool's sustained
   * ceiling caps throughput, not each write's wait), and its range; `capped` when that ceiling
   * holds the sustained figure below what the ZIL path allows.
   */
  gainQd1: { gain: number; low: number; high: number; capped: boolean };
  /** At QD16 with ÷ now as the page shows it (sustained IOPS: many writers), and its range. */
  gainQd16: { gain: number; low: number; high: number };
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/**
 * `gain` and the same ratio at the ends of the "with" range, and of "now"'s where "now" is the
 * model's estimate (its devices' own spread, forecast.ts gainSpread): per write (`gain` a latency
 * ratio: the ZIL path's latency alone, before the pool's ceiling) or sustained. The range always
 * contains the gain.
 */
export function gainRangeOf(gain: number, f: ForecastResult, per: 'write' | 'sustained' = 'write'): { low: number; high: number } {
  const w = f.with;
  if (f.gainRange && f.gainRange.low === 1 && f.gainRange.high === 1 && f.gain === 1) return { low: 1, high: 1 };
  if (!w || w.iops <= 0) return { low: r2(gain), high: r2(gain) };
  const e = f.now.deviceEnds;
  const now = !e ? null : per === 'write' ? { iops: f.now.latencyIops, fast: e.latencyFast, slow: e.latencySlow } : { iops: f.now.iops, fast: e.fast, slow: e.slow };
  const s = gainSpread(gain, w, now);
  return { low: r2(s.low), high: r2(s.high) };
}

function sideGain(f: ForecastResult): { gain: number; low: number; high: number } {
  const g = f.with && f.now.iops > 0 ? f.with.iops / f.now.iops : 1;
  return { gain: r2(g), ...gainRangeOf(g, f, 'sustained') };
}

function perWriteGain(f: ForecastResult): { gain: number; low: number; high: number; capped: boolean } {
  const g = f.with && f.now.latencyIops > 0 ? f.with.latencyIops / f.now.latencyIops : 1;
  return { gain: r2(g), ...gainRangeOf(g, f), capped: f.with !== null && f.with.latencyIops > f.with.iops * 1.05 };
}

/** Forecasts within this fraction of each other rank as equal, and the next criterion decides [heuristic: the run-to-run spread of a sync-write probe]. */
export const SAME_GAIN = 0.05;
const PLP_RANK: Record<CatalogEntry['plp'], number> = { capacitor: 0, 'no-volatile-cache': 0, none: 1 };
/** Cheaper first; a device with no published price after every priced one. */
const PRICE_RANK: Record<PriceClass | 'unknown', number> = { low: 0, mid: 1, high: 2, unknown: 3 };
const priceRank = (e: CatalogEntry): number => PRICE_RANK[priceClassOf(e.price) ?? 'unknown'];

/**
 * The devices worth buying for `pool`'s log (the Optane P1600X and the current PLP NVMe drives of
 * the catalog), forecast at QD1 and QD16 and ranked by rankPurchase.
 */
export function purchaseOptions(a: Artifacts, pool: Pool, opts: ForecastOptions = {}): PurchaseOption[] {
  const p1600x = findEntry(P1600X_MODEL)!;
  const targets: { entry: CatalogEntry; target: SlogTarget }[] = [
    { entry: p1600x, target: purchaseTarget() },
    ...currentPlpNvme().map((e) => ({ entry: e, target: { drive: null, candidate: { label: `${e.product} (to buy)`, profile: profileForEntry(e), mirrored: false } } })),
  ];
  return rankPurchase(targets.map(({ entry, target }) => {
    const qd1 = forecastPool(a, pool, QD1, target.candidate, opts);
    const qd16 = forecastPool(a, pool, QD16, target.candidate, opts);
    return { entry, target, qd1, qd16, gainQd1: perWriteGain(qd1), gainQd16: sideGain(qd16) };
  }));
}

/**
 * The order of the devices to buy (issue 34 §3): by forecast gain per write at QD1 (the
 * decision's measure), then sustained at QD16 (within SAME_GAIN of each other are equal), then
 * power-loss protection, endurance (DWPD), in production before discontinued, price class (low,
 * mid, high, then no published price: device-catalog.json `_meta.priceBands`); then a measured
 * latency before a class estimate, and the name, so the order never depends on the input's.
 */
export function rankPurchase(all: readonly PurchaseOption[]): PurchaseOption[] {
  const same = (x: number, y: number) => Math.abs(x - y) <= SAME_GAIN * Math.max(x, y);
  const byGain = (x: PurchaseOption, y: PurchaseOption) =>
    (same(x.gainQd1.gain, y.gainQd1.gain) ? 0 : y.gainQd1.gain - x.gainQd1.gain)
    || (same(x.gainQd16.gain, y.gainQd16.gain) ? 0 : y.gainQd16.gain - x.gainQd16.gain);
  const rest = (x: PurchaseOption, y: PurchaseOption) =>
    PLP_RANK[x.entry.plp] - PLP_RANK[y.entry.plp]
    || (y.entry.endurance.dwpd ?? -1) - (x.entry.endurance.dwpd ?? -1)
    || Number(x.entry.status !== 'in-production') - Number(y.entry.status !== 'in-production')
    || priceRank(x.entry) - priceRank(y.entry)
    // Then the better-known figure: a measured or specified latency before a class estimate.
    || Number(x.entry.syncWrite4kUs.kind === 'class-estimate') - Number(y.entry.syncWrite4kUs.kind === 'class-estimate');
  // Grouped first (a tolerance is not transitive): each group holds the options within SAME_GAIN of
  // its best, then the other criteria order each group.
  const sorted = [...all].sort((x, y) => y.gainQd1.gain - x.gainQd1.gain || y.gainQd16.gain - x.gainQd16.gain);
  const groups: PurchaseOption[][] = [];
  for (const o of sorted) {
    const g = groups[groups.length - 1];
    if (g && byGain(g[0]!, o) === 0) g.push(o);
    else groups.push([o]);
  }
  return groups.flatMap((g) => g.sort((x, y) => rest(x, y) || x.entry.product.localeCompare(y.entry.product)));
}

/**
 * A measured before/after pair behind a forecast: the device's published SLOG measurement the
 * "with" figure is (same pool shape and workload, used as is), whose source also published the
 * same pool without a log device. Only for a pool whose ZIL is on its data vdevs today (`zil`: where
 * it lands, sync-evidence.ts; what "before" measured). Null otherwise.
 */
export function measuredPair(zil: LogTarget['kind'], f: ForecastResult, target: SlogTarget): { before: number; after: number; gain: number; measurement: SlogMeasurement } | null {
  if (!f.with?.measured || zil !== 'data') return null;
  const m = target.candidate.profile.slogMeasurements.find((x) => x.before && x.iops === f.with!.iops && x.iodepth === f.workload.iodepth && x.numjobs === f.workload.numjobs && x.bs === f.workload.bs);
  return m?.before ? { before: m.before.iops, after: m.iops, gain: r2(m.iops / m.before.iops), measurement: m } : null;
}

export const purchaseTarget = (): SlogTarget => ({ drive: null, candidate: { label: 'Intel Optane SSD P1600X 118GB (to buy)', profile: profileForText(P1600X_MODEL), mirrored: false } });

/**
 * `opts`: what was measured on this pool (measured-now.ts forecastOptionsOf); `unused`: the box's
 * unused drives when the caller already holds them (unusedDrives).
 */
export function chooseSlog(a: Artifacts, pool: Pool, opts: ForecastOptions = {}, unused: readonly Drive[] = unusedDrives(a.Pools ?? [], a.Drives ?? [])): SlogChoice {
  const listed = fitForSlog(unused);
  // A drive its model does not mark as a log candidate still is one once this host measured it.
  const measured = unused.filter((d) => !listed.includes(d) && deviceMeasurement(a.Benchmarks, d) !== null);
  const scored = [...listed, ...measured]
    .map((d): SlogTarget => {
      // Measure before forecasting: a blank-device test of the drive replaces its catalog figure.
      const c = candidateProfile(d, a.Benchmarks);
      return { drive: d, candidate: { label: `${drivePath(d, a.Host)} (${productName(d)})`, profile: c.profile, measurement: c.measurement, measureHint: deviceProbeHint(d, a.Host), mirrored: false } };
    })
    .map((t) => ({ t, f: forecastPool(a, pool, QD1, t.candidate, opts) }))
    .sort((x, y) => y.f.with!.latencyIops - x.f.with!.latencyIops);
  const purchase = scored.length === 0 ? purchaseOptions(a, pool, opts) : null;
  const buy = purchase ? purchase[0]! : null;
  const target = scored[0]?.t ?? buy!.target;
  const qd1 = scored[0]?.f ?? buy!.qd1;
  const qd16 = buy?.qd16 ?? forecastPool(a, pool, QD16, target.candidate, opts);
  const gain = qd1.with!.latencyIops / qd1.now.latencyIops;
  return { target, inBox: scored.map((s) => s.t), qd1, qd16, gain, gainRange: gainRangeOf(gain, qd1), purchase };
}

/**
 * Fitting the model's free parameters on the calibration set and scoring it honestly:
 * leave-one-out (each record predicted by parameters fitted without it, and without the catalog
 * measurement that came from it), median absolute percentage error, and how often the measured
 * value falls inside the forecast range — for the "now" baseline, "with" a SLOG and async
 * records separately.
 *
 * Fitted: per-commit overhead, CPU per further writer, ceiling scale and the hard-disk append
 * share (grid search on the median |ln(forecast/measured)|, each group and each published system
 * counted once; the host ceiling stays at its class estimate), then the range slack: the smallest
 * factor that puts ≥ 80 % of the training records inside their range. The ranges around each
 * fitted value are fixed ratios, not fitted. The reported score stays the median APE.
 */
import { estimateWith, gainSpread, nowDeviceEnds, withHostExtra } from './forecast.ts';
import { decide, type Decision, type DecisionEvidence } from '../optane/decide.ts';
import { DEFAULT_PARAMS, deviceEnds, estimate, paramsOf, type DeviceEnds, type ModelParams } from './model.ts';
import { hostExtraOf } from './measured-now.ts';
import { anchorIdsOf, systemOf, type Group, type Scorable } from './calibration.ts';
import { profileForText } from './catalog.ts';
import { slogTarget } from './pool-shape.ts';

const GRID = {
  overhead: [20, 30, 40, 55, 75, 100, 130, 170],
  writerUs: [0, 0.5, 1, 2, 4, 8],
  ceiling: [0.35, 0.5, 0.7, 1, 1.4, 2],
  // The host ceiling is not fitted: with the ceiling scale it only matters as a product (degenerate).
  host: [60_000],
  hddZil: [0.08, 0.15, 0.25, 0.4, 0.6, 1],
};
/** Beyond 3× either way a range says nothing a reader can use: the slack stops there and the coverage is reported as it is. */
const SLACKS = [1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3];
export const TARGET_COVERAGE = 0.8;

export interface Prediction { iops: number; low: number; high: number }

export function predict(s: Scorable, p: ModelParams): Prediction {
  const e = estimateWith(s.data, s.log, s.ds, s.w, { params: p, excludeMeasurements: anchorIdsOf(s.record) });
  return { iops: e.iops, low: e.low, high: e.high };
}

const ape = (pred: number, meas: number) => Math.abs(pred - meas) / meas;
/**
 * What the fit minimises: the factor between forecast and measurement, |ln(forecast/measured)|.
 * Symmetric, unlike APE, which caps an under-forecast at 100 % but lets an over-forecast grow
 * without bound — minimising APE pulls every parameter toward the records forecast too low.
 */
const logErr = (pred: number, meas: number) => Math.abs(Math.log(Math.max(pred, 1e-9) / meas));
export const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const a = [...xs].sort((x, y) => x - y);
  const m = Math.floor(a.length / 2);
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
};

/** Every grid point, in the order the search visits them (ties keep the first). */
function gridPoints(): ModelParams[] {
  const out: ModelParams[] = [];
  for (const o of GRID.overhead) for (const q of GRID.writerUs) for (const c of GRID.ceiling) for (const h of GRID.host) for (const z of GRID.hddZil) out.push(paramsOf(o, q, c, h, 1, z));
  return out;
}

/**
 * A record's typical forecast does not depend on which records the parameters were fitted on, so
 * the forecast of every record at every grid point is computed once; each fit (the whole set, or
 * one leave-one-out fold) is then only medians over its rows of this table.
 */
interface Table { grid: ModelParams[]; errs: Float64Array[] }
function tableOf(set: readonly Scorable[]): Table {
  const grid = gridPoints();
  return { grid, errs: grid.map((p) => Float64Array.from(set.map((s) => logErr(predict(s, p).iops, s.measured)))) };
}

/** The weighted median: the value where half of the weight lies on either side. */
function weightedMedian(xs: readonly number[], ws: readonly number[]): number {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const total = ws.reduce((a, b) => a + b, 0);
  let acc = 0;
  for (const i of order) { acc += ws[i]!; if (acc >= total / 2 - 1e-12) return xs[i]!; }
  return NaN;
}

function fitRows(set: readonly Scorable[], t: Table, rows: readonly number[]): ModelParams {
  // Each group counts once (the many "with" records would otherwise decide what only the "now"
  // records depend on, the hard-disk ZIL share), and within a group each published system counts
  // once (calibration.ts systemOf): four runs of one pool are one observation of how it behaves.
  // A median, not a mean: the records that measure something else (NFS round trips, a pool whose
  // shape was not published) do not drag the parameters every other system depends on.
  const groups = (['now', 'with', 'async'] as const).map((gr) => {
    const rs = rows.filter((i) => set[i]!.group === gr);
    const per = new Map<string, number>();
    for (const i of rs) per.set(systemOf(set[i]!.record), (per.get(systemOf(set[i]!.record)) ?? 0) + 1);
    return { rs, ws: rs.map((i) => 1 / per.get(systemOf(set[i]!.record))!) };
  }).filter((x) => x.rs.length > 0);
  let best = { err: Infinity, p: DEFAULT_PARAMS };
  t.grid.forEach((p, g) => {
    const e = t.errs[g]!;
    const err = groups.reduce((sum, { rs, ws }) => sum + weightedMedian(rs.map((i) => e[i]!), ws), 0);
    if (err < best.err) best = { err, p };
  });
  const b = best.p;
  for (const slack of SLACKS) {
    const p = { ...b, slack };
    const inside = rows.filter((i) => { const s = set[i]!; const r = predict(s, p); return s.measured >= r.low && s.measured <= r.high; }).length;
    if (inside / Math.max(1, rows.length) >= TARGET_COVERAGE) return p;
  }
  return { ...b, slack: SLACKS[SLACKS.length - 1]! };
}

/** Fit on `train` (grid search on median APE, then the slack for ≥ 80 % coverage). */
export function fit(train: readonly Scorable[]): ModelParams {
  return fitRows(train, tableOf(train), train.map((_, i) => i));
}

export interface LooRow { id: string; group: Group; measured: number; pred: Prediction; ape: number; inside: boolean; derivedIops: boolean }
export interface LooSummary { group: Group | 'all'; n: number; medianApe: number; coverage: number }

export function leaveOneOut(set: readonly Scorable[]): LooRow[] {
  const t = tableOf(set);
  const all = set.map((_, i) => i);
  return set.map((s, i) => {
    const p = fitRows(set, t, all.filter((j) => j !== i));
    const pred = predict(s, p);
    return { id: s.record.id, group: s.group, measured: s.measured, pred, ape: ape(pred.iops, s.measured), inside: s.measured >= pred.low && s.measured <= pred.high, derivedIops: s.derivedIops };
  });
}

/**
 * Stricter than leave-one-out: each record predicted by parameters fitted without every record of
 * its system (calibration.ts systemOf) and without any catalog measurement taken from that system,
 * so runs of the same pool cannot inform each other.
 */
export function leaveOneSystemOut(set: readonly Scorable[]): LooRow[] {
  const t = tableOf(set);
  return set.map((s) => {
    const sys = systemOf(s.record);
    const p = fitRows(set, t, set.flatMap((x, j) => (systemOf(x.record) === sys ? [] : [j])));
    const e = estimateWith(s.data, s.log, s.ds, s.w, { params: p, excludeMeasurements: new Set(set.filter((x) => systemOf(x.record) === sys).map((x) => x.record.id)) });
    const pred = { iops: e.iops, low: e.low, high: e.high };
    return { id: s.record.id, group: s.group, measured: s.measured, pred, ape: ape(pred.iops, s.measured), inside: s.measured >= pred.low && s.measured <= pred.high, derivedIops: s.derivedIops };
  });
}

export function summarise(rows: readonly LooRow[]): LooSummary[] {
  const groups: Array<Group | 'all'> = ['now', 'with', 'async', 'all'];
  return groups.map((g) => {
    const rs = g === 'all' ? rows : rows.filter((r) => r.group === g);
    return { group: g, n: rs.length, medianApe: median(rs.map((r) => r.ape)), coverage: rs.length ? rs.filter((r) => r.inside).length / rs.length : NaN };
  });
}

export interface PairGain {
  now: string; with: string; measuredGain: number;
  /** Model only: both sides forecast from the inventory's facts; the point gain, reported as it is. */
  forecastGain: number;
  /** Model only: the gain range the app shows ("now" is a model estimate, so its devices' own range is carried: forecast.ts gainSpread, model.ts deviceEnds). */
  forecastRange: { low: number; high: number };
  /** Model only: what the decision table (optane/decide.ts) answers on that range, and its row. */
  decision: Decision['verdict']; decisionKind: Decision['kind'];
  /** Model only, as the user sees it: the range says ≥ 2× (its low end) or the decision says yes/replace where < 1.3× was measured, or the range says < 1.3× (its high end) or the decision says no where ≥ 2× was. */
  flipped: boolean;
  /** As the app forecasts after its probe: "now" is the measurement, "with" the model (with the unattributed host overhead). */
  probedGain: number; probedFlipped: boolean;
}
/** A forecast gain this high while the measured one stays below LOW_GAIN (or the reverse) would flip a buying decision. */
export const HIGH_GAIN = 2;
export const LOW_GAIN = 1.3;

/**
 * The decision table's evidence for a published pair, model only: sync writes (every paired run
 * writes synchronously, so demand is 'configured'), nothing measured, the ZIL where the "now" record
 * has it, the "with" record's log device as the candidate, and the pair's gain and range. The
 * gain is the pair's own workload's (its writers), not the QD1 latency ratio the app decides on:
 * the published runs are what was measured.
 */
function pairEvidence(n: Scorable, w: Scorable, gain: number, range: { low: number; high: number }, ends: DeviceEnds | null): DecisionEvidence {
  const dev = n.log.device;
  const T = Math.max(1, n.w.iodepth * n.w.numjobs);
  return {
    pool: systemOf(n.record), demand: 'configured', commitsPerSec: null, commitsMatter: true, measuredQd1Iops: null, observed: null,
    zilHome: n.log.kind === 'slog' ? 'log' : n.log.kind,
    zilClass: { label: dev.classLabel, known: dev.cls !== 'virtual' && dev.cls !== 'unknown', typicalUs: dev.lat4kUs.typical, cls: dev.cls },
    zilOnOptane: dev.cls.startsWith('optane'),
    candidate: { label: w.log.device.product, latencySource: w.log.device.matched === 'catalog' ? 'catalog' : 'class' },
    gain, gainRange: range,
    nowRange: ends ? { fastMs: (T * 1000) / ends.latencyFast, slowMs: (T * 1000) / ends.latencySlow } : null,
    probe: 'the pool\'s QD1 sync-write probe',
  };
}

/**
 * The published with/without pairs (a "now" record and the "with" record it is paired with: same
 * system, a SLOG added): the measured gain against the forecast of `p`. Flipped = the forecast
 * says ≥ 2× and the measurement < 1.3×, or the reverse: it would change what the user buys.
 * Model only, the forecast is judged as the user sees it: by the gain range the app shows (it says
 * ≥ 2× only when its low end is, < 1.3× only when its high end is) and by the decision it takes
 * on it; the point gain is reported beside them. After the probe, by the point gain.
 */
export function pairGains(set: readonly Scorable[], p: ModelParams = DEFAULT_PARAMS): PairGain[] {
  const byId = new Map(set.map((s) => [s.record.id, s]));
  const out: PairGain[] = [];
  for (const n of set.filter((s) => s.group === 'now')) {
    const partners = set.filter((s) => s.group === 'with' && (s.record.pairedWith === n.record.id || n.record.pairedWith === s.record.id));
    for (const w of partners) {
      if (!byId.has(w.record.id)) continue;
      const measuredGain = w.measured / n.measured;
      const pw = predict(w, p);
      const pn = predict(n, p);
      const forecastGain = pw.iops / pn.iops;
      const est = estimate(n.data, n.log, n.ds, n.w, p);
      const ends = nowDeviceEnds(deviceEnds(n.data, n.log, n.ds, n.w, p), { iops: pn.iops, latencyIops: est.latencyIops });
      const forecastRange = gainSpread(forecastGain, pw, ends ? { iops: pn.iops, fast: ends.fast, slow: ends.slow } : null);
      const d = decide(pairEvidence(n, w, forecastGain, forecastRange, ends));
      const T = Math.max(1, n.w.iodepth * n.w.numjobs);
      const extra = hostExtraOf(n.log.device, n.measured, est.latencyIops, T);
      const probedGain = predict(w, withHostExtra(p, extra)).iops / n.measured;
      const flip = (saysHigh: boolean, saysLow: boolean) => (saysHigh && measuredGain < LOW_GAIN) || (saysLow && measuredGain >= HIGH_GAIN);
      const flipped = flip(forecastRange.low >= HIGH_GAIN || d.verdict === 'yes' || d.verdict === 'replace', forecastRange.high < LOW_GAIN || d.verdict === 'no');
      out.push({
        now: n.record.id, with: w.record.id, measuredGain, forecastGain, forecastRange, decision: d.verdict, decisionKind: d.kind, flipped,
        probedGain, probedFlipped: flip(probedGain >= HIGH_GAIN, probedGain < LOW_GAIN),
      });
    }
  }
  return out;
}

export interface AsyncControl { id: string; now: number; withSlog: number; gain: number }

/**
 * The published records without sync writes (sync=disabled or an asynchronous workload) as
 * controls: the forecast with a SLOG added — a data-centre Optane, the fastest log there is — over
 * the forecast without one. A SLOG changes nothing for them (zfs-facts A1), so anything but 1 is
 * a defect of the model.
 */
export function asyncControls(set: readonly Scorable[], p: ModelParams = DEFAULT_PARAMS): AsyncControl[] {
  const optane = slogTarget(profileForText('INTEL SSDPEK1A118GA'), false);
  return set.filter((s) => s.group === 'async').map((s) => {
    const dataLog = s.log.kind === 'slog' ? { ...s.log, kind: 'data' as const, device: s.data.media } : s.log;
    const now = estimateWith(s.data, dataLog, s.ds, s.w, { params: p }).iops;
    const withSlog = estimateWith(s.data, optane, s.ds, s.w, { params: p }).iops;
    return { id: s.record.id, now, withSlog, gain: withSlog / now };
  });
}

/**
 * Fitting the model's free parameters on the calibration set and scoring it honestly:
 * leave-one-out (each record predicted by parameters fitted without it, and without the catalog
 * measurement that came from it), median absolute percentage error, and how often the measured
 * value falls inside the forecast range — for the "now" baseline, "with" a SLOG and async
 * records separately.
 *
 * Fitted: per-commit overhead, queue penalty and ceiling scale (grid search on the median APE;
 * the host ceiling stays at its class estimate), then the range slack: the smallest factor that puts ≥ 80 % of the training records
 * inside their range. The ranges around each fitted value are fixed ratios, not fitted.
 */
import { estimateWith, withHostExtra } from './forecast.ts';
import { DEFAULT_PARAMS, estimate, paramsOf, type ModelParams } from './model.ts';
import { hostExtraOf } from './measured-now.ts';
import { anchorIdsOf, type Group, type Scorable } from './calibration.ts';

const GRID = {
  overhead: [20, 30, 40, 55, 75, 100],
  queue: [0.001, 0.003, 0.006, 0.01, 0.02, 0.0325, 0.05, 0.08],
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
export const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const a = [...xs].sort((x, y) => x - y);
  const m = Math.floor(a.length / 2);
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
};

/** Every grid point, in the order the search visits them (ties keep the first). */
function gridPoints(): ModelParams[] {
  const out: ModelParams[] = [];
  for (const o of GRID.overhead) for (const q of GRID.queue) for (const c of GRID.ceiling) for (const h of GRID.host) for (const z of GRID.hddZil) out.push(paramsOf(o, q, c, h, 1, z));
  return out;
}

/**
 * A record's typical forecast does not depend on which records the parameters were fitted on, so
 * the forecast of every record at every grid point is computed once; each fit (the whole set, or
 * one leave-one-out fold) is then only medians over its rows of this table.
 */
interface Table { grid: ModelParams[]; apes: Float64Array[] }
function tableOf(set: readonly Scorable[]): Table {
  const grid = gridPoints();
  return { grid, apes: grid.map((p) => Float64Array.from(set.map((s) => ape(predict(s, p).iops, s.measured)))) };
}

function fitRows(set: readonly Scorable[], t: Table, rows: readonly number[]): ModelParams {
  let best = { err: Infinity, p: DEFAULT_PARAMS };
  t.grid.forEach((p, g) => {
    const err = median(rows.map((i) => t.apes[g]![i]!));
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

export function summarise(rows: readonly LooRow[]): LooSummary[] {
  const groups: Array<Group | 'all'> = ['now', 'with', 'async', 'all'];
  return groups.map((g) => {
    const rs = g === 'all' ? rows : rows.filter((r) => r.group === g);
    return { group: g, n: rs.length, medianApe: median(rs.map((r) => r.ape)), coverage: rs.length ? rs.filter((r) => r.inside).length / rs.length : NaN };
  });
}

export interface PairGain {
  now: string; with: string; measuredGain: number;
  /** Model only: both sides forecast from the inventory's facts. */
  forecastGain: number; flipped: boolean;
  /** As the app forecasts after its probe: "now" is the measurement, "with" the model (with the unattributed host overhead). */
  probedGain: number; probedFlipped: boolean;
}
/** A forecast gain this high while the measured one stays below LOW_GAIN (or the reverse) would flip a buying decision. */
export const HIGH_GAIN = 2;
export const LOW_GAIN = 1.3;

/**
 * The published with/without pairs (a "now" record and the "with" record it is paired with: same
 * system, a SLOG added): the measured gain against the forecast gain of `p`. Flipped = one says
 * ≥ 2× and the other < 1.3×: the forecast would change what the user buys.
 */
export function pairGains(set: readonly Scorable[], p: ModelParams = DEFAULT_PARAMS): PairGain[] {
  const byId = new Map(set.map((s) => [s.record.id, s]));
  const out: PairGain[] = [];
  for (const n of set.filter((s) => s.group === 'now')) {
    const partners = set.filter((s) => s.group === 'with' && (s.record.pairedWith === n.record.id || n.record.pairedWith === s.record.id));
    for (const w of partners) {
      if (!byId.has(w.record.id)) continue;
      const measuredGain = w.measured / n.measured;
      const forecastGain = predict(w, p).iops / predict(n, p).iops;
      const T = Math.max(1, n.w.iodepth * n.w.numjobs);
      const extra = hostExtraOf(n.log.device, n.measured, estimate(n.data, n.log, n.ds, n.w, p).latencyIops, T);
      const probedGain = predict(w, withHostExtra(p, extra)).iops / n.measured;
      const flip = (g: number) => (g >= HIGH_GAIN && measuredGain < LOW_GAIN) || (measuredGain >= HIGH_GAIN && g < LOW_GAIN);
      out.push({ now: n.record.id, with: w.record.id, measuredGain, forecastGain, flipped: flip(forecastGain), probedGain, probedFlipped: flip(probedGain) });
    }
  }
  return out;
}

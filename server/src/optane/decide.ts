/**
 * "Should I add Optane?" as a pure decision you can read as a table (issue 34 §1): the evidence
 * about one pool in, the verdict and the ONE fact that decided it (with its number) out. No words
 * beyond that fact are written here; verdict.ts renders the page from the decision.
 *
 * The order of the rows is the order of precedence:
 *   1. no sync writes (observed none, or ZIL commits at a negligible rate) → no, gain exactly 1×
 *   2. the pool's measured QD1 sync latency (newest probe), else the observed one (newest observation):
 *        low (≤ FAST_US)                       → no, "already fast", the measured number
 *        gain range's upper end < MIN_BUY_GAIN → depends, nothing to buy (a slow measurement is never "no")
 *        slow, existing SLOG, candidate ≥ 2×   → replace
 *        slow, sync demand, gain range ≥ 3×    → yes, the measured number
 *        gain range straddles 3×               → depends: the range, and the device test when there is one
 *        slow otherwise                        → depends (never "no": a slow measurement is never answered "no")
 *   3. nothing measured, the ZIL device's class has a known latency:
 *        ZIL already on Optane                 → no
 *        low (≤ FAST_US)                       → no, "already fast", the class latency
 *        gain range's upper end < MIN_BUY_GAIN → no, nothing to buy, the range
 *        SLOG and candidate ≥ 2× with demand   → replace
 *        gain range straddles 3×               → depends: measure the pool first, the range; with "now"'s
 *                                                class range (`nowRange`), "measure first": the class's
 *                                                fast and slow ends and why it spans them
 *        candidate < 3×                        → no, the candidate's small gain (never "already fast")
 *        sync demand                           → yes, the class latency
 *        no sync evidence                      → depends: observe
 *   4. nothing measured and the latency is unknown (virtual disk, LUN, file, unidentified) → depends: measure first
 *
 * `buy` says whether the page may propose a device at all: never on "no", never when the gain
 * range's upper end is below MIN_BUY_GAIN, never when the whole range stays under MIN_QD1_GAIN.
 */

import { formatGain, formatGainRange } from '../text/format.ts';

export type SyncDemandLevel = 'observed' | 'counters' | 'configured' | 'unknown' | 'none-observed';

export interface DecisionEvidence {
  pool: string;
  /** How sync writes are known to happen on the pool (rules/lib/slog-evidence.ts). */
  demand: SyncDemandLevel;
  /** ZIL commits per second (counters), when known. */
  commitsPerSec: number | null;
  /** Counted commits at or above the rate that matters (false: negligible). */
  commitsMatter: boolean;
  /** The newest QD1 4 KiB sync probe on the pool: writes/s (at QD1 one write waits 1000/IOPS ms). */
  measuredQd1Iops: number | null;
  /** The newest workload observation: sync-write latency p50 on the ZIL's vdevs and the rate. */
  observed: { p50Ms: number; syncWriteIops: number | null } | null;
  zilHome: 'log' | 'special' | 'data';
  /** The ZIL devices' class (`cls`: its id, rules/lib/device-class.ts LATENCY_CLASSES); `known` false for virtual/unknown. Null when no device resolved. */
  zilClass: { label: string; known: boolean; typicalUs: number; cls?: string } | null;
  zilOnOptane: boolean;
  /**
   * The best candidate: name, where its latency comes from, and the command that measures it
   * (a drive of the box not yet measured on this host; null for a device to buy or one measured).
   */
  candidate: { label: string; latencySource: 'measured' | 'catalog' | 'class'; probe?: string | null };
  /** Candidate over "now", per write at QD1 (latency ratio). */
  gain: number;
  /** The forecast's gain range (same measure as `gain`, containing it), when it has one. */
  gainRange: { low: number; high: number } | null;
  /**
   * Where "now" is the model's estimate (nothing measured), the time one sync write waits at its
   * fast and slow ends (ms; the range `gainRange` carries, forecast.ts gainSpread), else null.
   */
  nowRange?: { fastMs: number; slowMs: number } | null;
  /** The command that measures the pool's sync latency. */
  probe: string;
}

export type DecisionKind =
  | 'no-sync-writes' | 'measured-fast' | 'class-fast' | 'already-optane' | 'small-gain'
  | 'replace' | 'measured-slow' | 'class-slow' | 'slow-small-gain' | 'no-sync-evidence' | 'measure-first'
  | 'no-gain' | 'gain-uncertain';

export interface Decision {
  verdict: 'yes' | 'no' | 'depends' | 'replace';
  kind: DecisionKind;
  /** The one fact that decided it, with its number. */
  fact: string;
  /** The gain the verdict rests on (exactly 1 without sync writes). */
  gain: number;
  /** The command to run next, when the decision asks for a measurement. */
  measure: string | null;
  /** Whether a device may be proposed (to use or to buy): false on "no", when even the best case gains less than MIN_BUY_GAIN, and when the whole range stays under MIN_QD1_GAIN. */
  buy: boolean;
}

/** A sync write that waits at most this long is "already fast" [heuristic: PLP flash with ZFS overhead stays under it; consumer flash and disks do not]. */
export const FAST_US = 500;
export const MIN_QD1_GAIN = 3;
export const REPLACE_GAIN = 2;
/** Below this upper end of the gain range nothing is worth buying [heuristic: run-to-run spread of a sync-write probe is ~±10 %, so less than 1.3× is hard to even notice]. */
export const MIN_BUY_GAIN = 1.3;

const count = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 10 ? String(Math.round(n)) : n.toFixed(1));
export const msText = (ms: number): string => (ms >= 10 ? `${Math.round(ms)} ms` : ms >= 1 ? `${ms.toFixed(1)} ms` : ms >= 0.1 ? `${ms.toFixed(2)} ms` : `${Math.round(ms * 1000)} µs`);
/** A gain range as every surface writes it: "1.05–1.20×", or one figure when both ends read alike (formatGain's one rule). */
export const rangeText = (r: { low: number; high: number }): string => formatGainRange(r.low, r.high);

/** Why a class's latency spans its range, by class id: what puts a device at the fast end. */
const FAST_END_WHY: Readonly<Record<string, string>> = {
  hdd: 'disks or a controller that acknowledge flushes from their cache',
};

function syncDemanded(e: DecisionEvidence): boolean {
  return e.demand === 'observed' || e.demand === 'configured' || (e.demand === 'counters' && e.commitsMatter);
}

export function decide(e: DecisionEvidence): Decision {
  const r = decideRow(e);
  // Nothing to buy on "no", when even the best case is below MIN_BUY_GAIN, or when the whole range stays under the threshold.
  return { ...r, buy: r.verdict !== 'no' && r.kind !== 'no-gain' && r.kind !== 'slow-small-gain' };
}

function decideRow(e: DecisionEvidence): Omit<Decision, 'buy'> {
  const where = e.zilClass ? ` on ${e.zilClass.label}` : '';
  const demand = syncDemanded(e);
  const range = e.gainRange ?? { low: e.gain, high: e.gain };
  const rangeFact = `forecast gain ${rangeText(range)}`;
  // Even the best case of the forecast is below what is worth buying.
  const noGain = range.high < MIN_BUY_GAIN;
  const noGainFact = (than: string) => `${e.candidate.label} would be at most ~${formatGain(range.high)} faster per write${than} (${rangeFact}, below ${MIN_BUY_GAIN}×)`;
  // The range reaches both sides of the threshold: the forecast alone cannot decide.
  const straddles = range.low < MIN_QD1_GAIN && range.high >= MIN_QD1_GAIN;
  const straddleFact = `${e.candidate.label}'s ${rangeFact} straddles the ${MIN_QD1_GAIN}× threshold`;
  // 1. No sync writes.
  if (e.demand === 'none-observed' || (e.demand === 'counters' && !e.commitsMatter)) {
    const fact = e.demand === 'counters'
      ? `${e.commitsPerSec !== null ? e.commitsPerSec.toFixed(3) : 'negligible'} ZIL commits/s since boot: no sync writes to speed up`
      : `observed ${e.observed?.syncWriteIops != null ? count(e.observed.syncWriteIops) : 0} sync writes/s: no sync writes to speed up`;
    return { verdict: 'no', kind: 'no-sync-writes', fact, gain: 1, measure: null };
  }
  // 2. Measured: the newest probe, else the newest observation.
  const measured = e.measuredQd1Iops !== null && e.measuredQd1Iops > 0
    ? { ms: 1000 / e.measuredQd1Iops, text: `measured ${count(e.measuredQd1Iops)} sync writes/s, ${msText(1000 / e.measuredQd1Iops)} each${where}` }
    : e.observed
      ? { ms: e.observed.p50Ms, text: `observed sync writes${e.observed.syncWriteIops !== null ? ` (${count(e.observed.syncWriteIops)}/s)` : ''} waiting ${msText(e.observed.p50Ms)} (p50)${where}` }
      : null;
  if (measured) {
    if (measured.ms * 1000 <= FAST_US) return { verdict: 'no', kind: 'measured-fast', fact: `${measured.text}: already fast`, gain: e.gain, measure: null };
    // Slow, yet no log device helps (the host, not the ZIL device, sets the time): never "no" beside a slow measurement, but nothing to buy.
    if (noGain) return { verdict: 'depends', kind: 'no-gain', fact: `${measured.text}, but ${noGainFact('')}`, gain: e.gain, measure: e.candidate.probe ?? null };
    if (e.zilHome === 'log' && demand && e.gain >= REPLACE_GAIN) return { verdict: 'replace', kind: 'replace', fact: `${measured.text}; ${e.candidate.label} ~${formatGain(e.gain)} faster`, gain: e.gain, measure: null };
    if (demand && e.gain >= MIN_QD1_GAIN && !straddles) return { verdict: 'yes', kind: 'measured-slow', fact: measured.text, gain: e.gain, measure: null };
    if (straddles) return { verdict: 'depends', kind: 'gain-uncertain', fact: `${measured.text}, but ${straddleFact}`, gain: e.gain, measure: e.candidate.probe ?? null };
    if (e.gain < MIN_QD1_GAIN) return { verdict: 'depends', kind: 'slow-small-gain', fact: `${measured.text}, but ${e.candidate.label} is only ~${formatGain(e.gain)} faster per write`, gain: e.gain, measure: null };
    return { verdict: 'depends', kind: 'no-sync-evidence', fact: `${measured.text}; whether ${e.pool} receives sync writes is not known`, gain: e.gain, measure: 'zfs-advisor observe --duration 10m' };
  }
  // 3. The ZIL device's known class latency.
  if (e.zilClass?.known) {
    const cls = `the ZIL lands on ${e.zilClass.label} (~${msText(e.zilClass.typicalUs / 1000)} per flushed write, class figure)`;
    if (e.zilOnOptane) return { verdict: 'no', kind: 'already-optane', fact: `the ZIL already lands on ${e.zilClass.label}`, gain: e.gain, measure: null };
    if (e.zilClass.typicalUs <= FAST_US) return { verdict: 'no', kind: 'class-fast', fact: `${cls}: already fast`, gain: e.gain, measure: null };
    if (noGain) return { verdict: 'no', kind: 'no-gain', fact: noGainFact(` than ${e.zilClass.label}`), gain: e.gain, measure: null };
    if (e.zilHome === 'log' && demand && e.gain >= REPLACE_GAIN) return { verdict: 'replace', kind: 'replace', fact: `${cls}; ${e.candidate.label} ~${formatGain(e.gain)} faster`, gain: e.gain, measure: null };
    if (straddles && e.nowRange) {
      // "Now" is the class's range, and the gain range carries it: the pool's own probe settles it.
      const why = FAST_END_WHY[e.zilClass.cls ?? ''];
      const span = `${msText(e.nowRange.fastMs)}${why ? ` (${why})` : ''} to ${msText(e.nowRange.slowMs)}`;
      return {
        verdict: 'depends', kind: 'measure-first', gain: e.gain, measure: e.probe,
        fact: `sync-write latency of ${e.pool} not measured: on ${e.zilClass.label} a sync write takes from ${span}, so ${straddleFact}; measure it with \`${e.probe}\``,
      };
    }
    if (straddles) return { verdict: 'depends', kind: 'gain-uncertain', fact: `${straddleFact} (${cls})`, gain: e.gain, measure: e.probe };
    if (e.gain < MIN_QD1_GAIN) return { verdict: 'no', kind: 'small-gain', fact: `${e.candidate.label} would be only ~${formatGain(e.gain)} faster per write than ${e.zilClass.label} (threshold ${MIN_QD1_GAIN}×)`, gain: e.gain, measure: null };
    if (demand) return { verdict: 'yes', kind: 'class-slow', fact: cls, gain: e.gain, measure: null };
    return { verdict: 'depends', kind: 'no-sync-evidence', fact: `no sync-write evidence for ${e.pool} (${cls})`, gain: e.gain, measure: 'zfs-advisor observe --duration 10m' };
  }
  // 4. Unknown latency: measure, do not guess.
  const what = e.zilClass ? e.zilClass.label : 'devices not identified';
  return { verdict: 'depends', kind: 'measure-first', fact: `sync-write latency of ${e.pool} unknown (${what}): measure it with \`${e.probe}\``, gain: e.gain, measure: e.probe };
}

/**
 * Closing the loop (issue 34 §2): the app measures the result of its own advice. When the newest
 * inventory shows a log or special vdev that the inventory of an earlier verdict did not have, the
 * same probe as the stored "before" run (`bench sync-write-4k-qd1` on a throw-away dataset of the
 * pool) is offered once more, and the forecast the verdict gave is set beside what was measured.
 *
 * Pure: stored verdicts with their inventories, the newest inventory and the stored runs in; the
 * state of the loop out — no change seen, a re-probe offered (with its request), or the pair
 * measured (forecast with its range and basis, measured before and after, when, what changed).
 * Every sentence a reader sees of it is written here (`outcomeSentence`); CLI, UI and reports
 * print it.
 */
import { z } from 'zod';
import type { Pool, VdevNode } from '../model/inventory.ts';
import type { BenchmarkSummary } from '../model/workload.ts';
import { leaves, vdevShortName } from '../../../rules/lib/topology.ts';
import { newestQd1Probe } from '../forecast/measured-now.ts';
import { headlineLatency } from '../bench/compare.ts';
import { formatCount, formatGain, formatLatencyUs, formatRange, formatTime } from '../text/format.ts';

const Range = z.object({ iops: z.number(), low: z.number(), high: z.number() });

/** One probe run as the pair shows it: QD1 sync IOPS and the time until a write is durable. */
export const MeasuredProbe = z.object({
  runId: z.string(),
  startedAt: z.string(),
  profile: z.string(),
  iops: z.number(),
  /** headlineLatency (bench/compare.ts): the sync operation's latency where fio measured one. */
  latency: z.object({ of: z.string(), p50Us: z.number().nullable(), p99Us: z.number().nullable() }).nullable(),
  topologyFingerprint: z.string().nullable(),
});
export type MeasuredProbe = z.infer<typeof MeasuredProbe>;

/** What appeared in the pool between the verdict's inventory and the newest one. */
export const PoolChange = z.object({
  pool: z.string(),
  /** 'log' or 'special', one entry per new top-level vdev. */
  added: z.array(z.object({ class: z.enum(['log', 'special']), vdev: z.string(), type: z.string(), devices: z.array(z.string()) })),
  /** The verdict's inventory (before) and the first inventory that showed the change (after). */
  beforeSnapshotId: z.number().nullable(),
  beforeCapturedAt: z.string(),
  seenSnapshotId: z.number().nullable(),
  seenAt: z.string(),
});
export type PoolChange = z.infer<typeof PoolChange>;

/** The forecast the verdict gave before the change, as it was stored. */
export const GivenForecast = z.object({
  assessmentId: z.number(),
  givenAt: z.string(),
  verdict: z.string(),
  decisive: z.string(),
  /** QD1 4 KiB sync IOPS: "now" and "with" the candidate, each with its range. */
  now: Range,
  with: Range,
  /** What "with" rested on (the candidate and its measured / catalog / class figure). */
  basis: z.string(),
  /** The device the forecast was for (it may not be the one that was added), when the basis names it. */
  candidate: z.string().nullable().default(null),
});
export type GivenForecast = z.infer<typeof GivenForecast>;

/** The request of the re-probe: the stored "before" run's profile and target, sized as it was. */
export const ReprobeRequest = z.object({
  profile: z.string(),
  target: z.object({ kind: z.enum(['dataset', 'zvol']), pool: z.string() }),
  sizeBytes: z.number().int().positive(),
  runtimeS: z.number().int().positive(),
  sync: z.enum(['always', 'standard', 'disabled']).optional(),
  io: z.enum(['direct', 'buffered']).optional(),
});
export type ReprobeRequest = z.infer<typeof ReprobeRequest>;

/** The stored pair: forecast beside measured. */
export const LoopOutcome = z.object({
  pool: z.string(),
  change: PoolChange,
  forecast: GivenForecast.nullable(),
  before: MeasuredProbe.nullable(),
  after: MeasuredProbe,
  /** after ÷ before IOPS, null without a before run. */
  measuredGain: z.number().nullable(),
  /** with ÷ now of the forecast, null without one. */
  forecastGain: z.number().nullable(),
  /** Where the measured IOPS fell against the forecast's range. */
  versusRange: z.enum(['below', 'within', 'above']).nullable(),
  sentence: z.string(),
});
export type LoopOutcome = z.infer<typeof LoopOutcome>;

/** The state of the loop for a host: what the Optane page, the API and the CLI show. */
export const LoopState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('no-change'), sentence: z.string() }),
  z.object({
    state: z.literal('probe-offered'), pool: z.string(), change: PoolChange, forecast: GivenForecast.nullable(), before: MeasuredProbe.nullable(),
    reprobe: ReprobeRequest, sentence: z.string(),
  }),
  z.object({ state: z.literal('measured'), outcome: LoopOutcome, reprobe: ReprobeRequest }),
]);
export type LoopState = z.infer<typeof LoopState>;

/** A pair as stored (store/outcomes-repo.ts). */
export const StoredPair = z.object({ id: z.number(), recordedAt: z.string(), outcome: LoopOutcome });

export const OutcomeRow = z.object({ what: z.string(), forecast: z.string(), measured: z.string() });

/**
 * What the Optane page shows beside the decision: the loop's state, the measured pair as rows
 * (outcomeRows; null until measured), whether it is stored, and the pairs stored for the host, newest first.
 */
export const LoopView = z.object({
  loop: LoopState,
  rows: z.array(OutcomeRow).nullable(),
  /** The measured pair is among the stored ones (stored when the re-probe completes, or by the next assessment). */
  stored: z.boolean(),
  pairs: z.array(StoredPair),
});
export type LoopView = z.infer<typeof LoopView>;

/** One stored verdict with the inventory it was given on, as the loop reads it. */
export interface StoredForecast {
  assessmentId: number;
  generatedAt: string;
  snapshotId: number | null;
  capturedAt: string;
  pools: readonly Pool[];
  /** The stored OptaneVerdict (parsed loosely: older verdicts lack fields). */
  verdict: {
    pool: string | null; verdict: string; decisive?: string; evidence?: { label: string; value: string | number | null }[];
    expected: { qd1: { now: z.infer<typeof Range>; withOptane: z.infer<typeof Range> } } | null;
  } | null;
}

export interface InventoryAt {
  snapshotId: number | null;
  capturedAt: string;
  pools: readonly Pool[];
}

export interface LoopInput {
  /** Stored verdicts, newest first (the one given on `now` among them is skipped); read only as far as the change. */
  forecasts: Iterable<StoredForecast>;
  now: InventoryAt;
  /** Stored benchmark runs of the host (any order). */
  runs: readonly BenchmarkSummary[];
}

/** The probe the UI's "Should I add Optane?" runs (OptaneView.vue): 64 MiB, 10 s. */
export const DEFAULT_REPROBE = { profile: 'sync-write-4k-qd1', sizeBytes: 64 * 1024 * 1024, runtimeS: 10 } as const;

const LOG_CLASSES = ['log', 'special'] as const;

/** Leaf names of a top-level vdev (its own name when it is a single disk). */
const leafNames = (v: VdevNode): string[] => leaves(v).map(vdevShortName);

/** New log/special top-level vdevs of `after` (by their leaves: a leaf the pool did not have in that class). */
export function addedVdevs(before: Pool, after: Pool): PoolChange['added'] {
  const out: PoolChange['added'] = [];
  for (const cls of LOG_CLASSES) {
    const had = new Set(before.vdevs.filter((v) => v.class === cls).flatMap(leafNames));
    for (const v of after.vdevs.filter((x) => x.class === cls)) {
      const names = leafNames(v);
      if (names.length > 0 && names.some((n) => !had.has(n))) out.push({ class: cls, vdev: vdevShortName(v), type: v.type, devices: names });
    }
  }
  return out;
}

/** The newest stored verdict whose inventory lacked a log/special vdev the newest inventory has, with the change. */
function findChange(input: LoopInput): { change: PoolChange; forecast: StoredForecast } | null {
  // Every verdict passed over (newer than the one found) already had the new vdevs: the oldest of
  // them is the first inventory that showed the change.
  let seen: { snapshotId: number | null; capturedAt: string } = input.now;
  for (const f of input.forecasts) {
    if (f.snapshotId !== null && f.snapshotId === input.now.snapshotId) continue;
    if (f.capturedAt > input.now.capturedAt) continue;
    // The verdict's pool first: its forecast is the one being checked.
    const pools = [...input.now.pools].sort((a, b) => Number(b.name === f.verdict?.pool) - Number(a.name === f.verdict?.pool));
    for (const p of pools) {
      const old = f.pools.find((x) => x.name === p.name);
      if (!old) continue;
      const added = addedVdevs(old, p);
      if (added.length > 0) {
        return {
          forecast: f,
          change: {
            pool: p.name, added, beforeSnapshotId: f.snapshotId, beforeCapturedAt: f.capturedAt,
            seenSnapshotId: seen.snapshotId, seenAt: seen.capturedAt,
          },
        };
      }
    }
    seen = f;
  }
  return null;
}

function givenForecast(f: StoredForecast, pool: string): GivenForecast | null {
  const v = f.verdict;
  if (!v || v.pool !== pool || !v.expected) return null;
  const basis = v.evidence?.find((e) => e.label === 'forecast "with" for')?.value;
  return {
    assessmentId: f.assessmentId, givenAt: f.generatedAt, verdict: v.verdict, decisive: v.decisive ?? '',
    now: v.expected.qd1.now, with: v.expected.qd1.withOptane, basis: typeof basis === 'string' ? basis : '',
    // The verdict writes the basis as "<candidate>: <figure>" (verdict.ts, evidence 'forecast "with" for').
    candidate: typeof basis === 'string' && basis.includes(': ') ? basis.slice(0, basis.indexOf(': ')) : null,
  };
}

export function measuredProbe(s: BenchmarkSummary): MeasuredProbe {
  const lat = headlineLatency(s);
  return {
    runId: s.id, startedAt: s.startedAt, profile: s.profile, iops: s.writeIops,
    latency: lat ? { of: lat.of, p50Us: lat.p50Us, p99Us: lat.p99Us } : null, topologyFingerprint: s.topologyFingerprint,
  };
}

/** The re-probe: what the "before" run was (profile, target kind, file size, runtime, sync, I/O), else the page's own probe. */
export function reprobeRequest(pool: string, before: BenchmarkSummary | null): ReprobeRequest {
  if (!before) return { profile: DEFAULT_REPROBE.profile, target: { kind: 'dataset', pool }, sizeBytes: DEFAULT_REPROBE.sizeBytes, runtimeS: DEFAULT_REPROBE.runtimeS };
  const runtimeS = before.fioRuntimeSeconds != null && before.fioRuntimeSeconds > 0 ? Math.min(3600, Math.max(1, Math.round(before.fioRuntimeSeconds))) : DEFAULT_REPROBE.runtimeS;
  return {
    profile: before.profile, target: { kind: before.targetKind === 'zvol' ? 'zvol' : 'dataset', pool },
    sizeBytes: before.fileBytes && before.fileBytes > 0 ? before.fileBytes : DEFAULT_REPROBE.sizeBytes, runtimeS,
    ...(before.sync ? { sync: before.sync } : {}), ...(before.io ? { io: before.io } : {}),
  };
}

const changeWords = (c: PoolChange): string =>
  c.added.map((a) => `${a.class} ${a.devices.length > 1 ? `${a.type} ` : ''}${a.devices.join(' ')}`).join(' and ');

const latencyWords = (m: MeasuredProbe): string =>
  m.latency?.p50Us != null ? `, ${formatLatencyUs(m.latency.p50Us)} per durable write (p50)` : '';

const forecastWords = (f: GivenForecast): string =>
  `forecast ~${formatCount(f.with.iops)} (${formatRange(f.with.low, f.with.high)}) sync IOPS at QD1${f.candidate ? ` with ${f.candidate}` : ''}`;

/** The one line beside the decision: "forecast X (range), measured Y". */
export function outcomeSentence(o: Omit<LoopOutcome, 'sentence'>): string {
  const m = `measured ${formatCount(o.after.iops)}${latencyWords(o.after)}`;
  const head = o.forecast ? `${o.pool}: ${forecastWords(o.forecast)}, ${m}` : `${o.pool}: no forecast was given before the change; ${m}`;
  const range = o.versusRange === null ? '' : o.versusRange === 'within' ? ' — within the forecast range' : ` — ${o.versusRange} the forecast range`;
  const before = o.before ? ` (before: ${formatCount(o.before.iops)}${o.measuredGain !== null ? `, ${formatGain(o.measuredGain)} measured vs ${o.forecastGain !== null ? formatGain(o.forecastGain) : 'no'} forecast` : ''})` : ' (no probe ran before the change)';
  return `${head}${range}${before}, after adding ${changeWords(o.change)}.`;
}

/** The state of the loop: pure, read as a table in tests/optane/outcome.test.ts. */
export function loopOutcome(input: LoopInput): LoopState {
  const found = findChange(input);
  if (!found) return { state: 'no-change', sentence: 'No log or special vdev was added since a verdict was given: nothing to re-measure.' };
  const { change, forecast: stored } = found;
  const pool = change.pool;
  const probes = input.runs.filter((r) => r.pool === pool);
  // After: a probe started once the change was seen, or one on the same layout as such a probe.
  const seenAfter = newestQd1Probe(probes.filter((r) => r.startedAt >= change.seenAt), pool);
  const isAfter = (r: BenchmarkSummary) => r.startedAt >= change.seenAt
    || (seenAfter !== null && r.topologyFingerprint !== null && r.topologyFingerprint === seenAfter.topologyFingerprint && r.startedAt > change.beforeCapturedAt);
  const after = newestQd1Probe(probes.filter(isAfter), pool);
  // Before: the newest probe older than the change, on another layout than the after run.
  const before = newestQd1Probe(probes.filter((r) => !isAfter(r) && r.startedAt < change.seenAt
    && (after === null || r.topologyFingerprint === null || r.topologyFingerprint !== after.topologyFingerprint)), pool);
  const forecast = givenForecast(stored, pool);
  const reprobe = reprobeRequest(pool, before);
  if (!after) {
    const what = forecast ? `${forecastWords(forecast)} was given before` : 'no forecast was given before';
    return {
      state: 'probe-offered', pool, change, forecast, before: before ? measuredProbe(before) : null, reprobe,
      sentence: `${pool} has a new ${changeWords(change)}; ${what}. Run the same probe again (${reprobe.profile}, on a throw-away dataset) to see what it measures now.`,
    };
  }
  const a = measuredProbe(after);
  const b = before ? measuredProbe(before) : null;
  const measuredGain = b && b.iops > 0 ? a.iops / b.iops : null;
  const forecastGain = forecast && forecast.now.iops > 0 ? forecast.with.iops / forecast.now.iops : null;
  const versusRange = forecast ? (a.iops < forecast.with.low ? 'below' : a.iops > forecast.with.high ? 'above' : 'within') : null;
  const o = { pool, change, forecast, before: b, after: a, measuredGain, forecastGain, versusRange } as const;
  return { state: 'measured', outcome: { ...o, sentence: outcomeSentence(o) }, reprobe };
}

/**
 * The pair as a table every report format prints (rows: what, forecast, measured): written once
 * here so Markdown, HTML, PDF and the UI say the same.
 */
export function outcomeRows(o: LoopOutcome): { what: string; forecast: string; measured: string }[] {
  const f = o.forecast;
  // One label where both runs measured the same latency (bench/sync-latency.ts names it), else each its own.
  const sameOf = o.before?.latency && o.after?.latency && o.before.latency.of === o.after.latency.of ? o.after.latency.of : null;
  const lat = (m: MeasuredProbe | null) => (m?.latency ? `${formatLatencyUs(m.latency.p50Us)} / ${formatLatencyUs(m.latency.p99Us)}${sameOf ? '' : ` (${m.latency.of})`}` : '—');
  const latWhat = sameOf ? `${sameOf.charAt(0).toUpperCase()}${sameOf.slice(1)} p50 / p99, before → after` : 'Latency p50 / p99, before → after';
  return [
    { what: 'QD1 4 KiB sync IOPS before', forecast: f ? `${formatCount(f.now.iops)} (${formatRange(f.now.low, f.now.high)})` : '—', measured: o.before ? `${formatCount(o.before.iops)} (run ${o.before.runId}, ${formatTime(o.before.startedAt)})` : 'no probe before the change' },
    { what: 'QD1 4 KiB sync IOPS after', forecast: f ? `${formatCount(f.with.iops)} (${formatRange(f.with.low, f.with.high)})` : '—', measured: `${formatCount(o.after.iops)} (run ${o.after.runId}, ${formatTime(o.after.startedAt)})` },
    { what: 'Gain', forecast: o.forecastGain !== null ? formatGain(o.forecastGain) : '—', measured: o.measuredGain !== null ? formatGain(o.measuredGain) : '—' },
    { what: latWhat, forecast: '—', measured: `${lat(o.before)} → ${lat(o.after)}` },
    { what: 'What changed', forecast: f ? `verdict "${f.verdict}" given ${formatTime(f.givenAt)}${f.decisive ? ` (${f.decisive})` : ''}` : 'no forecast for this pool', measured: `${changeWords(o.change)}, seen ${formatTime(o.change.seenAt)}` },
    { what: 'Forecast basis', forecast: f?.basis || '—', measured: '' },
  ];
}

/** The stored pairs as CLI text (`bench --before-after`), newest first; empty when there are none. */
export function pairsText(pairs: readonly { recordedAt: string; outcome: LoopOutcome }[]): string {
  if (pairs.length === 0) return '';
  return `forecast and measured (stored after a log or special vdev was added):\n${pairs.map((p) => `  ${p.outcome.sentence} [recorded ${formatTime(p.recordedAt)}]\n`).join('')}`;
}

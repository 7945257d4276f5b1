/**
 * One pool's sync-write evidence (issue 34 §6), computed once per assessment and read by every
 * consumer: the Optane verdict (its decision's evidence, optane/decide.ts), the slog-benefit rule and
 * the other SLOG rules, `forecast` (CLI and API) and, through the verdict and the findings, the
 * report. Everything the app knows about a pool's sync writes is gathered here, in one place:
 *
 *   - demand: observed (the newest workload observation), counted (ZIL counters since boot) and
 *     configured (sync=always datasets, zvols) — rules/lib/slog-evidence.ts;
 *   - where the ZIL lands today (log vdev, 2.4+ special vdev, or the data vdevs), its devices and
 *     their latency class — rules/lib/slog-devices.ts zilPath, and as the forecast model sees it;
 *   - what was measured: the newest QD1 probe, the many-writer and write-back runs read against it,
 *     the observed sync-write latency — measured-now.ts;
 *   - the candidates: the box's unused drives fit for a log, each with its profile (measured on this
 *     host, catalog or class), else the devices to buy, ranked — slog-choice.ts;
 *   - the forecasts at QD1 and QD16 for the chosen candidate, the gain per write and its range.
 *
 * Words are not written here: each reader words what it shows. The record is shared (the same object
 * for every reader of one assessment), so readers must not change it.
 */
import type { Drive, Pool } from '../model/inventory.ts';
import { computedArtifact, type ComputedInputs } from '../../../rules/engine/computed.ts';
import { isOptane, type SyncLatencyAssessment } from '../../../rules/lib/device-class.ts';
import { MIN_SYNC_COMMITS_PER_SEC, syncEvidence, type SyncEvidence } from '../../../rules/lib/slog-evidence.ts';
import { dataLatency, unusedDrives, zilPath, type ZilPath } from '../../../rules/lib/slog-devices.ts';
import type { Candidate, ForecastOptions, ForecastResult } from './forecast.ts';
import { forecastOptionsOf, measuredNow, type MeasuredNow } from './measured-now.ts';
import type { LogTarget } from './model.ts';
import { currentLog } from './pool-shape.ts';
import { chooseSlog, gainRangeOf, type PurchaseOption, type SlogTarget } from './slog-choice.ts';

/** The artifacts the record is computed from: a reader declares them all (a rule: in its optionalArtifacts) to share it. */
export const SYNC_EVIDENCE_INPUTS = ['Pools', 'Drives', 'Datasets', 'Workload', 'ZilStats', 'Host', 'Benchmarks', 'Capture'] as const;
export type SyncEvidenceInput = (typeof SYNC_EVIDENCE_INPUTS)[number];

/** Where a candidate's latency comes from: a test of it on this host, the catalog, or its class. */
export type LatencySource = 'measured' | 'catalog' | 'class';
export const latencySourceOf = (c: Candidate): LatencySource =>
  c.measurement ? 'measured' : c.profile.matched === 'catalog' ? 'catalog' : 'class';

export interface PoolSyncEvidence {
  pool: Pool;
  /** How sync writes are known to happen: observed, none observed, counted, configured or unknown, with the sentences saying so. */
  demand: SyncEvidence;
  /** Sync writes happen (or are forced) at a rate that matters: observed, configured, or counted at ≥ MIN_SYNC_COMMITS_PER_SEC (or at an unknown rate). */
  demanded: boolean;
  /** Counted commits at or above the rate that matters (true when the rate is unknown). */
  commitsMatter: boolean;
  /** Where the ZIL lands (version-aware: a SLOG, else 2.4+ special, else the data vdevs), its drives and their slowest latency class. */
  zil: ZilPath;
  /** The same place as the forecast model sees it (layout, device profile). */
  zilTarget: LogTarget;
  /** The data vdevs' slowest latency class (null when no data drive resolved). */
  dataLatency: SyncLatencyAssessment | null;
  /** What this host measured about the pool's sync writes: the newest probes (`measured.runs`), the observed latency; else the model. */
  measured: MeasuredNow;
  /** The options every forecast of this pool takes from those measurements. */
  forecastOptions: ForecastOptions;
  /** The box's drives no pool or anything else uses (model/usable.ts). */
  unused: Drive[];
  /** The candidate the forecast is for: the best unused drive of the box, else the first device to buy. */
  target: SlogTarget;
  /** Every unused candidate of the box, best first: fit for a log by its model (Optane, PLP NVMe) or measured here (each with its profile: measured, catalog or class). */
  inBox: SlogTarget[];
  /**
   * The log should be a mirror: the pool holds zvols (VM disks, iSCSI LUNs), whose last seconds of
   * acknowledged sync writes a lone SLOG dying together with a crash would lose (slog-single-device,
   * docs/kb/slog.md#one-device-or-a-mirror). Otherwise one device.
   */
  mirrorLog: boolean;
  /** The drives of the box the log would be made of: the target, and a second candidate of its kind where a mirror is asked for; empty when none is in the box. */
  logDrives: Drive[];
  /** With no candidate in the box: the devices to buy, ranked; else null. */
  purchase: PurchaseOption[] | null;
  /** Where the target's latency comes from. */
  targetLatency: LatencySource;
  /** 4 KiB sync-write forecasts for the target, one writer and 16. */
  qd1: ForecastResult;
  qd16: ForecastResult;
  /** "Now" at QD1: the newest probe's IOPS (±10 %, run-to-run) where there is one, else the forecast's. */
  nowQd1: { iops: number; low: number; high: number };
  /** The target over "now" per write at QD1 (latency ratio: the pool's sustained ceiling caps throughput, not each write's wait). */
  gain: number;
  /** The range of `gain` (slog-choice.ts gainRangeOf): what the decision reads. */
  gainRange: { low: number; high: number };
}

const range = (x: { iops: number; low: number; high: number }) => ({ iops: x.iops, low: x.low, high: x.high });

function build(a: ComputedInputs<SyncEvidenceInput>, pool: Pool): PoolSyncEvidence {
  const pools = a.Pools ?? [];
  const drives = a.Drives ?? [];
  const demand = syncEvidence(pool, { Datasets: a.Datasets, Workload: a.Workload, ZilStats: a.ZilStats, poolCount: a.Pools?.length ?? 1, Benchmarks: a.Benchmarks, capturedAt: a.Capture?.capturedAt });
  const commitsMatter = demand.commitsPerSec === null || demand.commitsPerSec >= MIN_SYNC_COMMITS_PER_SEC;
  const demanded = demand.level === 'observed' || demand.level === 'configured' || (demand.level === 'counters' && commitsMatter);
  const measured = measuredNow(a, pool);
  const forecastOptions = forecastOptionsOf(measured);
  const unused = unusedDrives(pools, drives);
  const c = chooseSlog(a, pool, forecastOptions, unused);
  const m = measured.measuredQd1;
  // The gain is the latency ratio at QD1: the pool's sustained ceiling caps throughput (QD16 shows
  // it) but not how long each sync write waits. Over the measured "now" where there is one.
  const gain = m !== null ? c.qd1.with!.latencyIops / m : c.gain;
  const mirrorLog = demand.zvols.length > 0;
  const t = c.target.drive;
  const logDrives = t ? [t, ...c.inBox.flatMap((x) => (x.drive && x.drive !== t && isOptane(x.drive) === isOptane(t) ? [x.drive] : []))].slice(0, mirrorLog ? 2 : 1) : [];
  return {
    pool, demand, demanded, commitsMatter,
    zil: zilPath(pool, drives, a.Host?.zfs.openzfs),
    zilTarget: currentLog(pool, drives, a.Host),
    dataLatency: dataLatency(pool, drives),
    measured, forecastOptions, unused, mirrorLog, logDrives,
    target: c.target, inBox: c.inBox, purchase: c.purchase, targetLatency: latencySourceOf(c.target.candidate),
    qd1: c.qd1, qd16: c.qd16,
    nowQd1: m !== null ? { iops: Math.round(m), low: Math.round(m * 0.9), high: Math.round(m * 1.1) } : range(c.qd1.now),
    gain,
    gainRange: gainRangeOf(gain, c.qd1),
  };
}

/** The computed artifact (rules/engine/computed.ts): one record per pool per set of artifacts. */
export const PoolSyncEvidenceArtifact = computedArtifact('PoolSyncEvidence', SYNC_EVIDENCE_INPUTS, (p: Pool) => p.name, build);

/** `pool`'s sync-write evidence from these artifacts: built once, the same object for every reader. */
export const poolSyncEvidence = (a: ComputedInputs<SyncEvidenceInput>, pool: Pool): PoolSyncEvidence => PoolSyncEvidenceArtifact.request(a, pool);

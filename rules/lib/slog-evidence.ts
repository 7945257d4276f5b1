/**
 * Is there synchronous-write demand on a pool, and how sure are we? A SLOG helps only sync writes
 * (zfs-facts A1, G1), so every SLOG rule and the Optane verdict start here.
 *
 * Strength of evidence, strongest first:
 *   observed       a workload observation saw ZIL commits for this pool (Δzil_commit_count, F10)
 *   none-observed  a workload observation saw no sync writes on this pool
 *   counters       cumulative ZIL counters since boot show commits (rate = commits ÷ the kstat's
 *                  crtime→snaptime window when the header gives it, else unknown) — less what this
 *                  app's own probes may have committed in that window (ownProbeWrites): host-wide
 *                  counters count the probes' sync writes too, and a count the probes can explain
 *                  says nothing about the pool's own demand, either way
 *   configured     datasets with sync=always, or zvols (VM disks / iSCSI LUNs send flushes, D1, D2)
 *   unknown        nothing says either way
 * Datasets with sync=disabled never show up in ZIL counters (A21) and are listed separately.
 */
import type { Dataset, Pool, ZilStats } from '../../server/src/model/inventory.ts';
import type { BenchmarkSummary, WorkloadFingerprint } from '../../server/src/model/workload.ts';
import { datasetsOfPool } from './inventory-index.ts';

/** Below this many commits per second we call a pool's sync demand "none" [heuristic: noise floor]. */
export const MIN_SYNC_COMMITS_PER_SEC = 0.5;

export type SyncEvidenceLevel = 'observed' | 'none-observed' | 'counters' | 'configured' | 'unknown';

export interface SyncEvidence {
  level: SyncEvidenceLevel;
  /** ZIL commits per second attributed to this pool: observed, or averaged over the kstat window. */
  commitsPerSec: number | null;
  syncWriteIops: number | null;
  /** Cumulative commits since boot for this pool's datasets (or global when single-pool). */
  commitsSinceBoot: number | null;
  syncAlwaysDatasets: string[];
  zvols: string[];
  syncDisabledDatasets: string[];
  /** Sync writes this app's own probes made inside the counters' window (an upper bound on their commits); null without counters. */
  ownProbeWrites: number | null;
  /** Sentences naming what we looked at. */
  reasons: string[];
}

/**
 * The sync writes the app's own benchmark runs made on ZFS inside the counters' window: each one
 * costs at most one ZIL commit (several writers' writes share commits), so commits − this is a
 * lower bound on everyone else's. Async runs and raw-device runs never reach the ZIL; refused runs
 * wrote nothing. Without a known window every run before the capture counts (the bound stays safe).
 */
export function ownProbeSyncWrites(runs: readonly BenchmarkSummary[], window: { from: number | null; to: number }): { writes: number; runs: number } {
  let writes = 0;
  let n = 0;
  for (const r of runs) {
    if (r.status === 'refused' || r.syncMode === 'async' || r.targetKind === 'device' || r.zfsTarget === false) continue;
    const at = Date.parse(r.startedAt);
    if (!Number.isFinite(at) || at > window.to || (window.from !== null && at < window.from)) continue;
    const seconds = r.fioRuntimeSeconds ?? r.wallSeconds ?? 0;
    writes += Math.round(r.writeIops * seconds);
    n++;
  }
  return { writes, runs: n };
}

const inPool = (pool: string, name: string) => name === pool || name.startsWith(`${pool}/`);

export function syncEvidence(
  pool: Pool,
  a: {
    Datasets?: readonly Dataset[]; Workload?: WorkloadFingerprint; ZilStats?: ZilStats; poolCount?: number;
    /** The app's stored runs and when the counters were read: to take the app's own probes out of host-wide counters. */
    Benchmarks?: readonly BenchmarkSummary[]; capturedAt?: string;
  },
): SyncEvidence {
  const ds = datasetsOfPool(a.Datasets ?? [], pool.name).filter((d) => d.type !== 'snapshot' && d.type !== 'bookmark');
  const syncAlwaysDatasets = ds.filter((d) => d.sync === 'always').map((d) => d.name);
  const zvols = ds.filter((d) => d.type === 'volume' && d.sync !== 'disabled').map((d) => d.name);
  const syncDisabledDatasets = ds.filter((d) => d.sync === 'disabled').map((d) => d.name);
  const reasons: string[] = [];
  const single = (a.poolCount ?? 1) === 1;

  // 1. A workload observation decides.
  if (a.Workload) {
    const w = a.Workload;
    const perPool = w.pools.find((p) => p.pool === pool.name);
    const perDs = w.datasets.filter((d) => inPool(pool.name, d.dataset));
    let commits: number | null = perDs.length > 0 ? perDs.reduce((s, d) => s + d.commitsPerSec, 0) : null;
    if (commits === null && single && w.zil) commits = w.zil.commitsPerSec;
    const syncIops = perPool?.syncWriteIops ?? null;
    const seen = (commits ?? 0) >= MIN_SYNC_COMMITS_PER_SEC || (syncIops ?? 0) >= MIN_SYNC_COMMITS_PER_SEC;
    if (commits !== null || syncIops !== null) {
      reasons.push(
        seen
          ? `Observed over ${Math.round(w.windowSeconds)} s: ${fmt(commits)} ZIL commits/s${syncIops !== null ? `, ${fmt(syncIops)} sync write IOPS` : ''} on ${pool.name}.`
          : `Observed over ${Math.round(w.windowSeconds)} s: no sync writes on ${pool.name} (${fmt(commits ?? syncIops ?? 0)}/s).`,
      );
      return {
        level: seen ? 'observed' : 'none-observed', commitsPerSec: commits, syncWriteIops: syncIops, commitsSinceBoot: null, ownProbeWrites: null,
        syncAlwaysDatasets, zvols, syncDisabledDatasets, reasons: withConfig(reasons, syncAlwaysDatasets, zvols, syncDisabledDatasets),
      };
    }
  }

  // 2. Cumulative counters since boot.
  let sinceBoot: number | null = null;
  let window: number | null = null;
  let own: { writes: number; runs: number } | null = null;
  if (a.ZilStats) {
    const per = Object.entries(a.ZilStats.perDataset).filter(([name]) => inPool(pool.name, name));
    if (per.length > 0) sinceBoot = per.reduce((s, [, c]) => s + (c['zil_commit_count'] ?? 0), 0);
    else if (single) sinceBoot = a.ZilStats.counters['zil_commit_count'] ?? null;
    window = a.ZilStats.windowSeconds ?? null;
    // Host-wide counters count every commit since the module loaded, the app's probes included
    // (their throw-away datasets are gone, so per-dataset counters of the pool's datasets do not).
    const to = a.capturedAt ? Date.parse(a.capturedAt) : NaN;
    if (sinceBoot !== null && per.length === 0 && a.Benchmarks && Number.isFinite(to)) {
      own = ownProbeSyncWrites(a.Benchmarks, { from: window && window > 0 ? to - window * 1000 : null, to });
    }
    if (sinceBoot !== null) {
      reasons.push(window && window > 0
        ? `ZIL counters: ${sinceBoot} commits in the ${fmtDuration(window)} since the counters started (kstat crtime→snaptime)${per.length === 0 ? ', host-wide' : ''}: ${fmt(sinceBoot / window)} commits/s on average.`
        : `ZIL counters: ${sinceBoot} commits since boot${per.length === 0 ? ' (host-wide)' : ''}; the rate is unknown without an observation window.`);
    }
  }
  const ownWrites = own && own.runs > 0 ? own.writes : 0;
  const others = sinceBoot === null ? null : Math.max(0, sinceBoot - ownWrites);
  const othersRate = others !== null && window && window > 0 ? others / window : null;
  if (sinceBoot !== null && sinceBoot > 0 && ownWrites > 0 && (othersRate === null ? others === 0 : othersRate < MIN_SYNC_COMMITS_PER_SEC)) {
    // The app's own probes may account for the count: it shows neither demand nor its absence.
    reasons.push(`Up to ${ownWrites} of those commits were this app's own probes (${own!.runs} sync-write run${own!.runs === 1 ? '' : 's'} in that time), so the counters cannot tell ${pool.name}'s own sync writes apart: observe the workload (zfs-advisor observe --duration 10m) for a clean figure.`);
  } else if (sinceBoot !== null && sinceBoot > 0) {
    if (ownWrites > 0) reasons.push(`Less the at most ${ownWrites} commits of this app's own probes (${own!.runs} run${own!.runs === 1 ? '' : 's'}): at least ${others}${othersRate !== null ? `, ${fmt(othersRate)}/s` : ''}.`);
    return { level: 'counters', commitsPerSec: ownWrites > 0 ? othersRate : window && window > 0 ? sinceBoot / window : null, syncWriteIops: null, commitsSinceBoot: sinceBoot, ownProbeWrites: own ? ownWrites : null, syncAlwaysDatasets, zvols, syncDisabledDatasets, reasons: withConfig(reasons, syncAlwaysDatasets, zvols, syncDisabledDatasets) };
  }
  if (syncAlwaysDatasets.length > 0 || zvols.length > 0) {
    return { level: 'configured', commitsPerSec: null, syncWriteIops: null, commitsSinceBoot: sinceBoot, ownProbeWrites: own ? ownWrites : null, syncAlwaysDatasets, zvols, syncDisabledDatasets, reasons: withConfig(reasons, syncAlwaysDatasets, zvols, syncDisabledDatasets) };
  }
  return {
    level: 'unknown', commitsPerSec: null, syncWriteIops: null, commitsSinceBoot: sinceBoot, ownProbeWrites: own ? ownWrites : null, syncAlwaysDatasets, zvols, syncDisabledDatasets,
    reasons: withConfig(reasons.length > 0 ? reasons : [a.Workload ? `The workload observation (${a.Workload.startedAt}) has no sync-write figures for ${pool.name}, and no sync=always datasets or zvols.` : 'No workload observation and no sync=always datasets or zvols.'], syncAlwaysDatasets, zvols, syncDisabledDatasets),
  };
}

function withConfig(reasons: string[], always: string[], zvols: string[], disabled: string[]): string[] {
  const out = [...reasons];
  if (always.length > 0) out.push(`sync=always on ${list(always)}.`);
  if (zvols.length > 0) out.push(`zvols (VM disks/iSCSI LUNs send flushes): ${list(zvols)}.`);
  if (disabled.length > 0) out.push(`sync=disabled on ${list(disabled)}: their sync requests are ignored and never counted ([OpenZFS module/zfs/zil.c at zfs-2.4.4](https://github.com/openzfs/zfs/blob/zfs-2.4.4/module/zfs/zil.c)).`);
  return out;
}

export const list = (xs: readonly string[], max = 4) => (xs.length <= max ? xs.join(', ') : `${xs.slice(0, max).join(', ')} and ${xs.length - max} more`);
const fmtDuration = (s: number) => (s >= 86_400 ? `${(s / 86_400).toFixed(1)} days` : s >= 3600 ? `${(s / 3600).toFixed(1)} h` : `${Math.round(s)} s`);
const fmt = (x: number | null) => (x === null ? '?' : x >= 100 ? String(Math.round(x)) : x.toFixed(1));

/** Sentence for a finding when the evidence is configuration only. */
export const NEEDS_OBSERVATION = 'Needs a workload observation to confirm the sync-write rate: run `zfs-advisor observe --duration 10m` during normal use.';

/**
 * Two counter snapshots (+ optionally the `zpool iostat -y … INTERVAL` samples taken during the
 * window) → a WorkloadFingerprint. Pure. Metrics follow zfs-facts F9–F11 and F14–F17:
 *  - ZIL: commits/s = Δzil_commit_count/Δt; log data = Δ(indirect + copied + needcopy bytes);
 *    to SLOG = Δzil_itx_metaslab_slog_bytes, to the main pool = Δzil_itx_metaslab_normal_bytes;
 *  - per pool, sync share = sync_write I/Os ÷ all write I/Os from the `-r` histogram deltas
 *    (ind + agg: every physical write the pool issued, by priority);
 *  - per pool, sync vs async written bytes/s from the same `-r` deltas (sync_write vs async_write
 *    columns, each I/O at its bin's lower bound); without `-r`, for a single pool, the host-wide ZIL
 *    log bytes are its sync part and the rest of the window's write bandwidth is async (`syncAsyncBasis`);
 *  - sync-write latency per vdev class = percentile(syncq_wait write) + percentile(disk_wait write)
 *    from the `-w` deltas of the top-level vdevs of that class (sum of percentiles: an upper bound);
 *  - ARC: hit ratios and metadata misses from arcstats deltas.
 */
import type { VdevClass } from '../model/inventory.ts';
import type { WorkloadFingerprint } from '../model/workload.ts';
import type { IostatHistogram, IostatTable } from '../parsers/zpool-iostat.ts';
import { counterDeltas, sumDeltas } from './counter-delta.ts';
import { histogramDelta, latencyPercentileNs, shareBelow, sizeBins, sumColumns } from './histogram.ts';
import type { CounterSnapshot } from './snapshot.ts';

type PoolEntry = WorkloadFingerprint['pools'][number];
type ClassLatency = PoolEntry['syncWriteLatencyMs'];

const SMALL_IO_LIMIT = 32 * 1024;
const LOG_BYTES = ['zil_itx_indirect_bytes', 'zil_itx_copied_bytes', 'zil_itx_needcopy_bytes'];

/** Groups histogram blocks by pool, keeping the class of each top-level vdev (from the -v layout). */
function blocksByPool(hists: IostatHistogram[], layout: IostatTable | null): Map<string, { pool: IostatHistogram | null; vdevs: { cls: VdevClass; h: IostatHistogram }[] }> {
  const out = new Map<string, { pool: IostatHistogram | null; vdevs: { cls: VdevClass; h: IostatHistogram }[] }>();
  const pools = new Set(layout ? layout.rows.filter((r) => r.kind === 'pool').map((r) => r.name) : hists.map((h) => h.name));
  let current: string | null = null;
  const used = new Set<string>();
  for (const h of hists) {
    if (pools.has(h.name) && !out.has(h.name)) {
      current = h.name;
      out.set(h.name, { pool: h, vdevs: [] });
      used.clear();
      continue;
    }
    if (!current || !layout) continue;
    // Leaves also get blocks; count only top-level vdevs so no I/O is counted twice.
    const row = layout.rows.find((r) => r.pool === current && r.depth === 1 && r.name === h.name && !used.has(`${r.name}`));
    if (row) {
      used.add(row.name);
      out.get(current)!.vdevs.push({ cls: row.class, h });
    }
  }
  return out;
}

function deltaList(before: IostatHistogram[], after: IostatHistogram[]): IostatHistogram[] {
  // Blocks are matched by position and name: the same command on the same pools prints the same order.
  return after.map((h, i) => histogramDelta(before[i]?.name === h.name ? before[i] : before.find((b) => b.name === h.name), h));
}

const ms = (ns: number | null) => (ns === null ? null : Math.round(ns / 1e4) / 100);

function classLatencies(vdevs: { cls: VdevClass; h: IostatHistogram }[], poolBlock: IostatHistogram | null): ClassLatency {
  const byClass = new Map<VdevClass, IostatHistogram[]>();
  for (const v of vdevs) byClass.set(v.cls, [...(byClass.get(v.cls) ?? []), v.h]);
  if (byClass.size === 0 && poolBlock) byClass.set('data', [poolBlock]);
  const out: ClassLatency = {};
  for (const [cls, hs] of byClass) {
    const disk = sumColumns(hs, ['disk_wait_write']);
    const syncq = sumColumns(hs, ['syncq_wait_write']);
    const p = (q: number) => {
      const d = latencyPercentileNs(disk, q);
      if (d === null) return null;
      return ms(d + (latencyPercentileNs(syncq, q) ?? 0));
    };
    const entry = { p50: p(0.5), p99: p(0.99) };
    if (entry.p50 !== null || entry.p99 !== null) out[cls] = entry;
  }
  return out;
}

function poolFromWindow(window: IostatTable[], pool: string): { r: number; w: number; rb: number; wb: number } | null {
  const rows = window.flatMap((t) => t.rows.filter((r) => r.kind === 'pool' && r.name === pool));
  if (rows.length === 0) return null;
  const avg = (k: string) => rows.reduce((s, r) => s + (r.values[k] ?? 0), 0) / rows.length;
  return { r: avg('ops_read'), w: avg('ops_write'), rb: avg('bw_read'), wb: avg('bw_write') };
}

type SyncAsyncSplit = { sync: number; async: number; basis: 'request-size-histogram' | 'zil-log-bytes' };

/** Sync vs async written bytes/s from the `-r` priority columns (bytes at each bin's lower bound, as sizeBins). */
function syncAsyncFromHistogram(sync: Map<number, number>, async: Map<number, number>, seconds: number): SyncAsyncSplit {
  const bytes = (m: Map<number, number>) => sizeBins(m).at(-1)?.cumulativeBytes ?? 0;
  return { sync: bytes(sync) / seconds, async: bytes(async) / seconds, basis: 'request-size-histogram' };
}

/** Without a histogram: ZIL log bytes/s are the sync part of the pool's write bandwidth, the rest is async. */
function syncAsyncFromZil(logBytesPerSec: number, writeBytesPerSec: number): SyncAsyncSplit {
  const sync = Math.min(logBytesPerSec, writeBytesPerSec);
  return { sync, async: writeBytesPerSec - sync, basis: 'zil-log-bytes' };
}

export interface FingerprintInput {
  start: CounterSnapshot;
  end: CounterSnapshot;
  /** Samples of `zpool iostat -y -v -p -l -q INTERVAL N` taken during the window, if any. */
  window?: IostatTable[];
  source: 'live' | 'recorded';
  notes?: string[];
}

export function buildFingerprint(input: FingerprintInput): WorkloadFingerprint {
  const { start, end } = input;
  const notes = [...(input.notes ?? []), ...start.notes, ...end.notes];
  const seconds = Math.max((end.monotonicMs - start.monotonicMs) / 1000, 1e-3);
  const rate = (v: number | null) => (v === null ? null : v / seconds);

  // --- ZIL (global) ---
  let zil: WorkloadFingerprint['zil'] = null;
  let zilLogBytes: number | null = null;
  if (start.zil && end.zil) {
    const d = counterDeltas(start.zil.raw, end.zil.raw, 'ZIL kstat');
    notes.push(...d.notes);
    const logBytes = sumDeltas(d.deltas, LOG_BYTES.filter((n) => n in d.deltas && d.deltas[n] !== null));
    zilLogBytes = logBytes;
    const copied = sumDeltas(d.deltas, ['zil_itx_copied_bytes', 'zil_itx_needcopy_bytes'].filter((n) => n in d.deltas && d.deltas[n] !== null));
    zil = {
      commitsPerSec: rate(d.deltas.zil_commit_count ?? null) ?? 0,
      itxBytesPerSec: rate(logBytes) ?? 0,
      bytesToSlogPerSec: rate(d.deltas.zil_itx_metaslab_slog_bytes ?? null),
      bytesToMainPoolPerSec: rate(d.deltas.zil_itx_metaslab_normal_bytes ?? null),
      indirectBytesPerSec: rate(d.deltas.zil_itx_indirect_bytes ?? null),
      copiedBytesPerSec: rate(copied),
    };
  } else {
    notes.push('ZIL counters not available (no /proc/spl/kstat/zfs/zil or kstat.zfs.misc.zil): sync demand measured from zpool iostat only');
  }

  // --- pools ---
  const layout = end.layout ?? start.layout;
  const lat = blocksByPool(deltaList(start.latency, end.latency), layout);
  const req = blocksByPool(deltaList(start.reqSize, end.reqSize), layout);
  const poolNames = new Set<string>([
    ...(layout?.rows.filter((r) => r.kind === 'pool').map((r) => r.name) ?? []),
    ...lat.keys(), ...req.keys(),
    ...(input.window ?? []).flatMap((t) => t.rows.filter((r) => r.kind === 'pool').map((r) => r.name)),
  ]);
  const pools: PoolEntry[] = [...poolNames].map((pool) => {
    const rq = req.get(pool)?.pool ?? null;
    const cols = (names: string[]) => (rq ? sumColumns([rq], names.flatMap((n) => [`${n}_ind`, `${n}_agg`])) : new Map<number, number>());
    const writes = cols(['sync_write', 'async_write']);
    const reads = cols(['sync_read', 'async_read']);
    const syncW = [...cols(['sync_write']).values()].reduce((a, b) => a + b, 0);
    const allW = [...writes.values()].reduce((a, b) => a + b, 0);
    const allR = [...reads.values()].reduce((a, b) => a + b, 0);
    const win = input.window ? poolFromWindow(input.window, pool) : null;
    const writeBins = sizeBins(writes);
    const readBins = sizeBins(reads);
    let syncWriteShare: number | null = rq && allW > 0 ? syncW / allW : null;
    let split = rq ? syncAsyncFromHistogram(cols(['sync_write']), cols(['async_write']), seconds) : null;
    if (syncWriteShare === null && poolNames.size === 1 && zilLogBytes !== null && win && win.wb > 0) {
      // No -r histogram: attribute the global ZIL log bytes to the only pool.
      syncWriteShare = Math.min(1, zilLogBytes / seconds / win.wb);
      split = syncAsyncFromZil(zilLogBytes / seconds, win.wb);
      notes.push(`${pool}: sync share estimated from ZIL log bytes ÷ pool write bandwidth (no request-size histogram)`);
    }
    if (rq && allW === 0 && allR === 0) notes.push(`${pool}: no I/O in the window`);
    return {
      pool,
      readIops: win?.r ?? allR / seconds,
      writeIops: win?.w ?? allW / seconds,
      readBytesPerSec: win?.rb ?? (readBins.at(-1)?.cumulativeBytes ?? 0) / seconds,
      writeBytesPerSec: win?.wb ?? (writeBins.at(-1)?.cumulativeBytes ?? 0) / seconds,
      syncWriteShare,
      syncWriteIops: rq ? syncW / seconds : null,
      syncWriteLatencyMs: lat.has(pool) ? classLatencies(lat.get(pool)!.vdevs, lat.get(pool)!.pool) : {},
      smallWriteShare: shareBelow(writes, SMALL_IO_LIMIT),
      smallReadShare: shareBelow(reads, SMALL_IO_LIMIT),
      writeSizes: writeBins,
      readSizes: readBins,
      syncWriteBytesPerSec: split?.sync ?? null,
      asyncWriteBytesPerSec: split?.async ?? null,
      syncAsyncBasis: split?.basis ?? null,
    };
  });
  if (pools.some((p) => p.syncAsyncBasis === 'request-size-histogram')) {
    notes.push('sync/async bytes: from the `zpool iostat -r` pool histogram, sync_write vs async_write priority (ind + agg), each I/O counted at its bin\'s lower bound; ZIL blocks written to a SLOG count as sync, the later txg-sync copy of the same data as async');
  }
  if (pools.some((p) => p.syncAsyncBasis === 'zil-log-bytes')) {
    notes.push('sync/async bytes: host-wide ZIL log bytes attributed to the only pool, async = pool write bandwidth − that (an estimate)');
  }
  if (pools.some((p) => p.writeSizes.length > 0)) notes.push('request sizes: "small" = I/Os below 32 KiB; bytes per bin estimated at the bin\'s lower bound');
  if (start.latency.length === 0) notes.push('no latency histograms (zpool iostat -w unsupported or failed): sync-write latency unknown');

  // --- per dataset (OpenZFS ≥ 2.2 objset kstats) ---
  const datasets: WorkloadFingerprint['datasets'] = [];
  for (const [name, after] of Object.entries(end.zilPerDataset)) {
    const before = start.zilPerDataset[name];
    if (!before) continue;
    const d = counterDeltas(before.raw, after.raw, `objset ${name}`);
    notes.push(...d.notes);
    datasets.push({
      dataset: name,
      commitsPerSec: rate(d.deltas.zil_commit_count ?? null) ?? 0,
      syncBytesPerSec: rate(sumDeltas(d.deltas, LOG_BYTES.filter((n) => n in d.deltas && d.deltas[n] !== null))) ?? 0,
    });
  }

  // --- ARC ---
  let arc: WorkloadFingerprint['arc'] = null;
  if (start.arc && end.arc) {
    const d = counterDeltas(start.arc.raw, end.arc.raw, 'arcstats').deltas;
    const ratio = (h: number | null | undefined, m: number | null | undefined) =>
      h === null || h === undefined || m === null || m === undefined || h + m === 0 ? null : h / (h + m);
    const metaMiss = sumDeltas(d, ['demand_metadata_misses', 'prefetch_metadata_misses']);
    arc = {
      hitRatio: ratio(d.hits, d.misses),
      metadataHitRatio: ratio(d.demand_metadata_hits, d.demand_metadata_misses),
      metadataMissesPerSec: rate(metaMiss),
      metadataShareOfMisses: metaMiss !== null && d.misses ? metaMiss / d.misses : null,
    };
  }

  return {
    startedAt: start.takenAt,
    endedAt: end.takenAt,
    windowSeconds: seconds,
    source: input.source,
    zil,
    pools,
    datasets,
    arc,
    notes: [...new Set(notes)],
  };
}

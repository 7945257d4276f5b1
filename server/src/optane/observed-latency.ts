/**
 * The sync-write latency a workload observation measured on a pool's ZIL path, as the latency
 * model's "now" device latency. `zpool iostat -w` gives syncq_wait + disk_wait per write at the
 * vdevs (observe/fingerprint.ts): that is the device part of a sync write under the real load,
 * without ZFS's per-commit software overhead, which the forecast adds itself (server/src/forecast/model.ts).
 *
 * p50 is the typical write, p99 the slow end of the range; the fast end stays at p50 because the
 * histogram's buckets are powers of two and the p50 is already interpolated inside one.
 */
import type { VdevClass } from '../model/inventory.ts';
import type { WorkloadFingerprint } from '../model/workload.ts';
import { formatTime } from '../text/format.ts';

/** A log device's 4 KiB sync write+flush latency in µs: typical and a range. */
export interface DeviceLatency {
  typicalUs: number;
  lowUs: number;
  highUs: number;
}

export interface ObservedSyncLatency {
  latency: DeviceLatency;
  cls: VdevClass;
  p50Ms: number;
  p99Ms: number | null;
  /** Observed sync writes per second on the pool (the `-r` sync_write I/Os), when known. */
  syncWriteIops: number | null;
  windowSeconds: number;
  /** One sentence: which observation, which vdev class, which percentiles. */
  basis: string;
}

const fmtMs = (x: number) => (x >= 10 ? `${Math.round(x)} ms` : x >= 1 ? `${x.toFixed(1)} ms` : `${x.toFixed(2)} ms`);

/**
 * The observed latency of `pool`'s writes on vdev class `cls` (where its ZIL lives: 'log',
 * 'special' or 'data'), or null when the observation has no p50 for that class.
 */
export function observedSyncLatency(w: WorkloadFingerprint | undefined, pool: string, cls: VdevClass): ObservedSyncLatency | null {
  const entry = w?.pools.find((p) => p.pool === pool);
  const lat = entry?.syncWriteLatencyMs[cls];
  if (!w || !entry || !lat || lat.p50 === null || lat.p50 <= 0) return null;
  const p50Us = lat.p50 * 1000;
  const p99Us = lat.p99 !== null && lat.p99 >= lat.p50 ? lat.p99 * 1000 : p50Us;
  const where = cls === 'data' ? 'data vdevs' : `${cls} vdev`;
  const rate = entry.syncWriteIops !== null ? `, ${entry.syncWriteIops >= 100 ? Math.round(entry.syncWriteIops) : entry.syncWriteIops.toFixed(1)} sync writes/s` : '';
  return {
    latency: { typicalUs: p50Us, lowUs: p50Us, highUs: p99Us },
    cls,
    p50Ms: lat.p50,
    p99Ms: lat.p99,
    syncWriteIops: entry.syncWriteIops,
    windowSeconds: w.windowSeconds,
    basis: `observed over ${Math.round(w.windowSeconds)} s (${formatTime(w.startedAt)}): write latency on the ${where} p50 ${fmtMs(lat.p50)}, p99 ${lat.p99 !== null ? fmtMs(lat.p99) : '?'}${rate} (zpool iostat -w syncq_wait + disk_wait)`,
  };
}

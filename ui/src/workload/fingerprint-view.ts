/**
 * The newest workload fingerprint as the Optane view and the overview show it: per pool, the
 * sync share of written bytes, sync and total write IOPS and the p99 sync latency of the data
 * vdevs. Numbers only when the counters had them: unknown stays unknown ("—"), never 0.
 */
import type { ObservationRecord } from '../../../server/src/api/contract.ts';

export interface PoolWorkloadRow {
  pool: string;
  syncShare: number | null;
  syncIops: number | null;
  writeIops: number;
  readIops: number;
  /** p99 sync-write latency of the data class (ms), else of any class that has one. */
  p99SyncMs: number | null;
  p99Class: string | null;
}

/** Newest completed observation with a fingerprint (the list is newest first, but do not rely on it). */
export function newestFingerprint(records: readonly ObservationRecord[]): ObservationRecord | null {
  const done = records.filter((r) => r.status === 'completed' && r.fingerprint !== null);
  done.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : b.id - a.id));
  return done[0] ?? null;
}

export function poolRows(r: ObservationRecord): PoolWorkloadRow[] {
  return (r.fingerprint?.pools ?? []).map((p) => {
    const lat = p.syncWriteLatencyMs;
    const cls = lat.data?.p99 != null ? 'data' : (Object.keys(lat) as (keyof typeof lat)[]).find((k) => lat[k]?.p99 != null) ?? null;
    return {
      pool: p.pool,
      syncShare: p.syncWriteShare,
      syncIops: p.syncWriteIops,
      writeIops: p.writeIops,
      readIops: p.readIops,
      p99SyncMs: cls ? lat[cls]?.p99 ?? null : null,
      p99Class: cls,
    };
  });
}

/** Window choices offered in the UI, seconds. */
export const OBSERVE_DURATIONS = [
  { seconds: 10, label: '10 seconds (a quick look)' },
  { seconds: 60, label: '1 minute' },
  { seconds: 600, label: '10 minutes (recommended)' },
  { seconds: 3600, label: '1 hour' },
] as const;

/** Sample interval for a window: about 30 samples, between 1 s and 60 s. */
export function intervalFor(durationS: number): number {
  return Math.min(60, Math.max(1, Math.round(durationS / 30)));
}

/**
 * Arithmetic on `zpool iostat -w` / `-r` histograms: deltas between two cumulative readings,
 * percentiles of latency histograms and size bins for request-size histograms.
 */
import type { SizeBin } from '../model/workload.ts';
import type { IostatHistogram } from '../parsers/zpool-iostat.ts';

/** Per-bucket after − before for every column; a bucket that went down (reset) counts from zero. */
export function histogramDelta(before: IostatHistogram | undefined, after: IostatHistogram): IostatHistogram {
  if (!before) return after;
  return {
    ...after,
    buckets: after.buckets.map((b) => {
      const prev = before.buckets.find((p) => p.bound === b.bound);
      const values: Record<string, number | null> = {};
      for (const [col, v] of Object.entries(b.values)) {
        const p = prev?.values[col];
        values[col] = v === null ? null : p === null || p === undefined || v < p ? v : v - p;
      }
      return { ...b, values };
    }),
  };
}

/** Adds the named columns of several histograms bucket by bucket → counts per bound. */
export function sumColumns(hists: IostatHistogram[], columns: string[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const h of hists) {
    for (const b of h.buckets) {
      let s = 0;
      for (const c of columns) s += b.values[c] ?? 0;
      out.set(b.bound, (out.get(b.bound) ?? 0) + s);
    }
  }
  return out;
}

/**
 * Percentile (0..1) of a latency histogram whose keys are exclusive upper bounds in ns of
 * power-of-two buckets [bound/2, bound). Linear interpolation inside the bucket; null when empty.
 */
export function latencyPercentileNs(counts: Map<number, number>, p: number): number | null {
  const buckets = [...counts.entries()].sort(([a], [b]) => a - b);
  const total = buckets.reduce((s, [, c]) => s + c, 0);
  if (total <= 0) return null;
  const target = p * total;
  let cum = 0;
  for (const [upper, c] of buckets) {
    if (c > 0 && cum + c >= target) {
      const lower = upper / 2;
      return lower + ((target - cum) / c) * (upper - lower);
    }
    cum += c;
  }
  return buckets.at(-1)![0];
}

/**
 * Request-size histogram (keys = bucket LOWER bounds in bytes) → SizeBin[] with upper bounds.
 * Bytes are estimated at the lower bound (exact for the power-of-two sizes ZFS mostly issues).
 */
export function sizeBins(counts: Map<number, number>): SizeBin[] {
  let cumCount = 0;
  let cumBytes = 0;
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([lower, count]) => {
    const bytes = count * lower;
    cumCount += count;
    cumBytes += bytes;
    return { upperBytes: lower * 2, count, bytes, cumulativeBytes: cumBytes, cumulativeCount: cumCount };
  });
}

/** Share of I/Os smaller than `limit` bytes (buckets whose lower bound × 2 ≤ limit); null when none. */
export function shareBelow(counts: Map<number, number>, limit: number): number | null {
  let small = 0;
  let total = 0;
  for (const [lower, c] of counts) {
    total += c;
    if (lower * 2 <= limit) small += c;
  }
  return total > 0 ? small / total : null;
}

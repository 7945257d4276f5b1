/**
 * fio with `--output-format=json --status-interval=1` prints one complete JSON document per
 * interval, back to back on stdout (each closes with a `}` alone on its line), and the final
 * result as the last one. This splits that stream incrementally, so progress can be shown while
 * fio runs without waiting for (or buffering the meaning of) the whole output.
 */
import { at, isObject, num, type JsonObject } from '../parsers/json-fields.ts';

export interface FioStreamSplitter {
  /** Feed one stdout line; returns a parsed document when this line completed one. */
  push(line: string): JsonObject | null;
  /** Lines that could not be parsed (fio's warnings on stdout, a truncated tail). */
  rejected(): string[];
}

export function createFioStreamSplitter(): FioStreamSplitter {
  let buf: string[] = [];
  const bad: string[] = [];
  return {
    push(line: string): JsonObject | null {
      if (buf.length === 0 && line.trim() !== '{') {
        // fio prints notes such as "fio: ..." outside the JSON; keep them, do not choke.
        if (line.trim() !== '') bad.push(line);
        return null;
      }
      buf.push(line);
      if (line !== '}') return null;
      const text = buf.join('\n');
      buf = [];
      try {
        const doc: unknown = JSON.parse(text);
        return isObject(doc) ? doc : null;
      } catch {
        bad.push(text.slice(0, 200));
        return null;
      }
    },
    rejected: () => bad.slice(),
  };
}

export interface FioSnapshot {
  timestampMs: number | null;
  /** Seconds fio says it has been running. */
  elapsedS: number;
  totalIos: number;
  /** Cumulative mean latency (µs) over both directions; for writes followed by fsync/fdatasync, the sync's (the time until durable). */
  meanLatencyUs: number | null;
}

/** Reads the few numbers progress needs from one interval document. */
export function snapshotOf(doc: JsonObject): FioSnapshot {
  const jobs = at(doc, 'jobs');
  let elapsed = 0;
  let ios = 0;
  let latSum = 0;
  let latN = 0;
  if (Array.isArray(jobs)) {
    for (const job of jobs) {
      elapsed = Math.max(elapsed, num(at(job, 'elapsed')) ?? 0);
      for (const dir of ['read', 'write'] as const) {
        const n = num(at(job, dir, 'total_ios')) ?? 0;
        ios += n;
        // A job that called fsync/fdatasync after its writes: the write is durable when the sync
        // returns, so the live figure is the sync's (sync-latency.ts), not the write() call's.
        const syncN = dir === 'write' ? num(at(job, 'sync', 'lat_ns', 'N')) ?? 0 : 0;
        const mean = syncN > 0 ? num(at(job, 'sync', 'lat_ns', 'mean')) : num(at(job, dir, 'lat_ns', 'mean'));
        if (mean !== null && n > 0) { latSum += mean * n; latN += n; }
      }
    }
  }
  return {
    timestampMs: num(at(doc, 'timestamp_ms')),
    elapsedS: elapsed,
    totalIos: ios,
    meanLatencyUs: latN > 0 ? latSum / latN / 1000 : null,
  };
}

/** IOPS between two snapshots (the live number), falling back to the cumulative average. */
export function intervalIops(prev: FioSnapshot | null, cur: FioSnapshot): number {
  if (prev && prev.timestampMs !== null && cur.timestampMs !== null && cur.timestampMs > prev.timestampMs) {
    return Math.max(0, ((cur.totalIos - prev.totalIos) * 1000) / (cur.timestampMs - prev.timestampMs));
  }
  return cur.elapsedS > 0 ? cur.totalIos / cur.elapsedS : 0;
}

/**
 * The human reading of a WorkloadFingerprint: a few plain sentences, e.g.
 * "tank: 62 % of writes are synchronous (410/s); p99 sync-write latency 14 ms on the data vdevs;
 *  a SLOG with ~20 µs flush latency would take that to ~0.1 ms."
 */
import type { WorkloadFingerprint } from '../model/workload.ts';

/** Optane-class SLOG device latency (zfs-facts E1: P1600X/P4800X ≈ 10–15 µs 4K sync write). */
const FAST_SLOG_DEVICE_MS = 0.02;
/** ZIL software path per commit (lwb issue, zio pipeline, wakeups) — [heuristic], not measured here. */
const ZIL_OVERHEAD_MS = 0.08;

const pct = (x: number) => `${Math.round(x * 100)} %`;
const fmtMs = (x: number) => (x >= 10 ? `${Math.round(x)} ms` : x >= 1 ? `${x.toFixed(1)} ms` : `${x.toFixed(2)} ms`);
function fmtBytes(b: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let v = b;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

export function summariseFingerprint(fp: WorkloadFingerprint): string[] {
  const out: string[] = [];
  const window = fp.windowSeconds >= 120 ? `${Math.round(fp.windowSeconds / 60)} min` : `${Math.round(fp.windowSeconds)} s`;
  out.push(`Observed ${window} (${fp.source === 'live' ? 'live counters' : 'recorded counters'}).`);

  for (const p of fp.pools) {
    const parts: string[] = [];
    if (p.syncWriteShare !== null) {
      parts.push(`${pct(p.syncWriteShare)} of writes are synchronous${p.syncWriteIops !== null ? ` (${Math.round(p.syncWriteIops)}/s)` : ''}`);
    } else {
      parts.push(`${Math.round(p.writeIops)} writes/s, ${Math.round(p.readIops)} reads/s (sync share not measurable here)`);
    }
    const data = p.syncWriteLatencyMs.data;
    const log = p.syncWriteLatencyMs.log;
    if (log?.p99 != null) parts.push(`p99 sync-write latency ${fmtMs(log.p99)} on the log vdev`);
    if (data?.p99 != null) {
      parts.push(`p99 sync-write latency ${fmtMs(data.p99)} on the data vdevs`);
      const target = FAST_SLOG_DEVICE_MS + ZIL_OVERHEAD_MS;
      if (!log && (p.syncWriteShare ?? 0) > 0.05 && data.p99 > 5 * target) {
        parts.push(`a SLOG with ~20 µs flush latency would take that to ~${target.toFixed(1)} ms (device latency plus ZIL overhead, estimate)`);
      }
    }
    if (p.smallWriteShare !== null) parts.push(`${pct(p.smallWriteShare)} of write I/Os are below 32 KiB`);
    if (p.syncWriteBytesPerSec != null && p.asyncWriteBytesPerSec != null && p.syncWriteBytesPerSec + p.asyncWriteBytesPerSec > 0) {
      parts.push(`written ${fmtBytes(p.syncWriteBytesPerSec)}/s sync, ${fmtBytes(p.asyncWriteBytesPerSec)}/s async${p.syncAsyncBasis === 'zil-log-bytes' ? ' (estimated from ZIL bytes)' : ''}`);
    }
    out.push(`${p.pool}: ${parts.join('; ')}.`);
    if (p.syncWriteShare !== null && p.syncWriteShare < 0.01 && p.writeIops > 0) {
      out.push(`${p.pool}: practically no synchronous writes in this window — a SLOG would change nothing for this workload (a SLOG is not a write cache).`);
    }
  }

  if (fp.zil) {
    const z = fp.zil;
    const bits = [`${Math.round(z.commitsPerSec)} commits/s`, `${fmtBytes(z.itxBytesPerSec)}/s of logged data`];
    const slog = z.bytesToSlogPerSec ?? 0;
    const main = z.bytesToMainPoolPerSec ?? 0;
    if (slog + main > 0) bits.push(`${pct(slog / (slog + main))} of log blocks to a SLOG`);
    const ind = z.indirectBytesPerSec ?? 0;
    const cop = z.copiedBytesPerSec ?? 0;
    if (ind + cop > 0) bits.push(`${pct(ind / (ind + cop))} written indirectly`);
    out.push(`ZIL: ${bits.join(', ')}.`);
  }
  for (const d of fp.datasets.filter((x) => x.commitsPerSec > 0).sort((a, b) => b.commitsPerSec - a.commitsPerSec).slice(0, 3)) {
    out.push(`Dataset ${d.dataset}: ${Math.round(d.commitsPerSec)} sync commits/s, ${fmtBytes(d.syncBytesPerSec)}/s logged.`);
  }
  if (fp.arc?.metadataShareOfMisses != null && fp.arc.metadataMissesPerSec != null) {
    out.push(`ARC: ${fp.arc.hitRatio !== null ? `${pct(fp.arc.hitRatio)} hits, ` : ''}${Math.round(fp.arc.metadataMissesPerSec)} metadata misses/s (${pct(fp.arc.metadataShareOfMisses)} of all misses).`);
  }
  return out;
}

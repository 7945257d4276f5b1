/** Number formatting shared by every view: IEC sizes (as zpool prints them), IOPS, latencies. */

const IEC = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** 4000787030016 → "3.64 TiB"; null → "—". Three significant digits like `zpool list`. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  if (n < 0) return `-${formatBytes(-n)}`;
  let i = 0;
  let v = n;
  while (v >= 1024 && i < IEC.length - 1) {
    v /= 1024;
    i += 1;
  }
  if (i === 0) return `${v} B`;
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${v.toFixed(digits)} ${IEC[i]}`;
}

/** 13712.4 → "13.7k", 894 → "894", 1.2e6 → "1.20M". */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const a = Math.abs(n);
  if (a >= 1e6) return `${(n / 1e6).toFixed(a >= 1e8 ? 0 : 2)}M`;
  if (a >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  if (a >= 1000) return `${(n / 1e3).toFixed(2)}k`;
  return a >= 10 || Number.isInteger(n) ? String(Math.round(n)) : n.toFixed(1);
}

/** Latency from nanoseconds: 73000 → "73 µs", 17800000 → "17.8 ms". */
export function formatLatencyNs(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return '—';
  if (ns < 1000) return `${Math.round(ns)} ns`;
  const us = ns / 1000;
  if (us < 1000) return `${us >= 100 ? Math.round(us) : us.toFixed(1).replace(/\.0$/, '')} µs`;
  const ms = us / 1000;
  if (ms < 1000) return `${ms >= 100 ? Math.round(ms) : ms.toFixed(1).replace(/\.0$/, '')} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export const formatLatencyUs = (us: number | null | undefined): string => formatLatencyNs(us === null || us === undefined ? us : us * 1000);

/** Bytes per second as "412 MiB/s". */
export const formatRate = (bps: number | null | undefined): string => (bps === null || bps === undefined ? '—' : `${formatBytes(bps)}/s`);

/** 0.734 → "73 %"; percentages given as 0–100 use formatPct(x / 100). */
export function formatPct(share: number | null | undefined, digits = 0): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  return `${(share * 100).toFixed(digits)} %`;
}

/** ISO time → "2026-11-22 07:31" in the viewer's zone; invalid → the input. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

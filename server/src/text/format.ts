/**
 * The one way every number and absent value is written, in the UI, the CLI and the Markdown,
 * HTML and PDF reports, so a fact reads the same wherever it is shown:
 * - counts: digits grouped ("13,700"), fractions to three significant digits ("2.5", "0.123");
 * - ranges: "6,088–32,397" (en dash, no spaces);
 * - sizes: IEC units, as zpool, zfs and TrueNAS print them ("3.64 TiB", "54.9 GiB", "4 KiB");
 * - latencies: the largest unit that keeps a whole number in front ("73 µs", "17.7 ms");
 * - percentages: "73 %"; gains: "183×", "6.4×", "1.25×" (formatGain's one rule); absent values: "—"; yes/no for flags;
 * - times: local, with the zone ("2026-11-28 05:16 GMT+1"); JSON keeps ISO;
 * - plurals: "1 suggestion", "2 suggestions".
 * Pure and dependency-free: the UI bundles it too.
 */

/** What every view shows where a value is absent (not reported, not measured, not set). */
export const ABSENT = '—';

type Num = number | null | undefined;

const absent = (n: Num): n is null | undefined => n === null || n === undefined || !Number.isFinite(n);

/** Three significant digits, trailing zeros dropped: 54.93 → "54.9", 4 → "4", 0.1234 → "0.123". */
function sig3(v: number): string {
  const a = Math.abs(v);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return v.toFixed(digits).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** 13712.4 → "13,712"; 1042.9 → "1,043"; 75 → "75"; 2.5 → "2.5". */
export function formatCount(n: Num): string {
  if (absent(n)) return ABSENT;
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  return sig3(n);
}

/** "6,088–32,397"; one end absent → ABSENT; equal ends → one value. */
export function formatRange(lo: Num, hi: Num, fmt: (n: number) => string = formatCount): string {
  if (absent(lo) || absent(hi)) return ABSENT;
  const a = fmt(lo);
  const b = fmt(hi);
  return a === b ? a : `${a}–${b}`;
}

/** An estimate with its range: "13,700 (6,088–32,397)". */
export const formatEstimate = (e: { iops: number; low: number; high: number }): string => `${formatCount(e.iops)} (${formatRange(e.low, e.high)})`;

/** How many times faster `after` is than `before`: 75 → 13,700 is "183×"; ABSENT when before is 0 or absent. */
export const formatSpeedup = (before: Num, after: Num): string => (absent(before) || absent(after) || before <= 0 ? ABSENT : formatGain(after / before));

const IEC = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** 4000787030016 → "3.64 TiB"; 4096 → "4 KiB"; 512 → "512 B". */
export function formatBytes(n: Num): string {
  if (absent(n)) return ABSENT;
  if (n < 0) return `-${formatBytes(-n)}`;
  let i = 0;
  let v = n;
  // 1023.9 KiB would print as "1024 KiB": move up once the rounded value reaches 1024.
  while (Number(sig3(v)) >= 1024 && i < IEC.length - 1) { v /= 1024; i += 1; }
  return `${i === 0 ? Math.round(v) : sig3(v)} ${IEC[i]}`;
}

/**
 * The unit a chart's size axis is drawn in, chosen from the largest value so the ticks read as
 * whole numbers of it: 10.5 MiB → MiB (not "0.009 GiB"), 54.9 GiB → GiB, 300 B → B.
 */
export function byteScale(maxBytes: Num): { unit: string; divisor: number } {
  let i = 0;
  let v = absent(maxBytes) ? 0 : Math.abs(maxBytes);
  while (v >= 1024 && i < IEC.length - 1) { v /= 1024; i += 1; }
  return { unit: IEC[i]!, divisor: 1024 ** i };
}

/** Bytes per second: "412 MiB/s". */
export const formatRate = (bps: Num): string => (absent(bps) ? ABSENT : `${formatBytes(bps)}/s`);

/** Latency from nanoseconds: 73000 → "73 µs", 17695000 → "17.7 ms", 2.5e9 → "2.5 s". */
export function formatLatencyNs(ns: Num): string {
  if (absent(ns)) return ABSENT;
  if (Math.abs(ns) < 1000) return `${Math.round(ns)} ns`;
  if (Math.abs(ns) < 999_500) return `${sig3(ns / 1e3)} µs`;
  if (Math.abs(ns) < 999_500_000) return `${sig3(ns / 1e6)} ms`;
  return `${sig3(ns / 1e9)} s`;
}

export const formatLatencyUs = (us: Num): string => formatLatencyNs(absent(us) ? null : us * 1e3);
export const formatLatencyMs = (ms: Num): string => formatLatencyNs(absent(ms) ? null : ms * 1e6);

/** A share 0–1 as a percentage: 0.734 → "73 %". `digits` decimals when asked for. */
export function formatPct(share: Num, digits = 0): string {
  if (absent(share)) return ABSENT;
  return `${(share * 100).toFixed(digits)} %`;
}

/** A percentage already on the 0–100 scale: 67 → "67 %", 2.345 → "2.35 %". */
export const formatPercent = (n: Num): string => (absent(n) ? ABSENT : `${formatCount(n)} %`);

/**
 * The figure of a gain, by one rule for every gain the app prints: whole numbers from 10× up
 * (110.4 → "110", 40.2 → "40", 99.6 → "100"), one decimal from 2× (6.43 → "6.4"), two below 2×
 * (1.254 → "1.25"), so a gain near a 1.3× threshold never rounds across it.
 */
export function gainFigure(x: number): string {
  const a = Math.abs(x);
  if (a >= 9.95) return Math.round(x).toLocaleString('en-US');
  if (a >= 1.995) return x.toFixed(1);
  return x.toFixed(2);
}

/** A speed-up or ratio: 182.67 → "183×", 40.2 → "40×", 6.4 → "6.4×", 1.05 → "1.05×". */
export const formatGain = (x: Num): string => (absent(x) ? ABSENT : `${gainFigure(x)}×`);

/** A gain range: "1.05–1.20×", "40–110×", or one figure when both ends read alike. */
export function formatGainRange(lo: Num, hi: Num): string {
  if (absent(lo) || absent(hi)) return ABSENT;
  const a = gainFigure(lo);
  const b = gainFigure(hi);
  return a === b ? `${a}×` : `${a}–${b}×`;
}

/** true → "yes", false → "no". */
export const formatFlag = (b: boolean): string => (b ? 'yes' : 'no');

/** "1 suggestion", "2 suggestions", "1 dataset or zvol" / "2 datasets and zvols" (the plural given). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Just the word: pluralWord(2, 'run') → "runs". */
export const pluralWord = (n: number, one: string, many = `${one}s`): string => (n === 1 ? one : many);

const SIZE_UNITS: Record<string, number> = { B: 1, bytes: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40 };
const LATENCY_UNITS: Record<string, number> = { ns: 1, 'µs': 1e3, us: 1e3, ms: 1e6, s: 1e9 };

/**
 * An evidence value with its unit as every view shows it: sizes in IEC units, latencies scaled,
 * counts grouped, "%" and "×" attached, booleans yes/no, null the absent mark.
 */
export function formatValue(value: string | number | boolean | null | undefined, unit: string | null = null): string {
  if (value === null || value === undefined || value === '') return ABSENT;
  if (typeof value === 'boolean') return formatFlag(value);
  if (typeof value === 'string') return unit ? `${value} ${unit}` : value;
  if (!Number.isFinite(value)) return ABSENT;
  if (unit === null || unit === '') return formatCount(value);
  if (unit in SIZE_UNITS) return formatBytes(value * SIZE_UNITS[unit]!);
  if (unit === 'B/s') return formatRate(value);
  if (unit === '/s') return `${formatCount(value)}/s`;
  if (unit in LATENCY_UNITS) return formatLatencyNs(value * LATENCY_UNITS[unit]!);
  if (unit === '%') return formatPercent(value);
  if (unit === '×') return formatGain(value);
  return `${formatCount(value)} ${value === 1 ? singularUnit(unit) : unit}`;
}

/** Count units are written in the plural; one of them reads in the singular ("1 device", "1 write in flight per job"). */
const SINGULAR: Record<string, string> = { devices: 'device', disks: 'disk', days: 'day', seconds: 'second', jobs: 'job', writes: 'write', drives: 'drive', vdevs: 'vdev', files: 'file', hours: 'hour', minutes: 'minute' };
function singularUnit(unit: string): string {
  const [first, ...rest] = unit.split(' ');
  const one = SINGULAR[first!];
  return one ? [one, ...rest].join(' ') : unit;
}

/**
 * ISO time → "2026-11-22 07:31 CET": the viewer's local time with its zone (the UI: the browser's;
 * the CLI and reports: the host's), so no reader has to convert a "…Z" time. `timeZone` (an IANA
 * name) is for tests and for a report written for another zone. Invalid → the input; absent → ABSENT.
 * JSON keeps ISO: this is for text a person reads.
 */
export function formatTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return ABSENT;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short',
  }).formatToParts(d);
  const part = (t: Intl.DateTimeFormatPartTypes): string => parts.find((x) => x.type === t)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`.trimEnd();
}

type SeverityName = 'critical' | 'warning' | 'suggestion' | 'info';
const SEVERITY_WORDS: Record<SeverityName, [string, string]> = {
  critical: ['critical', 'critical'], warning: ['warning', 'warnings'], suggestion: ['suggestion', 'suggestions'], info: ['info', 'info'],
};

/** "1 warning", "2 suggestions", "3 critical". */
export const severityCount = (severity: SeverityName, n: number): string => plural(n, ...SEVERITY_WORDS[severity]);

/** "0 critical, 1 warning, 2 suggestions, 0 info": the findings count every view prints. */
export function severityCounts(c: Partial<Record<SeverityName, number>>): string {
  return (Object.keys(SEVERITY_WORDS) as SeverityName[]).map((s) => severityCount(s, c[s] ?? 0)).join(', ');
}

const DISTRIBUTION_NAME: Record<string, string> = { 'truenas-core': 'TrueNAS CORE', 'truenas-scale': 'TrueNAS SCALE', 'proxmox-ve': 'Proxmox VE' };
const PLATFORM_NAME: Record<string, string> = { linux: 'Linux', freebsd: 'FreeBSD', darwin: 'macOS' };

/**
 * The system a host runs, in its own name: "TrueNAS CORE 13.0-U6.1", "Proxmox VE 8.2.2",
 * "Debian GNU/Linux 12", "FreeBSD 14.1-RELEASE", or just "Linux" when nothing more is known.
 */
export function platformText(h: { platform: string; distribution: string; distributionVersion: string | null }): string {
  const named = DISTRIBUTION_NAME[h.distribution];
  const version = h.distributionVersion?.trim() || null;
  if (named) return version ? `${named} ${version.replace(/^TrueNAS-(?:SCALE-)?/i, '')}` : named;
  const os = PLATFORM_NAME[h.platform] ?? 'unknown system';
  if (h.distribution === 'other' && version) return h.platform === 'freebsd' ? `FreeBSD ${version}` : version;
  return os;
}

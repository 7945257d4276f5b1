/**
 * Chart data for the report, computed once so HTML (SVG) and PDF (vector paths) draw the same
 * bars. The Optane chart is linear from zero, as in the UI: bar lengths are the values, so a slow
 * pool's small "now" bar looks small (a log axis started near the smallest bar made it look like
 * nothing), and every bar carries its number at its end. The benchmark chart turns logarithmic
 * when its runs span more than two orders of magnitude.
 */
import { formatCount, formatRange, plural } from '../text/format.ts';
import type { OptaneVerdict } from '../optane/verdict.ts';
import type { Chart, ChartBar, ReportBenchmark } from './document.ts';

function scaleFor(bars: ChartBar[]): Chart['scale'] {
  const values = bars.flatMap((b) => [b.value, b.low ?? b.value, b.high ?? b.value]).filter((v) => v > 0);
  if (values.length === 0) return 'linear';
  return Math.max(...values) / Math.min(...values) > 100 ? 'log' : 'linear';
}

export function optaneChart(v: OptaneVerdict | null): Chart | null {
  if (!v?.expected) return null;
  const e = v.expected;
  const bars: ChartBar[] = [
    { label: 'QD1 now', series: 'now', value: e.qd1.now.iops, low: e.qd1.now.low, high: e.qd1.now.high },
    { label: 'QD1 with Optane SLOG', series: 'with Optane', value: e.qd1.withOptane.iops, low: e.qd1.withOptane.low, high: e.qd1.withOptane.high },
    { label: 'QD16 now', series: 'now', value: e.qd16.now.iops, low: e.qd16.now.low, high: e.qd16.now.high },
    { label: 'QD16 with Optane SLOG', series: 'with Optane', value: e.qd16.withOptane.iops, low: e.qd16.withOptane.low, high: e.qd16.withOptane.high },
  ];
  return {
    id: 'chart-optane',
    title: `Expected 4K sync-write IOPS on ${v.pool ?? 'the pool'}`,
    unit: 'IOPS',
    scale: 'linear',
    bars,
    description: `4K sync-write IOPS now and with an Optane SLOG: QD1 ${formatCount(e.qd1.now.iops)} → ${formatCount(e.qd1.withOptane.iops)}, QD16 ${formatCount(e.qd16.now.iops)} → ${formatCount(e.qd16.withOptane.iops)} (ranges from the latency model).`,
  };
}

export function benchmarkChart(runs: ReportBenchmark[]): Chart | null {
  const bars: ChartBar[] = [];
  for (const { summary: s } of runs) {
    if (s.status !== 'completed') continue;
    const where = s.pool ?? s.target;
    const label = `${s.profile} on ${where} (${s.startedAt.slice(0, 10)})`;
    if (s.writeIops > 0) bars.push({ label, series: 'write', value: Math.round(s.writeIops), low: null, high: null });
    if (s.readIops > 0) bars.push({ label, series: 'read', value: Math.round(s.readIops), low: null, high: null });
  }
  if (bars.length === 0) return null;
  return {
    id: 'chart-benchmarks',
    title: 'Benchmark IOPS per run',
    unit: 'IOPS',
    scale: scaleFor(bars),
    bars,
    description: `Measured IOPS of ${plural(new Set(bars.map((b) => b.label)).size, 'completed benchmark run')}, read and write separately.`,
  };
}

/** Maps chart values to 0..1 along the value axis, with the tick values to label. */
export interface ChartAxis {
  frac(v: number): number;
  ticks: number[];
}

function niceCeil(x: number): number {
  if (x <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

export function chartAxis(chart: Chart): ChartAxis {
  const values = chart.bars.flatMap((b) => [b.value, b.high ?? b.value]);
  const max = Math.max(1, ...values);
  if (chart.scale === 'log') {
    const positives = chart.bars.flatMap((b) => [b.value, b.low ?? b.value]).filter((v) => v > 0);
    const lo = 10 ** Math.floor(Math.log10(Math.min(...positives, max)));
    const hi = 10 ** Math.ceil(Math.log10(max + 1));
    const span = Math.log10(hi) - Math.log10(lo);
    const ticks: number[] = [];
    for (let t = lo; t <= hi; t *= 10) ticks.push(t);
    return { frac: (v) => (v <= lo ? 0 : Math.min(1, (Math.log10(v) - Math.log10(lo)) / span)), ticks };
  }
  const top = niceCeil(max);
  return { frac: (v) => Math.max(0, Math.min(1, v / top)), ticks: [0, top / 4, top / 2, (3 * top) / 4, top] };
}

/** A chart as text bars (Markdown code blocks, plain-text fallbacks). */
export function chartText(chart: Chart, width = 40): string {
  const axis = chartAxis(chart);
  const names = chart.bars.map((b) => (chart.bars.some((x) => x.label === b.label && x.series !== b.series) ? `${b.label} [${b.series}]` : b.label));
  const pad = Math.max(...names.map((n) => n.length));
  const lines = chart.bars.map((b, i) => {
    const n = Math.round(axis.frac(b.value) * width);
    const range = b.low !== null && b.high !== null ? ` (${formatRange(b.low, b.high)})` : '';
    // A value above zero always gets a mark, so a small bar never reads as an empty one.
    const bar = b.value > 0 ? Math.max(1, n) : 0;
    return `${names[i]!.padEnd(pad)} │${'█'.repeat(bar)}${' '.repeat(width - bar)} ${formatCount(b.value)}${range}`;
  });
  return [`${chart.title} (${chart.unit}${chart.scale === 'log' ? ', log scale' : ''})`, ...lines].join('\n');
}

/** Where a bar's number is written: just past the bar or its range whisker, whichever ends later (0..1 of the plot). */
export function valueLabelFrac(axis: ChartAxis, b: ChartBar): number {
  return Math.max(axis.frac(b.value), b.high !== null ? axis.frac(b.high) : 0);
}

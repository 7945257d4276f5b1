/**
 * chart.js, registered piece by piece so the bundle carries only bar and line charts with
 * linear/log/category scales (the full build is ~3× larger). Colours come from the theme's CSS
 * variables, read when a chart is created.
 */
import {
  BarController, BarElement, CategoryScale, Chart, Filler, Legend, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, Tooltip,
  type ChartOptions,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LogarithmicScale, LineController, LineElement, PointElement, Tooltip, Legend, Filler);

export function themeColor(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

export function palette() {
  return {
    text: themeColor('--text', '#e8eaed'),
    muted: themeColor('--muted', '#aab1ba'),
    grid: themeColor('--border', '#3a3f46'),
    a: themeColor('--cls-data', '#4fb3ff'),
    b: themeColor('--cls-special', '#c792ea'),
    c: themeColor('--cls-log', '#ffcb6b'),
    d: themeColor('--ok', '#5fd68a'),
  };
}

/** Shared options: theme colours, no animation (also keeps screenshots deterministic). */
export function baseOptions<T extends 'bar' | 'line'>(yTitle: string, log = false): ChartOptions<T> {
  const p = palette();
  const opts: ChartOptions<'bar' | 'line'> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    color: p.text,
    plugins: { legend: { labels: { color: p.text } }, tooltip: { enabled: true } },
    scales: {
      x: { ticks: { color: p.muted }, grid: { color: p.grid } },
      y: { type: log ? 'logarithmic' : 'linear', title: { display: true, text: yTitle, color: p.muted }, ticks: { color: p.muted }, grid: { color: p.grid }, beginAtZero: !log },
    },
  };
  return opts as ChartOptions<T>;
}

/**
 * Charts as inline SVG for the HTML report: static markup, no script, no external font or
 * stylesheet. Horizontal bars (labels can be long), value labels at the bar ends, whiskers for
 * the low–high range, tick lines for the axis.
 */
import { chartAxis, valueLabelFrac } from './charts.ts';
import type { Chart } from './document.ts';
import { formatCount } from '../text/format.ts';

export const SERIES_COLOURS: Record<string, string> = {
  now: '#8a5a00', 'with Optane': '#1f6f43', write: '#2b5ea7', read: '#7a3e9d',
};
const FALLBACK = '#555555';

export const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function chartSvg(chart: Chart): string {
  const axis = chartAxis(chart);
  const width = 720;
  const labelW = 260;
  const valueW = 70;
  const rowH = 24;
  const top = 10;
  const plotW = width - labelW - valueW;
  const height = top + chart.bars.length * rowH + 34;
  const x = (v: number) => labelW + axis.frac(v) * plotW;
  const titleId = `${chart.id}-title`;
  const descId = `${chart.id}-desc`;
  const parts: string[] = [
    `<svg viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-labelledby="${titleId} ${descId}" class="chart" id="${chart.id}">`,
    `<title id="${titleId}">${escapeXml(chart.title)}</title>`,
    `<desc id="${descId}">${escapeXml(chart.description)}</desc>`,
  ];
  const axisY = top + chart.bars.length * rowH;
  for (const t of axis.ticks) {
    const tx = x(t).toFixed(1);
    parts.push(`<line x1="${tx}" y1="${top}" x2="${tx}" y2="${axisY}" stroke="#d0d0d0" stroke-width="1"/>`);
    parts.push(`<text x="${tx}" y="${axisY + 14}" font-size="11" text-anchor="middle" fill="#444">${escapeXml(formatCount(t))}</text>`);
  }
  chart.bars.forEach((b, i) => {
    const y = top + i * rowH;
    const colour = SERIES_COLOURS[b.series] ?? FALLBACK;
    const label = chart.bars.some((o) => o.label === b.label && o.series !== b.series) ? `${b.label} (${b.series})` : b.label;
    parts.push(`<text x="${labelW - 8}" y="${y + 16}" font-size="12" text-anchor="end" fill="#222">${escapeXml(label.length > 40 ? `${label.slice(0, 39)}…` : label)}</text>`);
    parts.push(`<rect x="${labelW}" y="${y + 4}" width="${Math.max(1, x(b.value) - labelW).toFixed(1)}" height="${rowH - 8}" fill="${colour}"/>`);
    if (b.low !== null && b.high !== null) {
      const cy = y + rowH / 2;
      parts.push(`<line x1="${x(b.low).toFixed(1)}" y1="${cy}" x2="${x(b.high).toFixed(1)}" y2="${cy}" stroke="#111" stroke-width="1.5"/>`);
      for (const e of [b.low, b.high]) parts.push(`<line x1="${x(e).toFixed(1)}" y1="${cy - 5}" x2="${x(e).toFixed(1)}" y2="${cy + 5}" stroke="#111" stroke-width="1.5"/>`);
    }
    // The number at the bar's (or its whisker's) end: a small bar is plainly small, not missing.
    parts.push(`<text x="${(labelW + valueLabelFrac(axis, b) * plotW + 6).toFixed(1)}" y="${y + 16}" font-size="12" fill="#222" class="bar-value">${escapeXml(formatCount(b.value))}</text>`);
  });
  parts.push(`<text x="${labelW + plotW / 2}" y="${height - 4}" font-size="11" text-anchor="middle" fill="#444">${escapeXml(`${chart.unit}${chart.scale === 'log' ? ' (log scale)' : ''}`)}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

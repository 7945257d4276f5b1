/**
 * The latest suite for the report (server/src/report renders it): the newest suite with a
 * completed run, and one chart of it — the sync/async (or direct/buffered, dataset/zvol) pairs
 * side by side — whose description carries the ratios, so the Markdown, HTML and PDF reports all
 * show it. Target names are left out of the text (a redacted report must not leak them).
 */
import type { Database } from 'better-sqlite3';
import type { Chart } from '../report/document.ts';
import { latestSuite } from './suite-store.ts';
import { suiteExport } from './compare.ts';
import type { SuiteView } from './suite-types.ts';
import { formatGain } from '../text/format.ts';

export function latestSuiteView(db: Database): SuiteView | null {
  try {
    const s = latestSuite(db);
    return s ? suiteExport(s) : null;
  } catch { return null; } // a store without the suites table (older schema) has none
}

export function suiteChart(view: SuiteView | null | undefined): Chart | null {
  if (!view) return null;
  const dims = [['sync', 'sync', 'async'], ['io', 'direct', 'buffered'], ['target', 'dataset', 'zvol']] as const;
  const found = dims.find(([d]) => view.pairs[d].length > 0);
  const s = view.suite;
  if (!found) {
    const rows = view.table.filter((r) => r.iops !== null);
    if (rows.length === 0) return null;
    return {
      id: 'chart-suite', title: `Latest suite: ${s.title}`, unit: 'IOPS', scale: 'log',
      bars: rows.map((r) => ({ label: r.label, series: 'IOPS', value: r.iops!, low: null, high: null })),
      description: `IOPS of the ${rows.length} run(s) of suite ${s.suite} (${s.status}, ${s.startedAt.slice(0, 10)})${s.demo ? ', demo data' : ''}.`,
    };
  }
  const [d, a, b] = found;
  const pairs = view.pairs[d].filter((p) => p.a.iops !== null && p.b.iops !== null);
  if (pairs.length === 0) return null;
  return {
    id: 'chart-suite', title: `Latest suite: ${s.title}`, unit: 'IOPS', scale: 'log',
    bars: pairs.flatMap((p) => [
      { label: p.shared, series: a, value: p.a.iops!, low: null, high: null },
      { label: p.shared, series: b, value: p.b.iops!, low: null, high: null },
    ]),
    description: `Suite ${s.suite} (${s.status}, ${s.startedAt.slice(0, 10)}${s.demo ? ', demo data' : ''}): ${a} vs ${b} side by side — ${pairs.map((p) => `${p.shared}: ${a} ÷ ${b} = ${formatGain(p.ratio)}`).join('; ')}. Every run of it is in the benchmark table.`,
  };
}

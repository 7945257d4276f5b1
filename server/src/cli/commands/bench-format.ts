/**
 * Human output of `zfs-advisor bench`: plain text tables, durations rounded to what a person
 * reads (4.2 s, 38 s, 2 min 05 s), latencies in µs or ms. JSON output bypasses all of this.
 */
import type { BenchmarkSummary } from '../../model/workload.ts';
import { suitePairs, suiteTable, compareSuites } from '../../bench/compare.ts';
import { runLatencyOf } from '../../bench/sync-latency.ts';
import type { PairRow, SuitePlan, SuiteProgress, SuiteResult } from '../../bench/suite-types.ts';
import { sizeLabel } from '../../bench/suites.ts';
import { ABSENT, formatCount, formatGain, formatLatencyUs, formatPercent, formatTime, plural } from '../../text/format.ts';
import type { Recovered } from '../../bench/recover.ts';
import type { GuardVerdict } from '../../bench/types.ts';

/** The stderr line every bench command prints for a dead run it cleaned up before doing anything else. */
/** One guard's verdict for a terminal; a refusal's way forward on the line below it. */
export function guardLines(g: GuardVerdict): string[] {
  const head = `  ${g.ok ? 'ok     ' : 'REFUSED'} ${g.id.padEnd(14)} ${g.message}`;
  return g.wayForward ? [head, `          ${''.padEnd(14)} how to go on: ${g.wayForward}`] : [head];
}

export function recoveredLine(r: Recovered): string {
  return `recovered abandoned run ${r.runId} (pid ${r.pid}): ${r.messages.join('; ') || 'nothing left behind'}\n`;
}

export function table(headers: string[], rows: (string | number | null)[][]): string {
  const cells = rows.map((r) => r.map((c) => (c === null ? ABSENT : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  // Numbers (with their unit) right-aligned, words left-aligned.
  const numeric = headers.map((_, i) => cells.length > 0 && cells.every((r) => /^(—|-?[\d.,]+(×| ?[a-zµ%]+)?( [\d]+ s)?)$/.test(r[i]!)));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return `${[line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n')}\n`;
}

export function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return ABSENT;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(Math.round(s - m * 60)).padStart(2, '0')} s`;
}

export const micros = formatLatencyUs;

const count = formatCount;
const ratio = (x: number | null) => (x === null ? null : formatGain(x));

export function runText(x: BenchmarkSummary, message: string | null): string {
  const out: string[] = [`${x.status}: ${x.profile} on ${x.target} (${x.syncMode})`];
  if (message) out.push(`  ${message}`);
  if (x.status === 'completed' || x.writeIops + x.readIops > 0) {
    // One latency per direction, in the words of sync-latency.ts: for a durable write the time until
    // it was durable (an fsync run's fsync, never its write()), for an async write the write() call, labelled so.
    const lat = runLatencyOf(x);
    const rows: (string | number | null)[][] = [];
    if (x.writeIops > 0) {
      const w = lat && lat.kind !== 'read' ? lat : null;
      rows.push(['write', count(x.writeIops), formatCount(x.writeBytesPerSec / 1048576), w?.label ?? null, micros(ns(w?.p50Ns)), micros(ns(w?.p99Ns))]);
    }
    if (x.readIops > 0) rows.push(['read', count(x.readIops), formatCount(x.readBytesPerSec / 1048576), 'read latency', micros(ns(x.readLatency?.p50Ns)), micros(ns(x.readLatency?.p99Ns))]);
    out.push(table(['', 'IOPS', 'MiB/s', 'latency of', 'p50', 'p99'], rows).trimEnd().replace(/^/gm, '  '));
    if (lat?.missing) out.push(`  ${lat.label}: ${lat.missing}`);
    out.push(`  wall ${seconds(x.wallSeconds)}, fio runtime ${seconds(x.fioRuntimeSeconds)}${x.wallTimeMismatch ? ' (FLAGGED: they differ by more than 10 %)' : ''}`);
    if (x.system) out.push(`  load1 peak ${formatCount(x.system.load1Max)}, iowait ${formatPercent(x.system.iowaitPctMean)}${x.system.cpuBusyPctMean != null ? `, CPUs ${formatPercent(x.system.cpuBusyPctMean)} busy` : ''}${x.system.arcHitPct !== null ? `, ARC hits ${formatPercent(x.system.arcHitPct)}` : ''}`);
    // The host's own share of each I/O: what the forecast carries as a floor no faster device removes.
    if (x.cpuUsPerIo != null) out.push(`  CPU per I/O in fio's threads: ${micros(x.cpuUsPerIo)}`);
  }
  if (x.syncText) out.push(`  ${x.syncText}`);
  for (const n of x.notes) out.push(`  note: ${n}`);
  return `${out.join('\n')}\n`;
}

const ns = (v: number | null | undefined) => (v === null || v === undefined ? null : v / 1000);

export function planText(p: SuitePlan): string {
  const out = [`suite ${p.suite}: ${p.title}`, `on ${p.on}; ${plural(p.runs.length, 'run')} of ${seconds(p.runtimeS)}, ${seconds(p.pauseS)} pause between runs, total cap ${seconds(p.maxTotalS)}; estimated ${seconds(p.estimatedSeconds)}`, ''];
  out.push(table(['#', 'profile', 'bs', 'QD', 'io', 'sync', 'target', 'est.'],
    p.runs.map((r, i) => [String(i + 1), r.profile, sizeLabel(r.bs), r.iodepth, r.io, r.sync, r.target, seconds(r.estimatedSeconds)])));
  if (p.skipped.length) {
    out.push('skipped (the target cannot do these):');
    for (const s of p.skipped) out.push(`  ${s.label}: ${s.reason}`);
    out.push('');
  }
  out.push('guards:');
  for (const g of p.guards) out.push(...guardLines(g));
  for (const n of p.notes) out.push(`note: ${n}`);
  out.push('', 'commands of run 1:', ...(p.runs[0]?.commands ?? []).map((c) => `  ${c.join(' ')}`));
  out.push('', p.wouldRun ? 'would run' : 'would be refused');
  return `${out.join('\n')}\n`;
}

function pairsText(title: string, pairs: PairRow[], aName: string, bName: string): string {
  if (pairs.length === 0) return '';
  return `${title}\n${table(['shared', `${aName} IOPS`, `${bName} IOPS`, `${aName} ÷ ${bName}`, `${aName} p99`, `${bName} p99`],
    pairs.map((x) => [`${x.shared}${x.b.value === 'disabled' ? ' (vs sync=disabled)' : ''}`, count(x.a.iops), count(x.b.iops), ratio(x.ratio), micros(x.a.p99Us), micros(x.b.p99Us)]))}\n`;
}

export function suiteText(r: SuiteResult): string {
  const out = [`suite ${r.suite} (${r.id}): ${r.status}${r.demo ? ' — DEMO DATA' : ''}`, `${r.title}; on ${r.on}; ${seconds(r.wallSeconds)}`];
  if (r.stopReason) out.push(r.stopReason);
  out.push('');
  // What fio did and the dataset's sync property side by side, never merged into one word (issue 27).
  out.push(table(['run', 'fio sync', 'dataset sync', 'status', 'IOPS', 'MiB/s', 'latency of', 'p50', 'p99', 'wall', 'fio', 'wall÷fio', 'load1', 'iowait %', 'ARC hit %'],
    suiteTable(r).map((x) => [x.label, x.fioSync, x.datasetSync, x.status, count(x.iops), x.mibPerSec, x.latencyOf, micros(x.p50Us), micros(x.p99Us), seconds(x.wallS), seconds(x.fioRuntimeS), x.wallRatio, x.load1Max, x.iowaitPct, x.arcHitPct])));
  out.push(pairsText('sync vs async (same block size, queue depth, I/O mode and target):', suitePairs(r, 'sync'), 'sync', 'async'));
  out.push(pairsText('direct vs buffered:', suitePairs(r, 'io'), 'direct', 'buffered'));
  out.push(pairsText('dataset vs zvol:', suitePairs(r, 'target'), 'dataset', 'zvol'));
  for (const s of r.skipped) out.push(`skipped ${s.label}: ${s.reason}`);
  for (const n of r.notes) out.push(`note: ${n}`);
  if (r.citation) out.push(`source: ${r.citation.source}${r.citation.locator ? ` (${r.citation.locator})` : ''}`);
  return `${out.filter((l, i, a) => !(l === '' && a[i - 1] === '')).join('\n')}\n`;
}

export function comparisonText(before: SuiteResult, after: SuiteResult): string {
  const c = compareSuites(before, after);
  const out = [`before: ${before.suite} ${before.id} (${formatTime(before.startedAt)})`, `after:  ${after.suite} ${after.id} (${formatTime(after.startedAt)})`, ''];
  out.push(table(['run', 'IOPS before', 'IOPS after', 'after ÷ before', 'p99 before', 'p99 after', 'p99 after ÷ before'],
    c.rows.map((x) => [x.label, count(x.before.iops), count(x.after.iops), ratio(x.iopsRatio), micros(x.before.p99Us), micros(x.after.p99Us), ratio(x.p99Ratio)])));
  for (const k of c.onlyBefore) out.push(`only before: ${k}`);
  for (const k of c.onlyAfter) out.push(`only after: ${k}`);
  return `${out.join('\n')}\n`;
}

export function progressLine(p: SuiteProgress): string {
  const eta = p.etaS !== null ? `, about ${seconds(p.etaS)} left` : '';
  const iops = p.iops !== null ? ` ${count(p.iops)} IOPS` : '';
  return `\r[suite ${p.pct.toFixed(0).padStart(3)}%] run ${Math.min(p.runIndex + 1, p.runCount)}/${p.runCount} ${p.step.padEnd(7)} ${p.runPct.toFixed(0).padStart(3)}%${iops}${eta}   `;
}

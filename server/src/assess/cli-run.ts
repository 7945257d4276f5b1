/**
 * What `assess` and `optane` share: parse the arguments, load the inventory and the workload
 * fingerprint (load-workload.ts says which one and why), run the assessment. Errors are values
 * shaped for the CLI's contract (usage → 64, unreadable input → 2 with one line naming the file).
 */
import { assess, type AssessResult } from './assess.ts';
import { loadForAssessment, parseArgs, type AssessArgs } from './load-inventory.ts';
import { resolveWorkload } from './load-workload.ts';
import { benchmarksFromStore } from './load-benchmarks.ts';
import { reportBenchmarks } from '../report/benchmarks.ts';
import { defaultDataDir } from '../data-dir.ts';

export type CliAssessOutcome =
  | { ok: true; json: boolean; result: AssessResult; demoLabel: string | null; workloadUsed: string }
  | { ok: false; kind: 'usage' | 'bad-input'; message: string };

export async function runAssessmentFromArgs(args: string[], now: Date = new Date()): Promise<CliAssessOutcome> {
  const p = parseArgs(args);
  if (!p.ok) return { ok: false, kind: 'usage', message: p.message };
  return runAssessment(p, now);
}

/** The same, from arguments the CLI framework already parsed (cli/commands/assess-args.ts). */
export async function runAssessment(p: AssessArgs, now: Date = new Date()): Promise<CliAssessOutcome> {
  const loaded = await loadForAssessment(p.opts);
  if (!loaded.ok) return { ok: false, kind: 'bad-input', message: loaded.message };
  const w = await resolveWorkload(p, now.getTime());
  if (!w.ok) return { ok: false, kind: 'bad-input', message: w.message };
  const inv = loaded.inventory;
  // Measure before forecasting: this machine's completed probes (none for a snapshot or the demo).
  // An unreadable store is not an error here: the verdict then says "now" is a model estimate.
  const bench = await benchmarksFromStore(p.dataDir ?? defaultDataDir(), inv);
  const runs = bench.ok ? reportBenchmarks(bench.value).benchmarks.map((b) => b.summary) : [];
  const result = assess(inv, { Workload: w.workload ?? undefined, Benchmarks: runs.length ? runs : undefined }, now);
  return { ok: true, json: p.json, result, demoLabel: inv.source.demo ? inv.source.label : null, workloadUsed: w.used };
}

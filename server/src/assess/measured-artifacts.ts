/**
 * The measurements of this machine an assessment or a forecast on the CLI adds to the inventory's
 * artifacts: one place, so `assess`, `optane` and `forecast` read the same observation and probes.
 */
import { resolveWorkload } from './load-workload.ts';
import { benchmarksFromStore } from './load-benchmarks.ts';
import { reportBenchmarks } from '../report/benchmarks.ts';
import { defaultDataDir } from '../data-dir.ts';
import type { Artifacts } from '../model/artifacts.ts';
import type { Inventory } from '../model/inventory.ts';
import type { AssessArgs } from './load-inventory.ts';

/**
 * What this machine measured that speaks for the inventory, as `assess`, `optane` and `forecast`
 * read it: the workload fingerprint (load-workload.ts: the file given, else on a local run the
 * newest stored observation) and the completed probes (none for a snapshot or the demo). An
 * unreadable store is not an error: "now" is then a model estimate, and says so.
 */
export async function measuredArtifacts(inv: Inventory, p: Pick<AssessArgs, 'opts' | 'workloadFile' | 'dataDir'>, now: Date = new Date()): Promise<{ ok: true; extra: Partial<Artifacts>; workloadUsed: string } | { ok: false; message: string }> {
  const w = await resolveWorkload(p, now.getTime());
  if (!w.ok) return w;
  const bench = await benchmarksFromStore(p.dataDir ?? defaultDataDir(), inv);
  const runs = bench.ok ? reportBenchmarks(bench.value).benchmarks.map((b) => b.summary) : [];
  const extra: Partial<Artifacts> = {};
  if (w.workload) extra.Workload = w.workload;
  if (runs.length > 0) extra.Benchmarks = runs;
  return { ok: true, extra, workloadUsed: w.used };
}

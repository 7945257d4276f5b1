/** The newest stored benchmark run that passes `test`: what each "measure before forecasting" reader rests on. */
import type { BenchmarkSummary } from '../model/workload.ts';

export function newestRun(runs: readonly BenchmarkSummary[] | undefined, test: (run: BenchmarkSummary) => boolean): BenchmarkSummary | null {
  let best: BenchmarkSummary | null = null;
  for (const r of runs ?? []) if (test(r) && (best === null || r.startedAt.localeCompare(best.startedAt) > 0)) best = r;
  return best;
}

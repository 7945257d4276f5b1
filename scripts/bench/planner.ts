/**
 * Issue 17: what judging every candidate layout with the rule catalog costs. `planLayouts` builds one
 * synthetic inventory per layout and runs every rule and the sync-write forecast on it; the rules'
 * leaf → drive lookups are linear, so time grows with the square of the disk count. The API caps a
 * plan at MAX_PLAN_DISKS. Median of 3 runs per size, on this machine, numbers as they come.
 */
import { MAX_PLAN_DISKS, planLayouts } from '../../server/src/planner/layouts.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function plannerBench(): Promise<string> {
  const rows: string[] = [];
  for (const disks of [5, 24, 96, MAX_PLAN_DISKS]) {
    const times: number[] = [];
    let candidates = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      candidates = planLayouts({ disks, diskBytes: 16e12, media: 'hdd', workload: 'files' }).candidates.length;
      times.push(performance.now() - t0);
    }
    rows.push(`| ${disks} | ${candidates} | ${median(times).toFixed(0)} ms | ${(median(times) / candidates).toFixed(1)} ms |`);
  }
  return [
    '## Planner: every layout judged by the rule catalog (issue 17)',
    '',
    '`planLayouts` for N × 16 TB HDDs, workload files: per candidate layout one synthetic inventory, the whole rule catalog and the sync-write forecast. ' +
      `Plans are capped at ${MAX_PLAN_DISKS} disks (server/src/planner/layouts.ts) because the cost grows with the square of the disk count (1000 disks took ~12 s before the cap).`,
    '',
    '| disks | candidate layouts | plan (median of 3) | per layout |',
    '|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

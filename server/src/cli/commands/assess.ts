/**
 * `zfs-advisor assess [--snapshot DIR | --demo [NAME] | --inventory FILE] [--workload FILE] [--data-dir D] [--json]`:
 * runs every rule. Human view: which workload observation was used, then findings grouped by
 * severity and pool; JSON: the Assessment plus `workloadUsed` (that sentence).
 * Without --workload, a run on this machine uses its newest stored observation (< 7 days);
 * snapshot, demo and inventory-file runs never do (server/src/assess/load-workload.ts).
 */
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/assess.ts';
import { inputError } from '../framework/errors.ts';
import { assessArgsFromValues } from './assess-args.ts';
import { runAssessment } from '../../assess/cli-run.ts';
import { renderAssessment } from '../../assess/render-text.ts';

export const run: Handler<typeof options> = async ({ values }, io) => {
  const r = await runAssessment(assessArgsFromValues(values));
  if (!r.ok) throw inputError(r.message, 'check the file or directory named, or see zfs-advisor assess --help');
  const { assessment } = r.result;
  io.stdout(r.json ? `${JSON.stringify({ ...assessment, workloadUsed: r.workloadUsed }, null, 2)}\n` : `${r.workloadUsed}\n\n${renderAssessment(assessment, r.demoLabel)}`);
  return EXIT.ok;
};

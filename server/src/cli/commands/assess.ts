/**
 * `zfs-advisor assess [--snapshot DIR | --demo [NAME] | --inventory FILE] [--workload FILE] [--data-dir D] [--json]`:
 * runs every rule. Human view: which workload observation was used, then findings grouped by
 * severity and pool; JSON: the Assessment plus `workloadUsed` (that sentence).
 * Without --workload, a run on this machine uses its newest stored observation (< 7 days);
 * snapshot, demo and inventory-file runs never do (server/src/assess/load-workload.ts).
 */
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { runAssessmentFromArgs } from '../../assess/cli-run.ts';
import { ASSESS_OPTIONS } from '../../assess/load-inventory.ts';
import { renderAssessment } from '../../assess/render-text.ts';

const USAGE = `usage: zfs-advisor assess ${ASSESS_OPTIONS}\n`;

const command: CliCommand = {
  summary: 'Run every rule and print the findings (grouped by severity and pool).',
  async run(args, io) {
    const r = await runAssessmentFromArgs(args);
    if (!r.ok) {
      if (r.kind === 'usage') { io.stderr(`zfs-advisor assess: ${r.message}\n${USAGE}`); return EXIT.usage; }
      io.stderr(`zfs-advisor assess: ${r.message}\n`);
      return EXIT.badInput;
    }
    const { assessment } = r.result;
    io.stdout(r.json ? `${JSON.stringify({ ...assessment, workloadUsed: r.workloadUsed }, null, 2)}\n` : `${r.workloadUsed}\n\n${renderAssessment(assessment, r.demoLabel)}`);
    return EXIT.ok;
  },
};
export default command;

/**
 * `zfs-advisor optane [--snapshot DIR | --demo [NAME] | --inventory FILE] [--workload FILE] [--data-dir D] [--json]`:
 * the one-click "Should I add Optane?" verdict. With an observed sync-write latency (a workload
 * fingerprint) "now" comes from that measurement; the output names the observation used.
 */
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { runAssessmentFromArgs } from '../../assess/cli-run.ts';
import { ASSESS_OPTIONS } from '../../assess/load-inventory.ts';
import { renderVerdict } from '../../assess/render-text.ts';

const USAGE = `usage: zfs-advisor optane ${ASSESS_OPTIONS}\n`;

const command: CliCommand = {
  summary: 'Should I add Optane? A yes/no/depends verdict with expected sync-write IOPS.',
  async run(args, io) {
    const r = await runAssessmentFromArgs(args);
    if (!r.ok) {
      if (r.kind === 'usage') { io.stderr(`zfs-advisor optane: ${r.message}\n${USAGE}`); return EXIT.usage; }
      io.stderr(`zfs-advisor optane: ${r.message}\n`);
      return EXIT.badInput;
    }
    const { optane } = r.result;
    io.stdout(r.json ? `${JSON.stringify({ ...optane, workloadUsed: r.workloadUsed }, null, 2)}\n` : `${r.workloadUsed}\n\n${renderVerdict(optane, r.demoLabel)}`);
    return EXIT.ok;
  },
};
export default command;

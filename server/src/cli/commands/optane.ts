/**
 * `zfs-advisor optane [--snapshot DIR | --demo | --inventory FILE] [--json]`: the one-click
 * "Should I add Optane?" verdict.
 */
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { assess } from '../../assess/assess.ts';
import { loadForAssessment, parseArgs } from '../../assess/load-inventory.ts';
import { renderVerdict } from '../../assess/render-text.ts';

const USAGE = 'usage: zfs-advisor optane [--snapshot DIR | --demo | --inventory FILE] [--json]\n';

const command: CliCommand = {
  summary: 'Should I add Optane? A yes/no/depends verdict with expected sync-write IOPS.',
  async run(args, io) {
    const p = parseArgs(args);
    if (!p.ok) { io.stderr(`zfs-advisor optane: ${p.message}\n${USAGE}`); return EXIT.usage; }
    const loaded = await loadForAssessment(p.opts);
    if (!loaded.ok) { io.stderr(`zfs-advisor optane: ${loaded.message}\n`); return EXIT.badInput; }
    const { optane } = assess(loaded.inventory);
    io.stdout(p.json ? `${JSON.stringify(optane, null, 2)}\n` : renderVerdict(optane, loaded.inventory.source.demo ? loaded.inventory.source.label : null));
    return EXIT.ok;
  },
};
export default command;

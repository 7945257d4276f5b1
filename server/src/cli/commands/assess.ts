/**
 * `zfs-advisor assess [--snapshot DIR | --demo | --inventory FILE] [--json]`: runs every rule.
 * Human view: findings grouped by severity, then pool; JSON: the Assessment.
 */
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { assess } from '../../assess/assess.ts';
import { loadForAssessment, parseArgs } from '../../assess/load-inventory.ts';
import { renderAssessment } from '../../assess/render-text.ts';

const USAGE = 'usage: zfs-advisor assess [--snapshot DIR | --demo | --inventory FILE] [--json]\n';

const command: CliCommand = {
  summary: 'Run every rule and print the findings (grouped by severity and pool).',
  async run(args, io) {
    const p = parseArgs(args);
    if (!p.ok) { io.stderr(`zfs-advisor assess: ${p.message}\n${USAGE}`); return EXIT.usage; }
    const loaded = await loadForAssessment(p.opts);
    if (!loaded.ok) { io.stderr(`zfs-advisor assess: ${loaded.message}\n`); return EXIT.badInput; }
    const { assessment } = assess(loaded.inventory);
    io.stdout(p.json ? `${JSON.stringify(assessment, null, 2)}\n` : renderAssessment(assessment, loaded.inventory.source.demo ? loaded.inventory.source.label : null));
    return EXIT.ok;
  },
};
export default command;

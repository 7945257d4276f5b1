import { defineCommand } from '../command.ts';
import { ASSESS_INPUT_OPTIONS } from './assess-options.ts';
import { DATA_DIR_ENV } from './shared.ts';

export const options = ASSESS_INPUT_OPTIONS;

export default defineCommand({
  name: 'assess',
  summary: 'Run every rule and print the findings, grouped by severity and pool.',
  description: 'Each finding carries its evidence, why (with a link), the exact commands and whether they can be undone. '
    + 'zfs-advisor never runs a pool-changing command. Choose at most one of --snapshot, --demo and --inventory.',
  options,
  environment: [DATA_DIR_ENV],
  examples: [
    { command: 'zfs-advisor assess', description: 'Assess this host (using its newest stored workload observation).' },
    { command: 'zfs-advisor assess --snapshot ./snap --json', description: 'Assess a captured snapshot; the findings as JSON.' },
  ],
  handler: 'assess',
});

import { defineCommand } from '../command.ts';
import { ASSESS_INPUT_OPTIONS } from './assess-options.ts';
import { DATA_DIR_ENV } from './shared.ts';

export const options = ASSESS_INPUT_OPTIONS;

export default defineCommand({
  name: 'optane',
  summary: 'Should I add Optane? A yes/no/depends verdict with expected sync-write IOPS.',
  description: 'With an observed sync-write latency (from `zfs-advisor observe`) the verdict starts from that measurement and names it.',
  options,
  environment: [DATA_DIR_ENV],
  examples: [{ command: 'zfs-advisor optane --demo', description: 'The verdict for the bundled demo system.' }],
  handler: 'optane',
});

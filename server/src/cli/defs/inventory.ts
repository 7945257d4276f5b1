import { defineCommand, type OptionDef } from '../command.ts';
import { DEMO_OPTION, JSON_OPTION, SNAPSHOT_OPTION } from './shared.ts';

export const options = [SNAPSHOT_OPTION, DEMO_OPTION, JSON_OPTION] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'inventory',
  summary: 'What is on this host (or a snapshot, or the demo): pools, layout, drives, datasets.',
  description: 'Without --snapshot or --demo it reads this host; a host without ZFS gets the demo and is told so. What could not be read is listed, never guessed.',
  options,
  examples: [
    { command: 'zfs-advisor inventory', description: 'Summarise this host.' },
    { command: 'zfs-advisor inventory --demo 001-raidz2-12disk --json', description: 'The full inventory model of a bundled demo system.' },
  ],
  handler: 'inventory',
});

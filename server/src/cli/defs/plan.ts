import { defineCommand, type OptionDef } from '../command.ts';
import LAYOUTS from './plan-layouts.ts';
import { ADD_SLOG, ADD_SPECIAL } from './plan-add-vdev.ts';

export const options = [] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'plan',
  summary: 'Compare pool layouts, or plan adding a SLOG/special vdev (printed, never run).',
  description: 'Plans are printed only: zfs-advisor never runs a pool-changing command. A plan that would be unsafe (a device in use, a name zpool would read as an option, less redundancy than the data vdevs) is refused with the reason.',
  options,
  subcommands: [LAYOUTS, ADD_SLOG, ADD_SPECIAL],
  examples: [{ command: 'zfs-advisor plan layouts --disks 4 --size 8T', description: 'Compare layouts for four 8 TB disks.' }],
});

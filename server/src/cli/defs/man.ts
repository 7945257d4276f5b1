import { defineCommand, type OptionDef } from '../command.ts';

export const options = [] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'man',
  summary: 'Print the manual page zfs-advisor(1) in roff.',
  description: 'The same page the .deb installs (`man zfs-advisor`), generated from the command definitions. SOURCE_DATE_EPOCH, when set, gives its date.',
  options,
  examples: [{ command: 'zfs-advisor man | man -l -', description: 'Read the manual in a checkout.' }],
  handler: 'man',
});

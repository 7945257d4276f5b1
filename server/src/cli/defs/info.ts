import { defineCommand, type OptionDef } from '../command.ts';
import { DATA_DIR_ENV, DATA_DIR_OPTION, JSON_OPTION } from './shared.ts';

export const options = [DATA_DIR_OPTION, JSON_OPTION] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'info',
  summary: 'Where this installation keeps its data (and why), this machine\'s evidence id, the knowledge pages.',
  description: 'Prints the data directory every command and the server use, which rule chose it (--data-dir, $ZFS_ADVISOR_DATA_DIR, '
    + '/var/lib/zfs-advisor for root running the installed program (never a source checkout, start or a demo run), else $XDG_STATE_HOME/zfs-advisor or ~/.local/state/zfs-advisor), whether the store exists there, '
    + 'the id stored with this machine\'s benchmarks and observations, and where the knowledge pages are.',
  options,
  environment: [DATA_DIR_ENV, { name: 'XDG_STATE_HOME', description: 'The base of the user data directory when not root.' }],
  examples: [{ command: 'zfs-advisor info', description: 'Where is my benchmark history?' }],
  handler: 'info',
});

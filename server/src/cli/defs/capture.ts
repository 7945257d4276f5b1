import { defineCommand, type OptionDef } from '../command.ts';

export const options = [
  { name: 'redact', type: 'flag', description: 'Replace host names, serial numbers, WWNs and addresses before writing' },
  { name: 'redact-pools', type: 'flag', description: 'Also replace pool and dataset names (implies --redact)' },
  { name: 'json', type: 'flag', description: 'Print what was written as JSON' },
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'capture',
  summary: "Capture this host's raw command outputs into a snapshot directory.",
  description: 'Runs the read-only collectors and writes their raw output plus meta.json to DIR; `zfs-advisor inventory --snapshot DIR` then gives the same inventory on any machine. '
    + 'With --redact, host names, serial numbers and addresses are replaced before anything is written.',
  positionals: [{ name: 'DIR', description: 'the directory to write (created when missing)', required: true, path: true }],
  options,
  needsZfs: true,
  examples: [{ command: 'sudo zfs-advisor capture ./snap --redact', description: 'Capture this host, redacted, to share for a second opinion.' }],
  handler: 'capture',
});

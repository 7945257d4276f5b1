import { defineCommand, type OptionDef } from '../command.ts';

/** The raw-output kinds `parse` reads (commands/parse.ts maps each to its parser). */
export const PARSE_KIND_NAMES = [
  'zpool-status', 'zpool-list', 'zpool-get', 'zpool-iostat', 'zfs-get', 'zfs-version', 'zdb-C', 'smartctl',
  'nvme-list', 'nvme-smart-log', 'lsblk', 'fio', 'diskinfo', 'kstat-zil', 'arcstats',
] as const;

export const options = [] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'parse',
  summary: 'Parse one saved command output into JSON (zpool status, smartctl, fio…).',
  description: 'Reads the output of one command from FILE (or standard input) and prints what the parser understood as JSON. '
    + 'A line the parser skipped is reported on stderr as a warning naming the line; an unreadable input exits 2 with one line naming the file and line.',
  positionals: [
    { name: 'KIND', description: 'which command produced the output', required: true, choices: PARSE_KIND_NAMES },
    { name: 'FILE', description: 'the saved output; "-" or nothing reads standard input', path: true },
  ],
  options,
  examples: [
    { command: 'zpool status -P | zfs-advisor parse zpool-status', description: 'Parse the live pool status from standard input.' },
    { command: 'zfs-advisor parse smartctl sda.json', description: 'Parse a saved `smartctl -a -j` output.' },
  ],
  handler: 'parse',
});

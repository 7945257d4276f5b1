import { defineCommand, type OptionDef } from '../command.ts';
import { DATA_DIR_ENV, DATA_DIR_OPTION, JSON_OPTION } from './shared.ts';
import SUITE from './bench-suite.ts';

export const options = [
  { name: 'list', type: 'flag', description: 'List the profiles and the suites, and the question each answers' },
  { name: 'history', type: 'flag', description: 'Show stored benchmark runs, newest first' },
  { name: 'before-after', type: 'flag', description: "Compare a profile's first and latest completed run on --pool, with the stored 'forecast (range), measured' pairs of the pool" },
  { name: 'pool', type: 'string', value: 'POOL', example: 'tank', description: 'Benchmark a scratch dataset created in this pool (also filters --history)' },
  { name: 'path', type: 'path', value: 'DIR', example: '/tank/bench', description: 'Benchmark in this directory' },
  { name: 'device', type: 'path', value: 'DEV', example: '/dev/nvme1n1', description: 'Benchmark this raw device (destroys its contents; needs --confirm-serial)' },
  { name: 'confirm-serial', type: 'string', value: 'SERIAL', example: 'PHM2913000QM280AGN', description: "The device's serial number typed by you; without one its WWN; without a WWN either NAME:BYTES (e.g. loop3:67108864)" },
  { name: 'profile', type: 'string', value: 'PROFILE', description: 'Only runs of this profile (with --history)' },
  { name: 'size', type: 'size', unit: 'bytes', example: '1G', description: 'Size of the test file', default: '1G' },
  { name: 'runtime', type: 'duration', unit: 'seconds', example: '30', min: 1, max: 3600, description: 'Measured run time', default: '30 s' },
  { name: 'wall-cap', type: 'duration', unit: 'seconds', example: '150', description: 'Hard wall-clock limit of the measured run', default: 'runtime × 3 + 60 s' },
  { name: 'max-load', type: 'number', unit: '1-minute load average', example: '4', min: 0, description: 'Refuse to start, or stop, when the load average is above this' },
  { name: 'dry-run', type: 'flag', description: 'Show the guards and the exact fio commands without running anything' },
  JSON_OPTION,
  DATA_DIR_OPTION,
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'bench',
  summary: 'Run a guarded fio benchmark or a suite of them; list profiles and suites, dry-run, history, before/after.',
  usage: [
    'PROFILE (--pool P | --path DIR | --device DEV --confirm-serial S) [--size 1G] [--runtime 30] [--dry-run] [--json]',
    '--list [--json]',
    '--history [--pool P] [--profile PROFILE] [--json]',
    '--before-after --pool P PROFILE [--json]',
  ],
  description: 'Every run passes the same guards as the server (free space, load, pool latency, no other benchmark on this host) and can be stopped with Ctrl-C. '
    + 'A device is only ever written after you type its serial number (or WWN, or NAME:BYTES) with --confirm-serial. '
    + 'A live progress bar is drawn on stderr when it is a terminal.',
  positionals: [{ name: 'PROFILE', description: 'the benchmark profile to run (see --list)' }],
  options,
  subcommands: [SUITE],
  environment: [DATA_DIR_ENV],
  examples: [
    { command: 'zfs-advisor bench --list', description: 'Which profiles and suites exist and what each one answers.' },
    { command: 'zfs-advisor bench suite slog --pool tank', description: 'Sync writes at QD1 and QD16 next to the async ceiling (a batch of guarded runs).' },
    { command: 'zfs-advisor bench sync-write-4k-qd1 --pool tank --dry-run', description: 'What a sync-write test on tank would run, and whether the guards allow it.' },
  ],
  handler: 'bench',
});

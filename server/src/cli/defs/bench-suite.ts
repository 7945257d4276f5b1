import { defineCommand, type OptionDef } from '../command.ts';
import { DATA_DIR_ENV, DATA_DIR_OPTION, JSON_OPTION } from './shared.ts';

/** Kept in step with server/src/bench/suites.ts by tests/bench/cli.test.ts (a definition imports nothing heavy). */
export const SUITE_NAMES = ['slog', 'zvol-study', 'sync-vs-async', 'quick'] as const;

export const options = [
  { name: 'profiles', type: 'string', value: 'P[,P…]', example: 'sync-write-4k-qd1,async-write-4k', description: 'Run these profiles instead of (or, with NAME, in place of) a built-in suite\'s' },
  { name: 'matrix', type: 'string', value: 'KEY=V[,V…]', example: 'sync=always,standard', multiple: true, description: 'Matrix cells: sync=always,standard,disabled io=direct,buffered qd=1,16 bs=4k,1m (also as words after NAME)' },
  { name: 'pool', type: 'string', value: 'POOL', example: 'tank', description: 'Run on temporary datasets (and with --zvol, zvols) in this pool' },
  { name: 'path', type: 'path', value: 'DIR', example: '/tank/bench', description: 'Run in new sub-directories of this directory' },
  { name: 'zvol', type: 'flag', description: 'Also run every cell on a temporary zvol (OpenZFS; not zfs-fuse)' },
  { name: 'volblocksize', type: 'size', unit: 'bytes', example: '16K', description: 'volblocksize of the temporary zvols, always set explicitly', default: '16K' },
  { name: 'runtime', type: 'duration', unit: 'seconds', example: '10', min: 1, max: 600, description: 'Measured time of each run', default: "the suite's (quick 5 s, others 10 s)" },
  { name: 'size', type: 'size', unit: 'bytes', example: '256M', description: 'Size of each test file', default: "the suite's (quick 64M, others 256M)" },
  { name: 'pause', type: 'duration', unit: 'seconds', example: '10s', min: 0, max: 600, description: 'Pause between runs, so transaction groups flush', default: "the suite's (quick 3 s, others 10 s)" },
  { name: 'max-total', type: 'duration', unit: 'seconds', example: '30m', min: 10, max: 86400, description: 'Total cap: refused when the estimate is above it, stopped when it is reached', default: "the suite's" },
  { name: 'max-load', type: 'number', unit: '1-minute load average', example: '4', min: 0, description: 'Refuse or stop above this load', default: 'max(4, 2 × CPUs)' },
  { name: 'max-wall-ratio', type: 'number', example: '1.5', min: 1, max: 100, description: 'zvol + buffered async runs: stop the suite when wall time exceeds fio runtime by this factor (002)', default: '1.5' },
  { name: 'dry-run', type: 'flag', description: 'Print the plan (every run, its commands and guards, the estimate) without running anything' },
  { name: 'history', type: 'flag', description: 'List stored suites, newest first' },
  { name: 'show', type: 'string', value: 'ID', example: '3f9a0c1b2d4e', description: 'Show one stored suite: the table and the sync/async, direct/buffered, dataset/zvol pairs' },
  { name: 'compare', type: 'flag', description: 'Compare two stored suites given as BEFORE AFTER ids (e.g. before and after adding a SLOG)' },
  { name: 'csv', type: 'flag', description: 'With --show or --compare: CSV instead of a table' },
  JSON_OPTION,
  DATA_DIR_OPTION,
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'suite',
  summary: 'Run a batch of guarded benchmarks over a matrix and compare them side by side.',
  usage: [
    'NAME|--profiles a,b,c [--matrix "sync=… io=… qd=… bs=…"] (--pool P | --path DIR) [--zvol] [--pause 10s] [--max-total 30m] [--dry-run] [--json]',
    '--history [--json]',
    '--show ID [--csv | --json]',
    '--compare BEFORE AFTER [--csv | --json]',
  ],
  description: `Built-in suites: ${SUITE_NAMES.join(', ')} (bench --list describes them). Every run keeps all the single-run guards and is journaled; `
    + 'between runs a pause lets transaction groups flush; the suite has a total cap, shows live progress with an ETA, and Ctrl-C cancels it with everything cleaned up. '
    + 'Cells a target cannot do (sync=disabled on a directory, zvols on zfs-fuse) are skipped with the reason. Human tables by default; --dry-run --json prints the plan as {suite, runs, estimatedSeconds}.',
  positionals: [{ name: 'NAME', description: 'a built-in suite, or suite ids with --compare; KEY=V,V words add matrix cells', variadic: true }],
  options,
  environment: [DATA_DIR_ENV],
  examples: [
    { command: 'zfs-advisor bench suite quick --path /tank/bench', description: 'A first impression in under two minutes.' },
    { command: 'zfs-advisor bench suite zvol-study --pool tank --zvol --dry-run', description: "Every run of 002's matrix on datasets and zvols, without running anything." },
    { command: 'zfs-advisor bench suite --compare 3f9a0c1b2d4e 7c2e1a9b0f33', description: 'Before/after a topology change, side by side with ratios.' },
  ],
  handler: 'bench suite',
});

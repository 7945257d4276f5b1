import { defineCommand, type OptionDef } from '../command.ts';
import { DATA_DIR_ENV, DATA_DIR_OPTION, DEMO_OPTION, JSON_OPTION, SNAPSHOT_OPTION } from './shared.ts';

/** The block sizes `--bs` takes (forecast/request.ts BLOCK_SIZES maps each to bytes). */
export const FORECAST_BLOCK_SIZES = ['4k', '8k', '16k', '32k', '64k', '128k', '1m'] as const;

export const options = [
  SNAPSHOT_OPTION,
  DEMO_OPTION,
  { name: 'inventory', type: 'path', value: 'FILE', example: 'inventory.json', description: 'Read an inventory JSON (what `zfs-advisor inventory --json` prints)' },
  { name: 'pool', type: 'string', value: 'POOL', example: 'tank', description: 'The pool to forecast (required)' },
  { name: 'slog', type: 'string', value: 'DEVICE', example: '/dev/nvme1n1', description: 'A drive of the inventory to forecast as the log device' },
  { name: 'slog-model', type: 'string', value: 'MODEL', example: '"Optane P1600X"', description: 'A drive model from the catalog to forecast as the log device' },
  { name: 'mirrored', type: 'flag', description: 'The log device is a mirror of two' },
  { name: 'rw', type: 'choice', choices: ['randwrite', 'write'], description: 'The write pattern', default: 'randwrite' },
  { name: 'bs', type: 'choice', choices: FORECAST_BLOCK_SIZES, description: 'The block size of each write', default: '4k' },
  { name: 'iodepth', type: 'integer', unit: 'writes in flight per job', min: 1, max: 1024, example: '16', description: 'Writes in flight per job', default: '1' },
  { name: 'numjobs', type: 'integer', unit: 'jobs', min: 1, max: 256, example: '4', description: 'Parallel writers', default: '1' },
  { name: 'sync', type: 'choice', choices: ['always', 'fsync', 'none'], description: 'How the writes are made durable', default: 'always' },
  { name: 'size', type: 'size', unit: 'bytes', example: '4G', description: 'The working set the writes land in (all jobs\' files): records rewritten within one txg are written back once', default: 'unknown (every write taken to dirty a record of its own)' },
  DATA_DIR_OPTION,
  JSON_OPTION,
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'forecast',
  summary: 'Sync-write IOPS of a pool now and with a given SLOG device (calibrated model, with ranges).',
  description: 'Each number carries the measurements it rests on and a range; for this host it uses what the app measured here (the sync-write probe of the pool with one writer and with 16, the blank-device test of an unused drive). Choose at most one of --snapshot, --demo and --inventory, and at most one of --slog and --slog-model.',
  options,
  environment: [DATA_DIR_ENV],
  examples: [
    { command: 'zfs-advisor forecast --demo --pool bench-pool --slog-model P1600X', description: 'What an Optane P1600X log device would do for 4k sync writes on the demo pool.' },
    { command: 'zfs-advisor forecast --pool tank --slog /dev/nvme1n1 --iodepth 16 --json', description: 'The forecast for 16 writes in flight, as JSON.' },
  ],
  handler: 'forecast',
});

import { defineCommand, type OptionDef } from '../command.ts';
import { DATA_DIR_ENV, DATA_DIR_OPTION, JSON_OPTION } from './shared.ts';

export const options = [
  { name: 'duration', type: 'duration', unit: 'seconds', example: '10m', description: 'How long to watch', default: '10m' },
  { name: 'interval', type: 'duration', unit: 'seconds', example: '10s', description: 'Sample interval of the time series', default: 'the whole window as one sample' },
  { name: 'pool', type: 'string', value: 'POOL', example: 'tank', multiple: true, description: 'Watch only this pool' },
  JSON_OPTION,
  { name: 'save', type: 'flag', description: 'Save the observation, and fail when it cannot be saved' },
  { name: 'no-save', type: 'flag', description: 'Do not touch the evidence store' },
  DATA_DIR_OPTION,
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'observe',
  summary: 'Watch the ZFS counters for a while: sync-write share, ZIL traffic, latency, request sizes.',
  description: 'Reads counters only (kstats, zpool iostat) and does no I/O of its own. '
    + 'The observation is saved to the evidence store by default, where assess, optane and the server use it for 7 days; '
    + 'without a flag a store that cannot be written is a warning, with --save it is an error.',
  options,
  needsZfs: true,
  environment: [DATA_DIR_ENV],
  examples: [{ command: 'zfs-advisor observe --duration 10m --interval 30s', description: 'Watch all pools for ten minutes in 30-second samples, then save the fingerprint.' }],
  handler: 'observe',
});

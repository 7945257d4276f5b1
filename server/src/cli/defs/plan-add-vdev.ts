import { defineCommand, type OptionDef } from '../command.ts';
import { DEMO_OPTION, JSON_OPTION, SNAPSHOT_OPTION } from './shared.ts';

export const PLATFORMS = ['linux', 'freebsd', 'darwin', 'unknown'] as const;

export const options = [
  { name: 'pool', type: 'string', value: 'POOL', example: 'tank', description: 'The pool to add to (default: the only pool of the inventory)' },
  { name: 'devices', type: 'string', value: 'DEV[,DEV…]', example: '/dev/disk/by-id/nvme-a,/dev/disk/by-id/nvme-b', multiple: true, description: 'The devices to add, comma-separated (a mirror when more than one)' },
  SNAPSHOT_OPTION,
  DEMO_OPTION,
  { name: 'pool-json', type: 'path', value: 'FILE', example: 'pool.json', description: 'Read one pool (a Pool JSON from `inventory --json`) instead of an inventory' },
  { name: 'platform', type: 'choice', choices: PLATFORMS, description: 'With --pool-json: how to write partitioning commands (an inventory knows its platform)' },
  { name: 'special-small-blocks', type: 'size', unit: 'bytes', example: '16K', description: 'The special_small_blocks value to set on the datasets' },
  { name: 'datasets', type: 'string', value: 'NAME[,NAME…]', example: 'tank/vm,tank/db', description: 'The datasets to set it on', default: 'every filesystem of the pool' },
  { name: 'partition', type: 'string', value: 'ROLE:SIZE[,…]', example: 'slog:16G,special:40G', description: 'Split each device into partitions for these roles (slog, special, l2arc), in this order' },
  { name: 'zfs-version', type: 'string', value: 'VERSION', example: '2.2.6', description: 'The OpenZFS version, when the inventory does not say' },
  { name: 'accept-lower-redundancy', type: 'flag', description: 'Allow a vdev with less redundancy than the data vdevs (losing it loses the pool)' },
  { name: 'shared-disk', type: 'flag', description: 'Allow partitions of a disk the pool already uses' },
  JSON_OPTION,
] as const satisfies readonly OptionDef[];

export const ADD_SLOG = defineCommand({
  name: 'add-slog',
  summary: 'Plan adding a SLOG (separate intent log) to a pool: the exact commands, printed, never run.',
  options,
  examples: [{ command: 'zfs-advisor plan add-slog --pool tank --devices /dev/disk/by-id/nvme-a,/dev/disk/by-id/nvme-b', description: 'A mirrored SLOG for tank, with the commands and whether each can be undone.' }],
  handler: 'plan add-slog',
});

export const ADD_SPECIAL = defineCommand({
  name: 'add-special',
  summary: 'Plan adding a special vdev (metadata and small blocks): the exact commands, printed, never run.',
  options,
  examples: [{ command: 'zfs-advisor plan add-special --demo --devices nvme0n1,nvme1n1 --special-small-blocks 16K', description: 'A mirrored special vdev for the demo pool, sending blocks ≤ 16K to it.' }],
  handler: 'plan add-special',
});

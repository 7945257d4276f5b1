import { defineCommand, type OptionDef } from '../command.ts';
import { DEMO_OPTION, JSON_OPTION, SNAPSHOT_OPTION } from './shared.ts';

export const MEDIA_KINDS = ['hdd', 'ssd', 'nvme'] as const;
export const WORKLOADS = ['vm', 'files', 'media', 'db'] as const;

export const options = [
  { name: 'disks', type: 'integer', unit: 'disks', min: 1, max: 256, example: '6', description: 'How many disks (at most 256: each layout is judged by the rule catalog)' },
  { name: 'size', type: 'disk-size', unit: 'bytes per disk', example: '4T', description: 'The size of one disk' },
  { name: 'type', type: 'choice', choices: MEDIA_KINDS, description: 'The kind of disk', default: 'hdd' },
  { name: 'workload', type: 'choice', choices: WORKLOADS, description: 'What the pool will hold (sets the block size modelled)', default: 'files' },
  { name: 'ashift', type: 'integer', min: 9, max: 16, example: '12', description: 'Sector size as a power of two', default: '12' },
  { name: 'spares', type: 'integer', unit: 'disks', min: 0, max: 100, example: '1', description: 'How many of the disks to keep as hot spares', default: '0' },
  { name: 'zfs-version', type: 'string', value: 'VERSION', example: '2.2.6', description: 'The OpenZFS version the pool will run (some layouts and rules depend on it)', default: "the inventory's, else unknown" },
  SNAPSHOT_OPTION,
  DEMO_OPTION,
  JSON_OPTION,
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'layouts',
  summary: 'Compare pool layouts for a set of disks: space, fault tolerance, speed, resilver time.',
  usage: ['--disks N --size SIZE [--type hdd|ssd|nvme] [--workload vm|files|media|db] [--ashift 12] [--spares N] [--zfs-version V] [--json]', '(--snapshot DIR | --demo [NAME]) [--type …] [--workload …] [--json]'],
  description: 'Give the disks by count and size, or plan for the unused disks of an inventory (--snapshot/--demo: count, smallest size, media).',
  options,
  examples: [
    { command: 'zfs-advisor plan layouts --disks 6 --size 16T', description: 'Rank mirror and raidz layouts for six 16 TB hard disks.' },
    { command: 'zfs-advisor plan layouts --snapshot ./snap --workload vm', description: 'Plan for the unused disks of a captured host, for VM storage.' },
  ],
  handler: 'plan layouts',
});

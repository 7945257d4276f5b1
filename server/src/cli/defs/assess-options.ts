/** The input options `assess` and `optane` share. */
import { DATA_DIR_OPTION, DEMO_OPTION, JSON_OPTION, SNAPSHOT_OPTION } from './shared.ts';

export const ASSESS_INPUT_OPTIONS = [
  SNAPSHOT_OPTION,
  DEMO_OPTION,
  { name: 'inventory', type: 'path', value: 'FILE', example: 'inventory.json', description: 'Read an inventory JSON (what `zfs-advisor inventory --json` prints)' },
  { name: 'workload', type: 'path', value: 'FILE', example: 'observe.json', description: 'A workload observation (what `zfs-advisor observe --json` prints); default: the newest stored observation of this host, younger than 7 days' },
  DATA_DIR_OPTION,
  JSON_OPTION,
] as const;

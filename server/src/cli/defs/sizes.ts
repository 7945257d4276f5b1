import { defineCommand, type OptionDef } from '../command.ts';
import { DATA_DIR_ENV, DATA_DIR_OPTION, JSON_OPTION } from './shared.ts';

export const options = [
  { name: 'recordsize', type: 'size', unit: 'bytes, a power of two ≥ 512', example: '128K', description: 'The record size to model', default: "the dataset's recordsize, else 128K" },
  { name: 'ashift', type: 'integer', min: 9, max: 16, example: '12', description: 'The pool sector size as a power of two (12 = 4096-byte sectors)', default: '12' },
  JSON_OPTION,
  { name: 'low-priority', type: 'flag', description: 'Run the walk at idle I/O and CPU priority (nice 19, ionice idle)' },
  { name: 'zdb', type: 'flag', description: 'Also run `zdb -Lbbbs POOL` (root; reads every block pointer of the pool)' },
  { name: 'pool', type: 'string', value: 'POOL', example: 'tank', description: 'The pool for --zdb when the path is not on a dataset zfs knows' },
  { name: 'zdb-file', type: 'path', value: 'FILE', example: 'zdb-bbbs.txt', description: 'Read a saved `zdb -Lbbbs` output instead of running zdb' },
  { name: 'zfs-version', type: 'string', value: 'VERSION', example: '2.3.4', description: 'The OpenZFS version that wrote the zdb output (its histogram binning changed in 2.4)' },
  { name: 'from-histogram', type: 'path', value: 'FILE', example: 'sizes.txt', description: 'Project from a size table made elsewhere instead of walking: the `find … | awk` table of counts per power-of-two size, a "size,count" CSV, or `zdb -bbb`/`-Lbbbs` output (- reads standard input)' },
  { name: 'save', type: 'flag', description: 'Store the histograms in the evidence store for the rules and the UI' },
  DATA_DIR_OPTION,
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'sizes',
  summary: 'File and block size histograms of a dataset, and special-vdev usage per special_small_blocks.',
  description: 'Walks the tree like `find -xdev -type f`: no crossing into other filesystems, symlinks not followed, a hard-linked file counted once. '
    + 'Ctrl-C cancels cleanly. With --zdb (root) it also reads the pool\'s block statistics (`zdb -Lbbbs`) at low priority and shows them beside the walk.',
  positionals: [{ name: 'PATH|DATASET', description: 'a directory, or a mounted dataset name such as tank/media (not with --from-histogram)', required: false, path: true }],
  options,
  environment: [DATA_DIR_ENV],
  examples: [
    { command: 'zfs-advisor sizes /tank/media', description: 'Histograms of one directory tree, for a special vdev decision.' },
    { command: 'sudo zfs-advisor sizes tank/vm --zdb --save', description: 'Walk a dataset, add the pool-wide zdb histogram, and keep both for the rules.' },
    { command: 'zfs-advisor sizes --from-histogram sizes.txt --recordsize 128K --json', description: 'special_small_blocks advice from a `find … | awk` table or zdb -bbb output pasted from another machine.' },
  ],
  handler: 'sizes',
});

/**
 * Options several commands share, declared once. Plain data: a definition file imports nothing
 * heavy (tests/cli/definitions.test.ts checks the choice lists against their sources).
 */
import type { OptionDef } from '../command.ts';

export const DEMO_NAMES = ['000-hdd-mirror-optane', '001-raidz2-12disk'] as const;

export const JSON_OPTION = { name: 'json', type: 'flag', description: 'Print JSON (the full model) instead of the human summary' } as const satisfies OptionDef;

export const DATA_DIR_OPTION = {
  name: 'data-dir', type: 'path', value: 'DIR',
  description: 'The evidence store directory (the same one the server uses)',
  default: '$ZFS_ADVISOR_DATA_DIR, else /var/lib/zfs-advisor for root, else $XDG_STATE_HOME/zfs-advisor or ~/.local/state/zfs-advisor (`zfs-advisor info` prints it)',
} as const satisfies OptionDef;

export const SNAPSHOT_OPTION = {
  name: 'snapshot', type: 'path', value: 'DIR', example: './snap',
  description: 'Read a snapshot directory written by `zfs-advisor capture` instead of this host',
} as const satisfies OptionDef;

export const DEMO_OPTION = {
  name: 'demo', type: 'choice', value: 'NAME', optionalValue: true, choices: DEMO_NAMES,
  description: 'Use a bundled demo system (labelled as demo everywhere)', default: DEMO_NAMES[0],
} as const satisfies OptionDef;

export const DATA_DIR_ENV = { name: 'ZFS_ADVISOR_DATA_DIR', description: 'The evidence store directory when --data-dir is not given.' } as const;

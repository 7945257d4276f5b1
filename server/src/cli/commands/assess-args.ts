/** The parsed input options of `assess`/`optane` (defs/assess-options.ts) as the assessment's arguments. */
import type { Values } from '../command.ts';
import type { options } from '../defs/assess.ts';
import { usageError } from '../framework/errors.ts';
import type { AssessArgs } from '../../assess/load-inventory.ts';

export function assessArgsFromValues(v: Values<typeof options>): AssessArgs {
  const given = [v.snapshot !== undefined, v.demo !== undefined, v.inventory !== undefined].filter(Boolean).length;
  if (given > 1) throw usageError('--snapshot, --demo and --inventory exclude each other', 'choose one');
  return {
    opts: {
      ...(v.snapshot !== undefined ? { snapshot: v.snapshot } : {}),
      ...(v.demo !== undefined ? { demo: true, ...(typeof v.demo === 'string' ? { demoName: v.demo } : {}) } : {}),
      ...(v.inventory !== undefined ? { inventoryFile: v.inventory } : {}),
    },
    json: v.json === true,
    workloadFile: v.workload ?? null,
    dataDir: v['data-dir'] ?? null,
  };
}

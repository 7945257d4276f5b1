/**
 * sync=disabled: ZFS acknowledges fsync/O_SYNC without writing anything durable. The pool stays
 * consistent; the applications' last seconds of "durable" writes do not.
 */
import { defineRule, fired, passed } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_002, doc, fact, kb, man } from './lib/layout-citations.ts';
import { reportOnce } from './lib/layout-dataset-props.ts';
import { datasetsByName } from './lib/inventory-index.ts';
import type { Dataset } from '../server/src/model/inventory.ts';
import { plural } from '../server/src/text/format.ts';

/** zfs_txg_timeout default (A12): a crash loses at least this many seconds of acknowledged sync writes, more under load. */
export const TXG_TIMEOUT_S = 5;

export default defineRule({
  meta: {
    id: 'sync-disabled',
    title: 'sync=disabled ignores applications\' durability requests',
    category: 'workload',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Datasets'],
    description:
      'With sync=disabled, fsync and O_SYNC return at once and the data stays in RAM until the next transaction group. The pool stays consistent, but a crash or power cut loses the last seconds of writes that databases, NFS clients, VMs and iSCSI initiators were told are safe. Learn more: [SLOG and the ZFS intent log: sync=disabled](docs/kb/slog.md#syncdisabled).',
    citations: [kb('slog', 'sync=disabled'), man('zfsprops', 7, 'sync'), fact('A20'), fact('A21'), fact('D4'), fact('G16'), doc(DOC_002, 'sync-disabled results')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Datasets }) {
    const heads = reportOnce(Datasets, 'sync', (d) => d.sync === 'disabled');
    if (heads.length === 0) return passed('No dataset has sync=disabled.');
    const findings: FindingDraft[] = heads.map(({ dataset: d, inheritedBy }) => {
      const byName = datasetsByName(Datasets);
      const exports = [d, ...inheritedBy.map((n) => byName.get(n)).filter((x): x is Dataset => x !== undefined)];
      const shared = exports.filter((x) => ['sharenfs', 'shareiscsi', 'sharesmb'].some((p) => { const v = x.properties[p]?.value; return v !== undefined && v !== 'off' && v !== '-'; }));
      const zvols = exports.filter((x) => x.type === 'volume');
      return {
        severity: shared.length > 0 || zvols.length > 0 ? 'warning' : 'suggestion',
        title: `sync=disabled on ${d.name}${inheritedBy.length > 0 ? ` (and ${plural(inheritedBy.length, 'inheriting dataset')})` : ''}`,
        subject: { kind: 'dataset', id: d.name, pool: d.pool },
        evidence: [
          { label: 'sync', value: 'disabled' },
          { label: 'set at', value: d.properties.sync?.source ?? null },
          { label: 'inherited by', value: inheritedBy.length > 0 ? inheritedBy.join(', ') : null },
          { label: 'zvols affected', value: zvols.length > 0 ? zvols.map((z) => z.name).join(', ') : null },
          { label: 'shared over the network', value: shared.length > 0 ? shared.map((s) => s.name).join(', ') : null },
        ],
        explanation:
          `ZFS returns from fsync/O_SYNC immediately here. The pool itself stays consistent (copy-on-write), but on a crash or power loss the writes of the last transaction groups — at least ${TXG_TIMEOUT_S} s, more under load — are gone even though applications were told they were durable. ` +
          'For a database that means lost committed transactions, for NFS clients and VM guests silent corruption of files they consider written. ' +
          'It also hides the sync demand: these datasets never show up in the ZIL counters, so a SLOG\'s benefit cannot be measured while it is set. ' +
          'For scratch data that can be regenerated, sync=disabled is a legitimate choice.',
        action: {
          summary: 'Restore standard sync semantics; if sync writes are then too slow, add a fast SLOG rather than disabling sync.',
          commands: [`zfs set sync=standard ${d.name}`, `zfs get -r sync ${d.name}`],
          reversible: 'yes',
          reversibleWhy: '`zfs set sync=disabled` restores the current behaviour; no data is rewritten.',
        },
        confidence: 'high',
      };
    });
    return fired(findings);
  },
});

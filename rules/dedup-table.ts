/**
 * A pool's dedup table as `zpool status -D` and `zpool get` report it: a legacy table where fast
 * dedup (OpenZFS 2.3+) could serve, a table larger than the ARC can ever hold, and a table
 * nothing limits (`dedup_table_quota` auto without a dedup or special vdev, or none).
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { atLeast } from './engine/version.ts';
import { fact, kb } from './lib/layout-citations.ts';
import { DEDUP } from './lib/expand-dedup-citations.ts';
import { formatBytes, formatCount } from '../server/src/text/format.ts';
import type { ArcStats, DedupTable, Pool } from '../server/src/model/inventory.ts';

const subject = (pool: Pool) => ({ kind: 'pool' as const, id: pool.name, pool: pool.name });

function tableEvidence(pool: Pool, t: DedupTable): FindingDraft['evidence'] {
  return [
    { label: 'DDT entries', value: t.entries },
    { label: 'DDT size on disk', value: t.onDiskBytes, unit: 'bytes' },
    { label: 'DDT size in core', value: t.inCoreBytes, unit: 'bytes' },
    { label: 'dedupratio', value: pool.dedupRatio, unit: '×' },
    { label: 'feature@fast_dedup', value: t.fastDedup },
    ...(t.logEntries !== null ? [{ label: 'entries in the dedup log', value: t.logEntries }] : []),
    { label: 'dedup_table_quota', value: t.quota === null ? null : typeof t.quota === 'number' ? formatBytes(t.quota) : t.quota },
  ];
}

/** The table is (at least partly) legacy: fast_dedup is not active. */
function legacyFinding(pool: Pool, t: DedupTable, openzfs: string | null): FindingDraft {
  const known = t.fastDedup !== null;
  const hostHas = openzfs !== null && atLeast(openzfs, '2.3');
  const how = t.fastDedup === 'disabled'
    ? `The pool has fast dedup (feature fast_dedup) disabled; enabling it (zpool set feature@fast_dedup=enabled ${pool.name}, or zpool upgrade) gives the fast format to tables created afterwards. `
    : t.fastDedup === 'enabled'
      ? 'Fast dedup is enabled on this pool but no table uses it: the existing table was created before. '
      : hostHas ? 'zpool get shows no fast_dedup feature for this pool. '
        : `Fast dedup needs OpenZFS 2.3 or later${openzfs ? `; this host runs ${openzfs}` : ''}. `;
  return {
    severity: 'suggestion',
    title: `Pool ${pool.name} deduplicates with a legacy dedup table`,
    subject: subject(pool),
    evidence: tableEvidence(pool, t),
    explanation:
      `${pool.name} has ${formatCount(t.entries ?? 0)} dedup table entries and fast dedup is not in use${known ? '' : ' (as far as the features read show)'}. ` +
      'A legacy table rewrites its table blocks for the entries changed in every transaction group; a fast-dedup table (OpenZFS 2.3+) logs the changes and writes them back gradually. ' + how +
      'An existing table keeps its format, also after zpool upgrade: only a new table — a new pool, or a dedup checksum not used on this pool before — is created in the fast format, so moving the data into it means writing it again (send/receive into a pool created with fast dedup).',
    action: t.fastDedup === 'disabled'
      ? {
        summary: 'Enable fast dedup for tables created from now on; the existing table stays as it is.',
        commands: [`zpool set feature@fast_dedup=enabled ${pool.name}`],
        reversible: 'no',
        reversibleWhy: 'A pool feature cannot be disabled again; once a fast table exists (feature active), OpenZFS older than 2.3 can import the pool read-only only.',
      }
      : {
        summary: 'To convert, write the deduplicated data into a new table: send/receive it into a pool created by OpenZFS 2.3 or later.',
        commands: [`zfs send -R ${pool.name}/<dataset>@<snap> | zfs receive <newpool>/<dataset>`],
        reversible: 'partly',
        reversibleWhy: 'The source stays until you destroy it; the new pool cannot be imported read-write by OpenZFS older than 2.3 once its fast table exists.',
      },
    citations: [DEDUP.fastFeature, DEDUP.configure, DEDUP.log],
    confidence: known ? 'high' : 'medium',
  };
}

/** The whole table in core is more than the ARC may ever grow to. */
function memoryFinding(pool: Pool, t: DedupTable, arcMax: number): FindingDraft {
  return {
    severity: 'warning',
    title: `The dedup table of ${pool.name} is larger than the ARC can hold (${formatBytes(t.inCoreBytes)} vs ${formatBytes(arcMax)})`,
    subject: subject(pool),
    evidence: [...tableEvidence(pool, t), { label: 'ARC maximum (c_max)', value: arcMax, unit: 'bytes' }],
    explanation:
      `zpool status -D puts the in-core size of ${pool.name}'s dedup table at ${formatBytes(t.inCoreBytes)}, more than the ARC's maximum size of ${formatBytes(arcMax)} even if the ARC held nothing else. ` +
      'Each write to a dataset with dedup on looks its block up in the table; entries not in memory are read from the pool, so writes (and frees) pay extra reads. ' +
      'Ways out: stop adding to the table (dedup=off on datasets where the ratio does not pay), cap it with dedup_table_quota, put it on a fast dedup or special vdev, or give the ARC more memory.',
    action: {
      summary: 'Turn dedup off where it does not pay (new writes only; existing blocks stay deduplicated), or cap the table.',
      commands: [`zfs get -r -t filesystem,volume dedup ${pool.name}`, 'zfs set dedup=off <dataset>', `zpool set dedup_table_quota=<size> ${pool.name}`],
      reversible: 'yes',
      reversibleWhy: 'dedup=on and dedup_table_quota=auto can be set back; they apply to new writes.',
    },
    citations: [DEDUP.lookup, DEDUP.stats, DEDUP.quotaProp],
    confidence: 'high',
  };
}

/** No limit on the table: quota none, or auto with no dedup/special vdev to bound it. */
function quotaFinding(pool: Pool, t: DedupTable): FindingDraft {
  const pruneable = t.fastDedup === 'enabled' || t.fastDedup === 'active';
  return {
    severity: 'suggestion',
    title: `Nothing limits the dedup table of ${pool.name}`,
    subject: subject(pool),
    evidence: [...tableEvidence(pool, t), { label: 'dedup or special vdev', value: false }],
    explanation:
      (t.quota === 'none'
        ? `dedup_table_quota is none on ${pool.name}. `
        : `dedup_table_quota is auto on ${pool.name}, which limits the table only by the size of a dedup or special vdev, and the pool has neither. `) +
      'The table grows with every unique block written to a dataset with dedup on. A quota caps its on-disk size (for legacy and fast tables); past it, new blocks are simply written without dedup and existing entries keep their counts. ' +
      (pruneable ? 'With fast dedup enabled, zpool ddtprune can also remove old entries of blocks referenced once to make room.' : 'zpool ddtprune, which removes old single-reference entries, needs fast dedup enabled on the pool.'),
    action: {
      summary: 'Set a quota that fits the memory and the space you want the table to use.',
      commands: [`zpool set dedup_table_quota=<size> ${pool.name}`, ...(pruneable ? [`zpool ddtprune -d <days> ${pool.name}`] : [])],
      reversible: pruneable ? 'partly' : 'yes',
      reversibleWhy: pruneable
        ? 'The quota can be set back (zpool set dedup_table_quota=auto); pruned entries are gone: those blocks are no longer deduplicated against new writes.'
        : 'The quota can be set back with zpool set dedup_table_quota=auto.',
    },
    citations: [DEDUP.quotaProp, DEDUP.overQuota, DEDUP.prune, DEDUP.pruneNeedsFast],
    confidence: 'high',
  };
}

const hasBoundingClass = (pool: Pool): boolean => pool.vdevs.some((v) => v.class === 'dedup' || v.class === 'special');

export default defineRule({
  meta: {
    id: 'dedup-table',
    title: 'Dedup table: legacy format, memory and quota',
    category: 'workload',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['ArcStats', 'Host'],
    description:
      'A dedup table is consulted on every deduplicated write: it should fit in memory, have a limit, and on OpenZFS 2.3+ use the fast dedup format, which only new tables get. Learn more: [Special vdevs: Dedup tables](docs/kb/special-vdev.md#dedup-tables).',
    citations: [kb('special-vdev', 'Dedup tables'), fact('B23'), DEDUP.fastFeature, DEDUP.quotaProp, DEDUP.configure],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, ArcStats: arc, Host }) {
    const findings: FindingDraft[] = [];
    const unread: string[] = [];
    const arcMax = arcMaxBytes(arc);
    let read = 0;
    for (const pool of Pools) {
      const t = pool.dedupTable;
      if (!t) {
        if ((pool.dedupRatio ?? 1) > 1) unread.push(`${pool.name} (dedupratio ${pool.dedupRatio}×)`);
        continue;
      }
      read++;
      if (!t.entries) continue;
      if (t.fastDedup !== 'active') findings.push(legacyFinding(pool, t, Host?.zfs.openzfs ?? null));
      if (arcMax !== null && t.inCoreBytes !== null && t.inCoreBytes > arcMax) findings.push(memoryFinding(pool, t, arcMax));
      if (t.quota === 'none' || (t.quota === 'auto' && !hasBoundingClass(pool))) findings.push(quotaFinding(pool, t));
    }
    if (findings.length > 0) return fired(findings);
    if (unread.length > 0) return notApplicable(`Dedup is in use on ${unread.join(', ')}, but its dedup table was not read: capture with zpool status -D (this version of the app does).`);
    if (read === 0) return notApplicable('No dedup table was read (zpool status -D) for any pool.');
    return fired([]);
  },
});

function arcMaxBytes(arc: ArcStats | undefined): number | null {
  const v = arc?.counters.c_max;
  return typeof v === 'number' && v > 0 ? v : null;
}

/**
 * Pool fullness: above 80 % allocation slows down and fragments; above 90 % it gets bad, and the
 * last 3.2 % (slop) refuse most writes.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { fact, kb, man } from './lib/layout-citations.ts';
import { realTopLevel } from './lib/layout-geometry.ts';

/** Oracle: watch closely above 80 % (C24). Issue 3: warn. */
export const WARN_PCT = 80;
/** OpenZFS: keep free space above 10 %; Oracle: keep capacity below 90 % (C24). Issue 3: critical. */
export const CRITICAL_PCT = 90;

export default defineRule({
  meta: {
    id: 'pool-capacity',
    title: 'Pool fullness',
    category: 'capacity',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools'],
    description:
      'As a pool fills, ZFS has to search harder for free space (metaslabs switch to best-fit below 4 % free), writes slow down and fragmentation grows; the last 3.2 % is reserved and refuses most writes. Keep pools below 80 % and never above 90 %. Learn more: [raidz space, padding and resilience: Pool fullness](docs/kb/raidz-space.md#pool-fullness).',
    citations: [kb('raidz-space', 'Pool fullness'), fact('C23'), fact('C24'), man('zfs', 4, 'metaslab_df_free_pct, spa_slop_shift'), man('zpoolprops', 7, 'capacity')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools }) {
    const findings: FindingDraft[] = [];
    let known = 0;
    for (const pool of Pools) {
      const pct = pool.capacityPct ?? (pool.allocBytes != null && pool.sizeBytes ? (pool.allocBytes / pool.sizeBytes) * 100 : null);
      if (pct === null) continue;
      known++;
      if (pct <= WARN_PCT) continue;
      const critical = pct > CRITICAL_PCT;
      const canRemove = !realTopLevel(pool, 'data').some((v) => v.type.startsWith('raidz') || v.type === 'draid');
      findings.push({
        severity: critical ? 'critical' : 'warning',
        title: `Pool ${pool.name} is ${Math.round(pct)} % full`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          { label: 'capacity', value: Number(pct.toFixed(1)), unit: '%' },
          { label: 'size', value: pool.sizeBytes, unit: 'bytes' },
          { label: 'allocated', value: pool.allocBytes, unit: 'bytes' },
          { label: 'free', value: pool.freeBytes, unit: 'bytes' },
          { label: 'fragmentation', value: pool.fragmentationPct, unit: '%' },
          { label: 'threshold', value: critical ? CRITICAL_PCT : WARN_PCT, unit: '%' },
        ],
        explanation:
          `${pool.name} has ${Math.round(pct)} % of its space allocated. ` +
          (critical
            ? 'Above 90 % ZFS spends much of each write searching for free space, performance falls sharply, fragmentation becomes permanent, and once only the slop reserve (1/32 of the pool) is left most writes fail — including ones needed to delete data with snapshots present. '
            : 'Above 80 % allocation gets slower and fragmentation rises, especially for workloads that rewrite small blocks (Oracle guidance); OpenZFS advises keeping more than 10 % free. ') +
          'Snapshots hold on to deleted and overwritten data, so they are the first place to look.',
        action: {
          summary: 'Find what uses the space (snapshots first), delete what is not needed, or add capacity with a vdev matching the existing ones.',
          commands: [
            `zfs list -o space -r ${pool.name}`,
            `zfs list -t snapshot -o name,used -s used -r ${pool.name}`,
            `zpool add -n ${pool.name} <vdev layout matching the existing ones, disks by id>`,
          ],
          reversible: 'partly',
          reversibleWhy: `Listing changes nothing; destroyed snapshots and data are gone for good; an added vdev ${canRemove ? 'can be removed again with `zpool remove` (mirror/stripe pools only)' : 'cannot be removed from a pool with raidz vdevs'}.`,
        },
        confidence: 'high',
      });
    }
    if (known === 0) return notApplicable('No pool reports its size and allocation (needs `zpool list -v`).');
    return fired(findings);
  },
});

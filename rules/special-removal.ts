/**
 * Special/dedup vdevs that can never be removed: raidz/dRAID data vdevs or mixed ashift.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_003, OPENZFS_SPECIAL_DOC, doc, fact, kb, man } from './lib/slog-citations.ts';
import { AUX_CLASSES, isRaidzLike } from './lib/special-class.ts';
import { topLevel } from './lib/topology.ts';

export default defineRule({
  meta: {
    id: 'special-removal',
    title: 'Special/dedup vdev is permanent',
    category: 'special',
    defaultSeverity: 'info',
    requiredArtifacts: ['Pools'],
    description:
      'A special or dedup vdev can be removed only if the pool has no raidz/dRAID top-level vdev and all top-level vdevs share one ashift. Otherwise it is permanent: its redundancy and health matter for the life of the pool, and undoing it means rebuilding the pool. Learn more: [Special vdevs: Removing a special vdev](docs/kb/special-vdev.md#removing-a-special-vdev).',
    citations: [kb('special-vdev', 'Removing a special vdev'), fact('B17'), fact('C22'), man('zpool-remove', 8), doc(DOC_003, '§1 (ashift and removal)'), OPENZFS_SPECIAL_DOC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools }) {
    const findings: FindingDraft[] = [];
    const unjudged: string[] = [];
    const withAux = Pools.filter((p) => AUX_CLASSES.some((c) => topLevel(p, c).length > 0));
    if (withAux.length === 0) return notApplicable('No pool has a special or dedup vdev.');
    for (const pool of withAux) {
      const data = topLevel(pool, 'data').filter((v) => v.type !== 'hole' && v.type !== 'indirect');
      const aux = AUX_CLASSES.flatMap((c) => topLevel(pool, c));
      const raidz = data.filter(isRaidzLike);
      const ashifts = new Set([...data, ...aux].map((v) => v.ashift).filter((a): a is number => a != null));
      const reasons: string[] = [];
      if (raidz.length > 0) reasons.push(`the data vdevs include ${raidz.map((v) => v.name).join(', ')} (raidz/dRAID)`);
      if (ashifts.size > 1) reasons.push(`top-level vdevs have different ashift values (${[...ashifts].sort((x, y) => x - y).join(', ')})`);
      // Without raidz, removability turns on ashift alone: unknown ashift leaves it open (not "passed").
      if (reasons.length === 0 && [...data, ...aux].some((v) => v.ashift == null)) unjudged.push(pool.name);
      if (reasons.length === 0) continue;
      findings.push({
        title: `${pool.name}: ${aux.map((v) => v.name).join(', ')} can never be removed`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          { label: 'special/dedup vdevs', value: aux.map((v) => `${v.class}:${v.name}`).join(', ') },
          { label: 'raidz/dRAID data vdevs', value: raidz.length },
          { label: 'distinct ashift values', value: ashifts.size === 0 ? 'unknown' : [...ashifts].sort((x, y) => x - y).join(', ') },
        ],
        explanation:
          `Device removal of a special/dedup vdev requires a pool without raidz/dRAID top-level vdevs and with one ashift everywhere. Here ${reasons.join(' and ')}, so these vdevs stay for the life of the pool. ` +
          'Plan their redundancy (special-redundancy), size (special-fill) and replacement (`zpool replace`, same or larger size) accordingly; undoing them means destroying and re-creating the pool from backup. ' +
          'napp-it also reports an OS crash when removing an ashift=9 special vdev from an ashift=12 pool.',
        action: {
          summary: `Nothing to undo: ${aux.map((v) => `${v.class} vdev ${v.name}`).join(', ')} ${aux.length === 1 ? 'is' : 'are'} already permanent in ${pool.name}. Keep ${aux.length === 1 ? 'it' : 'them'} at least as redundant as the data vdevs, watch the fill with \`zpool list -v\`, and replace a failing member in place (\`zpool replace\`, same or larger size).`,
          commands: [`zpool list -v ${pool.name}`, `zpool status -v ${pool.name}`],
          reversible: 'no',
          reversibleWhy: 'Removal is refused on pools with raidz/dRAID top-level vdevs or mixed ashift; only re-creating the pool undoes it.',
        },
        confidence: raidz.length > 0 ? 'high' : 'medium',
      });
    }
    if (findings.length === 0 && unjudged.length > 0) {
      return notApplicable(`Cannot tell whether the special/dedup vdevs of ${unjudged.join(', ')} are removable: the per-vdev ashift is unknown (needs \`zdb -C\`, captured by \`zfs-advisor capture\` as root).`);
    }
    return fired(findings);
  },
});

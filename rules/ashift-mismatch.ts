/**
 * ashift below the drives' physical sector size (512-byte alignment on 4K drives), and pools whose
 * top-level vdevs have different ashifts (which forbids any later vdev removal).
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_001, doc, fact, kb, man } from './lib/layout-citations.ts';
import { drivesOf, realTopLevel, vdevLabel, vdevSubjectId } from './lib/layout-geometry.ts';
import type { VdevNode } from '../server/src/model/inventory.ts';

/** `zpool status` prints this note when a vdev's ashift is below the device's physical sector (C22). */
const NON_NATIVE = /non-native block size/i;

export default defineRule({
  meta: {
    id: 'ashift-mismatch',
    title: 'ashift below the sector size, or mixed ashift',
    category: 'device',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['Drives'],
    description:
      'ashift is fixed per vdev when it is created. ashift 9 on drives with 4K physical sectors forces read-modify-write inside the drive; different ashifts among top-level vdevs make every later vdev removal impossible. Learn more: [raidz space, padding and resilience: ashift](docs/kb/raidz-space.md#ashift).',
    citations: [kb('raidz-space', 'ashift'), fact('C21'), fact('C22'), fact('B17'), doc(DOC_001, 'How do I align sectors to 4K for a ZFS pool?'), man('zpoolprops', 7, 'ashift')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives }) {
    const drives = Drives ?? [];
    const findings: FindingDraft[] = [];
    let known = 0;
    for (const pool of Pools) {
      const tops = [...realTopLevel(pool, 'data'), ...realTopLevel(pool, 'special'), ...realTopLevel(pool, 'dedup')];
      const ashiftOf = (v: VdevNode): number | null => (v.ashift != null && v.ashift > 0 ? v.ashift : pool.ashift != null && pool.ashift > 0 ? pool.ashift : null);
      for (const v of [...tops, ...realTopLevel(pool, 'log')]) {
        const a = ashiftOf(v);
        const members = drivesOf(v, drives);
        const phys = Math.max(0, ...members.map((d) => d.physicalSectorSize ?? 0));
        const noted = [v, ...v.children].some((n) => n.note !== null && NON_NATIVE.test(n.note));
        if (a !== null) known++;
        if (!noted && !(a !== null && phys > 0 && 2 ** a < phys)) continue;
        findings.push({
          severity: 'warning',
          title: `${vdevLabel(v)} in ${pool.name} uses ${a !== null ? `${2 ** a}-byte` : 'smaller than native'} blocks on ${phys > 0 ? `${phys}-byte` : '4K'} sectors`,
          subject: { kind: 'vdev', id: vdevSubjectId(pool, v), pool: pool.name },
          evidence: [
            { label: 'ashift', value: a },
            { label: 'physical sector size', value: phys > 0 ? phys : null, unit: 'bytes' },
            { label: 'zpool status note', value: noted ? 'non-native block size' : null },
            { label: 'drives', value: members.map((d) => d.model ?? d.id).join(', ') || null },
          ],
          explanation:
            `This vdev was created with ashift ${a ?? '< native'}, smaller than its drives' physical sectors, usually because the drives reported 512-byte logical sectors. Every write smaller than a physical sector becomes a read-modify-write inside the drive. ` +
            'The calomel.org raidz tests measured less than 10 % slower writes on hard disks; on SSDs the extra internal writes also cost endurance. ashift cannot be changed on an existing vdev.',
          action: {
            summary: 'Rebuild this vdev with ashift=12: add a new vdev created with -o ashift=12 and remove the old one (mirror-only pools), or re-create the pool.',
            commands: [`zpool create -o ashift=12 NEWPOOL <layout and disks by id>`, `zdb -C ${pool.name} | grep ashift`],
            reversible: 'no',
            reversibleWhy: 'Re-creating a vdev or pool means copying all data; ashift is immutable once a vdev exists.',
          },
          confidence: a !== null && phys > 0 ? 'high' : 'medium',
        });
      }
      const withAshift = tops.map((v) => ({ v, a: v.ashift != null && v.ashift > 0 ? v.ashift : null })).filter((x): x is { v: VdevNode; a: number } => x.a !== null);
      const distinct = [...new Set(withAshift.map((x) => x.a))];
      if (distinct.length > 1) {
        const hasRaidz = realTopLevel(pool, 'data').some((v) => v.type.startsWith('raidz') || v.type === 'draid');
        findings.push({
          severity: 'suggestion',
          title: `Pool ${pool.name} mixes ashift ${distinct.sort((x, y) => x - y).join(' and ')} across top-level vdevs`,
          subject: { kind: 'pool', id: pool.name, pool: pool.name },
          evidence: [{ label: 'ashift per top-level vdev', value: withAshift.map((x) => `${x.v.name} (${x.v.class}): ${x.a}`).join(', ') }],
          explanation:
            'Removing a top-level vdev (data, special or dedup) requires all normal-class vdevs to share one ashift and the removed vdev to match it. With mixed ashift no vdev can ever be removed from this pool' +
            (hasRaidz ? ' — it has raidz vdevs, so removal was already impossible.' : '. OpenZFS ≤ 2.2 adds such vdevs silently; 2.3+ refuses without --allow-ashift-mismatch.'),
          action: {
            summary: 'Nothing to fix in place; give every future vdev the pool\'s ashift explicitly.',
            commands: [`zpool add -n -o ashift=${Math.max(...distinct)} ${pool.name} <layout and disks by id>`],
            reversible: 'no',
            reversibleWhy: 'Vdev ashift is immutable; only re-creating the pool changes it.',
          },
          confidence: 'high',
        });
      }
    }
    if (known === 0 && findings.length === 0) return notApplicable('ashift unknown: run `zdb -C POOL` (or capture a snapshot) to read it per vdev.');
    return fired(findings);
  },
});

/**
 * raidz vdevs that are very wide, or data vdevs of different widths/types in one pool.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_001, doc, fact, kb, man } from './lib/layout-citations.ts';
import { isRaidz, realTopLevel, vdevLabel, vdevSubjectId, widthOf } from './lib/layout-geometry.ts';

/** OpenZFS tuning guide: "Do not put more than ~16 disks in raidz" — rebuild times (C10). */
export const MAX_RAIDZ_WIDTH = 16;
/** zpoolconcepts(7) recommends 3–9 disks per raidz group (C9); above it is a suggestion, not a defect. */
export const RECOMMENDED_RAIDZ_WIDTH = 9;

const shape = (type: string, width: number) => (type === 'mirror' ? `${width}-way mirror` : type === 'disk' || type === 'file' ? `single ${type}` : `${width}-wide ${type}`);

export default defineRule({
  meta: {
    id: 'raidz-width',
    title: 'raidz width and mixed vdev layouts',
    category: 'redundancy',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Pools'],
    description:
      'Very wide raidz vdevs take excessively long to resilver on hard disks, and a pool whose data vdevs differ in width or type has uneven performance and the redundancy of its weakest vdev. Learn more: [raidz space, padding and resilience: Width](docs/kb/raidz-space.md#width).',
    citations: [kb('raidz-space', 'Width'), fact('C9'), fact('C10'), fact('C11'), man('zpoolconcepts', 7, 'raidz'), doc(DOC_001, 'raid tables')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools }) {
    const findings: FindingDraft[] = [];
    let raidzSeen = false;
    for (const pool of Pools) {
      const data = realTopLevel(pool, 'data');
      for (const v of data.filter(isRaidz)) {
        raidzSeen = true;
        const w = widthOf(v);
        if (w <= RECOMMENDED_RAIDZ_WIDTH) continue;
        const tooWide = w > MAX_RAIDZ_WIDTH;
        findings.push({
          severity: tooWide ? 'warning' : 'suggestion',
          title: `${vdevLabel(v)} in ${pool.name} is ${tooWide ? 'very ' : ''}wide`,
          subject: { kind: 'vdev', id: vdevSubjectId(pool, v), pool: pool.name },
          evidence: [
            { label: 'width', value: w, unit: 'disks' },
            { label: 'recommended', value: `3–${RECOMMENDED_RAIDZ_WIDTH}`, unit: 'disks' },
            { label: 'OpenZFS tuning guide limit', value: MAX_RAIDZ_WIDTH, unit: 'disks' },
          ],
          explanation:
            `${v.name} has ${w} disks in one raidz group. Random-read IOPS of a raidz vdev with default 128K records are about one disk's, and a resilver must read every surviving member, so wide groups resilver slowly while more disks share the same parity budget. ` +
            (tooWide
              ? `OpenZFS's tuning guide says not to exceed ~${MAX_RAIDZ_WIDTH} disks because rebuild times on hard disks become excessive.`
              : `zpoolconcepts(7) recommends 3–${RECOMMENDED_RAIDZ_WIDTH} disks per group; Ahrens notes exact width tuning rarely matters, so this is a suggestion for the next rebuild, not a defect.`),
          action: {
            summary: 'Width is fixed once created; when the pool is next rebuilt, split the disks into several narrower raidz2 groups (e.g. 2 × 6-wide).',
            commands: [`zpool create -n -o ashift=12 NEWPOOL raidz2 <6 disks by id> raidz2 <6 disks by id>`],
            reversible: 'no',
            reversibleWhy: 'Changing the width of an existing raidz group needs the pool to be re-created (expansion only adds disks).',
          },
          confidence: tooWide ? 'high' : 'medium',
        });
      }
      // Mixed layouts: raidz/mirror groups differing in type or width (single disks are no-redundancy's business).
      const groups = data.filter((v) => v.children.length > 0);
      const shapes = [...new Set(groups.map((v) => shape(v.type, widthOf(v))))];
      if (shapes.length > 1) {
        findings.push({
          severity: 'suggestion',
          title: `Pool ${pool.name} mixes data vdev layouts: ${shapes.join(', ')}`,
          subject: { kind: 'pool', id: pool.name, pool: pool.name },
          evidence: [
            { label: 'data vdev layouts', value: groups.map((v) => `${v.name}: ${shape(v.type, widthOf(v))}`).join('; ') },
          ],
          explanation:
            `ZFS spreads writes over all top-level vdevs, so vdevs of different type or width give uneven latency and space use, and the pool's fault tolerance is that of its weakest vdev. ` +
            'This is often the result of growing a pool with whatever disks were at hand; it works, but new vdevs should match the existing ones.',
          action: {
            summary: 'When adding capacity, add vdevs of the same type and width as the existing ones; check first with a dry run.',
            commands: [`zpool add -n ${pool.name} ${groups[0]!.type === 'mirror' ? 'mirror' : groups[0]!.type} <${widthOf(groups[0]!)} disks by id>`],
            reversible: 'no',
            reversibleWhy: 'Existing vdevs cannot be reshaped; on pools with raidz vdevs a top-level vdev cannot be removed again.',
          },
          confidence: 'medium',
        });
      }
      if (groups.length > 0) raidzSeen = raidzSeen || groups.length > 1;
    }
    if (!raidzSeen) return notApplicable('No raidz vdevs and no pool with several redundant data vdevs.');
    return fired(findings);
  },
});

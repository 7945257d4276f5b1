/**
 * A data vdev without redundancy: losing one device loses the whole pool, because ZFS stripes
 * every file across all top-level vdevs.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_001, doc, fact, kb, man } from './lib/layout-citations.ts';
import { realTopLevel, vdevLabel, vdevSubjectId } from './lib/layout-geometry.ts';
import { commandPath, faultTolerance } from './lib/topology.ts';
import { newDevice } from './lib/commands.ts';

export default defineRule({
  meta: {
    id: 'no-redundancy',
    title: 'Data vdevs without redundancy',
    category: 'redundancy',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['Drives', 'Host'],
    description:
      'A top-level data vdev made of a single disk or file survives no device failure, and a pool dies with its weakest top-level vdev: one failed disk loses every dataset in the pool. ZFS can still detect corruption there but cannot repair it. Learn more: [raidz space, padding and resilience: No redundancy](docs/kb/raidz-space.md#no-redundancy).',
    citations: [kb('raidz-space', 'No redundancy'), man('zpoolconcepts', 7, 'Virtual Devices'), fact('C9'), doc(DOC_001, 'raid reliability'), man('zpool-attach', 8)],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Host }) {
    const drives = Drives ?? [];
    const findings: FindingDraft[] = [];
    for (const pool of Pools) {
      const data = realTopLevel(pool, 'data');
      if (data.length === 0) continue;
      const bare = data.filter((v) => faultTolerance(v) === 0);
      if (bare.length === 0) continue;
      // A pool where other vdevs are redundant but one was added bare is the classic `zpool add`
      // mistake: all that redundancy is void (G18). A deliberate single-disk pool is less alarming.
      const mixed = bare.length < data.length;
      for (const v of bare) {
        const path = commandPath(v, drives);
        findings.push({
          severity: mixed ? 'critical' : 'warning',
          title: mixed
            ? `Single-device vdev ${v.name} voids the redundancy of pool ${pool.name}`
            : `Pool ${pool.name} has no redundancy (${v.name})`,
          subject: { kind: 'vdev', id: vdevSubjectId(pool, v), pool: pool.name },
          evidence: [
            { label: 'vdev', value: vdevLabel(v) },
            { label: 'devices that may fail', value: 0 },
            { label: 'data vdevs in pool', value: data.map((x) => x.type === 'disk' || x.type === 'file' ? x.name : x.type).join(', ') },
          ],
          explanation: mixed
            ? `${pool.name} stripes data over ${data.length} top-level vdevs; ${v.name} is a single ${v.type} with no redundancy, so its failure loses the whole pool however redundant the other vdevs are. This usually comes from a \`zpool add\` that should have been a \`zpool attach\`.`
            : `${pool.name} stores its data on ${data.length === 1 ? 'one device' : `${data.length} devices striped together`} with no redundancy: one failed device loses the pool, and checksum errors can be detected but not repaired.`,
          action: {
            summary: `Attach a second device of at least the same size to ${v.name}, turning it into a mirror.`,
            commands: [`zpool attach ${pool.name} ${path} ${newDevice(Host, 'new-disk')}`, `zpool status ${pool.name}`],
            reversible: 'yes',
            reversibleWhy: '`zpool detach` removes the added side again; nothing is lost by attaching.',
          },
          confidence: 'high',
        });
      }
    }
    if (Pools.length === 0) return notApplicable('No pools.');
    return fired(findings);
  },
});

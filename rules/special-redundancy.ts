/**
 * Special or dedup vdevs with less redundancy than the data vdevs: losing one loses the pool.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_000, DOC_003, OPENZFS_SPECIAL_DOC, doc, fact, kb, man } from './lib/slog-citations.ts';
import { AUX_CLASSES, shapeOf, underRedundant } from './lib/special-class.ts';
import { commandPath, leaves, topLevel, vdevId } from './lib/topology.ts';
import { newDevice } from './lib/commands.ts';

export default defineRule({
  meta: {
    id: 'special-redundancy',
    title: 'Special/dedup vdev redundancy',
    category: 'special',
    defaultSeverity: 'critical',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['Drives', 'Host'],
    description:
      'A special or dedup vdev holds all metadata (or the dedup table) of the pool: losing it loses the whole pool, and the ditto copies of metadata live on the same vdev. Its redundancy must match the data vdevs (raidz2 → 3-way mirror). A single disk can be turned into a mirror with `zpool attach`. Learn more: [Special vdevs: Redundancy: losing it loses the pool](docs/kb/special-vdev.md#redundancy-losing-it-loses-the-pool).',
    citations: [kb('special-vdev', 'Redundancy: losing it loses the pool'), fact('B13'), fact('B14'), fact('B18'), fact('G17'), man('zpoolconcepts', 7, 'Special Allocation Class'), OPENZFS_SPECIAL_DOC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Host }) {
    const findings: FindingDraft[] = [];
    const withAux = Pools.filter((p) => AUX_CLASSES.some((c) => topLevel(p, c).length > 0));
    if (withAux.length === 0) return notApplicable('No pool has a special or dedup vdev.');
    for (const pool of withAux) {
      for (const { vdev, tolerance, needed } of underRedundant(pool)) {
        const ls = leaves(vdev);
        const existing = ls[0] ? (Drives ? commandPath(ls[0], Drives) : ls[0].name) : vdev.name;
        const extra = needed - tolerance;
        const cmds = Array.from({ length: extra }, (_, i) => `zpool attach ${pool.name} ${existing} ${newDevice(Host, `new-ssd-${i + 1}`)}`);
        // Critical only when one failed device loses the pool while the data vdevs would have
        // survived it; a special that still survives a failure but fewer than the data vdevs (a
        // 2-way mirror beside 3-way data mirrors or raidz2, which 003 §13's "2/3-way mirror"
        // advice allows) is a warning: the pool is less robust than its data vdevs, not fragile.
        const fragile = tolerance === 0;
        findings.push({
          severity: fragile ? 'critical' : 'warning',
          title: `${pool.name}: ${vdev.class} vdev ${vdev.name} survives ${tolerance} failure${tolerance === 1 ? '' : 's'}, the data vdevs ${needed}`,
          subject: { kind: 'vdev', id: vdevId(pool.name, vdev), pool: pool.name },
          evidence: [
            { label: `${vdev.class} vdev`, value: `${vdev.name} (${shapeOf(vdev)})` },
            { label: `${vdev.class} vdev fault tolerance`, value: tolerance, unit: 'devices' },
            { label: 'data vdev fault tolerance', value: needed, unit: 'devices' },
            { label: 'devices to attach', value: extra },
          ],
          explanation:
            `${vdev.name} holds ${vdev.class === 'dedup' ? 'the dedup table' : 'all metadata (and any small blocks)'} of ${pool.name}. If it fails, the pool is lost, whatever the data vdevs' parity; metadata ditto copies live on the same vdev, so they do not help. ` +
            `The data vdevs tolerate ${needed} failed device${needed === 1 ? '' : 's'} but ${vdev.name} only ${tolerance}. ` +
            (fragile
              ? `A single failed device in ${vdev.name} therefore loses the pool, although every data vdev would have survived it: critical. `
              : `${vdev.name} still survives ${tolerance} failure${tolerance === 1 ? '' : 's'}, so this is a warning rather than critical: the pool is as weak as this vdev, less robust than its data vdevs (the napp-it guide, §13, asks for "a similar redundancy level as the pool (2/3-way mirror)"). `) +
            '`zpool add` refuses such a layout without -f; TrueNAS refuses it outright. ' +
            (tolerance === 0 ? '(A published Optane test ran a single P1600X special vdev only for a throw-away benchmark pool and said so: "it is critical that it is at least a mirror".) ' : '') +
            'Hot spares do not protect special vdevs in released versions.',
          action: {
            summary: `Attach ${extra} more SSD${extra === 1 ? '' : 's'} of at least the same size to make ${vdev.name} a ${tolerance + extra + 1}-way mirror.`,
            commands: cmds,
            reversible: 'yes',
            reversibleWhy: 'An attached mirror side can be detached again with `zpool detach`; the data are not moved.',
          },
          citations: [kb('special-vdev', 'Redundancy: losing it loses the pool'), fact('B13'), fact('B14'), fact('B15'), fact('B18'), fact('B20'), fact('G12'), fact('G17'), doc(DOC_000, 'special vdev note'), doc(DOC_003, '§1, §13'), man('zpool-attach', 8), OPENZFS_SPECIAL_DOC],
          confidence: 'high',
        });
      }
    }
    return fired(findings);
  },
});

/**
 * An L2ARC next to an Optane special vdev: metadata already comes from Optane, so the cache adds
 * little (004), and its headers take ARC memory.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_004, doc, fact, kb, man } from './lib/slog-citations.ts';
import { isOptane, productName } from './lib/device-class.ts';
import { hasSpecial, leafDrives } from './lib/slog-devices.ts';
import { allLeaves, commandPath, topLevel } from './lib/topology.ts';

export default defineRule({
  meta: {
    id: 'l2arc-beside-optane-special',
    title: 'L2ARC beside an Optane special vdev',
    category: 'special',
    defaultSeverity: 'info',
    requiredArtifacts: ['Pools', 'Drives'],
    optionalArtifacts: ['ArcStats'],
    description:
      'With metadata on an Optane special vdev the pool already serves metadata at flash latency; an L2ARC for the same metadata adds little and its headers consume ARC memory. It can still make sense when tuned to cache file data only. Learn more: [Special vdevs: Special vdev and L2ARC](docs/kb/special-vdev.md#special-vdev-and-l2arc).',
    citations: [kb('special-vdev', 'Special vdev and L2ARC'), doc(DOC_004, 'Pro tip: Optane special vdev + L2ARC'), fact('B27')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, ArcStats }) {
    const findings: FindingDraft[] = [];
    const targets = Pools.filter((p) => hasSpecial(p) && topLevel(p, 'cache').length > 0);
    if (targets.length === 0) return notApplicable('No pool has both a special vdev and a cache device.');
    for (const pool of targets) {
      const special = leafDrives(allLeaves(pool, 'special'), Drives);
      if (special.length === 0 || !special.every(isOptane)) continue;
      const cache = allLeaves(pool, 'cache');
      const hits = ArcStats?.counters['l2_hits'];
      const misses = ArcStats?.counters['l2_misses'];
      const ratio = hits !== undefined && misses !== undefined && hits + misses > 0 ? hits / (hits + misses) : null;
      findings.push({
        title: `${pool.name}: L2ARC adds little beside the Optane special vdev`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          { label: 'special vdev devices', value: special.map(productName).join(', ') },
          { label: 'cache devices', value: cache.map((c) => c.name).join(', ') },
          ...(ratio !== null ? [{ label: 'L2ARC hit ratio since boot', value: Math.round(ratio * 1000) / 10, unit: '%' }] : []),
          ...(ArcStats?.counters['l2_hdr_size'] !== undefined ? [{ label: 'ARC used by L2ARC headers', value: Math.round(ArcStats.counters['l2_hdr_size']! / 2 ** 20), unit: 'MiB' }] : []),
        ],
        explanation:
          `${pool.name}'s metadata already lives on Optane (${special.map(productName).join(', ')}). The TrueNAS Optane resource: "if you have an Optane Special Vdev, there isn't much point also putting L2ARC on it as well. The server will pull the raw data off the pool's own metadata vdev fast enough". ` +
          'An L2ARC can still pay off for file data when tuned to cache data only (e.g. secondarycache=data on the busy datasets, or l2arc tunables), and its headers take ARC RAM. ' +
          (ratio !== null ? `The L2ARC hit ratio since boot is ${(ratio * 100).toFixed(1)} %. ` : 'Check the L2ARC hit ratio (arcstats l2_hits/l2_misses) before deciding. '),
        action: {
          summary: 'Either remove the cache device and reuse it, or restrict L2ARC to file data on the datasets that benefit.',
          commands: [`zpool remove ${pool.name} ${commandPath(cache[0]!, Drives)}`, `zfs set secondarycache=data ${pool.name}`],
          reversible: 'yes',
          reversibleWhy: 'Cache devices can be removed and re-added at any time; secondarycache can be set back.',
        },
        citations: [kb('special-vdev', 'Special vdev and L2ARC'), doc(DOC_004, 'Pro tip'), fact('A24'), fact('B27'), man('zfsprops', 7, 'secondarycache')],
        confidence: 'medium',
      });
    }
    return fired(findings);
  },
});

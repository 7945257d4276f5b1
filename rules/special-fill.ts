/**
 * Special-class fill: at 75 % small blocks silently spill to the data vdevs and stay there.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { OPENZFS_SPECIAL_DOC, fact, kb, man } from './lib/slog-citations.ts';
import { AUX_CLASSES, SMALL_BLOCK_CUTOFF, classFill } from './lib/special-class.ts';
import { gib } from './lib/slog-devices.ts';
import { topLevel } from './lib/topology.ts';
import { newDevice } from './lib/commands.ts';

/** Warn early: 10 points before the 75 % cut-off gives time to add capacity [heuristic margin]. */
export const EARLY_WARNING_FILL = 0.65;
/** Metadata itself can fill the class to 100 %; from 90 % new metadata spills too (B7, B8). */
export const CRITICAL_FILL = 0.9;

export default defineRule({
  meta: {
    id: 'special-fill',
    title: 'Special vdev fill level',
    category: 'special',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['Host'],
    description:
      'Small data blocks go to the special class only while it is below 75 % full (zfs_special_class_metadata_reserve_pct = 25). Beyond that they spill to the data vdevs silently and are never moved back, so the benefit fades unnoticed. Learn more: [Special vdevs: Filling up: the 75 % cut-off](docs/kb/special-vdev.md#filling-up-the-75--cut-off).',
    citations: [kb('special-vdev', 'Filling up: the 75 % cut-off'), fact('B7'), fact('B8'), fact('B21'), man('zfs', 4, 'zfs_special_class_metadata_reserve_pct'), OPENZFS_SPECIAL_DOC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Host }) {
    const findings: FindingDraft[] = [];
    let measured = 0;
    const withAux = Pools.filter((p) => AUX_CLASSES.some((c) => topLevel(p, c).length > 0));
    if (withAux.length === 0) return notApplicable('No pool has a special or dedup vdev.');
    for (const pool of withAux) {
      for (const cls of AUX_CLASSES) {
        const f = classFill(pool, cls);
        if (!f) continue;
        measured++;
        if (f.fill < EARLY_WARNING_FILL) continue;
        const severity = f.fill >= CRITICAL_FILL ? 'critical' : f.fill >= SMALL_BLOCK_CUTOFF ? 'warning' : 'suggestion';
        const pct = Math.round(f.fill * 1000) / 10;
        const headroom = Math.max(0, SMALL_BLOCK_CUTOFF * f.sizeBytes - f.allocBytes);
        findings.push({
          severity,
          title: `${pool.name}: ${cls} class is ${pct} % full`,
          subject: { kind: 'pool', id: pool.name, pool: pool.name },
          evidence: [
            { label: `${cls} class size`, value: Math.round(f.sizeBytes / 2 ** 30), unit: 'GiB' },
            { label: `${cls} class allocated`, value: Math.round((f.allocBytes / 2 ** 30) * 10) / 10, unit: 'GiB' },
            { label: 'fill', value: pct, unit: '%' },
            { label: 'small-block cut-off', value: SMALL_BLOCK_CUTOFF * 100, unit: '%' },
            { label: 'room left before the cut-off', value: Math.round((headroom / 2 ** 30) * 10) / 10, unit: 'GiB' },
          ],
          explanation:
            (f.fill >= SMALL_BLOCK_CUTOFF
              ? `Above 75 % new small data blocks already go to the data vdevs instead; nothing fails and nothing warns, the speed-up just fades. Blocks written there stay there even after you add capacity. `
              : `${gib(headroom)} remain before the 75 % point at which small data blocks stop going to ${cls} and silently land on the data vdevs. `) +
            (f.fill >= CRITICAL_FILL ? 'Above 90 % even metadata will soon spill to the data vdevs. ' : '') +
            'A forecast of when the cut-off is reached needs history: re-run the assessment over time (the server records it). Fullness is computed per class from `zpool list -v` because `zfs list` does not show it.',
          action: {
            summary: `Add capacity to the ${cls} class with another mirror of the same redundancy, or lower special_small_blocks on the datasets that fill it.`,
            commands: [`zpool add -n ${pool.name} ${cls} mirror ${newDevice(Host, 'ssd-1')} ${newDevice(Host, 'ssd-2')}`, `zfs get -r -t filesystem special_small_blocks ${pool.name}`],
            reversible: 'partly',
            reversibleWhy: 'Lowering special_small_blocks is reversible but affects only new writes; an added special vdev can be removed only on pools without raidz and with uniform ashift.',
          },
          confidence: 'high',
        });
      }
    }
    if (measured === 0) return { status: 'passed', message: 'Special-class sizes are unknown (no `zpool list -v` numbers); fill cannot be judged.' };
    return fired(findings);
  },
});

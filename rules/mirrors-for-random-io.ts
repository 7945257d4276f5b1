/**
 * VM/database block storage (zvols) on raidz/dRAID hard-disk vdevs: random I/O gets about one
 * disk's IOPS per vdev; striped mirrors scale with the number of disks.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_001, DOC_002, doc, fact, kb } from './lib/layout-citations.ts';
import { isZvol } from './lib/layout-dataset-props.ts';
import { drivesOf, isParityVdev, mediaOf, realTopLevel, widthOf } from './lib/layout-geometry.ts';
import { newDevice } from './lib/commands.ts';
import { datasetsOfPool } from './lib/inventory-index.ts';
import { plural } from '../server/src/text/format.ts';

/** Above this share of small (≤ 32 KiB) writes a measured workload counts as random-I/O heavy [heuristic]. */
export const SMALL_WRITE_SHARE = 0.5;
/** Rough 7200 rpm random IOPS per disk (≈ 1 / (4.17 ms rotation + 8 ms seek), zfs-facts E1) [derived]. */
export const HDD_RANDOM_IOPS = 80;

export default defineRule({
  meta: {
    id: 'mirrors-for-random-io',
    title: 'Random-I/O block storage on raidz',
    category: 'redundancy',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Pools', 'Datasets'],
    optionalArtifacts: ['Drives', 'Workload', 'Host'],
    description:
      'Virtual machine disks and databases do small random I/O. With default block sizes every raidz read touches all data disks of a vdev, so a raidz vdev delivers roughly one disk\'s random IOPS, while striped mirrors scale with the number of disks. Learn more: [raidz space, padding and resilience: Mirrors for random I/O](docs/kb/raidz-space.md#mirrors-for-random-io).',
    citations: [kb('raidz-space', 'Mirrors for random I/O'), doc(DOC_001, 'Some Random Observations: mirrors are better for random IOPs'), fact('C11'), fact('G10'), doc(DOC_002, 'zvol results')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Datasets, Drives, Workload, Host }) {
    const drives = Drives ?? [];
    const findings: FindingDraft[] = [];
    let parityPools = 0;
    for (const pool of Pools) {
      const data = realTopLevel(pool, 'data');
      const parity = data.filter(isParityVdev);
      if (parity.length === 0) continue;
      parityPools++;
      const media = mediaOf(parity.flatMap((v) => drivesOf(v, drives)));
      if (media === 'flash') continue; // flash raidz has IOPS to spare; padding is raidz-small-block-padding's concern
      const zvols = datasetsOfPool(Datasets, pool.name).filter(isZvol);
      const measured = Workload?.pools.find((p) => p.pool === pool.name);
      const randomHeavy = measured?.smallWriteShare != null && measured.smallWriteShare >= SMALL_WRITE_SHARE;
      if (zvols.length === 0 && !randomHeavy) continue;

      const disks = data.reduce((n, v) => n + widthOf(v), 0);
      const nowIops = parity.length * HDD_RANDOM_IOPS;
      const mirrorIops = Math.floor(disks / 2) * HDD_RANDOM_IOPS;
      findings.push({
        title: `${pool.name} serves ${zvols.length > 0 ? plural(zvols.length, 'zvol') : 'a small-block workload'} from raidz${media === 'hdd' ? ' hard disks' : ''}`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          { label: 'data vdevs', value: data.map((v) => `${v.name} (${widthOf(v)} wide ${v.type})`).join(', ') },
          { label: 'zvols', value: zvols.length > 0 ? zvols.map((z) => z.name).join(', ') : null },
          { label: 'measured small-write share', value: measured?.smallWriteShare ?? null },
          { label: 'media', value: media },
          { label: 'rough random IOPS now (one disk per parity vdev)', value: nowIops, unit: 'IOPS' },
          { label: `rough random IOPS as ${Math.floor(disks / 2)} two-way mirrors`, value: mirrorIops, unit: 'IOPS' },
        ],
        explanation:
          `Block storage for VMs and databases issues small random reads and writes. On raidz each block is spread over all data disks of its vdev, so ${pool.name}'s ${plural(parity.length, 'parity vdev')} give roughly the random IOPS of ${plural(parity.length, 'disk')} (≈${nowIops} at ~${HDD_RANDOM_IOPS} IOPS per 7200 rpm disk), whereas the same ${disks} disks as striped two-way mirrors would give ≈${mirrorIops} for writes and more for reads (calomel.org: "mirrors are better for random IOPs"). ` +
          'Mirrors cost capacity (50 %) and raidz2 survives any two failures, so this is a trade-off to weigh, not a defect. The IOPS figures are rough per-disk estimates, not measurements.' +
          (media === 'unknown' ? ' The drives behind the vdevs could not be identified as hard disks; if they are SSDs, ignore this.' : '') +
          (media === 'virtual' ? ` The vdevs are virtual disks or LUNs, so what backs them is unknown here; measure their random writes (\`zfs-advisor bench mixed-70-30-4k --pool ${pool.name}\`), and if flash backs them, ignore this.` : ''),
        action: {
          summary: 'For VM/database storage, put it on a pool of striped mirrors (or a flash pool) and move the zvols there with send/receive.',
          commands: [
            `zpool create -o ashift=12 vmpool mirror ${newDevice(Host, 'disk-a')} ${newDevice(Host, 'disk-b')} mirror ${newDevice(Host, 'disk-c')} ${newDevice(Host, 'disk-d')}`,
            ...zvols.slice(0, 3).map((z) => `zfs snapshot ${z.name}@move && zfs send ${z.name}@move | zfs receive vmpool/${z.name.split('/').pop()}`),
          ],
          reversible: 'partly',
          reversibleWhy: 'Copying to a new pool leaves the original until you destroy it; once the old raidz pool is destroyed the move cannot be undone.',
        },
        confidence: media === 'hdd' ? 'medium' : 'low',
      });
    }
    if (parityPools === 0) return notApplicable('No raidz or dRAID data vdevs.');
    return fired(findings);
  },
});

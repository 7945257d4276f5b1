/**
 * Small volblocksize/recordsize on raidz/dRAID: parity and padding sectors make small blocks use
 * far more raw space than the layout's nominal efficiency (exact allocation math, zfs-facts C1, C6).
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { fact, kb, man } from './lib/layout-citations.ts';
import { reportOnce } from './lib/layout-dataset-props.ts';
import { ashiftOf, blockEfficiency, fmtKiB, fmtPct, isParityVdev, realTopLevel, vdevLabel } from './lib/layout-geometry.ts';
import type { Dataset, Pool, VdevNode } from '../server/src/model/inventory.ts';
import { datasetsOfPool } from './lib/inventory-index.ts';

/** Fire when a block size reaches less than this share of the nominal efficiency (C5: small blocks approach mirror overhead). */
export const MIN_RELATIVE_EFFICIENCY = 0.85;
/** Below this share it is a warning: the layout stores these blocks no better than a mirror would (C5). */
export const BAD_RELATIVE_EFFICIENCY = 0.6;
/** Block sizes offered as the fix, tried from small to large: the smallest that stores well wins. */
const CANDIDATE_SIZES = [16384, 32768, 65536, 131072];

interface Hit { v: VdevNode; eff: number; nominal: number; ashift: number; known: boolean }

/** The worst-stored vdev of the pool for this block size. */
function worst(pool: Pool, block: number): Hit | null {
  let out: Hit | null = null;
  for (const v of realTopLevel(pool, 'data').filter(isParityVdev)) {
    const { ashift, known } = ashiftOf(v, pool);
    const e = blockEfficiency(v, block, ashift);
    if (!e) continue;
    if (!out || e.efficiency / e.nominal < out.eff / out.nominal) out = { v, eff: e.efficiency, nominal: e.nominal, ashift, known };
  }
  return out;
}

function betterSize(hit: Hit, current: number): number | null {
  for (const s of CANDIDATE_SIZES) {
    if (s <= current) continue;
    const e = blockEfficiency(hit.v, s, hit.ashift);
    if (e && e.efficiency / e.nominal >= 0.95) return s;
  }
  return null;
}

const blockOf = (d: Dataset): number | null => (d.type === 'volume' ? d.volblocksize : d.recordsize);

export default defineRule({
  meta: {
    id: 'raidz-small-block-padding',
    title: 'Small blocks on raidz waste space to parity and padding',
    category: 'capacity',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Pools', 'Datasets'],
    description:
      'raidz stores each block with its own parity sectors and pads the allocation to a multiple of parity + 1, so a small volblocksize or recordsize can use as much raw space as a mirror, and `zfs list` shows USED larger than the data written. Learn more: [raidz space, padding and resilience: Small blocks cost mirror-like space](docs/kb/raidz-space.md#small-blocks-cost-mirror-like-space).',
    citations: [kb('raidz-space', 'Small blocks cost mirror-like space'), fact('C1'), fact('C3'), fact('C5'), fact('C-T1'), fact('C-T2'), fact('C28'), man('zfsprops', 7, 'volblocksize')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Datasets }) {
    const findings: FindingDraft[] = [];
    const parityPools = Pools.filter((p) => realTopLevel(p, 'data').some(isParityVdev));
    if (parityPools.length === 0) return notApplicable('No raidz or dRAID data vdevs.');
    for (const pool of parityPools) {
      const mine = datasetsOfPool(Datasets, pool.name);
      const hits = new Map<string, Hit>();
      const judged = (d: Dataset): boolean => {
        const b = blockOf(d);
        if (b == null) return false;
        const h = worst(pool, b);
        if (!h || h.eff / h.nominal >= MIN_RELATIVE_EFFICIENCY) return false;
        hits.set(d.name, h);
        return true;
      };
      const zvols = reportOnce(mine.filter((d) => d.type === 'volume'), 'volblocksize', judged);
      const fss = reportOnce(mine.filter((d) => d.type === 'filesystem'), 'recordsize', judged);
      for (const { dataset: d, inheritedBy } of [...zvols, ...fss]) {
        const h = hits.get(d.name)!;
        const block = blockOf(d)!;
        const rel = h.eff / h.nominal;
        const prop = d.type === 'volume' ? 'volblocksize' : 'recordsize';
        const better = betterSize(h, block);
        const kib = fmtKiB(block);
        findings.push({
          severity: rel < BAD_RELATIVE_EFFICIENCY ? 'warning' : 'suggestion',
          title: `${prop}=${kib} on ${vdevLabel(h.v)} stores ${d.name} at ${fmtPct(h.eff)} efficiency instead of ${fmtPct(h.nominal)}`,
          subject: { kind: 'dataset', id: d.name, pool: pool.name },
          evidence: [
            { label: prop, value: block, unit: 'bytes' },
            { label: 'vdev', value: vdevLabel(h.v) },
            { label: 'ashift', value: h.ashift },
            { label: 'space efficiency for this block size', value: Number((h.eff * 100).toFixed(1)), unit: '%' },
            { label: 'nominal efficiency of the layout', value: Number((h.nominal * 100).toFixed(1)), unit: '%' },
            { label: 'raw bytes allocated per logical byte', value: Number((1 / h.eff).toFixed(2)) },
            ...(inheritedBy.length > 0 ? [{ label: 'also inherited by', value: inheritedBy.join(', ') }] : []),
          ],
          explanation:
            `Each ${kib} block on ${h.v.name} gets its own parity sectors and is padded to a multiple of parity + 1 sectors (ashift ${h.ashift}${h.known ? '' : ', assumed'}), so only ${fmtPct(h.eff)} of the space it allocates holds data, against ${fmtPct(h.nominal)} for large blocks (exact allocation formula). ` +
            `That is ${(1 / h.eff).toFixed(2)}× raw space per byte written; \`zfs list\` charges it as more USED than written. Small blocks also forfeit compression and need more metadata.` +
            (better ? ` A ${prop} of ${fmtKiB(better)} reaches at least 95 % of the nominal efficiency on this vdev.` : '') +
            (d.type === 'filesystem' ? ' For a filesystem this only matters when files are written in blocks this small; many small files produce small blocks whatever recordsize says.' : ''),
          action: d.type === 'volume'
            ? {
                summary: `volblocksize is fixed at creation: create a new zvol with a larger volblocksize${better ? ` (${fmtKiB(better)})` : ''} and copy the data with the consumer stopped.`,
                commands: [
                  `zfs create -s -V ${d.volsize ?? '<size>'} -o volblocksize=${better ? fmtKiB(better) : '64K'} ${d.name}-new`,
                  `dd if=/dev/zvol/${d.name} of=/dev/zvol/${d.name}-new bs=1M oflag=direct status=progress`,
                ],
                reversible: 'partly',
                reversibleWhy: 'The old zvol stays until you destroy it; after that the change is permanent. Larger blocks mean read-modify-write for smaller guest I/O.',
              }
            : {
                summary: `Raise recordsize${better ? ` to ${fmtKiB(better)}` : ''}; it applies to files written afterwards.`,
                commands: [`zfs set recordsize=${better ? fmtKiB(better) : '128K'} ${d.name}`],
                reversible: 'yes',
                reversibleWhy: 'recordsize can be set back at any time; existing files keep their block size until rewritten.',
              },
          confidence: h.known ? 'high' : 'medium',
        });
      }
    }
    return fired(findings);
  },
});

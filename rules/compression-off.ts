/**
 * compression=off: lz4 costs little CPU, aborts early on incompressible data and usually makes
 * hard-disk pools faster as well as smaller.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import type { Dataset } from '../server/src/model/inventory.ts';
import { DOC_001, doc, fact, kb, man } from './lib/layout-citations.ts';
import { reportOnce } from './lib/layout-dataset-props.ts';
import { ASSUMED_ASHIFT, fmtKiB } from './lib/layout-geometry.ts';

/** lz4 keeps a compressed block only when it saves ≥ 12.5 % after rounding to the sector size (B4; 001 "early abort"). */
export const MIN_SAVING = 0.125;

export default defineRule({
  meta: {
    id: 'compression-off',
    title: 'Compression turned off',
    category: 'workload',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Datasets'],
    optionalArtifacts: ['Pools'],
    description:
      'lz4 compression is cheap, gives up early on incompressible data and reduces what slow disks must read and write; the calomel.org raidz tests measured large speed-ups and recommends it everywhere, and OpenZFS turns it on by default since 2.2. Learn more: [raidz space, padding and resilience: Compression](docs/kb/raidz-space.md#compression).',
    citations: [kb('raidz-space', 'Compression'), doc(DOC_001, 'To compress, or not to compress, that is the question'), fact('C25'), fact('C26'), fact('B4'), man('zfsprops', 7, 'compression')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Datasets, Pools }) {
    const candidates = Datasets.filter((d) => d.type === 'filesystem' || d.type === 'volume');
    if (candidates.every((d) => d.compression === null)) return notApplicable('Compression setting unknown for every dataset.');
    const heads = reportOnce(candidates, 'compression', (d) => d.compression === 'off');
    const byPool = new Map<string, Head[]>();
    for (const h of heads) {
      const list = byPool.get(h.dataset.pool);
      if (list) list.push(h); else byPool.set(h.dataset.pool, [h]);
    }
    const findings: FindingDraft[] = [];
    for (const [poolName, list] of byPool) {
      const pool = Pools?.find((p) => p.name === poolName);
      const sector = 2 ** (pool?.ashift && pool.ashift > 0 ? pool.ashift : ASSUMED_ASHIFT);
      if (list.length > GROUP_ABOVE) findings.push(grouped(poolName, list, sector));
      else for (const h of list) findings.push(single(h, sector));
    }
    return fired(findings);
  },
});

type Head = { dataset: Dataset; inheritedBy: string[] };

const WHY =
  'lz4 costs little CPU and aborts early on data it cannot shrink by at least 12.5 %, so already-compressed media loses almost nothing, while text, databases and VM images usually shrink — and every byte not written is a byte the disks need not move (the calomel.org raidz tests measured hard-disk pools several times faster with lz4 and says "Always use LZ4 compression"). ' +
  'OpenZFS enables it by default since 2.2. ';
const REVERSIBLE = { reversible: 'yes' as const, reversibleWhy: '`zfs set compression=off` reverts it; existing blocks stay as written either way.' };

const blockOf = (d: Dataset): number | null => (d.type === 'volume' ? d.volblocksize : d.recordsize);
/** A block can only shrink by whole sectors, and must save ≥ 12.5 % (B4, C26). */
const canShrink = (block: number | null, sector: number): boolean => block === null || block - sector >= block * MIN_SAVING;

function single({ dataset: d, inheritedBy }: Head, sector: number): FindingDraft {
  const block = blockOf(d);
  const shrinks = canShrink(block, sector);
  const ashift = Math.log2(sector);
  return {
    severity: shrinks ? 'suggestion' : 'info',
    title: `compression=off on ${d.name}`,
    subject: { kind: 'dataset', id: d.name, pool: d.pool },
    evidence: [
      { label: 'compression', value: 'off' },
      { label: 'set at', value: d.properties.compression?.source ?? null },
      { label: 'inherited by', value: inheritedBy.length > 0 ? inheritedBy.join(', ') : null },
      { label: d.type === 'volume' ? 'volblocksize' : 'recordsize', value: block, unit: 'bytes' },
      { label: 'sector size (2^ashift)', value: sector, unit: 'bytes' },
    ],
    explanation: WHY +
      (block !== null
        ? shrinks
          ? `Compression works in whole ${fmtKiB(sector)} sectors (ashift ${ashift}): a ${fmtKiB(block)} block must compress to ${fmtKiB(block - sector)} or less to save anything.`
          : `Note: with ${fmtKiB(block)} blocks and ${fmtKiB(sector)} sectors a block can never shrink by a whole sector and 12.5 %, so compression gains nothing here until the block size is raised.`
        : ''),
    action: { summary: 'Enable lz4; it applies to blocks written afterwards.', commands: [`zfs set compression=lz4 ${d.name}`], ...REVERSIBLE },
    confidence: shrinks ? 'high' : 'medium',
  };
}

/**
 * Many datasets of one pool with compression=off each set on its own (a script or template
 * created them so): one finding for the pool, naming every dataset, instead of one each.
 */
function grouped(pool: string, heads: Head[], sector: number): FindingDraft {
  const names = heads.map((h) => h.dataset.name);
  const useful = heads.filter((h) => canShrink(blockOf(h.dataset), sector));
  const inheriting = heads.reduce((n, h) => n + h.inheritedBy.length, 0);
  return {
    severity: useful.length > 0 ? 'suggestion' : 'info',
    title: `compression=off on ${heads.length} datasets of ${pool}`,
    subject: { kind: 'pool', id: pool, pool },
    evidence: [
      { label: 'compression', value: 'off' },
      { label: 'datasets where it is set', value: heads.length },
      { label: 'datasets inheriting it from them', value: inheriting },
      { label: 'datasets whose block size lets compression save space', value: useful.length },
      { label: 'sector size (2^ashift)', value: sector, unit: 'bytes' },
      { label: 'datasets', value: names.length > LIST_AT_MOST ? `${names.slice(0, LIST_AT_MOST).join(', ')} … and ${names.length - LIST_AT_MOST} more (all in the commands)` : names.join(', ') },
    ],
    explanation: WHY +
      `Each of these ${heads.length} datasets sets compression=off itself, so turning it on for the pool's root alone changes none of them: each needs its own \`zfs set\`` +
      (useful.length < heads.length ? `; on ${heads.length - useful.length} of them the block size is too small for compression to save a whole ${fmtKiB(sector)} sector, so those gain nothing until the block size is raised.` : '.'),
    action: { summary: `Enable lz4 on each of the ${heads.length} datasets; it applies to blocks written afterwards.`, commands: names.map((n) => `zfs set compression=lz4 ${n}`), ...REVERSIBLE },
    confidence: 'high',
  };
}

/** More datasets than this in one pool make one finding for the pool. */
export const GROUP_ABOVE = 5;
const LIST_AT_MOST = 20;

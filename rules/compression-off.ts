/**
 * compression=off: lz4 costs little CPU, aborts early on incompressible data and usually makes
 * hard-disk pools faster as well as smaller.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
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
    const findings: FindingDraft[] = [];
    for (const { dataset: d, inheritedBy } of heads) {
      const block = d.type === 'volume' ? d.volblocksize : d.recordsize;
      const pool = Pools?.find((p) => p.name === d.pool);
      const ashift = pool?.ashift && pool.ashift > 0 ? pool.ashift : ASSUMED_ASHIFT;
      const sector = 2 ** ashift;
      // A block can only shrink by whole sectors, and must save ≥ 12.5 % (B4, C26).
      const canShrink = block === null || block - sector >= block * MIN_SAVING;
      findings.push({
        severity: canShrink ? 'suggestion' : 'info',
        title: `compression=off on ${d.name}`,
        subject: { kind: 'dataset', id: d.name, pool: d.pool },
        evidence: [
          { label: 'compression', value: 'off' },
          { label: 'set at', value: d.properties.compression?.source ?? null },
          { label: 'inherited by', value: inheritedBy.length > 0 ? inheritedBy.join(', ') : null },
          { label: d.type === 'volume' ? 'volblocksize' : 'recordsize', value: block, unit: 'bytes' },
          { label: 'sector size (2^ashift)', value: sector, unit: 'bytes' },
        ],
        explanation:
          'lz4 costs little CPU and aborts early on data it cannot shrink by at least 12.5 %, so already-compressed media loses almost nothing, while text, databases and VM images usually shrink — and every byte not written is a byte the disks need not move (the calomel.org raidz tests measured hard-disk pools several times faster with lz4 and says "Always use LZ4 compression"). ' +
          'OpenZFS enables it by default since 2.2. ' +
          (block !== null
            ? canShrink
              ? `Compression works in whole ${fmtKiB(sector)} sectors (ashift ${ashift}): a ${fmtKiB(block)} block must compress to ${fmtKiB(block - sector)} or less to save anything.`
              : `Note: with ${fmtKiB(block)} blocks and ${fmtKiB(sector)} sectors a block can never shrink by a whole sector and 12.5 %, so compression gains nothing here until the block size is raised.`
            : ''),
        action: {
          summary: 'Enable lz4; it applies to blocks written afterwards.',
          commands: [`zfs set compression=lz4 ${d.name}`],
          reversible: 'yes',
          reversibleWhy: '`zfs set compression=off` reverts it; existing blocks stay as written either way.',
        },
        confidence: canShrink ? 'high' : 'medium',
      });
    }
    return fired(findings);
  },
});

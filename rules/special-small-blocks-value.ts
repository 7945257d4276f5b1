/**
 * special_small_blocks per dataset: the largest threshold whose projected special usage stays
 * under the 75 % cut-off (from a size histogram), and the two traps: a value ≥ recordsize sends
 * the whole dataset to special; before 2.4 a zvol cannot take it (zfs refuses the property on volumes,
 * and zvol data never qualified).
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import type { Dataset, Pool } from '../server/src/model/inventory.ts';
import type { SizeHistogram } from '../server/src/model/workload.ts';
import { DOC_000, DOC_003, OPENZFS_SPECIAL_DOC, doc, fact, kb, man } from './lib/slog-citations.ts';
import { SMALL_BLOCK_CUTOFF, classFill } from './lib/special-class.ts';
import { gib, hasSpecial } from './lib/slog-devices.ts';
import { atLeast } from './engine/version.ts';

/**
 * Projected special usage must stay under this share of its capacity (the 75 % cut-off, B7).
 * zfs-facts' cheat-sheet is more conservative (~50 % of the space left after metadata) [heuristic].
 */
export const TARGET_FILL = SMALL_BLOCK_CUTOFF;

const kib = (b: number) => (b >= 1024 ? `${b / 1024}K` : `${b}`);
const blockSize = (d: Dataset) => (d.type === 'volume' ? d.volblocksize : d.recordsize);

export function bestThreshold(h: SizeHistogram, d: Dataset, pool: Pool): { value: number; projected: number; capacity: number } | null {
  const fill = classFill(pool, 'special');
  if (!fill) return null;
  const bs = blockSize(d) ?? h.recordsize;
  const current = d.specialSmallBlocks ?? 0;
  const currentShare = h.candidates.find((c) => c.specialSmallBlocks === current)?.totalBytes ?? 0;
  const base = fill.allocBytes - Math.min(currentShare, fill.allocBytes);
  const ok = h.candidates
    .filter((c) => c.specialSmallBlocks < bs) // B10: ≥ recordsize would move the whole dataset
    .filter((c) => base + c.totalBytes <= TARGET_FILL * fill.sizeBytes)
    .sort((a, b) => b.specialSmallBlocks - a.specialSmallBlocks)[0];
  if (!ok) return null;
  return { value: ok.specialSmallBlocks, projected: base + ok.totalBytes, capacity: fill.sizeBytes };
}

export default defineRule({
  meta: {
    id: 'special-small-blocks-value',
    title: 'special_small_blocks value per dataset',
    category: 'special',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Pools', 'Datasets'],
    optionalArtifacts: ['SizeHistograms', 'Host'],
    description:
      'special_small_blocks sends data blocks whose compressed physical size is ≤ the threshold to the special vdev. Chosen from a block/file size histogram it puts small files on flash without filling the special vdev past the 75 % cut-off; set ≥ recordsize it sends the whole dataset there; before OpenZFS 2.4 a zvol cannot take it. Learn more: [special_small_blocks: Choosing a threshold from a histogram](docs/kb/special-small-blocks.md#choosing-a-threshold-from-a-histogram).',
    citations: [kb('special-small-blocks', 'Choosing a threshold from a histogram'), fact('B3'), fact('B5'), fact('B7'), fact('B10'), fact('B12'), fact('G5'), doc(DOC_000, 'special_small_blocks from the file-size histogram'), man('zfsprops', 7, 'special_small_blocks')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Datasets, SizeHistograms, Host }) {
    const findings: FindingDraft[] = [];
    const pools = new Map(Pools.filter(hasSpecial).map((p) => [p.name, p]));
    if (pools.size === 0) return notApplicable('No pool has a special vdev.');
    const v = Host?.zfs.openzfs ?? null;
    for (const d of Datasets) {
      const pool = pools.get(d.pool);
      if (!pool || (d.type !== 'filesystem' && d.type !== 'volume')) continue;
      const ssb = d.specialSmallBlocks ?? 0;
      const bs = blockSize(d);
      const local = d.properties['special_small_blocks']?.source === 'local' || Object.keys(d.properties).length === 0;
      // Trap 1: zvols before 2.4 (B12). OpenZFS 2.3.9 refuses the property on a volume (lab case
      // 'special_small_blocks on a dataset … and on a zvol'), so a local value here comes from a newer
      // system or a misread version: say what it means there rather than stay silent.
      if (d.type === 'volume' && ssb > 0 && !atLeast(v, '2.4') && local) {
        findings.push({
          severity: 'info',
          title: `${d.name}: special_small_blocks on a zvol needs OpenZFS 2.4`,
          subject: { kind: 'dataset', id: d.name, pool: d.pool },
          evidence: [{ label: 'special_small_blocks', value: ssb, unit: 'B' }, { label: 'OpenZFS', value: v ?? 'unknown' }],
          explanation: `On OpenZFS ≤ 2.3 only file data qualifies for special_small_blocks, and \`zfs set\` refuses the property on a volume ("valid for filesystems but invalid for volumes"): zvol data blocks always go to the data vdevs, only the zvol's metadata lands on special. 2.4 made zvol data opt-in.${v === null ? ' The OpenZFS version is unknown, so this may not apply.' : ''}`,
          action: { summary: 'Expect no small-block effect on this zvol until the pool runs OpenZFS 2.4+.', commands: [`zfs get special_small_blocks,volblocksize ${d.name}`], reversible: 'yes', reversibleWhy: 'Nothing to change.' },
          confidence: v === null ? 'low' : 'high',
        });
        continue;
      }
      // Trap 2: ≥ block size sends every data block to special (B10).
      if (bs !== null && ssb > 0 && ssb >= bs && local) {
        const fill = classFill(pool, 'special');
        findings.push({
          severity: 'warning',
          title: `${d.name}: special_small_blocks=${kib(ssb)} ≥ ${d.type === 'volume' ? 'volblocksize' : 'recordsize'} ${kib(bs)} puts the whole dataset on special`,
          subject: { kind: 'dataset', id: d.name, pool: d.pool },
          evidence: [
            { label: 'special_small_blocks', value: ssb, unit: 'B' },
            { label: d.type === 'volume' ? 'volblocksize' : 'recordsize', value: bs, unit: 'B' },
            { label: 'dataset used', value: d.usedBytes === null ? 'unknown' : Math.round(d.usedBytes / 2 ** 30), unit: d.usedBytes === null ? null : 'GiB' },
            ...(fill ? [{ label: 'special class free', value: Math.round((fill.sizeBytes - fill.allocBytes) / 2 ** 30), unit: 'GiB' }] : []),
          ],
          explanation:
            `Every block of ${d.name} is at most ${kib(bs)}, so with a threshold of ${kib(ssb)} all of its data goes to the special vdev until the class reaches 75 % and the rest spills to the data vdevs. ` +
            'That is right only when you want this dataset on flash on purpose (the napp-it benchmarks, §4, do exactly that for a VM/database filesystem) and the special vdev is sized for it.',
          action: {
            summary: 'If this is not intended, lower the threshold below the record size (e.g. 16K–64K, from a size histogram).',
            commands: [`zfs-advisor sizes ${d.name}`, `zfs set special_small_blocks=${kib(Math.min(64 * 1024, bs / 2))} ${d.name}`],
            reversible: 'partly',
            reversibleWhy: 'The property can be changed back at once, but it affects only newly written blocks; blocks already on special stay there until rewritten.',
          },
          citations: [kb('special-small-blocks', 'Choosing a threshold from a histogram'), fact('B7'), fact('B9'), fact('B10'), fact('G5'), doc(DOC_003, '§4: special_small_blocks = recordsize'), man('zfsprops', 7, 'special_small_blocks')],
          confidence: 'high',
        });
        continue;
      }
      // Recommendation from a histogram.
      const h = (SizeHistograms ?? []).find((x) => x.dataset === d.name);
      if (!h || h.candidates.length === 0) continue;
      const best = bestThreshold(h, d, pool);
      if (!best || best.value === ssb) continue;
      const cand = h.candidates.find((c) => c.specialSmallBlocks === best.value)!;
      findings.push({
        title: `${d.name}: special_small_blocks=${kib(best.value)} fits the special vdev`,
        subject: { kind: 'dataset', id: d.name, pool: d.pool },
        evidence: [
          { label: 'current special_small_blocks', value: ssb, unit: 'B' },
          { label: 'recommended', value: best.value, unit: 'B' },
          { label: 'small blocks at that threshold', value: Math.round((cand.smallBlockBytes / 2 ** 30) * 100) / 100, unit: 'GiB' },
          { label: 'projected special usage', value: Math.round((best.projected / 2 ** 30) * 10) / 10, unit: 'GiB' },
          { label: 'special capacity', value: Math.round(best.capacity / 2 ** 30), unit: 'GiB' },
          { label: 'histogram method', value: h.method },
        ],
        explanation:
          `From the ${h.method === 'zdb' ? 'zdb block-size' : 'file-size'} histogram of ${h.target} (${h.files} files), a threshold of ${kib(best.value)} would place ${gib(cand.smallBlockBytes)} of small blocks on special, projecting ${gib(best.projected)} of ${gib(best.capacity)} — the largest candidate that stays under the 75 % cut-off and below the ${kib(blockSize(d) ?? h.recordsize)} record size. ` +
          'The threshold is compared per block with the compressed physical size, not the file size; a file-size histogram therefore over-estimates slightly for compressible data. A published Optane setup chose 16K the same way and used 11.9 GB for 3.74 TB.',
        action: {
          summary: `Set special_small_blocks=${kib(best.value)} on ${d.name}; existing data moves only when rewritten.`,
          commands: [`zfs set special_small_blocks=${kib(best.value)} ${d.name}`],
          reversible: 'partly',
          reversibleWhy: 'The property can be changed back, but blocks written to special meanwhile stay there until rewritten.',
        },
        citations: [kb('special-small-blocks', 'Choosing a threshold from a histogram'), fact('B3'), fact('B5'), fact('B7'), fact('B9'), fact('B10'), fact('B26'), doc(DOC_000, 'file-size histogram → 16K'), man('zfsprops', 7, 'special_small_blocks'), OPENZFS_SPECIAL_DOC],
        confidence: h.method === 'zdb' ? 'high' : 'medium',
      });
    }
    return fired(findings);
  },
});

/**
 * An HDD pool without a special vdev whose workload is metadata-heavy or full of small files:
 * a mirrored SSD/Optane special vdev would serve metadata (and chosen small blocks) from flash.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import type { Confidence } from '../server/src/model/finding.ts';
import { DOC_000, DOC_003, OPENZFS_SPECIAL_DOC, doc, fact, kb } from './lib/slog-citations.ts';
import { NEEDS_OBSERVATION } from './lib/slog-evidence.ts';
import { gib, hasSpecial, isSlowDataPool } from './lib/slog-devices.ts';
import { dataTolerance } from './lib/special-class.ts';
import { newDevice } from './lib/commands.ts';

/** Metadata share of demand ARC misses above which the pool is "metadata-heavy" [heuristic]. */
export const METADATA_MISS_SHARE = 0.3;
/** Minimum demand metadata misses since boot before the share means anything [heuristic noise floor]. */
export const MIN_METADATA_MISSES = 100_000;
/** Share of files ≤ 64 KiB above which a dataset is "many small files" [heuristic]. */
export const SMALL_FILE_SHARE = 0.5;
export const SMALL_FILE_BYTES = 65_536;
/**
 * Observed request sizes (`zpool iostat -r`, fingerprint smallReadShare / smallWriteShare: share of
 * physical I/Os below 32 KiB). Above this share the pool's disks mostly serve small blocks, which on
 * an HDD cost a seek each: metadata always lives on special (B1) and small data blocks can
 * (special_small_blocks, B3, B5) [heuristic: majority of I/Os; no document gives a threshold].
 */
export const SMALL_IO_SHARE = 0.5;
/** Below this many I/Os per second the shares describe an idle pool, not a workload [heuristic noise floor]. */
export const MIN_SMALL_IO_RATE = 10;

/**
 * Special space per allocated byte [heuristic, one data point]: 000 measured 11.9 GB on special for
 * 3.74 TB of data with special_small_blocks=16K (0.32 %). B26: ratios vary by an order of magnitude.
 */
export const SPECIAL_RATIO_000 = 11.9e9 / 3.74e12;
/** Headroom: growth ×2 and the 75 % small-block cut-off (B7, B25). */
export const GROWTH_FACTOR = 2;

export default defineRule({
  meta: {
    id: 'special-benefit',
    title: 'A special vdev would help this HDD pool',
    category: 'special',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Pools', 'Drives'],
    optionalArtifacts: ['Workload', 'ArcStats', 'SizeHistograms', 'Host'],
    description:
      'On hard-disk pools every metadata miss costs a seek. A mirrored SSD/Optane special vdev holds all metadata (and optionally small blocks), which speeds up directory walks, many-small-file workloads, scrubs and resilvers; it is usually a bigger win than L2ARC. It does not help sequential media streaming. Learn more: [Special vdevs: What lands on a special vdev](docs/kb/special-vdev.md#what-lands-on-a-special-vdev).',
    citations: [kb('special-vdev', 'What lands on a special vdev'), fact('B1'), fact('B26'), fact('B27'), doc(DOC_003, '§11, §12'), doc(DOC_000, 'special vdev metadata walk'), OPENZFS_SPECIAL_DOC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Workload, ArcStats, SizeHistograms, Host }) {
    const findings: FindingDraft[] = [];
    const targets = Pools.filter((p) => !hasSpecial(p) && isSlowDataPool(p, Drives));
    if (targets.length === 0) return notApplicable('No HDD pool without a special vdev.');
    const unjudged: string[] = [];
    for (const pool of targets) {
      const signals: string[] = [];
      const histograms = (SizeHistograms ?? []).filter((x) => x.pool === pool.name || (x.dataset ?? '').split('/')[0] === pool.name);
      const observedPool = Workload?.pools.find((p) => p.pool === pool.name);
      const hasSizes = observedPool !== undefined && (observedPool.smallReadShare !== null || observedPool.smallWriteShare !== null);
      // No ARC counters, no observed ARC misses or request sizes and no size histogram: nothing to judge the benefit on.
      if (!ArcStats && !Workload?.arc && !hasSizes && histograms.length === 0) { unjudged.push(pool.name); continue; }
      const evidence: FindingDraft['evidence'] = [];
      let confidence: Confidence = 'low';
      const w = Workload?.arc;
      if (w && w.metadataShareOfMisses !== null && w.metadataShareOfMisses >= METADATA_MISS_SHARE) {
        signals.push(`observed: ${Math.round(w.metadataShareOfMisses * 100)} % of ARC demand misses were metadata${w.metadataMissesPerSec !== null ? ` (${Math.round(w.metadataMissesPerSec)}/s)` : ''}`);
        evidence.push({ label: 'metadata share of ARC misses (observed)', value: Math.round(w.metadataShareOfMisses * 100), unit: '%' });
        confidence = 'high';
      } else if (ArcStats) {
        const mm = ArcStats.counters['demand_metadata_misses'] ?? 0;
        const dm = ArcStats.counters['demand_data_misses'] ?? 0;
        if (mm >= MIN_METADATA_MISSES && mm / (mm + dm) >= METADATA_MISS_SHARE) {
          signals.push(`since boot ${Math.round((mm / (mm + dm)) * 100)} % of ARC demand misses (${mm}) were metadata`);
          evidence.push({ label: 'metadata share of ARC demand misses (since boot)', value: Math.round((mm / (mm + dm)) * 100), unit: '%' });
          confidence = 'medium';
        }
      }
      if (observedPool) {
        const small = [
          { what: 'read', share: observedPool.smallReadShare, rate: observedPool.readIops },
          { what: 'write', share: observedPool.smallWriteShare, rate: observedPool.writeIops },
        ].filter((x): x is { what: string; share: number; rate: number } => x.share !== null && x.share >= SMALL_IO_SHARE && x.rate * x.share >= MIN_SMALL_IO_RATE);
        for (const x of small) {
          signals.push(`observed: ${Math.round(x.share * 100)} % of ${x.what} I/Os were below 32 KiB (${Math.round(x.rate * x.share)}/s over ${Math.round(Workload!.windowSeconds)} s)`);
          evidence.push({ label: `${x.what} I/Os below 32 KiB (observed)`, value: Math.round(x.share * 100), unit: '%' });
        }
        // Request sizes say "small blocks" but not whether they are metadata or data: medium unless ARC said metadata.
        if (small.length > 0 && confidence === 'low') confidence = 'medium';
      }
      for (const h of histograms) {
        const small = h.fileBins.filter((b) => b.upperBytes <= SMALL_FILE_BYTES).reduce((s, b) => s + b.count, 0);
        if (h.files > 0 && small / h.files >= SMALL_FILE_SHARE) {
          signals.push(`${Math.round((small / h.files) * 100)} % of the ${h.files} files in ${h.target} are ≤ 64 KiB`);
          evidence.push({ label: `files ≤ 64 KiB in ${h.target}`, value: Math.round((small / h.files) * 100), unit: '%' });
          if (confidence === 'low') confidence = 'medium';
        }
      }
      if (signals.length === 0) continue;
      const alloc = pool.allocBytes ?? 0;
      const size = Math.max(alloc * SPECIAL_RATIO_000 * GROWTH_FACTOR / 0.75, 32 * 2 ** 30);
      const sides = (dataTolerance(pool) ?? 1) + 1;
      const devs = Array.from({ length: sides }, (_, i) => `${newDevice(Host, `ssd-${i + 1}`)}`).join(' ');
      findings.push({
        title: `${pool.name}: a mirrored special vdev would take metadata off the disks`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          ...evidence,
          { label: 'pool allocated', value: Math.round(alloc / 2 ** 30), unit: 'GiB' },
          { label: 'suggested special size (heuristic)', value: Math.round(size / 2 ** 30), unit: 'GiB' },
          { label: 'mirror width to match data redundancy', value: sides },
        ],
        explanation:
          `${pool.name} is on hard disks and has no special vdev; ${signals.join('; ')}. Metadata on flash makes every first access, directory walk, scrub and resilver faster: a published Optane test measured a metadata walk 90 % faster with a P1600X special vdev, and the napp-it allocation-class benchmarks (§11) list large pools with random access and many small files as the winning case. ` +
          'It does not help sequential streaming (the napp-it allocation-class benchmarks, §12.1), and a RAM-cached small working set gains little (§12.2). ' +
          `Size [heuristic]: a published Optane setup used 0.32 % of its data (11.9 GB for 3.74 TB with special_small_blocks=16K); ×${GROWTH_FACTOR} growth and the 75 % cut-off give ~${gib(size)} here, but OpenZFS says sizing is hard to predict — measure with \`zfs-advisor sizes\` or \`zdb -bb\` first. ` +
          `It must be a ${sides}-way mirror to match the data vdevs: losing it loses the pool. Existing metadata moves only when rewritten. ` +
          (confidence === 'high' || Workload ? '' : NEEDS_OBSERVATION),
        action: {
          summary: `Add a ${sides}-way mirror of PLP SSDs or Optane (≥ ${gib(size)} each) as special vdev; test with -n and take a checkpoint first.`,
          commands: [`zpool checkpoint ${pool.name}`, `zpool add -n ${pool.name} special mirror ${devs}`, `zpool add ${pool.name} special mirror ${devs}`],
          reversible: 'partly',
          reversibleWhy: 'Removable only if the pool has no raidz/dRAID vdev and one ashift everywhere; otherwise it is permanent.',
        },
        citations: [kb('special-vdev', 'What lands on a special vdev'), fact('B1'), fact('B3'), fact('B5'), fact('B7'), fact('B9'), fact('B13'), fact('B17'), fact('B25'), fact('B26'), fact('B27'), doc(DOC_000, 'special vdev test: 37.2 s → 3.25 s; 11.9 GB used'), doc(DOC_003, '§11, §12'), OPENZFS_SPECIAL_DOC],
        confidence,
      });
    }
    if (findings.length > 0) return fired(findings);
    if (unjudged.length === targets.length) {
      return notApplicable(`Cannot judge a special vdev for ${unjudged.join(', ')}: no ARC statistics, no workload observation and no size histogram. Run \`zfs-advisor observe --duration 10m\` (ARC metadata misses) or \`zfs-advisor sizes ${unjudged[0]}\` (file sizes).`);
    }
    return { status: 'passed', message: `No metadata-heavy or small-file evidence on the HDD pools${unjudged.length > 0 ? ` (not judged, no evidence: ${unjudged.join(', ')})` : ''}. ${NEEDS_OBSERVATION}` };
  },
});

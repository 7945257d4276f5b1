/**
 * The exact method (issue 8 §2): a SizeHistogram from `zdb -Lbbbs POOL`, shown beside the walk.
 * Block bins are zdb's psize column (what special_small_blocks compares, B3); the histogram counts
 * metadata and indirect blocks too (F7), so small-block bytes have the Metadata Total psize removed
 * and metadata is charged at psize × 2 copies (B20) — an estimate, said so in metadataBasis.
 */
import { SizeHistogram } from '../model/workload.ts';
import { psizeAtOrBelow, type ZdbBlockStats } from '../parsers/zdb-block-stats.ts';
import { candidateThresholds } from './histogram.ts';
import { factLinks } from '../../../rules/lib/citations.ts';

export function histogramFromZdb(pool: string, stats: ZdbBlockStats, recordsize: number, ashift: number, capturedAt: string): SizeHistogram {
  let cumulativeBytes = 0;
  let cumulativeCount = 0;
  const blockBins = stats.rows.map((r) => {
    cumulativeBytes += r.psize.bytes;
    cumulativeCount += r.psize.count;
    // ≤ 2.3 row T holds [T, 2T): its upper edge is 2T (exclusive); 2.4+ row T holds (T/2, T].
    const upperBytes = stats.binning === 'fits-into' ? r.sizeBytes : r.sizeBytes * 2;
    return { upperBytes, count: r.psize.count, bytes: r.psize.bytes, cumulativeBytes, cumulativeCount };
  });
  const metaPsize = stats.metadataTotal?.psize ?? 0;
  const metadataBytes = metaPsize * 2;
  const candidates = candidateThresholds(recordsize).map((t) => {
    const small = Math.max(0, psizeAtOrBelow(stats, t).bytes - (t === 0 ? 0 : metaPsize));
    return { specialSmallBlocks: t, smallBlockBytes: small, metadataBytes, totalBytes: small + metadataBytes };
  });
  const notes = [
    stats.binning === 'fits-into'
      ? 'zdb ≥ 2.4 binning: row T holds blocks in (T/2, T], so "≤ T" is exact (' + factLinks('F5') + ')'
      : `zdb ${stats.binning === 'unknown' ? 'of unknown version, read as ' : ''}≤ 2.3 binning: row T holds [T, 2T), so "≤ T" is given as a lower bound (rows below T) (${factLinks('F5', 'G6')})`,
    'zdb counts every block of the pool, metadata and indirect blocks included (' + factLinks('F7') + ')',
  ];
  if (!stats.metadataTotal) notes.push('no "Metadata Total" row (zdb < 2.2 or -bb missing): metadata not subtracted, small-block bytes over-stated');
  return SizeHistogram.parse({
    target: pool, dataset: null, pool, method: 'zdb', recordsize, ashift,
    files: 0, totalBytes: cumulativeBytes, fileBins: [], blockBins, candidates,
    metadataBasis: stats.metadataTotal
      ? 'zdb Metadata Total PSIZE × 2 copies (redundant_metadata=all, ' + factLinks('B20', 'B26') + '); not re-rounded to the special vdev ashift'
      : 'unknown: zdb printed no Metadata Total row',
    capturedAt, notes,
  });
}

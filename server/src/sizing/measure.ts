/**
 * `sizes` as a function: walk a directory and return the SizeHistogram artifact (model/workload.ts)
 * with the special-class projection per candidate `special_small_blocks` and plain-language notes.
 */
import { SizeHistogram } from '../model/workload.ts';
import { METADATA_BASIS, projectCandidates, toBins } from './histogram.ts';
import { walkTree, type WalkOptions, type WalkStats } from './walker.ts';

export interface MeasureOptions extends WalkOptions {
  dataset?: string | null;
  pool?: string | null;
  /** Clock for capturedAt (tests). */
  now?: () => Date;
}

export interface MeasureResult {
  histogram: SizeHistogram;
  stats: WalkStats;
}

const human = (n: number): string => {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
};

export async function measureSizes(root: string, opts: MeasureOptions): Promise<MeasureResult> {
  const { sizes, stats } = await walkTree(root, opts);
  const fileBins = toBins(sizes.fileCount, sizes.fileBytes);
  const blockBins = toBins(sizes.blockCount, sizes.blockBytes);
  const metadataBytes = sizes.metadataBytes();
  const notes = [
    `file histogram: apparent size (st_size), ${stats.files} files; block histogram: data blocks as stored without compression (≤ recordsize ${human(opts.recordsize)} → one block rounded up to ${2 ** opts.ashift} B sectors, larger → recordsize blocks)`,
    'special_small_blocks is compared per block with the block\'s compressed physical size (zfs-facts B3–B5): with compression more blocks qualify than projected here; a threshold ≥ recordsize sends every block of the dataset to special (B10)',
    'small blocks are accepted only until the special class is 75 % full (B7): provision projected usage ÷ 0.75 plus growth (B26)',
  ];
  if (sizes.sparseFiles > 0) {
    notes.push(`${sizes.sparseFiles} sparse files (${human(sizes.sparseHoleBytes)} of holes) are binned by apparent size; ZFS stores no blocks for whole-record holes, so their block counts are an upper bound`);
  }
  if (stats.hardLinkDuplicates > 0) notes.push(`${stats.hardLinkDuplicates} extra hard-link names counted once (find -type f lists each name)`);
  if (stats.mountPointsSkipped > 0) notes.push(`${stats.mountPointsSkipped} mount points not entered (other filesystems): ${stats.mountPointExamples.join(', ')}`);
  if (stats.symlinks > 0) notes.push(`${stats.symlinks} symbolic links not followed`);
  if (stats.errors > 0) notes.push(`${stats.errors} entries could not be read and were skipped: ${stats.errorExamples.join('; ')}`);
  const histogram = SizeHistogram.parse({
    target: root,
    dataset: opts.dataset ?? null,
    pool: opts.pool ?? (opts.dataset ? opts.dataset.split('/')[0] : null) ?? null,
    method: 'walk',
    recordsize: opts.recordsize,
    ashift: opts.ashift,
    files: stats.files,
    totalBytes: sizes.totalBytes,
    fileBins,
    blockBins,
    candidates: projectCandidates(blockBins, opts.recordsize, metadataBytes),
    metadataBasis: METADATA_BASIS,
    capturedAt: (opts.now?.() ?? new Date()).toISOString(),
    notes,
  });
  return { histogram, stats };
}

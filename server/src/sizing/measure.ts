/**
 * `sizes` as a function: walk a directory and return the SizeHistogram artifact (model/workload.ts)
 * with the special-class projection per candidate `special_small_blocks` and plain-language notes.
 */
import { SizeHistogram } from '../model/workload.ts';
import { METADATA_BASIS, projectCandidates, toBins } from './histogram.ts';
import { findHasPrintf, walkWithFind } from './find-walk.ts';
import { closeSync, constants, openSync } from 'node:fs';
import { walkWithParallelFind, type WalkAnchor } from './parallel-find.ts';
import { walkTree, type WalkOptions, type WalkResult, type WalkStats } from './walker.ts';
import { factLinks } from '../../../rules/lib/citations.ts';
import { formatBytes, plural } from '../text/format.ts';

/**
 * 'parallel' runs several GNU find -printf streams over disjoint subtrees at once (parallel-find.ts,
 * one per available CPU); 'find' is one such stream over the whole tree; 'node' is the Node walker
 * (works everywhere). 'auto' (default) is 'parallel' when find has -printf and falls back to the
 * walker when find is missing, lacks -printf (FreeBSD / TrueNAS CORE) or fails.
 */
export type WalkMethod = 'auto' | 'parallel' | 'find' | 'node';

export interface MeasureOptions extends WalkOptions {
  /** Concurrent find processes of the parallel walk (default: the CPUs available). */
  processes?: number;
  dataset?: string | null;
  pool?: string | null;
  method?: WalkMethod;
  /** Clock for capturedAt (tests). */
  now?: () => Date;
  /**
   * Walk from this descriptor (the API's walks: the checked place, opened once), never by name;
   * GNU find only — there is no by-descriptor Node walker, so without find it is refused.
   */
  anchor?: WalkAnchor;
}

export interface MeasureResult {
  histogram: SizeHistogram;
  stats: WalkStats;
  /** Which walk actually ran. */
  method: 'parallel' | 'find' | 'node';
}

/** Runs the requested walk; returns which one ran and, after a fallback, why. */
async function walkBest(root: string, opts: MeasureOptions): Promise<WalkResult & { method: 'parallel' | 'find' | 'node'; note: string }> {
  const want = opts.method ?? 'auto';
  if (opts.anchor) {
    if (want === 'node' || !(await findHasPrintf())) throw new Error('a walk from a descriptor needs GNU find (-printf): install findutils');
    const f = await walkWithParallelFind(root, { ...opts, processes: want === 'find' ? 1 : opts.processes });
    if (!f.ok) throw new Error(`the find walk failed: ${f.reason}`);
    return { ...f.result, method: want === 'find' ? 'find' : 'parallel', note: `walk: by ${f.processes} GNU find -xdev -printf process${f.processes === 1 ? '' : 'es'} from the directory opened once (by descriptor, no link followed), records binned as they streamed in` };
  }
  // The histogram's method is "walk" (a directory walk, beside "zdb"); the note says which walker.
  if (want === 'node') return { ...(await walkTree(root, opts)), method: 'node', note: 'walk: by the Node walker (requested)' };
  let reason: string;
  if (await findHasPrintf()) {
    if (want === 'find') {
      const f = await walkWithFind(root, opts);
      if (f.ok) return { ...f.result, method: 'find', note: 'walk: by one GNU find -xdev -printf process, records binned as they streamed in' };
      reason = f.reason;
    } else {
      const f = await walkWithParallelFind(root, opts);
      if (f.ok) {
        return { ...f.result, method: 'parallel', note: `walk: by ${f.processes} GNU find -xdev -printf process${f.processes === 1 ? '' : 'es'} at once over ${f.subtrees} subtree${f.subtrees === 1 ? '' : 's'}, records binned as they streamed in` };
      }
      reason = f.reason;
    }
  } else {
    reason = 'find has no -printf (not GNU find)';
  }
  if (want === 'find' || want === 'parallel') throw new Error(`the find walk is not available: ${reason}`);
  return { ...(await walkTree(root, opts)), method: 'node', note: `walk: by the Node walker (${reason})` };
}


/** A descriptor of another (or this) process as a path: `/proc/PID/fd/N` — what the API hands a low-priority child. */
const FD_PATH = /^\/proc\/(?:self|\d+)\/fd\/\d+$/;

export async function measureSizes(root: string, opts: MeasureOptions): Promise<MeasureResult> {
  if (!opts.anchor && FD_PATH.test(root)) {
    // Opening the descriptor's path gives the same directory (not a name lookup): walk from it.
    const fd = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
    try { return await measureSizes(root, { ...opts, anchor: { fd, display: root } }); } finally { closeSync(fd); }
  }
  const { sizes, stats, method, note } = await walkBest(root, opts);
  const fileBins = toBins(sizes.fileCount, sizes.fileBytes);
  const blockBins = toBins(sizes.blockCount, sizes.blockBytes);
  const metadataBytes = sizes.metadataBytes();
  const notes = [
    `file histogram: apparent size (st_size), ${stats.files} files; block histogram: data blocks as stored without compression (≤ recordsize ${formatBytes(opts.recordsize)} → one block rounded up to ${2 ** opts.ashift} B sectors, larger → recordsize blocks)`,
    'special_small_blocks is compared per block with the block\'s compressed physical size (' + factLinks('B3', 'B4', 'B5') + '): with compression more blocks qualify than projected here; a threshold ≥ recordsize sends every block of the dataset to special (' + factLinks('B10') + ')',
    'small blocks are accepted only until the special class is 75 % full (' + factLinks('B7') + '): provision projected usage ÷ 0.75 plus growth (' + factLinks('B26') + ')',
  ];
  notes.push(note);
  if (sizes.sparseFiles > 0) {
    notes.push(`${plural(sizes.sparseFiles, 'sparse file')} (${formatBytes(sizes.sparseHoleBytes)} of holes: some blocks allocated, fewer than the size): the file histogram bins them by apparent size, the block histogram by what is allocated (st_blocks), as ZFS stores no block for a whole-record hole`);
  }
  if (sizes.unallocatedFiles > 0) {
    // Not called sparse: st_blocks = 0 with a size is what a file written moments ago shows until the txg that writes it syncs.
    notes.push(`${plural(sizes.unallocatedFiles, 'file')} (${formatBytes(sizes.unallocatedBytes)}) not yet on disk: no blocks allocated yet (ZFS allocates them at the next txg sync, seconds after a write), so the block histogram has none for them; measure again in a few seconds to count them. Files that stay so are all holes (e.g. made by truncate) or zeros that compression stores as holes, and take no data blocks`);
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
  return { histogram, stats, method };
}

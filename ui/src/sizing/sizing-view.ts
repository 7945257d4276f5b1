/**
 * Special-vdev sizing: reads the JSON `zfs-advisor sizes --json` prints (or a bare SizeHistogram),
 * and projects special-class usage for a `special_small_blocks` value against the pool's special
 * vdev size. The candidates come from the sizing module (exact per-block computation); the view
 * never re-estimates them.
 */
import type { Pool } from '../../../server/src/model/inventory.ts';
import type { SizeBin, SizeHistogram } from '../../../server/src/model/workload.ts';
import { byteScale } from '../../../server/src/text/format.ts';

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function isBin(x: unknown): x is SizeBin {
  return isObj(x) && isNum(x.upperBytes) && isNum(x.count) && isNum(x.bytes) && isNum(x.cumulativeBytes) && isNum(x.cumulativeCount);
}

function asHistogram(x: unknown): SizeHistogram | null {
  if (!isObj(x)) return null;
  const ok = typeof x.target === 'string' && (x.method === 'walk' || x.method === 'zdb' || x.method === 'table') && isNum(x.recordsize) && isNum(x.ashift)
    && isNum(x.files) && isNum(x.totalBytes) && Array.isArray(x.fileBins) && x.fileBins.every(isBin)
    && Array.isArray(x.blockBins) && x.blockBins.every(isBin) && Array.isArray(x.candidates)
    && x.candidates.every((c) => isObj(c) && isNum(c.specialSmallBlocks) && isNum(c.smallBlockBytes) && isNum(c.metadataBytes) && isNum(c.totalBytes));
  return ok ? (x as unknown as SizeHistogram) : null;
}

export type SizesParse = { ok: true; histograms: SizeHistogram[] } | { ok: false; message: string };

/** `{histogram, stats, zdb}` from `zfs-advisor sizes --json`, or one SizeHistogram. */
export function parseSizesJson(text: string): SizesParse {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const direct = asHistogram(j);
  if (direct) return { ok: true, histograms: [direct] };
  if (isObj(j)) {
    const hs = [j.histogram, j.zdb].map(asHistogram).filter((h): h is SizeHistogram => h !== null);
    if (hs.length > 0) return { ok: true, histograms: hs };
  }
  return { ok: false, message: 'not the output of `zfs-advisor sizes --json` (expected a histogram with fileBins, blockBins and candidates)' };
}

export interface SpecialCapacity {
  sizeBytes: number;
  allocBytes: number | null;
}

/** The pool's special-class capacity (sum of its special vdevs), null when it has none or sizes are unknown. */
export function specialCapacity(pool: Pool): SpecialCapacity | null {
  const sv = pool.vdevs.filter((v) => v.class === 'special');
  if (sv.length === 0 || sv.some((v) => v.sizeBytes == null)) return null;
  const alloc = sv.every((v) => v.allocBytes != null) ? sv.reduce((s, v) => s + (v.allocBytes ?? 0), 0) : null;
  return { sizeBytes: sv.reduce((s, v) => s + (v.sizeBytes ?? 0), 0), allocBytes: alloc };
}

/** Small blocks land on the special class only while it is below 75 % full (zfs_special_class_metadata_reserve_pct=25). */
export const SMALL_BLOCK_LIMIT = 0.75;

export interface Projection {
  threshold: number;
  smallBlockBytes: number;
  metadataBytes: number;
  totalBytes: number;
  /** totalBytes / special size, null without a special vdev. */
  share: number | null;
  verdict: 'fits' | 'tight' | 'overflows' | 'no-special';
  /** A threshold ≥ recordsize sends every data block to the special class. */
  allData: boolean;
}

export function project(h: SizeHistogram, threshold: number, special: SpecialCapacity | null): Projection | null {
  const c = h.candidates.find((x) => x.specialSmallBlocks === threshold);
  if (!c) return null;
  const share = special ? c.totalBytes / special.sizeBytes : null;
  const verdict = share === null ? 'no-special' : share > SMALL_BLOCK_LIMIT ? 'overflows' : share > SMALL_BLOCK_LIMIT * 0.8 ? 'tight' : 'fits';
  return { threshold, smallBlockBytes: c.smallBlockBytes, metadataBytes: c.metadataBytes, totalBytes: c.totalBytes, share, verdict, allData: threshold >= h.recordsize && threshold > 0 };
}

/** Cumulative share of bytes up to each bin's upper bound (0..1), for the curve. */
export function cumulativeCurve(bins: readonly SizeBin[]): { upperBytes: number; share: number }[] {
  const total = bins.length ? bins[bins.length - 1]!.cumulativeBytes : 0;
  return bins.map((b) => ({ upperBytes: b.upperBytes, share: total > 0 ? b.cumulativeBytes / total : 0 }));
}

/** Bin labels as sizes: 512 → "512", 4096 → "4K", 1048576 → "1M". */
export function binLabel(bytes: number): string {
  const units = ['', 'K', 'M', 'G', 'T'];
  let i = 0;
  let v = bytes;
  while (v >= 1024 && i < units.length - 1 && v % 1024 === 0) {
    v /= 1024;
    i += 1;
  }
  return `${v}${units[i]}`;
}

/**
 * The block histogram as the chart draws it: the size axis in the unit the largest bin calls for
 * (10.5 MiB → MiB, not "0.009 GiB"), the unit named in the axis title.
 */
export function binsChart(bins: readonly SizeBin[]): { labels: string[]; values: number[]; unit: string } {
  const { unit, divisor } = byteScale(Math.max(0, ...bins.map((b) => b.bytes)));
  return { labels: bins.map((b) => binLabel(b.upperBytes)), values: bins.map((b) => b.bytes / divisor), unit };
}

/** An ashift choice in words: 9 → "9 (512-byte sectors)", 12 → "12 (4096-byte sectors)". */
export const ashiftLabel = (ashift: number): string => `${ashift} (${2 ** ashift}-byte sectors)`;

/**
 * The layout planner's input from an inventory (issue 11 §1 "and from the inventory's unused
 * disks"): drives that no pool uses in any role — not as a whole disk, not through a partition —
 * and nothing else holds (mounted, swap, signatures, partition tables), grouped by media. A layout is planned for one media kind: the count of unused drives of that
 * kind and the smallest of their sizes (a vdev is as large as its smallest member).
 */
import type { Drive, Inventory } from '../model/inventory.ts';
import { driveUsability, usableDrives } from '../model/usable.ts';
import { MediaKind } from './performance.ts';
import { formatBytes, plural } from '../text/format.ts';

export interface UnusedDisks {
  media: MediaKind;
  disks: number;
  /** The smallest unused drive of this media: what each vdev member contributes. */
  diskBytes: number;
  drives: { id: string; path: string | null; sizeBytes: number; model: string | null }[];
  /** The drives left out because a pool or something else holds them, with the words why (model/usable.ts). */
  inUse: { id: string; path: string | null; words: string }[];
}

export type UnusedDisksOutcome =
  | { ok: true; value: UnusedDisks; notes: string[] }
  | { ok: false; message: string };

/** Drives that no pool of the inventory uses and nothing else holds (one definition: model/usable.ts). */
export const unusedDrives = (inv: Pick<Inventory, 'pools' | 'drives'>): Drive[] => usableDrives(inv.pools, inv.drives);

const isMedia = (m: string): m is MediaKind => (MediaKind as readonly string[]).includes(m);

/** Picks the unused drives of `media` (or of the only media present) for the layout planner. */
export function unusedDisksForPlanning(inv: Pick<Inventory, 'pools' | 'drives'>, media?: MediaKind): UnusedDisksOutcome {
  const unused = unusedDrives(inv);
  const notes: string[] = [];
  const sized = unused.filter((d): d is Drive & { sizeBytes: number } => d.sizeBytes !== null && d.sizeBytes > 0);
  if (sized.length < unused.length) notes.push(`${plural(unused.length - sized.length, 'unused drive')} left out: size unknown`);
  const typed = sized.filter((d) => isMedia(d.media));
  if (typed.length < sized.length) notes.push(`${plural(sized.length - typed.length, 'unused drive')} left out: media ${[...new Set(sized.filter((d) => !isMedia(d.media)).map((d) => d.media))].join('/')}`);
  const byMedia = new Map<MediaKind, typeof typed>();
  for (const d of typed) byMedia.set(d.media as MediaKind, [...(byMedia.get(d.media as MediaKind) ?? []), d]);
  const summary = [...byMedia].map(([m, ds]) => `${ds.length} ${m}`).join(', ') || 'none';
  let chosen: MediaKind;
  if (media) {
    if (!byMedia.has(media)) return { ok: false, message: `no unused ${media} drives in the inventory (unused: ${summary})` };
    chosen = media;
  } else if (byMedia.size === 1) {
    chosen = [...byMedia.keys()][0]!;
  } else if (byMedia.size === 0) {
    return { ok: false, message: `the inventory has no unused drives of known size and media (${inv.drives.length} drives, ${unused.length} unused)` };
  } else {
    return { ok: false, message: `unused drives of several media (${summary}): choose one with --type` };
  }
  const drives = byMedia.get(chosen)!;
  const diskBytes = Math.min(...drives.map((d) => d.sizeBytes));
  if (drives.some((d) => d.sizeBytes > diskBytes * 1.01)) notes.push(`drive sizes differ: each vdev member counts as the smallest, ${formatBytes(diskBytes)}`);
  return {
    ok: true,
    value: {
      media: chosen, disks: drives.length, diskBytes,
      drives: drives.map((d) => ({ id: d.id, path: d.byIdPath ?? d.devPath, sizeBytes: d.sizeBytes, model: d.model })),
      inUse: inv.drives.flatMap((d) => {
        const u = driveUsability(d, inv.pools, inv.drives);
        return u.usable ? [] : [{ id: d.id, path: d.byIdPath ?? d.devPath, words: u.words }];
      }),
    },
    notes,
  };
}

/**
 * Shared by the text and JSON `zpool status` parsers: what a vdev *is*, decided from the name
 * zpool prints (`mirror-0`, `raidz2-1`, `draid2:4d:84c:4s-0`, `replacing-1`, `spare-0`,
 * `indirect-0`), and for leaves from the path (absolute non-/dev paths are file vdevs).
 */
import type { VdevClass, VdevType } from '../model/inventory.ts';
import { isDraidSpareName, parseDraidName } from './draid-name.ts';

/** Section headers of the config tree → allocation class of the vdevs under them. */
export const SECTION_CLASS: Readonly<Record<string, VdevClass>> = {
  logs: 'log', log: 'log', cache: 'cache', l2cache: 'cache', spares: 'spare', spare: 'spare', special: 'special', dedup: 'dedup',
};

/** The type of an interior vdev from its printed name, or null when the name says nothing. */
export function interiorType(name: string): VdevType | null {
  if (/^mirror(-\d+)?$/.test(name)) return 'mirror';
  const rz = /^raidz([1-3])?(-\d+)?$/.exec(name);
  if (rz) return (`raidz${rz[1] ?? '1'}`) as VdevType;
  if (parseDraidName(name) !== null || /^draid[1-3]:/.test(name)) return 'draid';
  if (/^replacing(-\d+)?$/.test(name)) return 'replacing';
  if (/^spare(-\d+)?$/.test(name)) return 'spare';
  if (/^indirect(-\d+)?$/.test(name)) return 'indirect';
  if (/^hole(-\d+)?$/.test(name)) return 'hole';
  return null;
}

/** File vdevs are absolute paths outside /dev (zfs-fuse prints /var/lab/x.img, macOS /Volumes/…). */
export const isFilePath = (path: string): boolean => path.startsWith('/') && !path.startsWith('/dev/');

/**
 * Type of a node given its name, whether it has children, and its note: a missing device prints
 * as its numeric guid with `was /path`, and the path then decides disk vs file. dRAID distributed
 * spares (`draid1-0-0`) are typed `spare` with no children: virtual devices with no drive.
 */
export function vdevType(name: string, hasChildren: boolean, note: string | null): VdevType {
  const interior = interiorType(name);
  if (interior !== null && (hasChildren || interior === 'indirect' || interior === 'hole' || interior === 'draid')) return interior;
  if (hasChildren) return interior ?? 'mirror';
  if (isDraidSpareName(name)) return 'spare';
  const was = note === null ? null : /\bwas (\S+)/.exec(note)?.[1] ?? null;
  if (was !== null) return isFilePath(was) ? 'file' : 'disk';
  return isFilePath(name) ? 'file' : 'disk';
}

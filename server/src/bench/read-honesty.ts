/**
 * Honest reads: a read benchmark must measure the disks, not RAM. How each target gets there:
 *   - temporary dataset: `primarycache=metadata` (data blocks never enter the ARC),
 *   - raw device: O_DIRECT (fio direct=1; a block device has no other cache in the way),
 *   - directory: O_DIRECT where the file system honours it (checked by a tiny fio direct=1 probe
 *     in the benchmark's own sub-directory before the run), otherwise a test file well above the
 *     cache that would serve it: the ARC's maximum (c_max) on ZFS when the ARC stats are readable,
 *     else the machine's RAM (page cache). The bigger file then has to pass the free-space guard.
 * Why O_DIRECT is NOT trusted on ZFS and FUSE: ZFS before 2.3 accepts O_DIRECT and still serves
 * reads from the ARC, and a FUSE daemon (zfs-fuse) keeps its own cache; a RAM file system (tmpfs,
 * ramfs) has no disk at all, so nothing can make its reads honest.
 */
import { readFileSync } from 'node:fs';
import { platform, totalmem } from 'node:os';
import { runCommand } from '../exec/runner.ts';
import { parseKstat } from '../parsers/kstat.ts';

export type ReadHonestyMethod = 'primarycache-metadata' | 'o-direct' | 'size-above-cache' | 'none';

export interface ReadHonesty {
  method: ReadHonestyMethod;
  /** The size of the test file fio uses (≥ the requested size). */
  fileBytes: number;
  /** One sentence for the result: which method kept reads honest, or why none could. */
  note: string;
}

/** A file this many times the cache: at most 1/4 of uniformly random reads can be cache hits. */
export const CACHE_OVERSIZE_FACTOR = 4;

/** statfs(2) f_type magic numbers (Linux). */
export const FS_MAGIC = {
  zfs: 0x2fc12fc1,
  fuse: 0x65735546,
  tmpfs: 0x01021994,
  ramfs: 0x858458f6,
} as const;

export type DirectoryFsKind = 'zfs' | 'fuse' | 'ram' | 'other' | 'unknown';

/** On Linux the statfs magic says what the file system is; elsewhere the numbers mean other things. */
export function fsKindOf(magic: number | null, os: string = platform()): DirectoryFsKind {
  if (magic === null || os !== 'linux') return 'unknown';
  if (magic === FS_MAGIC.zfs) return 'zfs';
  if (magic === FS_MAGIC.fuse) return 'fuse';
  if (magic === FS_MAGIC.tmpfs || magic === FS_MAGIC.ramfs) return 'ram';
  return 'other';
}

export interface CacheBound {
  bytes: number;
  /** Where the number comes from, for the note ("ARC c_max", "RAM"). */
  source: string;
}

/** ARC c_max when the ARC stats are readable (Linux SPL kstat, FreeBSD sysctl), else null. */
export async function readArcMax(): Promise<number | null> {
  let text: string | null = null;
  try {
    text = readFileSync('/proc/spl/kstat/zfs/arcstats', 'utf8');
  } catch {
    if (platform() !== 'linux') {
      const r = await runCommand('sysctl', ['kstat.zfs.misc.arcstats.c_max'], { timeoutMs: 5_000 });
      if (r.exitCode === 0) text = r.stdout;
    }
  }
  if (text === null) return null;
  const k = parseKstat(text, 'arcstats');
  if (!k.ok) return null;
  const cmax = k.value.counters.c_max;
  return typeof cmax === 'number' && cmax > 0 ? cmax : null;
}

/**
 * The cache a directory's reads could be served from: the ARC on ZFS (c_max, when readable),
 * the page cache (all of RAM) elsewhere, and RAM when the ARC cannot be read.
 */
export async function readCacheBound(kind: DirectoryFsKind): Promise<CacheBound> {
  if (kind === 'zfs' || kind === 'unknown') {
    const arc = await readArcMax();
    // An unknown file system may be ZFS (FreeBSD) or not: the larger of ARC and RAM covers both.
    if (arc !== null && kind === 'zfs') return { bytes: arc, source: 'the ARC maximum (c_max)' };
    if (arc !== null && arc > totalmem()) return { bytes: arc, source: 'the ARC maximum (c_max)' };
  }
  return { bytes: totalmem(), source: 'RAM (page cache)' };
}

const gib = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GiB`;

/** The file size that keeps random reads mostly off the cache. */
export function sizeAboveCache(requested: number, cache: CacheBound): number {
  const need = CACHE_OVERSIZE_FACTOR * cache.bytes;
  const mib = 1024 * 1024;
  return Math.max(requested, Math.ceil(need / mib) * mib);
}

export function sizeAboveCacheHonesty(requested: number, cache: CacheBound, why: string): ReadHonesty {
  const fileBytes = sizeAboveCache(requested, cache);
  return {
    method: 'size-above-cache',
    fileBytes,
    note: `reads kept honest by size: ${why}, so the test file is ${gib(fileBytes)} (${CACHE_OVERSIZE_FACTOR} × ${cache.source}, ${gib(cache.bytes)}${fileBytes > requested ? `; enlarged from the requested ${gib(requested)}` : ''}): at most ${Math.round(100 / CACHE_OVERSIZE_FACTOR)} % of random reads can be cache hits`,
  };
}

/**
 * The plan for a directory target, decided without writing anything. `o-direct` is still to be
 * confirmed by the probe at prepare time (fallback: sizeAboveCacheHonesty).
 */
export function planDirectoryReads(kind: DirectoryFsKind, requested: number, cache: CacheBound): ReadHonesty {
  switch (kind) {
    case 'ram':
      return { method: 'none', fileBytes: requested, note: 'the directory is on a RAM file system (tmpfs/ramfs): there is no disk to read from, so a read benchmark there would only measure memory' };
    case 'zfs':
      return sizeAboveCacheHonesty(requested, cache, 'the directory is on ZFS, where O_DIRECT does not keep reads out of the ARC (before OpenZFS 2.3)');
    case 'fuse':
      return sizeAboveCacheHonesty(requested, cache, 'the directory is on a FUSE file system (e.g. zfs-fuse), whose daemon caches data whatever O_DIRECT says');
    case 'unknown':
      return sizeAboveCacheHonesty(requested, cache, 'the file system type cannot be told on this platform, so O_DIRECT is not trusted');
    case 'other':
      return { method: 'o-direct', fileBytes: requested, note: 'reads kept honest by O_DIRECT (fio direct=1): they bypass the page cache; the file system accepted direct I/O in a probe before the run' };
  }
}

export const DATASET_READ_HONESTY_NOTE = 'reads kept honest by primarycache=metadata on the temporary dataset: data blocks never enter the ARC';
export const DEVICE_READ_HONESTY_NOTE = 'reads kept honest by O_DIRECT (fio direct=1) on the raw device';

/** fio arguments of the O_DIRECT probe: 1 MiB written and read back with direct=1 in `dir`. */
export function oDirectProbeArgs(file: string): string[] {
  return ['--name=odirect-probe', `--filename=${file}`, '--size=1m', '--bs=4k', '--rw=write', '--direct=1',
    '--ioengine=psync', '--thread', '--output-format=json'];
}

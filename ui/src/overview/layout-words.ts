/**
 * A pool class's layout in words, the way owners say it: "2 × RAIDZ2 | 6 wide | 3.64 TiB".
 * Top-level vdevs of one class are grouped by type and width; a pool with mixed groups reads
 * "1 × MIRROR | 2 wide + 1 × DISK | 1 wide | …".
 */
import type { VdevClass, VdevNode } from '../../../server/src/model/inventory.ts';
import { formatBytes } from '../../../server/src/text/format.ts';

const TYPE_WORD: Record<VdevNode['type'], string> = {
  disk: 'DISK', file: 'FILE', mirror: 'MIRROR', raidz1: 'RAIDZ1', raidz2: 'RAIDZ2', raidz3: 'RAIDZ3', draid: 'DRAID',
  replacing: 'REPLACING', spare: 'SPARE', indirect: 'INDIRECT', hole: 'HOLE', missing: 'MISSING',
};

/** Disks in a top-level vdev (a plain disk or file is 1 wide; dRAID counts its children). */
export function vdevWidth(v: VdevNode): number {
  if (v.type === 'disk' || v.type === 'file') return 1;
  if (v.type === 'draid' && v.draid) return v.draid.children;
  return v.children.length;
}

function typeWord(v: VdevNode): string {
  if (v.type === 'draid' && v.draid) return `DRAID${v.draid.parity}:${v.draid.data}d:${v.draid.spares}s`;
  return TYPE_WORD[v.type];
}

/** Sum of the vdevs' sizes, or null when any size is unknown (never a partial sum shown as total). */
export function totalSize(vdevs: readonly VdevNode[]): number | null {
  let sum = 0;
  for (const v of vdevs) {
    if (v.sizeBytes === null || v.sizeBytes === undefined) return null;
    sum += v.sizeBytes;
  }
  return sum;
}

export function layoutWords(vdevs: readonly VdevNode[]): string {
  if (vdevs.length === 0) return 'none';
  const groups: { word: string; width: number; count: number }[] = [];
  for (const v of vdevs) {
    const word = typeWord(v);
    const width = vdevWidth(v);
    const g = groups.find((x) => x.word === word && x.width === width);
    if (g) g.count += 1;
    else groups.push({ word, width, count: 1 });
  }
  const parts = groups.map((g) => `${g.count} × ${g.word} | ${g.width} wide`);
  const size = totalSize(vdevs);
  return size === null ? parts.join(' + ') : `${parts.join(' + ')} | ${formatBytes(size)}`;
}

export const CLASS_ORDER: readonly VdevClass[] = ['data', 'special', 'dedup', 'log', 'cache', 'spare'];

export const CLASS_LABEL: Record<VdevClass, string> = {
  data: 'Data', special: 'Special (metadata)', dedup: 'Dedup', log: 'Log (SLOG)', cache: 'Cache (L2ARC)', spare: 'Spares',
};

/** Top-level vdevs grouped by allocation class, in the order `zpool status` prints them. */
export function vdevsByClass(vdevs: readonly VdevNode[]): { cls: VdevClass; vdevs: VdevNode[] }[] {
  return CLASS_ORDER.map((cls) => ({ cls, vdevs: vdevs.filter((v) => v.class === cls) })).filter((g) => g.vdevs.length > 0);
}

/** Read + write + checksum errors under a node (itself included); null counters count as 0. */
export function errorCount(v: VdevNode): number {
  return (v.read ?? 0) + (v.write ?? 0) + (v.cksum ?? 0) + v.children.reduce((s, c) => s + errorCount(c), 0);
}

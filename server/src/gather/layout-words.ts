/**
 * Pool layouts in words, TrueNAS-dashboard style: one line per allocation class,
 * "2 × RAIDZ2 | 6 wide | 3.64 TiB" (vdev count × type | disks per vdev | smallest disk size).
 */
import type { Drive, Pool, VdevClass, VdevNode } from '../model/inventory.ts';
import { leafSizeBytes } from '../../../rules/lib/partitions.ts';
import { formatBytes } from '../text/format.ts';

const CLASS_LABEL: Record<VdevClass, string> = { data: 'Data', log: 'Log', special: 'Metadata', dedup: 'Dedup', cache: 'Cache', spare: 'Spare' };

/** A partition leaf counts at its partition's size, never the whole drive's (rules/lib/partitions.ts). */
function leafSize(n: VdevNode, drives: Map<string, Drive>): number | null {
  return leafSizeBytes(n, n.driveId ? drives.get(n.driveId) ?? null : null);
}

/** One "N × TYPE | W wide | SIZE" per distinct vdev shape in a class (mixed layouts get several). */
export function layoutLines(pool: Pool, drives: Drive[]): string[] {
  const byId = new Map(drives.map((d) => [d.id, d]));
  const out: string[] = [];
  for (const cls of Object.keys(CLASS_LABEL) as VdevClass[]) {
    const vdevs = pool.vdevs.filter((v) => v.class === cls);
    if (vdevs.length === 0) continue;
    const groups = new Map<string, number>();
    for (const v of vdevs) {
      const leaves = v.children.length ? v.children : [v];
      const sizes = leaves.map((l) => leafSize(l, byId)).filter((s): s is number => s !== null);
      const type = v.children.length ? v.type.toUpperCase() : (v.type === 'file' ? 'FILE' : 'DISK');
      const key = `${type} | ${leaves.length} wide | ${formatBytes(sizes.length ? Math.min(...sizes) : null)}`;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
    for (const [key, count] of groups) out.push(`${CLASS_LABEL[cls]}: ${count} × ${key}`);
  }
  return out;
}

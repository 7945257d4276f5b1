/**
 * Resolves pool leaves to drives: a leaf named `/dev/disk/by-id/ata-X-part1`, `sda1`, `nvd1`,
 * `gptid/…` or `wwn-0x…` gets the `driveId` of the drive that has that name (or its parent
 * disk's name) among its aliases. File vdevs and unknown names stay unresolved (null).
 */
import type { Drive, Pool, VdevNode } from '../model/inventory.ts';
import { baseName, parentDiskName, stripDev } from './device-names.ts';
import { partitionOfLeaf } from '../../../rules/lib/partitions.ts';

/** name (without /dev/, and its last component) → drive id. */
export function aliasIndex(drives: Drive[]): Map<string, string> {
  const idx = new Map<string, string>();
  for (const d of drives) {
    for (const a of [...d.aliases, ...(d.devPath ? [d.devPath] : []), ...(d.byIdPath ? [d.byIdPath] : [])]) {
      const s = stripDev(a);
      if (!idx.has(s)) idx.set(s, d.id);
      const b = baseName(s);
      if (!idx.has(b)) idx.set(b, d.id);
    }
  }
  return idx;
}

export function resolveLeaf(name: string, idx: Map<string, string>): string | null {
  const s = stripDev(name);
  const direct = idx.get(s) ?? idx.get(baseName(s));
  if (direct) return direct;
  const parent = parentDiskName(s) ?? parentDiskName(baseName(s));
  return parent ? (idx.get(parent) ?? idx.get(baseName(parent)) ?? null) : null;
}

function resolveNode(n: VdevNode, idx: Map<string, string>, byId: Map<string, Drive>): VdevNode {
  if (n.children.length > 0) return { ...n, children: n.children.map((c) => resolveNode(c, idx, byId)) };
  if (n.type !== 'disk') return { ...n, driveId: null };
  const driveId = resolveLeaf(n.name, idx);
  // A leaf on a partition is as large as the partition (from the partition table when zpool list gave no size).
  const part = partitionOfLeaf(n, driveId ? byId.get(driveId) ?? null : null);
  return { ...n, driveId, ...(n.sizeBytes == null && part?.sizeBytes != null ? { sizeBytes: part.sizeBytes } : {}) };
}

export function resolvePoolDrives(pools: Pool[], drives: Drive[]): Pool[] {
  const idx = aliasIndex(drives);
  const byId = new Map(drives.map((d) => [d.id, d]));
  return pools.map((p) => ({ ...p, vdevs: p.vdevs.map((v) => resolveNode(v, idx, byId)) }));
}

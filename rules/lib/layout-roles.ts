/**
 * Which roles (pool + vdev class) each physical drive plays, found by resolving every leaf of every
 * pool to its drive — partitions of one disk resolve to the same drive.
 */
import type { Drive, Pool, VdevClass, VdevNode } from '../../server/src/model/inventory.ts';
import { driveForLeaf, leaves } from './topology.ts';

export interface DriveRole {
  pool: string;
  cls: VdevClass;
  /** The leaf as zpool status names it (often a partition). */
  leaf: string;
  /** The top-level vdev the leaf belongs to. */
  top: VdevNode;
  /** The top-level vdev is a mirror/raidz/draid (survives this drive's loss). */
  redundant: boolean;
}

export function driveRoles(pools: readonly Pool[], drives: readonly Drive[]): Map<string, { drive: Drive; roles: DriveRole[] }> {
  const out = new Map<string, { drive: Drive; roles: DriveRole[] }>();
  for (const pool of pools) {
    for (const top of pool.vdevs) {
      for (const leaf of leaves(top)) {
        const d = driveForLeaf(leaf, drives);
        if (!d) continue;
        const entry = out.get(d.id) ?? { drive: d, roles: [] };
        entry.roles.push({ pool: pool.name, cls: top.class, leaf: leaf.name, top, redundant: top.children.length > 1 && top.type !== 'replacing' });
        out.set(d.id, entry);
      }
    }
  }
  return out;
}

/** Distinct "pool:class" roles, spares excluded (a spare is idle until it steps in). */
export const distinctRoles = (roles: readonly DriveRole[]): string[] =>
  [...new Set(roles.filter((r) => r.cls !== 'spare').map((r) => `${r.pool}:${r.cls}`))];

/**
 * Reading vdev states and error counters from a `zpool status` tree for the health rules.
 */
import type { VdevNode } from '../../server/src/model/inventory.ts';

/** Leaf/vdev states that mean a device is not serving I/O. `zpool status` vocabulary (zpoolconcepts(7) "Device Failure and Recovery"). */
export const BAD_STATES = new Set(['DEGRADED', 'FAULTED', 'UNAVAIL', 'OFFLINE', 'REMOVED', 'SPLIT']);
/** States of a whole leaf device that is gone (as opposed to a degraded group). */
export const LOST_STATES = new Set(['FAULTED', 'UNAVAIL', 'OFFLINE', 'REMOVED']);

/** Every node in a subtree, the node itself first. */
export function walk(node: VdevNode): VdevNode[] {
  return [node, ...node.children.flatMap(walk)];
}

/** Leaves (devices) in a subtree that are not ONLINE, spares' AVAIL/INUSE excepted. */
export function lostLeaves(node: VdevNode): VdevNode[] {
  return walk(node).filter((n) => n.children.length === 0 && n.state !== null && LOST_STATES.has(n.state.toUpperCase()));
}

/** Sum of read/write/cksum counters over the leaves of a subtree (null counters count 0). */
export function errorCounts(node: VdevNode): { read: number; write: number; cksum: number } {
  const ls = walk(node).filter((n) => n.children.length === 0);
  return {
    read: ls.reduce((s, n) => s + (n.read ?? 0), 0),
    write: ls.reduce((s, n) => s + (n.write ?? 0), 0),
    cksum: ls.reduce((s, n) => s + (n.cksum ?? 0), 0),
  };
}

/** A replacing/spare group inside the tree means a replacement is under way for that slot. */
export const isBeingReplaced = (node: VdevNode): boolean => walk(node).some((n) => n.type === 'replacing' || (n.type === 'spare' && n.children.length > 0));

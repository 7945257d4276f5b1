/**
 * What else holds a drive, from `lsblk -J -O -b` (Linux): a mounted file system (the boot disk's `/`
 * among them), swap, a file-system or RAID/LVM signature, a holder device (md, LVM, dm-crypt), a
 * partition table, a ZFS label. A drive with any such use is never offered as a SLOG, special or
 * data candidate, and a plan naming it is refused: `zpool add` would otherwise print a command that
 * destroys it. Pool membership itself is judged from the pools, not from here.
 */
import type { DriveUse } from '../model/inventory.ts';
import { flattenLsblk, type LsblkDevice } from '../parsers/lsblk.ts';

const HOLDER_TYPES = new Set(['lvm', 'crypt', 'dm', 'raid0', 'raid1', 'raid4', 'raid5', 'raid6', 'raid10', 'linear', 'multipath']);

/** Uses of one lsblk disk and everything below it (partitions, holders), in a stable order. */
export function driveUses(disk: LsblkDevice): DriveUse[] {
  const uses: DriveUse[] = [];
  const add = (u: DriveUse) => { if (!uses.some((x) => x.kind === u.kind && x.detail === u.detail)) uses.push(u); };
  const parts = disk.children.filter((c) => c.type === 'part');
  for (const d of [disk, ...flattenLsblk(disk.children)]) {
    // A holder (LVM volume, md array, dm-crypt mapping) is built on the drive: its own signature is
    // not on the drive, its mounts are what the drive serves.
    const holder = d !== disk && d.type !== null && HOLDER_TYPES.has(d.type);
    if (holder) add({ kind: 'holder', device: d.path, detail: `${d.path} (${d.type}) is built on it` });
    for (const m of d.mountpoints) {
      if (m === '[SWAP]') add({ kind: 'swap', device: d.path, detail: `${d.path} is active swap` });
      else add({ kind: 'mounted', device: d.path, detail: `${d.path} is mounted at ${m}`, mountpoint: m });
    }
    if (holder || !d.fstype || (d.fstype === 'swap' && d.mountpoints.includes('[SWAP]'))) continue;
    if (d.fstype === 'zfs_member') add({ kind: 'zfs-label', device: d.path, detail: `${d.path} carries a ZFS label${d.label ? ` of pool ${d.label}` : ''}`, ...(d.label ? { label: d.label } : {}) });
    else add({ kind: 'filesystem', device: d.path, detail: `${d.path} holds a ${d.fstype} signature${d.label ? ` (label ${d.label})` : ''}`, fstype: d.fstype, ...(d.label ? { label: d.label } : {}) });
  }
  if (parts.length > 0) add({ kind: 'partitions', device: disk.path, detail: `${disk.path} has a partition table with ${parts.length} partition${parts.length === 1 ? '' : 's'} (${parts.map((p) => p.name).join(', ')})` });
  return uses;
}

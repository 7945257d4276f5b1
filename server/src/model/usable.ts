/**
 * One idea of "usable" (issue 38 §1): may a drive become a member of a new vdev, and if not, why —
 * in words every surface shows as they are (the Overview's drives table, the Planner's device list,
 * the Optane page's candidates and its blank-device test, the forecast, `inventory` and `plan` in the
 * CLI, the add-vdev planner's refusal). A drive is usable when no imported pool uses it in any role
 * (a partition in a pool makes its disk a member) and nothing else holds it (`Drive.uses`, read from
 * lsblk by server/src/gather/drive-uses.ts: mounted — the system disk among them —, swap, a file
 * system or RAID/LVM signature, a holder, a partition table, the ZFS label of a pool not imported).
 * Pure: the inventory's drives and pools in, the verdict and the fact that decided it out.
 */
import type { Drive, DriveUse, Pool, VdevClass, VdevNode } from './inventory.ts';
import { baseName, parentDiskName, stripDev } from '../gather/device-names.ts';
import { driveForLeaf, leaves } from '../../../rules/lib/topology.ts';

export type UnusableKind = 'pool' | 'system' | DriveUse['kind'];

export interface UnusableReason {
  kind: UnusableKind;
  /** The block device the fact was seen on (the disk, a partition or a holder). */
  device: string;
  /** Short words for a table cell: "mounted at /", "in pool tank (log, mirror-1)". */
  words: string;
  /** The full sentence (lsblk's fact as the inventory keeps it, or the pool role). */
  detail: string;
}

export interface Usability {
  usable: boolean;
  /** Empty when usable; pool roles first, then "system disk", then the other uses in the inventory's order. */
  reasons: UnusableReason[];
  /** "unused", "in pool tank (log, mirror-1)", or "in use: system disk (mounted at /)", "in use: holds an ext4 signature". */
  words: string;
}

/** Mount points that make a disk the system disk: it boots or runs this host. */
const SYSTEM_MOUNTS = new Set(['/', '/boot', '/boot/efi', '/efi', '/usr', '/var']);

const ROLE: Record<VdevClass, string> = { data: 'data', log: 'log', special: 'special', dedup: 'dedup', cache: 'cache', spare: 'spare' };

/** The drive behind a leaf, trying the parent disk of a partition name (`nvd1p1` → nvd1). */
function leafDisk(leaf: VdevNode, drives: readonly Drive[]): Drive | null {
  const direct = driveForLeaf(leaf, drives);
  if (direct) return direct;
  const parent = parentDiskName(leaf.name);
  return parent ? driveForLeaf({ ...leaf, name: parent, driveId: null }, drives) : null;
}

/** Every pool role of every drive, by drive id ("in pool tank (log, mirror-1, nvme0n1p1)"): one walk of the pools per inventory. */
const roleIndexes = new WeakMap<readonly Pool[], WeakMap<readonly Drive[], Map<string, UnusableReason[]>>>();
function poolRoles(pools: readonly Pool[], drives: readonly Drive[]): Map<string, UnusableReason[]> {
  const byDrives = roleIndexes.get(pools) ?? new WeakMap<readonly Drive[], Map<string, UnusableReason[]>>();
  roleIndexes.set(pools, byDrives);
  const cached = byDrives.get(drives);
  if (cached) return cached;
  const out = new Map<string, UnusableReason[]>();
  for (const p of pools) {
    for (const top of p.vdevs) {
      for (const leaf of leaves(top)) {
        const d = leafDisk(leaf, drives);
        if (!d) continue;
        const part = parentDiskName(leaf.name) !== null ? baseName(leaf.name) : null;
        const where = [ROLE[top.class], ...(top.children.length > 0 ? [top.name] : []), ...(part ? [part] : [])].join(', ');
        out.set(d.id, [...(out.get(d.id) ?? []), { kind: 'pool', device: leaf.name, words: `in pool ${p.name} (${where})`, detail: `pool ${p.name} uses ${leaf.name} as ${ROLE[top.class]}${top.children.length > 0 ? ` in ${top.name}` : ''}` }]);
      }
    }
  }
  byDrives.set(drives, out);
  return out;
}

/** " (vda1)" when the fact is on a partition or holder, not on the disk itself. */
const on = (u: DriveUse, drive: Drive): string => {
  // Aliases also name the drive's partitions: only a whole-disk name counts as the disk itself.
  const disk = [drive.devPath, drive.byIdPath, ...drive.aliases.filter((a) => parentDiskName(a) === null)].some((a) => a !== null && stripDev(a) === stripDev(u.device));
  return disk ? '' : ` (${baseName(u.device)})`;
};

/** Short words for one use, from its fields (the sentence when an older inventory lacks them). */
function useWords(u: DriveUse, drive: Drive, pools: readonly Pool[]): UnusableReason {
  const base = { device: u.device, detail: u.detail };
  switch (u.kind) {
    case 'mounted': {
      const m = u.mountpoint ?? /is mounted at (.+)$/.exec(u.detail)?.[1] ?? null;
      if (m === null) return { ...base, kind: 'mounted', words: u.detail };
      return SYSTEM_MOUNTS.has(m)
        ? { ...base, kind: 'system', words: `system disk (${on(u, drive) ? `${baseName(u.device)} ` : ''}mounted at ${m})` }
        : { ...base, kind: 'mounted', words: `mounted at ${m}${on(u, drive)}` };
    }
    case 'swap': return { ...base, kind: 'swap', words: `active swap${on(u, drive)}` };
    case 'filesystem': return { ...base, kind: 'filesystem', words: u.fstype ? `holds ${/^[aeiou]/i.test(u.fstype) ? 'an' : 'a'} ${u.fstype} signature${u.label ? ` "${u.label}"` : ''}${on(u, drive)}` : u.detail };
    case 'holder': return { ...base, kind: 'holder', words: `held by ${baseName(u.device)}` };
    case 'partitions': {
      const n = drive.partitions?.length ?? Number(/with (\d+) partition/.exec(u.detail)?.[1] ?? NaN);
      return { ...base, kind: 'partitions', words: Number.isFinite(n) ? `partition table (${n} partition${n === 1 ? '' : 's'})` : 'partition table' };
    }
    case 'zfs-label': {
      const imported = u.label !== undefined && pools.some((p) => p.name === u.label);
      return { ...base, kind: 'zfs-label', words: imported ? `in pool ${u.label} (its ZFS label${on(u, drive)})` : `ZFS label${u.label ? ` of pool ${u.label}` : ''}, not imported${on(u, drive)}` };
    }
  }
}

/** A signature on a device that is also mounted or swap says nothing more: its mount says it. */
function redundant(u: DriveUse, all: readonly DriveUse[]): boolean {
  return u.kind === 'filesystem' && all.some((x) => (x.kind === 'mounted' || x.kind === 'swap') && stripDev(x.device) === stripDev(u.device));
}

/**
 * Usable as a new vdev member, or why not. For a pool member its pool roles come first; the ZFS
 * label and partition table its own pool put there are not repeated; anything else on it is.
 */
export function driveUsability(drive: Drive, pools: readonly Pool[], drives: readonly Drive[] = [drive]): Usability {
  const inPools = poolRoles(pools, drives.includes(drive) ? drives : [...drives, drive]).get(drive.id) ?? [];
  const member = inPools.length > 0;
  const uses = drive.uses ?? [];
  const others = uses
    .filter((u) => !redundant(u, uses))
    .filter((u) => !(member && (u.kind === 'zfs-label' || u.kind === 'partitions')))
    .map((u) => useWords(u, drive, pools));
  // The system disk says the most: it leads (lsblk lists /run/netns before / on this machine kind).
  const reasons = [...inPools, ...others.filter((r) => r.kind === 'system'), ...others.filter((r) => r.kind !== 'system')];
  const list = reasons.map((r) => r.words).join('; ');
  return { usable: reasons.length === 0, reasons, words: reasons.length === 0 ? 'unused' : member ? list : `in use: ${list}` };
}

/** The drives a new vdev may take (one definition for every list that offers devices). */
export function usableDrives(pools: readonly Pool[], drives: readonly Drive[]): Drive[] {
  return drives.filter((d) => driveUsability(d, pools, drives).usable);
}

/** The refusal's sentence for a drive that is not usable, naming it: "/dev/vda is in use: mounted at /". */
export function inUseSentence(device: string, u: Usability): string {
  return `${device} is in use: ${u.reasons.map((r) => r.words).join('; ')}`;
}

/** How to go on when the device is a pool member. */
export const IN_POOL_WAY_FORWARD = 'Choose a drive listed as unused (the Planner\'s device list, or zfs-advisor inventory); a device leaves its pool only through zpool remove or zpool detach where the layout allows it (root on this host; the pool then has one device less)';

/**
 * How to go on when a drive is not usable (issue 38 §3): who may change it, the exact command, and
 * what that risks. The app never runs any of these; assessing again afterwards shows the drive free.
 */
export function usabilityWayForward(device: string, u: Usability): string {
  const kinds = new Set(u.reasons.map((r) => r.kind));
  if (kinds.has('system')) return `Choose another drive: ${device} runs this host, and nothing in the app can make it a vdev member`;
  if (kinds.has('pool')) return IN_POOL_WAY_FORWARD;
  return clearDeviceWayForward(device, kinds, 'assess again');
}

/**
 * The one sentence for clearing a device that holds something (the inventory's refusals and the
 * blank-device test's, bench/way-forward.ts): the steps that what is on it needs, in order, by root,
 * and that it destroys everything on it. `then` is what the owner does next.
 */
export function clearDeviceWayForward(device: string, kinds: ReadonlySet<UnusableKind>, then: string): string {
  const steps: string[] = [];
  if (kinds.has('mounted')) steps.push('unmount it (umount, and its line in /etc/fstab)');
  if (kinds.has('swap')) steps.push('turn its swap off (swapoff, and its line in /etc/fstab)');
  if (kinds.has('holder')) steps.push('take down what is built on it (its LVM volume group, md array or dm-crypt mapping)');
  if (kinds.has('zfs-label')) steps.push(`clear the old ZFS label (zpool labelclear -f ${device})`);
  if (kinds.has('filesystem') || kinds.has('partitions') || kinds.has('mounted') || kinds.has('swap')) steps.push(`remove its signatures and partition table (wipefs -a ${device})`);
  return `Choose another drive, or — only when what is on ${device} is no longer needed — root on this host may ${steps.join(', then ')}, and ${then}. That destroys everything on it`;
}

/**
 * Drives held by something other than a pool (the system disk, a file system, a partition table…)
 * with the words why: what a list of candidates shows beside its choices. Pool members are left to
 * the pool's tree.
 */
export function heldDrives(pools: readonly Pool[], drives: readonly Drive[]): { drive: Drive; device: string; why: string }[] {
  return drives.flatMap((d) => {
    const u = driveUsability(d, pools, drives);
    if (u.usable || u.reasons.some((r) => r.kind === 'pool')) return [];
    return [{ drive: d, device: d.byIdPath ?? d.devPath ?? d.id, why: u.words }];
  });
}

/**
 * Validates the devices of an add-vdev plan before any command is printed (issue 11 audit): the
 * same checks for the CLI and the API because they live in the planner. A device must be a
 * `/dev/…` path or a name the inventory knows (file paths only for pools built from files), must
 * not look like an option or carry control characters or `..`, must not already belong to any
 * pool in any role — a whole disk whose partition is in use counts as in use — and must not be held
 * by anything else (mounted, swap, a file system or partition table: `Drive.uses`).
 */
import type { Drive, Host, Pool, VdevClass, VdevNode } from '../model/inventory.ts';
import { baseName, parentDiskName, stripDev } from '../gather/device-names.ts';
import { devicePath } from '../../../rules/lib/commands.ts';
import { driveForLeaf, leaves } from '../../../rules/lib/topology.ts';
import { PlanRefused } from './plan-refused.ts';
import { driveUsability, IN_POOL_WAY_FORWARD, inUseSentence, usabilityWayForward } from '../model/usable.ts';

export interface DeviceContext {
  host: Host | null;
  /** The pool being extended (its leaves are checked even when `pools` omits it). */
  pool: Pool;
  /** Every pool of the host. */
  pools: readonly Pool[];
  drives: readonly Drive[];
  /** The devices will be partitioned by the plan: they must be whole disks. */
  partitioning: boolean;
  /** The caller knowingly puts a partition next to another pool's partition on the same disk. */
  sharedDisk: boolean;
}

export interface CheckedDevice {
  /** As the caller wrote it. */
  given: string;
  /** The path the printed commands use. */
  path: string;
  /** The inventory's drive behind it (the parent disk for a partition), when known. */
  driveId: string | null;
  /** Parent disk name when `path` names a partition. */
  partitionOf: string | null;
}

const ROLE: Record<VdevClass, string> = {
  data: 'a data vdev', log: 'a log (SLOG) vdev', special: 'a special vdev', dedup: 'a dedup vdev', cache: 'an L2ARC cache device', spare: 'a hot spare',
};

const isControl = (c: string): boolean => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;
const hasControl = (s: string): boolean => [...s].some(isControl);

/** Why a device string is refused on its face, or null. */
export function hostileDeviceReason(device: string): string | null {
  if (device.length === 0) return 'an empty device name';
  if (device.startsWith('-')) return 'it starts with "-", so zpool/sgdisk would read it as an option';
  if (hasControl(device)) return 'it contains control characters';
  if (/\s/.test(device)) return 'it contains whitespace';
  if (device.includes('..')) return 'it contains ".."';
  return null;
}

const sameName = (a: string, b: string): boolean => stripDev(a) === stripDev(b) || baseName(a) === baseName(b);

function findDrive(name: string, drives: readonly Drive[]): Drive | null {
  return drives.find((d) => [d.devPath, d.byIdPath, d.id, ...d.aliases].some((a) => a !== null && a !== '' && sameName(a, name))) ?? null;
}

/** A pool of file vdevs (test pools, zfs-fuse): only then are plain absolute paths plausible. */
const builtFromFiles = (pool: Pool): boolean => pool.vdevs.flatMap(leaves).some((l) => l.type === 'file');

function resolve(given: string, ctx: DeviceContext): CheckedDevice {
  const hostile = hostileDeviceReason(given);
  if (hostile) throw new PlanRefused('invalid-device', `device "${[...given].map((c) => (isControl(c) ? '?' : c)).join('')}" refused: ${hostile}`);
  const parent = parentDiskName(given);
  const drive = findDrive(given, ctx.drives);
  const parentDrive = parent ? findDrive(parent, ctx.drives) : null;
  if (given.startsWith('/dev/') && given.length > 5) {
    return { given, path: given, driveId: (drive ?? parentDrive)?.id ?? null, partitionOf: parent };
  }
  if (!given.includes('/') && drive) {
    // A bare name the inventory knows: print the host's preferred path for it.
    const path = devicePath(ctx.host, drive);
    return { given, path: path.startsWith('/') || path === given ? path : `/dev/${given}`, driveId: drive.id, partitionOf: null };
  }
  if (!given.includes('/') && parentDrive) {
    return { given, path: ctx.host?.platform === 'linux' || ctx.host?.platform === 'freebsd' ? `/dev/${given}` : given, driveId: parentDrive.id, partitionOf: parent };
  }
  if (given.startsWith('/') && builtFromFiles(ctx.pool)) return { given, path: given, driveId: null, partitionOf: null };
  throw new PlanRefused('invalid-device', `device "${given}" refused: neither a /dev/… path nor a device of this host's inventory (${ctx.drives.length} drives known)`);
}

interface Holder { pool: string; cls: VdevClass; top: string; leaf: VdevNode }

function holders(ctx: DeviceContext): Holder[] {
  const pools = [ctx.pool, ...ctx.pools.filter((p) => p.name !== ctx.pool.name)];
  return pools.flatMap((p) => p.vdevs.flatMap((top) => leaves(top).map((leaf) => ({ pool: p.name, cls: top.class, top: top.name, leaf }))));
}

const where = (h: Holder) => `pool ${h.pool} uses ${h.leaf.name} in ${ROLE[h.cls]}${h.top !== h.leaf.name ? ` (${h.top})` : ''}`;

/** Refuses a device already in a pool; returns warnings for accepted shared disks. */
function inUse(dev: CheckedDevice, all: readonly Holder[], ctx: DeviceContext): string[] {
  const warnings: string[] = [];
  const disk = (name: string) => parentDiskName(name) ?? name;
  for (const h of all) {
    const leafDrive = driveForLeaf(h.leaf, ctx.drives);
    const exact = h.leaf.type === 'file' ? h.leaf.name === dev.path : sameName(h.leaf.name, dev.path) || sameName(h.leaf.name, dev.given);
    if (exact || (dev.partitionOf === null && leafDrive !== null && leafDrive.id === dev.driveId && parentDiskName(h.leaf.name) === null)) {
      throw new PlanRefused('device-in-use', `device ${dev.given} is already in use: ${where(h)}`, IN_POOL_WAY_FORWARD);
    }
    const sameDisk = (leafDrive !== null && leafDrive.id === dev.driveId) || (h.leaf.type !== 'file' && sameName(disk(h.leaf.name), disk(dev.path)));
    if (!sameDisk) continue;
    const leafIsPartition = parentDiskName(h.leaf.name) !== null;
    if (dev.partitionOf === null || !leafIsPartition) {
      const what = dev.partitionOf === null ? `the whole disk ${dev.given} holds a partition in use` : `${dev.given} is a partition of a disk that is itself in use`;
      throw new PlanRefused('device-in-use', `device ${dev.given} refused: ${what}: ${where(h)}${ctx.partitioning ? ' (partitioning it would destroy that)' : ''}`, IN_POOL_WAY_FORWARD);
    }
    if (!ctx.sharedDisk) {
      throw new PlanRefused('device-in-use', `device ${dev.given} refused: another partition of the same disk is in use: ${where(h)}; if sharing the disk is intended (one Optane for several roles), say so explicitly (sharedDisk / --shared-disk)`);
    }
    warnings.push(`${dev.given} shares its disk with ${h.leaf.name} (${where(h)}): one disk failure hits both roles`);
  }
  return warnings;
}

/**
 * Refuses a device that something other than a pool holds (Drive.uses from lsblk): a whole disk with
 * any use (the boot disk mounted at /, swap, a file system, a partition table, a ZFS label of a pool
 * that is not imported); a partition that is itself mounted or carries a signature; a partition of a
 * disk whose other partitions are mounted, swap or held (the boot disk), unless sharing is explicit.
 */
function heldElsewhere(dev: CheckedDevice, ctx: DeviceContext): string[] {
  const drive = dev.driveId === null ? null : ctx.drives.find((d) => d.id === dev.driveId);
  const uses = drive?.uses ?? [];
  if (!drive || uses.length === 0) return [];
  const refuse = (why: string, wayForward: string | null = null) => { throw new PlanRefused('device-in-use', `device ${dev.given} refused: ${why}${ctx.partitioning ? ' (partitioning it would destroy that)' : ''}`, wayForward); };
  if (dev.partitionOf === null) {
    // A whole disk: the one judgement of "usable" (model/usable.ts), its words and its way forward.
    const u = driveUsability(drive, [], ctx.drives);
    refuse(inUseSentence(dev.given, u), usabilityWayForward(dev.given, u));
  }
  const self = uses.filter((u) => u.kind !== 'partitions' && (sameName(u.device, dev.path) || sameName(u.device, dev.given)));
  if (self.length > 0) refuse(self.map((u) => u.detail).join('; '));
  const siblings = uses.filter((u) => u.kind === 'mounted' || u.kind === 'swap' || u.kind === 'holder');
  if (siblings.length === 0) return [];
  const what = `${dev.given} is on the same disk as ${siblings.map((u) => u.detail).join('; ')}`;
  if (!ctx.sharedDisk) refuse(`${what}; if sharing that disk is intended, say so explicitly (sharedDisk / --shared-disk)`);
  return [`${what}: one disk failure hits both`];
}

/** Resolves and checks every device; throws PlanRefused on the first problem. */
export function checkDevices(devices: readonly string[], ctx: DeviceContext): { devices: CheckedDevice[]; warnings: string[] } {
  if (devices.length === 0) throw new PlanRefused('invalid-device', 'no devices given');
  const checked = devices.map((d) => resolve(d, ctx));
  const seen = new Map<string, string>();
  for (const d of checked) {
    const key = d.driveId !== null && d.partitionOf === null ? `drive:${d.driveId}` : `path:${stripDev(d.path)}`;
    const twice = seen.get(key);
    if (twice !== undefined) throw new PlanRefused('invalid-device', `devices ${twice} and ${d.given} name the same device`);
    seen.set(key, d.given);
    if (ctx.partitioning && d.partitionOf !== null) {
      throw new PlanRefused('partitioning', `device ${d.given} is already a partition (of ${d.partitionOf}): a partition plan needs whole disks`);
    }
  }
  const all = holders(ctx);
  const warnings = checked.flatMap((d) => [...inUse(d, all, ctx), ...heldElsewhere(d, ctx)]);
  return { devices: checked, warnings };
}

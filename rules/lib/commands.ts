/**
 * Platform-aware device names and partitioning commands for the commands rules print.
 * `/dev/disk/by-id` and `sgdisk` exist only on Linux; TrueNAS CORE (FreeBSD) partitions with
 * `gpart` and names disks `ada0`/`da0`/`nvd0`; illumos and unknown hosts get the device's own
 * name and no partitioning command we cannot vouch for. Every rule that prints a device goes
 * through here, so the platform switch lives in one place.
 */
import type { Drive, Host } from '../../server/src/model/inventory.ts';

export type DeviceNaming = 'linux' | 'freebsd' | 'other';

/** How the host names devices; a missing Host is "other" (never assume Linux paths). */
export function deviceNaming(host: Host | null | undefined): DeviceNaming {
  if (host?.platform === 'linux') return 'linux';
  if (host?.platform === 'freebsd') return 'freebsd';
  return 'other';
}

/**
 * A placeholder for a device the user still has to pick, e.g. `newDevice(host, 'new-disk')`:
 * Linux `/dev/disk/by-id/<new-disk>` (stable names, OpenZFS FAQ), FreeBSD `/dev/<new-disk>`,
 * elsewhere `<new-disk>`.
 */
export function newDevice(host: Host | null | undefined, what: string): string {
  switch (deviceNaming(host)) {
    case 'linux': return `/dev/disk/by-id/<${what}>`;
    case 'freebsd': return `/dev/<${what}>`;
    default: return `<${what}>`;
  }
}

const bareName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * The name to print for an existing drive: Linux prefers its /dev/disk/by-id path; FreeBSD its
 * /dev node (`/dev/nvd1`); elsewhere the bare device name (`c13t1d0`), as `zpool` takes it.
 */
export function devicePath(host: Host | null | undefined, d: Drive): string {
  const naming = deviceNaming(host);
  if (naming === 'linux') return d.byIdPath ?? d.devPath ?? d.id;
  const dev = d.devPath ?? d.aliases[0] ?? null;
  if (dev === null) return d.id;
  return naming === 'freebsd' ? dev : bareName(dev);
}

export interface Repartition {
  /** Commands that wipe the device and create one partition of `sizeGiB`. */
  commands: string[];
  /** The name of the new partition, as `zpool add` takes it. */
  partition: string;
}

/**
 * Wipe `d` and create a single `sizeGiB` partition for ZFS, or null on platforms whose
 * partitioning tool we do not script (illumos `format`/`fdisk` are interactive).
 */
export function repartition(host: Host | null | undefined, d: Drive, sizeGiB: number): Repartition | null {
  const naming = deviceNaming(host);
  const dev = devicePath(host, d);
  if (naming === 'linux') {
    // by-id names get `-part1`; kernel names follow the kernel's rule (nvme0n1p1, sda1).
    const partition = dev.startsWith('/dev/disk/') ? `${dev}-part1` : /\d$/.test(dev) ? `${dev}p1` : `${dev}1`;
    return { commands: [`sgdisk --zap-all ${dev}`, `sgdisk -n1:0:+${sizeGiB}G -t1:BF01 ${dev}`], partition };
  }
  if (naming === 'freebsd') {
    const name = bareName(dev);
    return {
      commands: [`gpart destroy -F ${name}`, `gpart create -s gpt ${name}`, `gpart add -t freebsd-zfs -a 1m -s ${sizeGiB}G ${name}`],
      partition: `/dev/${name}p1`,
    };
  }
  return null;
}

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
    const partition = partitionName(dev, 1);
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

/**
 * Partition `n` of a whole-device path: by-id names get `-partN`; names ending in a digit get
 * `pN` (Linux nvme0n1p1, FreeBSD nvd1p1/da0p1); others `N` (sda1).
 */
export function partitionName(dev: string, n: number): string {
  if (dev.startsWith('/dev/disk/')) return `${dev}-part${n}`;
  return /\d$/.test(dev) ? `${dev}p${n}` : `${dev}${n}`;
}

export interface PartitionRequest {
  /** GPT partition name/label, e.g. "slog". */
  label: string;
  sizeBytes: number;
}

export interface PartitionArgv {
  /** The tool (`sgdisk`, `gpart`). */
  tool: string;
  /** Commands in order, as argument vectors (never joined through a shell). */
  argv: string[][];
  /** The new partitions' paths, in the order requested, as `zpool add` takes them. */
  partitions: string[];
}

/**
 * Commands that create one GPT partition per request, in order, on an EMPTY device `dev` (a /dev
 * path). No wipe: sgdisk/gpart fail on a device that already has those partitions, which is the
 * safe outcome. Linux: one `sgdisk` with `/dev/…` (a bare name would be a file in the current
 * directory); FreeBSD: `gpart create` + `gpart add` per partition on the provider name. Null on
 * other platforms (their tools are interactive or differ per release: we do not script them).
 */
export function partitionArgv(host: Host | null | undefined, dev: string, parts: readonly PartitionRequest[]): PartitionArgv | null {
  const naming = deviceNaming(host);
  const mib = (b: number) => `${Math.floor(b / 2 ** 20)}M`;
  if (!dev.startsWith('/dev/')) return null;
  if (naming === 'linux') {
    const argv = ['sgdisk'];
    parts.forEach((p, i) => argv.push(`--new=${i + 1}:0:+${mib(p.sizeBytes)}`, `--typecode=${i + 1}:BF01`, `--change-name=${i + 1}:${p.label}`));
    argv.push(dev);
    return { tool: 'sgdisk', argv: [argv], partitions: parts.map((_, i) => partitionName(dev, i + 1)) };
  }
  if (naming === 'freebsd') {
    // The GEOM provider name: /dev/nvd1 → nvd1, /dev/diskid/DISK-X → diskid/DISK-X.
    const name = dev.slice('/dev/'.length);
    // GPT labels appear as /dev/gpt/<label> and must be unique on the host: suffix the provider.
    const argv = [['gpart', 'create', '-s', 'gpt', name], ...parts.map((p) => ['gpart', 'add', '-t', 'freebsd-zfs', '-a', '1m', '-s', mib(p.sizeBytes), '-l', `${p.label}-${bareName(name)}`, name])];
    return { tool: 'gpart', argv, partitions: parts.map((_, i) => `/dev/${name}p${i + 1}`) };
  }
  return null;
}

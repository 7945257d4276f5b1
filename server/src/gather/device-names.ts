/**
 * Device-name algebra for resolving `zpool status` leaves to drives: partition suffixes
 * (`-part1`, `p1`, `sda1`, FreeBSD `ada0p2`/`da0s1a`), /dev prefixes, and alias tables from
 * `ls -l /dev/disk/by-id` and FreeBSD `glabel status`.
 */

/** `/dev/disk/by-id/ata-X-part1` → `disk/by-id/ata-X-part1`; `sda` stays. */
export const stripDev = (name: string): string => name.replace(/^\/dev\//, '');

/** The last path component: `disk/by-id/wwn-0x5…` → `wwn-0x5…`. */
export const baseName = (name: string): string => name.slice(name.lastIndexOf('/') + 1);

/**
 * The whole-disk name of a partition name, or null when the name has no partition suffix.
 * Linux: `sda1`→`sda`, `nvme0n1p2`→`nvme0n1`, `…-part3`→`…`; FreeBSD: `ada0p2`→`ada0`,
 * `da0s1a`→`da0`, `nvd1p1`→`nvd1`; illumos: `c13t1d0p1`→`c13t1d0` (fdisk partition),
 * `c0t5000CCA26145FF21d0s0`→`c0t5000CCA26145FF21d0` (slice).
 */
export function parentDiskName(name: string): string | null {
  const n = stripDev(name);
  let m = /^(.*)-part\d+$/.exec(n);
  if (m) return m[1]!;
  m = /^((?:nvme\d+n\d+)|(?:mmcblk\d+)|(?:nbd\d+)|(?:loop\d+))p\d+$/.exec(n);
  if (m) return m[1]!;
  m = /^((?:[sv]d|xvd|hd)[a-z]+)\d+$/.exec(n);
  if (m) return m[1]!;
  m = /^((?:ada|da|nvd|nda|vtbd|mfid|mfisyspd|ad)\d+)(?:p\d+|s\d+[a-h]?)$/.exec(n);
  if (m) return m[1]!;
  // illumos cXtYdZ (target may be a WWN in hex): pN is an fdisk partition, sN a VTOC/EFI slice.
  m = /^((?:.*\/)?c\d+(?:t[0-9A-Fa-f]+)?d\d+)(?:p\d+|s\d+)$/.exec(n);
  if (m) return m[1]!;
  return null;
}

/**
 * Parses `ls -l /dev/disk/by-id` (or by-path, by-partuuid) → link name → target base name.
 * Lines look like `lrwxrwxrwx 1 root root 10 Jan  2 03:04 wwn-0x5000c500a1b2c3d4-part1 -> ../../sda1`.
 */
export function parseLinkListing(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /\s(\S+) -> (\S+)\s*$/.exec(line);
    if (m) out.set(m[1]!, baseName(m[2]!));
  }
  return out;
}

/**
 * Parses FreeBSD `glabel status` / `geom label status`: label → provider.
 * `gptid/5c3b…  N/A  ada0p2` → `gptid/5c3b…` → `ada0p2`.
 */
export function parseGlabelStatus(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length >= 3 && f[0] !== 'Name' && f[0]!.includes('/')) out.set(f[0]!, f[2]!);
  }
  return out;
}

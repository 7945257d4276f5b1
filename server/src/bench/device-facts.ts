/**
 * Is a block device blank? A raw-device benchmark destroys whatever is on it, so every way a
 * device can be in use is checked, and any doubt is a refusal:
 * - a partition table or filesystem/ZFS/RAID/LVM/swap signature (`blkid -p`, `wipefs -n`),
 * - partitions or holders (md, LVM/device-mapper: /sys/class/block/X/holders),
 * - mounted (/proc/mounts), or named in `zpool status`,
 * - and the user must type the device's serial number; a device without one (loop devices, some
 *   USB bridges and virtual disks) is confirmed by its WWN, or, without a WWN either, by its kernel
 *   name AND exact size in bytes as `NAME:BYTES` (e.g. `loop3:67108864`). The kernel name alone is
 *   never enough: it is what a mistyped command line already contains.
 */
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { runCommand } from '../exec/runner.ts';
import { at, str } from '../parsers/json-fields.ts';

export interface DeviceFacts {
  path: string;
  realPath: string;
  isBlockDevice: boolean;
  sizeBytes: number | null;
  /** Serial from lsblk, or null when the device reports none (loop devices). */
  serial: string | null;
  /** World Wide Name from lsblk (e.g. 0x5000c500a1b2c3d4), or null. */
  wwn?: string | null;
  /** Every reason it is not blank; empty = blank. */
  inUse: string[];
}

export interface Confirmation {
  kind: 'serial' | 'wwn' | 'name-and-size';
  expected: string;
  /** What to type, in words, and the command that shows it (the value itself is never printed). */
  howTo: string;
}

/** What the user must type to confirm a raw device; null when nothing identifies it well enough. */
export function confirmationFor(f: Pick<DeviceFacts, 'serial' | 'realPath' | 'sizeBytes'> & { wwn?: string | null }): Confirmation | null {
  const dev = f.realPath;
  if (f.serial) return { kind: 'serial', expected: f.serial, howTo: `type its serial number exactly (lsblk -d -o NAME,SERIAL ${dev}, or the drive's label)` };
  if (f.wwn) return { kind: 'wwn', expected: f.wwn, howTo: `it reports no serial number, so type its WWN instead (lsblk -d -o NAME,WWN ${dev})` };
  if (f.sizeBytes !== null && f.sizeBytes > 0) {
    return {
      kind: 'name-and-size', expected: `${basename(dev)}:${f.sizeBytes}`,
      howTo: `it reports neither a serial number nor a WWN, so type its kernel name and exact size in bytes as NAME:BYTES (lsblk -b -d -o NAME,SIZE ${dev}); the name alone is not accepted`,
    };
  }
  return null;
}

/** Does the typed confirmation match? Serials and NAME:BYTES exactly; a WWN is hex, so its case is free. */
export function confirmationMatches(c: Confirmation, typed: string): boolean {
  return c.kind === 'wwn' ? typed.toLowerCase() === c.expected.toLowerCase() : typed === c.expected;
}

/** `blkid -p -o export` lines → signatures worth refusing for. */
export function signaturesFromBlkid(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^(TYPE|PTTYPE|USAGE)=(.+)$/.exec(line.trim());
    if (m && m[1] !== 'USAGE') out.push(`${m[1]}=${m[2]}`);
  }
  return out;
}

export async function readDeviceFacts(path: string): Promise<{ ok: true; facts: DeviceFacts } | { ok: false; message: string }> {
  let realPath: string;
  try {
    realPath = realpathSync(path);
  } catch {
    return { ok: false, message: `device ${path} does not exist` };
  }
  const st = statSync(realPath);
  const inUse: string[] = [];
  const isBlockDevice = st.isBlockDevice();
  if (!isBlockDevice) inUse.push(`${path} is not a block device`);

  const lsblk = await runCommand('lsblk', ['-J', '-b', '-o', 'NAME,TYPE,SIZE,SERIAL,WWN,MOUNTPOINT', realPath]);
  let serial: string | null = null;
  let wwn: string | null = null;
  let sizeBytes: number | null = null;
  if (lsblk.exitCode === 0) {
    try {
      const doc: unknown = JSON.parse(lsblk.stdout);
      const dev = at(doc, 'blockdevices', 0);
      serial = str(at(dev, 'serial'))?.trim() || null;
      wwn = str(at(dev, 'wwn'))?.trim() || null;
      const size = at(dev, 'size');
      sizeBytes = typeof size === 'number' ? size : typeof size === 'string' ? Number(size) : null;
      const children = at(dev, 'children');
      if (Array.isArray(children) && children.length > 0) {
        inUse.push(`has ${children.length} partition(s)/holder(s): ${children.map((c) => str(at(c, 'name')) ?? '?').join(', ')}`);
      }
      const type = str(at(dev, 'type'));
      if (type && !['disk', 'loop'].includes(type)) inUse.push(`is a ${type}, not a whole disk`);
    } catch {
      inUse.push('lsblk output could not be read');
    }
  } else {
    inUse.push(`lsblk cannot describe ${realPath}`);
  }

  // blkid -p: low-level probe (no cache). Exit 2 = nothing found; 0 = found something.
  const blkid = await runCommand('blkid', ['-p', '-o', 'export', realPath]);
  if (blkid.exitCode === 0) {
    const sigs = signaturesFromBlkid(blkid.stdout);
    inUse.push(`carries a signature (blkid): ${sigs.join(', ') || blkid.stdout.trim().split('\n')[0]}`);
  } else if (blkid.exitCode !== 2) {
    inUse.push(`blkid could not probe it (${(blkid.stderr || blkid.error?.message || 'exit ' + String(blkid.exitCode)).trim()})`);
  }

  const wipefs = await runCommand('wipefs', ['-n', '-J', realPath]);
  if (wipefs.exitCode !== 0) inUse.push(`wipefs could not probe it (${(wipefs.stderr || wipefs.error?.message || '').trim()})`);
  else if (wipefs.stdout.trim() !== '') {
    try {
      const sigs = at(JSON.parse(wipefs.stdout), 'signatures');
      if (Array.isArray(sigs) && sigs.length > 0) inUse.push(`carries signature(s) (wipefs): ${sigs.map((s) => str(at(s, 'type')) ?? '?').join(', ')}`);
    } catch { inUse.push('wipefs output could not be read'); }
  }

  const name = basename(realPath);
  try {
    const holders = readdirSync(`/sys/class/block/${name}/holders`);
    if (holders.length > 0) inUse.push(`is held by ${holders.join(', ')} (md/LVM/device-mapper member)`);
  } catch { /* no sysfs entry (not Linux): lsblk/blkid covered it */ }

  try {
    const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((l) => l.split(' ')[0]);
    if (mounts.includes(realPath) || mounts.includes(path)) inUse.push('is mounted');
  } catch { /* no /proc/mounts */ }

  const zstatus = await runCommand('zpool', ['status'], { timeoutMs: 10_000 });
  if (zstatus.exitCode === 0) {
    const tokens = new Set(zstatus.stdout.split('\n').map((l) => l.trim().split(/\s+/)[0]));
    if (tokens.has(name) || tokens.has(realPath) || tokens.has(path)) inUse.push('is a member of an imported ZFS pool');
  }

  return { ok: true, facts: { path, realPath, isBlockDevice, sizeBytes, serial, wwn, inUse } };
}

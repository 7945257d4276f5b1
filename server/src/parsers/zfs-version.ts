/**
 * `zfs version` (OpenZFS ≥ 0.8: two lines, userland then kernel module), `zfs -V` (same text),
 * FreeBSD's `zfs-2.1.4-FreeBSD_g52bad4f23`, TrueNAS CORE's `zfs-kmod-v2023072100-zfs_f4871096b`,
 * and zfs-fuse's `zfs-fuse version 0.7.0` → ZfsVersion.
 */
import { ZfsVersion } from '../model/inventory.ts';
import { failed, parsed, splitLines, type ParseIssue, type ParseOutcome } from './common.ts';

/** `zfs-2.1.6-1`, `zfs-0.8.3-1ubuntu12`, `zfs-kmod-2.1.6-1`, `zfs-kmod-v2023…` (no version inside). */
const USERLAND = /^zfs-(\d+\.\d+\.\d+)/;
const KERNEL = /^zfs-kmod-v?(\d+\.\d+\.\d+)?/;
const FUSE = /^zfs-fuse(?:\s+version)?\s+(\d+(?:\.\d+)*)/;

export function parseZfsVersion(text: string): ParseOutcome<ZfsVersion> {
  const issues: ParseIssue[] = [];
  let userland: string | null = null;
  let kernel: string | null = null;
  let userVer: string | null = null;
  let kernelVer: string | null = null;
  let fuse = false;
  const lines = splitLines(text);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    if (KERNEL.test(line)) {
      kernel = line;
      kernelVer = KERNEL.exec(line)?.[1] ?? null;
    } else if (FUSE.test(line)) {
      userland = line;
      fuse = true;
    } else if (USERLAND.test(line)) {
      userland = line;
      userVer = USERLAND.exec(line)?.[1] ?? null;
    } else {
      issues.push({ line: i + 1, message: `not a zfs version line: ${line.slice(0, 120)}` });
    }
  });
  if (userland === null && kernel === null) {
    const first = lines.findIndex((l) => l.trim() !== '');
    return failed(first < 0 ? 'empty zfs version output' : `unrecognised zfs version output: ${lines[first]!.trim().slice(0, 120)}`, first < 0 ? null : first + 1, issues);
  }
  const value = ZfsVersion.parse({
    userland,
    kernel,
    openzfs: fuse ? null : (kernelVer ?? userVer),
    flavour: fuse ? 'zfs-fuse' : 'openzfs',
  });
  return parsed(value, issues);
}

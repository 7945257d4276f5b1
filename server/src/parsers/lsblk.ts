/**
 * `lsblk -J -O -b` (util-linux). Field types changed across versions: 2.31–2.32 print every value
 * as a string (`"rota": "1"`, `"size": "17179869184"`), 2.33+ print booleans and numbers;
 * 2.37+ add `mountpoints` (array) next to `mountpoint`. Names are bare (`sda`) unless `-p`.
 * Output keeps the tree: disks with their partitions (and holders such as dm/md) as children.
 */
import type { Transport } from '../model/inventory.ts';
import { failed, parsed, type ParseIssue, type ParseOutcome } from './common.ts';
import { arr, at, bool, num, parseJsonText, str } from './json-fields.ts';

export interface LsblkDevice {
  name: string;
  /** Absolute /dev path (the `path` column, or /dev/ + name). */
  path: string;
  type: string | null;
  sizeBytes: number | null;
  rotational: boolean | null;
  /** Raw `tran` value: sata, sas, nvme, usb, iscsi, fc, ata, … (null for partitions/virtual). */
  tran: string | null;
  transport: Transport;
  model: string | null;
  serial: string | null;
  wwn: string | null;
  vendor: string | null;
  revision: string | null;
  logicalSectorSize: number | null;
  physicalSectorSize: number | null;
  removable: boolean | null;
  readOnly: boolean | null;
  fstype: string | null;
  label: string | null;
  partlabel: string | null;
  partuuid: string | null;
  mountpoints: string[];
  parent: string | null;
  children: LsblkDevice[];
}

function transportOf(tran: string | null, type: string | null, name: string): Transport {
  switch (tran?.toLowerCase()) {
    case 'nvme': return 'nvme';
    case 'sata': case 'ata': return 'sata';
    case 'sas': return 'sas';
    case 'usb': return 'usb';
    case 'iscsi': case 'fc': case 'spi': case 'srp': return 'scsi';
    default:
      if (type === 'loop' || /^(zram|loop|dm-|md|vd|xvd)/.test(name)) return 'virtual';
      return 'unknown';
  }
}

function device(node: unknown, parent: string | null, issues: ParseIssue[], depth: number): LsblkDevice | null {
  const name = str(at(node, 'name')) ?? str(at(node, 'kname'));
  if (!name) {
    issues.push({ line: null, message: 'block device without a name skipped' });
    return null;
  }
  const path = str(at(node, 'path')) ?? (name.startsWith('/') ? name : `/dev/${name}`);
  const type = str(at(node, 'type'));
  const tran = str(at(node, 'tran'));
  const mounts = [...arr(at(node, 'mountpoints')), at(node, 'mountpoint')]
    .flatMap((m) => (str(m) ? [str(m)!] : []));
  const self: LsblkDevice = {
    name: name.replace(/^\/dev\//, ''),
    path,
    type,
    sizeBytes: num(at(node, 'size')),
    rotational: bool(at(node, 'rota')),
    tran,
    transport: transportOf(tran, type, name.replace(/^\/dev\//, '')),
    model: str(at(node, 'model')),
    serial: str(at(node, 'serial')),
    wwn: str(at(node, 'wwn')),
    vendor: str(at(node, 'vendor')),
    revision: str(at(node, 'rev')),
    logicalSectorSize: num(at(node, 'log-sec')),
    physicalSectorSize: num(at(node, 'phy-sec')),
    removable: bool(at(node, 'rm')),
    readOnly: bool(at(node, 'ro')),
    fstype: str(at(node, 'fstype')),
    label: str(at(node, 'label')),
    partlabel: str(at(node, 'partlabel')),
    partuuid: str(at(node, 'partuuid')),
    mountpoints: [...new Set(mounts)],
    parent,
    children: [],
  };
  // Holders can nest (part → md → dm); a cycle is impossible in lsblk output, but stop anyway.
  if (depth < 16) {
    self.children = arr(at(node, 'children')).flatMap((c) => {
      const d = device(c, path, issues, depth + 1);
      return d ? [d] : [];
    });
  }
  return self;
}

export function parseLsblk(jsonText: string): ParseOutcome<LsblkDevice[]> {
  const j = parseJsonText(jsonText);
  if (!j.ok) return j;
  const list = at(j.value, 'blockdevices');
  if (!Array.isArray(list)) return failed('lsblk JSON has no "blockdevices" array');
  const issues: ParseIssue[] = [];
  return parsed(list.flatMap((n) => {
    const d = device(n, null, issues, 0);
    return d ? [d] : [];
  }), issues);
}

/** Every device of the tree, depth first (disks, then their partitions and holders). */
export function flattenLsblk(devices: LsblkDevice[]): LsblkDevice[] {
  return devices.flatMap((d) => [d, ...flattenLsblk(d.children)]);
}

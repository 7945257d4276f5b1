/**
 * `nvme list -o json` in its two shapes:
 *  - flat (nvme-cli ≤ 2.x before 2.11, and 1.x): `{"Devices":[{DevicePath, ModelNumber, SerialNumber,
 *    Firmware, NameSpace, UsedBytes, PhysicalSize, SectorSize, …}]}`
 *  - nested (nvme-cli 2.11+): `{"Devices":[{HostNQN, Subsystems:[{Subsystem, Controllers:[{Controller,
 *    SerialNumber, ModelNumber, Firmware, Transport, Address, Namespaces:[{NameSpace:"nvme0n1", NSID,
 *    UsedBytes, PhysicalSize, SectorSize}]}], Namespaces:[…]}]}]}` — namespaces may hang off the
 *    controller (private) or the subsystem (shared / multipath).
 * Output: one entry per namespace block device.
 */
import { failed, parsed, type ParseIssue, type ParseOutcome } from './common.ts';
import { arr, at, isObject, num, parseJsonText, str } from './json-fields.ts';
import { matchOptane } from './optane-match.ts';
import type { OptaneInfo } from '../model/inventory.ts';

export interface NvmeNamespace {
  devicePath: string;
  model: string | null;
  serial: string | null;
  firmware: string | null;
  nsid: number | null;
  /** Namespace size in bytes (PhysicalSize). */
  sizeBytes: number | null;
  usedBytes: number | null;
  sectorSize: number | null;
  /** Controller name (nvme0) when the nested shape gives it. */
  controller: string | null;
  /** pcie, tcp, rdma, fc, loop — nested shape only. */
  transport: string | null;
  address: string | null;
  optane: OptaneInfo | null;
}

export interface NvmeList {
  shape: 'flat' | 'nested' | 'empty';
  namespaces: NvmeNamespace[];
}

const devPath = (name: string) => (name.startsWith('/') ? name : `/dev/${name}`);

function flatEntry(dev: unknown): NvmeNamespace | null {
  const path = str(at(dev, 'DevicePath'));
  if (!path) return null;
  const model = str(at(dev, 'ModelNumber'));
  return {
    devicePath: path,
    model,
    serial: str(at(dev, 'SerialNumber')),
    firmware: str(at(dev, 'Firmware')),
    nsid: num(at(dev, 'NameSpace')),
    sizeBytes: num(at(dev, 'PhysicalSize')),
    usedBytes: num(at(dev, 'UsedBytes')),
    sectorSize: num(at(dev, 'SectorSize')),
    controller: null,
    transport: null,
    address: null,
    optane: matchOptane(model),
  };
}

function nestedEntries(host: unknown, issues: ParseIssue[]): NvmeNamespace[] {
  const out: NvmeNamespace[] = [];
  for (const sub of arr(at(host, 'Subsystems'))) {
    const controllers = arr(at(sub, 'Controllers'));
    const first = controllers[0];
    const fromNs = (ns: unknown, ctrl: unknown): NvmeNamespace | null => {
      const name = str(at(ns, 'NameSpace'));
      if (!name) return null;
      const model = str(at(ctrl, 'ModelNumber'));
      return {
        devicePath: devPath(name),
        model,
        serial: str(at(ctrl, 'SerialNumber')),
        firmware: str(at(ctrl, 'Firmware')),
        nsid: num(at(ns, 'NSID')),
        sizeBytes: num(at(ns, 'PhysicalSize')),
        usedBytes: num(at(ns, 'UsedBytes')),
        sectorSize: num(at(ns, 'SectorSize')),
        controller: str(at(ctrl, 'Controller')),
        transport: str(at(ctrl, 'Transport')),
        address: str(at(ctrl, 'Address')),
        optane: matchOptane(model),
      };
    };
    for (const ctrl of controllers) {
      for (const ns of arr(at(ctrl, 'Namespaces'))) {
        const e = fromNs(ns, ctrl);
        if (e) out.push(e);
      }
    }
    // Shared (multipath) namespaces: identity from the first controller of the subsystem.
    for (const ns of arr(at(sub, 'Namespaces'))) {
      const e = fromNs(ns, first);
      if (e && !out.some((o) => o.devicePath === e.devicePath)) out.push(e);
    }
    if (controllers.length === 0) issues.push({ line: null, message: `subsystem ${str(at(sub, 'Subsystem')) ?? '?'} has no controllers` });
  }
  return out;
}

export function parseNvmeList(jsonText: string): ParseOutcome<NvmeList> {
  const j = parseJsonText(jsonText);
  if (!j.ok) return j;
  const devices = at(j.value, 'Devices');
  if (!Array.isArray(devices)) {
    // nvme-cli prints `{}` or nothing at all when there are no NVMe devices.
    if (isObject(j.value) && Object.keys(j.value).length === 0) return parsed({ shape: 'empty', namespaces: [] });
    return failed('nvme list JSON has no "Devices" array');
  }
  if (devices.length === 0) return parsed({ shape: 'empty', namespaces: [] });
  const issues: ParseIssue[] = [];
  const nested = devices.some((d) => Array.isArray(at(d, 'Subsystems')));
  const namespaces = nested
    ? devices.flatMap((d) => nestedEntries(d, issues))
    : devices.flatMap((d, i) => {
      const e = flatEntry(d);
      if (!e) issues.push({ line: null, message: `Devices[${i}] has no DevicePath` });
      return e ? [e] : [];
    });
  return parsed({ shape: nested ? 'nested' : 'flat', namespaces }, issues);
}

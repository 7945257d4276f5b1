/**
 * This machine's stable id, stored with every benchmark, observation and size measurement so
 * a report only shows evidence measured on the host it describes. Read from /etc/machine-id
 * (systemd; /var/lib/dbus/machine-id on older systems) or /etc/hostid (FreeBSD), and hashed:
 * machine-id(5) asks applications not to expose the raw value.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface MachineIdentity {
  /** 16 hex characters, the same on every run on this machine. */
  id: string;
  /** The file it was derived from, or 'hostname' when no id file is readable (less stable). */
  source: string;
}

const ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id', '/etc/hostid'];

const hash = (value: string): string => createHash('sha256').update(`zfs-advisor:${value}`).digest('hex').slice(0, 16);

export function machineIdentity(files: readonly string[] = ID_FILES, fallbackName: () => string = hostname): MachineIdentity {
  for (const file of files) {
    let text: string;
    try { text = readFileSync(file, 'utf8').trim(); } catch { continue; }
    if (text.length >= 8 && !/^0+$/.test(text)) return { id: hash(text), source: file };
  }
  return { id: hash(`hostname:${fallbackName()}`), source: 'hostname' };
}

let cached: MachineIdentity | null = null;
/** Cached for the process: the id does not change while we run. */
export function localMachineId(): string {
  cached ??= machineIdentity();
  return cached.id;
}

/**
 * Finds the secret literals in one raw output: serials, host names, GUIDs, WWNs, pool and
 * dataset names, each where the tool prints it (a JSON key, a labelled line, a table column, a
 * by-id device name). What is found here is then replaced everywhere, also where the text gives
 * no clue (a vdev named only by its GUID, a serial inside a by-id name, a report sentence).
 */
import type { Kind } from './tokens.ts';
import { TOKEN_RE } from './tokens.ts';

export interface Learned { kind: Kind; value: string }

/** Serials this short are too likely to hit ordinary words and numbers. */
const MIN_SERIAL = 4;
const NOT_SECRET = new Set(['redacted', 'unknown', 'none', '-', 'not specified', 'to be filled by o.e.m.', 'localhost', 'localhost.localdomain', 'n/a', 'default string', '0', '00000000']);

export function acceptable(kind: Kind, value: string | null | undefined): string | null {
  const v = value?.trim();
  if (!v || NOT_SECRET.has(v.toLowerCase()) || TOKEN_RE.test(v)) return null;
  if (kind === 'SERIAL' && (v.length < MIN_SERIAL || /^0+$/.test(v))) return null;
  if (kind === 'GUID' && !/^\d{6,20}$/.test(v)) return null;
  return v;
}

/** A host name and the parts of its FQDN: `pve.lab.example.net` → HOST `pve`, DOMAIN `lab.example.net`, `example.net`. */
export function hostParts(name: string): Learned[] {
  const n = name.trim().replace(/\.$/, '');
  if (!n || /^\d+(?:\.\d+){3}$/.test(n)) return [];
  const labels = n.split('.');
  const out: Learned[] = [{ kind: 'HOST', value: labels[0]! }];
  // Every suffix of two or more labels, except two short labels (`co.uk`), which are public suffixes.
  for (let i = 1; i < labels.length - 1; i++) {
    const suffix = labels.slice(i);
    if (suffix.length === 2 && suffix[0]!.length <= 3 && suffix[1]!.length <= 3) continue;
    out.push({ kind: 'DOMAIN', value: suffix.join('.') });
  }
  return out;
}

/** Hex WWN/EUI spellings: `wwn-0x5000…`, `0x5000…`, `naa.5000…`, `eui.0025…`, `scsi-35000…`. */
export const HEX_ID_RE = /(?<![0-9A-Za-z])(?:wwn-0x|0x|naa\.|eui\.|scsi-3)([0-9a-fA-F]{16,32})(?![0-9A-Za-z])/g;
/** NVMe `nvme.VVVV-SERIALHEX-MODELHEX-NSID` identifiers (lsblk wwn, by-id names) embed the serial. */
export const NVME_ID_RE = /(?<![0-9A-Za-z])nvme\.[0-9a-fA-F]{4}-[0-9a-fA-F]+-[0-9a-fA-F]+-[0-9a-fA-F]+/g;
/** A GUID after a key that names it: `guid: 123`, `"pool_guid": "123"`, `tank  guid  123  -`, `vdev_guid = 0x1a…`. */
export const GUID_CONTEXT_RE = /((?<![A-Za-z])(?:[a-z]+_)?guid"?\W{1,24}"?)(0x[0-9a-fA-F]{8,16}|\d{6,20})(?!\d)/gi;

/** The serial inside a by-id name: `ata-WDC_WD40EFRX-68N32N0_WD-WCC7K0XXXXXX-part1` → `WD-WCC7K0XXXXXX`. */
export function serialOfById(name: string): string | null {
  const m = /^(?:ata|scsi-[0-9A-Z]+|usb|nvme|mmc|memstick|ide|virtio|cciss)-(.+)$/.exec(name);
  if (!m || /^(?:eui|nvme|naa)\./.test(m[1]!)) return null;
  const body = m[1]!.replace(/-part\d+$/, '').replace(/-\d+:\d+$/, '');
  const parts = body.split('_');
  if (parts.length < 2) return null;
  // nvme-cli/udev ≥ 2.x append the namespace: `nvme-Model_SERIAL_1`.
  let serial = parts[parts.length - 1]!;
  if (/^\d{1,2}$/.test(serial) && parts.length >= 3) serial = parts[parts.length - 2]!;
  return serial;
}

const BY_ID_NAME_RE = /(?<![A-Za-z0-9_.-])((?:ata|scsi-[0-9A-Z]+|usb|nvme|mmc|memstick|ide|virtio|cciss)-[A-Za-z0-9_.:-]+)/g;

/** zpool/zfs table rows (not indented: indented rows are vdevs): the first column is a pool or dataset name. */
function tableNames(text: string, out: Learned[]): void {
  for (const line of text.split('\n')) {
    if (/^\s/.test(line)) continue;
    const cols = line.includes('\t') ? line.split('\t') : line.split(/\s+/);
    const first = cols[0]!.trim();
    if (cols.length < 2 || !first || first === 'NAME') continue;
    const name = first.split('@')[0]!.split('#')[0]!;
    if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]*(?:\/[A-Za-z0-9_.: -]+)*$/.test(name)) continue;
    out.push({ kind: 'POOL', value: name.split('/')[0]! });
    if (name.includes('/')) out.push({ kind: 'DATASET', value: name });
  }
}

export interface LearnOptions { names: boolean }

/** Everything secret that `fileName`'s text names explicitly. */
export function learnFromText(text: string, fileName: string, opts: LearnOptions): Learned[] {
  const out: Learned[] = [];
  const add = (kind: Kind, v: string | undefined) => { if (v !== undefined) out.push({ kind, value: v }); };
  // Serials: smartctl -j, lsblk -J, nvme list -o json (flat and nested), smartctl text, FreeBSD diskinfo.
  for (const m of text.matchAll(/"(?:serial_number|serial|SerialNumber|sn)"\s*:\s*"([^"]+)"/g)) add('SERIAL', m[1]);
  for (const m of text.matchAll(/^\s*(?:Serial Number|Serial number|Serial No|Unit serial number):\s*(\S+)/gm)) add('SERIAL', m[1]);
  for (const m of text.matchAll(/^\s*(\S+)\s+# Disk ident\./gm)) add('SERIAL', m[1]);
  for (const m of text.matchAll(BY_ID_NAME_RE)) { const s = serialOfById(m[1]!); if (s) add('SERIAL', s); }
  // WWNs and NVMe identifiers (learned so the bare hex, e.g. a drive's wwn field, is replaced too).
  for (const m of text.matchAll(HEX_ID_RE)) add('WWN', m[1]!.toLowerCase());
  for (const m of text.matchAll(NVME_ID_RE)) add('WWN', m[0].toLowerCase());
  for (const m of text.matchAll(/"(?:eui64|nguid|EUI64|NGUID|wwid|wwn)"\s*:\s*"(?:0x|eui\.|naa\.)?([0-9a-fA-F]{16,32})"/g)) add('WWN', m[1]!.toLowerCase());
  for (const m of text.matchAll(/"wwn"\s*:\s*\{[^{}]*\}/g)) { const hex = smartctlWwnHex(m[0]); if (hex) add('WWN', hex); }
  // GUIDs: after a guid key, lsblk's zfs_member uuids, and vdevs printed by GUID in zpool status.
  for (const m of text.matchAll(GUID_CONTEXT_RE)) if (!m[2]!.startsWith('0x')) add('GUID', m[2]);
  for (const m of text.matchAll(/"uuid(?:_sub)?"\s*:\s*"(\d{6,20})"/g)) add('GUID', m[1]);
  if (/^\s*pool:\s/m.test(text)) for (const m of text.matchAll(/^\s+(\d{15,20})\s+[A-Z]+\b/gm)) add('GUID', m[1]);
  // Host names: uname -a, JSON hostname fields, zdb's `hostname: 'x'`.
  const uname = /^(?:Linux|FreeBSD|Darwin|SunOS)\s+(\S+)\s/m.exec(text);
  if (uname) out.push(...hostParts(uname[1]!));
  for (const m of text.matchAll(/"(?:hostname|host_name|nodename)"\s*:\s*"([^"]+)"/g)) out.push(...hostParts(m[1]!));
  for (const m of text.matchAll(/^\s*hostname:\s*'([^']+)'/gm)) out.push(...hostParts(m[1]!));
  if (/^(?:hostname|etc-hostname)\.txt$/.test(fileName)) out.push(...hostParts(text.trim()));
  if (opts.names) {
    for (const m of text.matchAll(/^\s*pool:\s*(\S+)/gm)) add('POOL', m[1]);
    for (const m of text.matchAll(/^\s*name:\s*'([^']+)'/gm)) add('POOL', m[1]);
    for (const m of text.matchAll(/"(?:pool|pool_name)"\s*:\s*"([^"]+)"/g)) add('POOL', m[1]);
    if (/^(?:zpool-(?:get|list)|zfs-get|zfs-list)\.txt$/.test(fileName)) tableNames(text, out);
    if (/^zfs-get\.json$/.test(fileName)) {
      for (const m of text.matchAll(/"name"\s*:\s*"([^"@#]+)(?:[@#][^"]*)?"/g)) { add('POOL', m[1]!.split('/')[0]); if (m[1]!.includes('/')) add('DATASET', m[1]); }
    }
    for (const m of text.matchAll(/"fstype"\s*:\s*"zfs_member"[^{}]*?"label"\s*:\s*"([^"]+)"|"label"\s*:\s*"([^"]+)"[^{}]*?"fstype"\s*:\s*"zfs_member"/g)) add('POOL', m[1] ?? m[2]);
  }
  return out;
}

/** smartctl -j prints a WWN as `{"naa": 5, "oui": 9528, "id": 61213911380}`; this is its hex form. */
export function smartctlWwnHex(objectText: string): string | null {
  const naa = /"naa"\s*:\s*(\d+)/.exec(objectText)?.[1];
  const oui = /"oui"\s*:\s*(\d+)/.exec(objectText)?.[1];
  const id = /"id"\s*:\s*(\d+)/.exec(objectText)?.[1];
  if (!naa || !oui || !id) return null;
  return `${BigInt(naa).toString(16)}${BigInt(oui).toString(16).padStart(6, '0')}${BigInt(id).toString(16).padStart(9, '0')}`;
}

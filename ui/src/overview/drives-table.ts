/**
 * The drives table: one row per drive with its role in a pool ("tank · log · mirror-1"), what
 * else holds it ("in use: system disk (mounted at /)") or "unused", plus sorting and filtering.
 * Roles come from the vdev tree: a leaf's `driveId`, or failing that its name matched against the
 * drive's known paths. Whether a drive is free, and the words why not, are the server model's
 * (server/src/model/usable.ts), the same for every list that offers devices.
 */
import type { Drive, Pool, VdevClass, VdevNode } from '../../../server/src/model/inventory.ts';
import { isPartitionLeaf, leafSizeBytes, partitionOfLeaf } from '../../../rules/lib/partitions.ts';
import { formatBytes } from '../../../server/src/text/format.ts';
import { driveUsability, type Usability } from '../../../server/src/model/usable.ts';

export interface DriveRole {
  pool: string;
  cls: VdevClass;
  vdev: string;
  /** The partition that serves this role (one drive, several roles: reference 004), null for the whole disk. */
  partition: string | null;
  /** The member's size: the partition's when it is one, never the whole drive's. */
  sizeBytes: number | null;
}

export interface DriveRow {
  drive: Drive;
  name: string;
  kind: 'HDD' | 'SSD' | 'NVMe' | 'file' | 'unknown';
  optane: boolean;
  roles: DriveRole[];
  /** May a new vdev take it, and if not the server model's words why. */
  usability: Usability;
  roleText: string;
  health: 'passed' | 'FAILED' | 'unknown';
}

const base = (p: string) => p.replace(/^.*\//, '').replace(/-part\d+$|p\d+$|(?<=^sd[a-z]+)\d+$/, '');

function leafMatches(leaf: VdevNode, d: Drive): boolean {
  if (leaf.driveId) return leaf.driveId === d.id;
  const n = base(leaf.name);
  return [d.devPath, d.byIdPath, ...d.aliases].some((p) => p !== null && base(p) === n);
}

/** Every leaf under `v` with the top-level vdev's name it belongs to. */
function leaves(v: VdevNode, top: string): { leaf: VdevNode; top: string }[] {
  if (v.children.length === 0) return [{ leaf: v, top }];
  return v.children.flatMap((c) => leaves(c, top));
}

export function rolesOf(d: Drive, pools: readonly Pool[]): DriveRole[] {
  const out: DriveRole[] = [];
  for (const p of pools) {
    for (const top of p.vdevs) {
      for (const { leaf } of leaves(top, top.name)) {
        if (!leafMatches(leaf, d)) continue;
        const part = partitionOfLeaf(leaf, d);
        out.push({
          pool: p.name, cls: top.class, vdev: top.children.length ? top.name : top.class,
          partition: part?.name ?? (isPartitionLeaf(leaf, d) ? leaf.name.replace(/^.*\//, '') : null),
          sizeBytes: leafSizeBytes(leaf, d),
        });
      }
    }
  }
  return out;
}

export function kindOf(d: Drive): DriveRow['kind'] {
  switch (d.media) {
    case 'hdd': return 'HDD';
    case 'ssd': return 'SSD';
    case 'nvme': return 'NVMe';
    case 'file': return 'file';
    default: return 'unknown';
  }
}

/** "tank · log · mirror-1 (nvme0n1p1, 16.0 GiB)": a partition role names the partition and its size. */
export function roleWords(r: DriveRole): string {
  const where = `${r.pool} · ${r.cls}${r.vdev !== r.cls ? ` · ${r.vdev}` : ''}`;
  return r.partition ? `${where} (${r.partition}${r.sizeBytes !== null ? `, ${formatBytes(r.sizeBytes)}` : ''})` : where;
}

/** What else holds a pool member (the system disk's /boot/efi beside its rpool partition): "also mounted at /boot/efi (vda2)". */
export const alsoHeld = (u: Usability): string[] => u.reasons.filter((r) => r.kind !== 'pool').map((r) => `also ${r.words}`);

export function driveRows(drives: readonly Drive[], pools: readonly Pool[]): DriveRow[] {
  return drives.map((d) => {
    const roles = rolesOf(d, pools);
    const usability = driveUsability(d, pools, drives);
    return {
      drive: d,
      name: d.byIdPath?.replace(/^\/dev\/disk\/by-id\//, '') ?? d.devPath ?? d.id,
      kind: kindOf(d),
      optane: d.optane !== null,
      roles,
      usability,
      roleText: roles.length > 0 ? [...roles.map(roleWords), ...alsoHeld(usability)].join(', ') : usability.words,
      health: d.smartPassed === null ? 'unknown' : d.smartPassed ? 'passed' : 'FAILED',
    };
  });
}

export type DriveSortKey = 'name' | 'model' | 'kind' | 'size' | 'health' | 'wear' | 'temp' | 'role';

const HEALTH_RANK = { FAILED: 0, unknown: 1, passed: 2 } as const;

function sortValue(r: DriveRow, key: DriveSortKey): string | number | null {
  switch (key) {
    case 'name': return r.name;
    case 'model': return r.drive.model;
    case 'kind': return r.kind;
    case 'size': return r.drive.sizeBytes;
    case 'health': return HEALTH_RANK[r.health];
    case 'wear': return r.drive.wearPct;
    case 'temp': return r.drive.temperatureC;
    case 'role': return r.roleText;
  }
}

/** Stable sort; unknown values (null) always go last whichever the direction. */
export function sortRows(rows: readonly DriveRow[], key: DriveSortKey, dir: 'asc' | 'desc'): DriveRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  return rows
    .map((r, i) => ({ r, i, v: sortValue(r, key) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
      const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v), undefined, { numeric: true });
      return c !== 0 ? sign * c : a.i - b.i;
    })
    .map((x) => x.r);
}

export interface DriveFilter {
  text: string;
  kind: DriveRow['kind'] | 'all';
  /** 'unused' = free for a new vdev; 'in-pool' = in at least one pool; 'in-use' = held otherwise (mounted, signatures…). */
  use: 'all' | 'unused' | 'in-pool' | 'in-use';
}

export function filterRows(rows: readonly DriveRow[], f: DriveFilter): DriveRow[] {
  const t = f.text.trim().toLowerCase();
  return rows.filter((r) => {
    if (f.kind !== 'all' && r.kind !== f.kind) return false;
    if (f.use === 'unused' && !r.usability.usable) return false;
    if (f.use === 'in-pool' && r.roles.length === 0) return false;
    if (f.use === 'in-use' && (r.usability.usable || r.roles.length > 0)) return false;
    if (!t) return true;
    const hay = [r.name, r.drive.model, r.drive.serial, r.drive.devPath, r.roleText, r.optane ? 'optane' : null].filter(Boolean).join(' ').toLowerCase();
    return hay.includes(t);
  });
}

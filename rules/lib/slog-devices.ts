/**
 * Devices around the ZIL: where a pool's sync writes land today (log vdev, 2.4+ special vdev, or
 * the data vdevs), how fast that is, and which drives in the box have no pool role at all
 * (candidates for a SLOG). Shared by the SLOG rules and the Optane verdict.
 */
import type { Drive, Host, Pool, VdevNode } from '../../server/src/model/inventory.ts';
import { devicePath, newDevice } from './commands.ts';
import { usableDrives } from '../../server/src/model/usable.ts';
import { atLeast } from '../engine/version.ts';
import { allLeaves, driveForLeaf, topLevel } from './topology.ts';
import { LATENCY_CLASSES, isOptane, slowestLatency, syncWriteLatency, type SyncLatencyAssessment } from './device-class.ts';

export const leafDrives = (leaves: readonly VdevNode[], drives: readonly Drive[]): Drive[] =>
  leaves.map((l) => driveForLeaf(l, drives)).filter((d): d is Drive => d !== null);

export const hasLog = (p: Pool) => topLevel(p, 'log').length > 0;
export const hasSpecial = (p: Pool) => topLevel(p, 'special').length > 0;

export type ZilHome = 'log' | 'special' | 'data';

/** Where ZIL blocks are written (zfs-facts A4, A5): a SLOG always wins; 2.4+ uses special before normal. */
export function zilHome(pool: Pool, openzfs: string | null | undefined): ZilHome {
  if (hasLog(pool)) return 'log';
  if (hasSpecial(pool) && atLeast(openzfs, '2.4')) return 'special';
  return 'data';
}

export interface ZilPath {
  home: ZilHome;
  drives: Drive[];
  /** Slowest device on the path (null when no leaf resolved to a drive). */
  latency: SyncLatencyAssessment | null;
  /** Leaves that did not resolve to a drive. */
  unresolved: number;
}

export function zilPath(pool: Pool, drives: readonly Drive[], openzfs: string | null | undefined): ZilPath {
  const home = zilHome(pool, openzfs);
  const leaves = allLeaves(pool, home);
  const ds = leafDrives(leaves, drives);
  return { home, drives: ds, latency: slowestLatency(ds), unresolved: leaves.length - ds.length };
}

/** Slowest latency class of the pool's data vdevs. */
export function dataLatency(pool: Pool, drives: readonly Drive[]): SyncLatencyAssessment | null {
  return slowestLatency(leafDrives(allLeaves(pool, 'data'), drives));
}

/** The data vdevs are hard disks (or unknown-but-rotational): the case a SLOG is for (A26). */
export function isSlowDataPool(pool: Pool, drives: readonly Drive[]): boolean {
  const l = dataLatency(pool, drives);
  return l !== null && l.known && l.rank >= LATENCY_CLASSES['consumer-flash'].rank;
}

/**
 * Drives free for a new vdev: no pool uses them in any role (partitions resolved to their disk) and
 * nothing else holds them — not mounted (the boot disk), not swap, no file-system, RAID or ZFS
 * signature, no holder, no partition table. The one definition, with its reasons in words:
 * server/src/model/usable.ts.
 */
export const unusedDrives = (pools: readonly Pool[], drives: readonly Drive[]): Drive[] => usableDrives(pools, drives);

/** Unused drives fit for a SLOG: Optane first, then PLP NVMe, fastest first. */
export function slogCandidates(pools: readonly Pool[], drives: readonly Drive[]): Drive[] {
  return fitForSlog(unusedDrives(pools, drives));
}

/** Of drives already known to be unused (unusedDrives), those fit for a SLOG: Optane first, then PLP NVMe, fastest first. */
export function fitForSlog(unused: readonly Drive[]): Drive[] {
  return unused
    .filter((d) => isOptane(d) || syncWriteLatency(d).cls === 'plp-nvme')
    .sort((a, b) => syncWriteLatency(a).rank - syncWriteLatency(b).rank || a.id.localeCompare(b.id));
}

/** Stable path for a drive in a printed command (platform-aware when the Host is known: lib/commands.ts). */
export const drivePath = (d: Drive, host?: Host | null): string => (host ? devicePath(host, d) : d.byIdPath ?? d.devPath ?? d.id);

/** A placeholder path for a device the owner still has to buy. */
export const NEW_DEVICE = (n: number, host?: Host | null) => newDevice(host, `new-optane-${n}`);

/** Bytes → "12.3 GiB". */
export function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(bytes < 10 * 2 ** 30 ? 1 : 0)} GiB`;
}

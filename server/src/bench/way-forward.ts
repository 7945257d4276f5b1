/**
 * How to go on after a benchmark refusal (issue 38 §3): who may change the limit, the exact setting
 * or flag, and what changing it risks — one author for the CLI, the API and the UI. Which words
 * apply depends on where the limits came from: the CLI's own options (the operator at this machine),
 * or the server's policy (api/bench-policy.ts: settings.benchmark.*, bounded by the ceiling root
 * gives the service with `serve --bench-max-*`; a request may only tighten it).
 */
import { clearDeviceWayForward, type UnusableKind } from '../model/usable.ts';

/** Where a run's limits came from: the command line, or the server's policy. */
export type LimitsFrom = 'cli' | 'server';

/** The server's settings key and the service's ceiling flag of each limit. */
const SERVER_LIMIT = {
  maxLoad1: { setting: 'benchmark.maxLoad1', ceiling: '--bench-max-load', cli: '--max-load' },
  maxRuntimeSeconds: { setting: 'benchmark.maxRuntimeSeconds', ceiling: '--bench-max-runtime', cli: '--wall-cap' },
  maxPoolWriteWaitMs: { setting: 'benchmark.maxPoolWriteWaitMs', ceiling: '--bench-max-pool-write-wait', cli: null },
} as const;

export type LimitKey = keyof typeof SERVER_LIMIT;

/** Who may raise a limit and how: the flag on the command line, or the server's setting and ceiling. */
export function raiseLimit(key: LimitKey, from: LimitsFrom, example: string): string {
  const l = SERVER_LIMIT[key];
  if (from === 'cli' && l.cli !== null) return `you may raise it for this run with ${l.cli} ${example}`;
  return `whoever holds this server's API token may raise ${l.setting} (PATCH /api/settings with {"benchmark":{"${key}":${example}}}) up to the ceiling root gives the service; root raises that ceiling on the service's command line (serve ${l.ceiling} ${example})`;
}

const LOAD_RISK = 'A higher limit lets the run start beside the host\'s own work: its numbers then measure a shared machine, and it slows that work (VMs, shares) while it runs';

/** The load guard refused (or the load rose during the run). */
export function loadWayForward(load1: number, from: LimitsFrom): string {
  const example = String(Math.max(1, Math.ceil(load1 + 1)));
  return `Wait until the host is quieter (uptime shows the 1-minute load), or ${raiseLimit('maxLoad1', from, example)}. ${LOAD_RISK}`;
}

/** The pool's write latency rose above its limit during the run. */
export function poolLatencyWayForward(from: LimitsFrom): string {
  const how = from === 'cli'
    ? 'the limit is the request\'s maxPoolWriteWaitMs (2000 ms unless given)'
    : `${raiseLimit('maxPoolWriteWaitMs', 'server', '5000')}`;
  return `Run it again when the pool is less busy; ${how}. A higher limit lets the benchmark go on while the pool's real writers wait longer`;
}

/** The runtime does not fit in the wall-clock cap. */
export function wallCapWayForward(runtimeS: number, from: LimitsFrom): string {
  const example = String(runtimeS * 3 + 60);
  return from === 'cli'
    ? `Give a shorter --runtime, or a larger cap: ${raiseLimit('maxRuntimeSeconds', 'cli', example)}. A larger cap lets a stalled run hold the pool longer before it is stopped`
    : `Give a shorter runtime, or ${raiseLimit('maxRuntimeSeconds', 'server', example)}. A larger cap lets a stalled run hold the pool longer before it is stopped`;
}

export const LOCK_WAY_FORWARD = 'Wait for that run to end, or cancel it (the Benchmarks page, or Ctrl-C where it was started); a run whose process is gone is cleaned up by the next start';

/** The pool is not ONLINE: nobody may waive this; what to do about the pool. */
export function poolHealthWayForward(pool: string): string {
  return `Nobody can waive this guard. Find the cause with zpool status -v ${pool} and repair the pool first (root: zpool replace ${pool} OLD NEW for a failed device, then let it resilver); benchmark once it is ONLINE`;
}

/** A scrub or resilver runs. */
export function poolScanWayForward(pool: string, scan: string): string {
  return /resilver/i.test(scan)
    ? `Wait for the resilver to finish (zpool status ${pool} shows its progress and estimate); nobody can waive this guard, and a resilver is never worth slowing: until it ends the pool has less redundancy`
    : `Wait for the scrub to finish (zpool status ${pool} shows its progress), or root may pause it with zpool scrub -p ${pool} and resume it afterwards with zpool scrub ${pool}; a paused scrub leaves errors undetected for longer`;
}

/** Not enough free space for the test file (3 × its size). */
export function freeSpaceWayForward(from: LimitsFrom): string {
  return `Give a smaller test size (${from === 'cli' ? '--size' : 'the File size field, or sizeBytes'}), or free space on the target; the factor 3 is fixed — it keeps room for copy-on-write and for the pool's other writers, and nobody can lower it. A smaller file is more easily held in RAM, so use one at least twice the ARC for read tests`;
}

/** The pool would pass 80 % full. */
export function poolFillWayForward(pool: string, from: LimitsFrom): string {
  return `Give a smaller test size (${from === 'cli' ? '--size' : 'the File size field, or sizeBytes'}), or free space on ${pool} (root: destroy old snapshots — zfs list -t snapshot -o name,used -s used ${pool} lists them); the 80 % limit is fixed: above it ZFS allocates more slowly and the pool's own work suffers`;
}

/**
 * The device is not blank: the inventory's sentence for clearing a device (model/usable.ts), with the
 * steps the blank check's findings (device-facts.ts `inUse`) call for, then "try again".
 */
export function deviceBlankWayForward(device: string, inUse: readonly string[]): string {
  const kinds = new Set<UnusableKind>();
  for (const what of inUse) {
    // "has N partition(s)/holder(s)": whatever is built on it comes down first, then the table goes.
    if (/partition|holder/.test(what)) kinds.add('holder').add('partitions');
    if (/zfs_member/.test(what)) kinds.add('zfs-label');
    if (/signature/.test(what)) kinds.add('filesystem');
  }
  // A check that could not probe the device (no lsblk, blkid failed) names nothing to clear: both signature steps.
  if (kinds.size === 0) kinds.add('zfs-label').add('filesystem');
  return clearDeviceWayForward(device, kinds, 'try again');
}

/** The suite's estimate exceeds its total cap. */
export function maxTotalWayForward(estimatedS: number): string {
  return `Shrink the matrix (fewer profiles or values, a shorter --runtime or --pause), or raise the cap with --max-total ${Math.ceil(estimatedS / 60) + 1}m (the one who starts the suite). A larger cap keeps the host busy with benchmarks for longer`;
}

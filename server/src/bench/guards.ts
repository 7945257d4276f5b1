/**
 * The guards: pure verdicts from facts gathered beforehand. Every guard always reports (ok or
 * not) so `--dry-run` shows all of them; a single failing guard refuses the benchmark.
 */
import type { GuardVerdict } from './types.ts';
import type { PoolFacts } from './pool-facts.ts';
import type { DeviceFacts } from './device-facts.ts';
import { confirmationFor, confirmationMatches } from './device-facts.ts';
import type { LockHolder } from './store.ts';
import type { ReadHonesty } from './read-honesty.ts';
import {
  deviceBlankWayForward, freeSpaceWayForward, LOCK_WAY_FORWARD, loadWayForward, maxTotalWayForward, poolFillWayForward, poolHealthWayForward,
  poolScanWayForward, wallCapWayForward, type LimitsFrom,
} from './way-forward.ts';

export const FREE_SPACE_FACTOR = 3;
export const MAX_POOL_FILL = 0.8;

export interface PathFacts {
  requested: string;
  realPath: string | null;
  isDirectory: boolean;
  freeBytes: number | null;
}

export interface GuardFacts {
  nameProblems: string[];
  sizeBytes: number;
  runtimeS: number;
  wallCapS: number;
  load1: number;
  maxLoad1: number;
  lock: LockHolder | null;
  pool: PoolFacts | null;
  poolError: string | null;
  path: PathFacts | null;
  device: DeviceFacts | null;
  deviceError: string | null;
  confirmSerial: string | null;
  /** Directory targets of read profiles: how reads stay honest (the size above is then the file's). */
  readHonesty?: ReadHonesty | null;
  /** What this run asks of its target (a suite's matrix cell); checked against what the target can do. */
  cell?: CellFacts;
  /** Where the limits came from (the way forward names that flag or setting); absent: the CLI. */
  limitsFrom?: LimitsFrom;
}

export interface CellFacts {
  targetKind: 'dataset' | 'zvol' | 'path' | 'device';
  sync: 'always' | 'standard' | 'disabled';
  io: 'direct' | 'buffered';
  /** The sync property can be set on the temporary dataset/zvol (OpenZFS; not zfs-fuse, not a directory). */
  syncPropertyUsable: boolean;
  /** The platform can make zvols (null when the pool could not be read). */
  zvols: boolean | null;
  readsFromDisk: boolean;
}

const gib = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GiB`;

export function evaluateGuards(f: GuardFacts): GuardVerdict[] {
  const v: GuardVerdict[] = [];
  const from = f.limitsFrom ?? 'cli';
  const add = (id: string, ok: boolean, message: string, wayForward?: string) => v.push(ok || wayForward === undefined ? { id, ok, message } : { id, ok, message, wayForward });

  add('names', f.nameProblems.length === 0,
    f.nameProblems.length === 0 ? 'names and paths are well-formed' : `refused: ${f.nameProblems.join('; ')}`);

  add('lock', f.lock === null, f.lock === null
    ? 'no other benchmark is running on this host'
    : `refused: another benchmark is running on this host (run ${f.lock.runId}, ${f.lock.profile} on ${f.lock.target}, pid ${f.lock.pid} on ${f.lock.host}, since ${f.lock.acquiredAt})`, LOCK_WAY_FORWARD);

  add('load', f.load1 <= f.maxLoad1, f.load1 <= f.maxLoad1
    ? `1-minute load ${f.load1.toFixed(2)} is at or below the limit ${f.maxLoad1}`
    : `refused: 1-minute load ${f.load1.toFixed(2)} is above the limit ${f.maxLoad1}; a busy host gives meaningless numbers and the benchmark would slow its real work`, loadWayForward(f.load1, from));

  // The cap covers layout + run, so a cap equal to the runtime always stops the run: allowed
  // (a strict owner's choice), but a runtime beyond the cap can never be honoured.
  add('wall-cap', f.runtimeS <= f.wallCapS, f.runtimeS <= f.wallCapS
    ? `the run is stopped after ${f.wallCapS} s of wall time whatever happens (runtime ${f.runtimeS} s)`
    : `refused: runtime ${f.runtimeS} s does not fit in the hard wall-clock cap of ${f.wallCapS} s`, wallCapWayForward(f.runtimeS, from));

  if (f.poolError !== null) add('pool', false, `refused: ${f.poolError}`);
  if (f.pool) {
    const p = f.pool;
    add('pool-health', p.health === 'ONLINE', p.health === 'ONLINE'
      ? `pool ${p.name} is ONLINE`
      : `refused: pool ${p.name} is ${p.health}; benchmarking a pool that is not ONLINE adds load to a pool at risk — fix it first`, poolHealthWayForward(p.name));
    add('pool-scan', p.scan === null, p.scan === null
      ? `no scrub or resilver is running on ${p.name}`
      : `refused: a ${p.scan} is running on ${p.name}; wait until it finishes (the benchmark would slow it and its numbers would be wrong)`, poolScanWayForward(p.name, p.scan ?? ''));
    const need = FREE_SPACE_FACTOR * f.sizeBytes;
    add('free-space', p.availableBytes >= need, p.availableBytes >= need
      ? `${gib(p.availableBytes)} available, at least ${FREE_SPACE_FACTOR} × the test size (${gib(f.sizeBytes)}) is needed`
      : `refused: only ${gib(p.availableBytes)} available on ${p.name}; the test needs ${FREE_SPACE_FACTOR} × ${gib(f.sizeBytes)} = ${gib(need)} free`, freeSpaceWayForward(from));
    const after = p.sizeBytes > 0 ? (p.allocBytes + f.sizeBytes) / p.sizeBytes : 1;
    add('pool-fill', after < MAX_POOL_FILL, after < MAX_POOL_FILL
      ? `pool stays at ${(after * 100).toFixed(1)} % full during the test (limit ${MAX_POOL_FILL * 100} %)`
      : `refused: pool ${p.name} would be ${(after * 100).toFixed(1)} % full during the test; it must stay below ${MAX_POOL_FILL * 100} %`, poolFillWayForward(p.name, from));
  }

  if (f.readHonesty) {
    const h = f.readHonesty;
    add('honest-reads', h.method !== 'none', h.method !== 'none' ? h.note : `refused: ${h.note}; use a pool target (primarycache=metadata) or a directory on a disk`);
  }

  if (f.path) {
    const p = f.path;
    const real = p.realPath;
    add('path-exists', real !== null && p.isDirectory, real !== null && p.isDirectory
      ? `${p.requested} is a directory`
      : `refused: ${p.requested} is not an existing directory`);
    if (real !== null) {
      add('path-symlink', real === p.requested, real === p.requested
        ? `${p.requested} has no symlink in it`
        : `refused: ${p.requested} leads to ${real} through a symlink; name the real directory so the test cannot land somewhere else`);
    }
    if (p.freeBytes !== null) {
      const need = FREE_SPACE_FACTOR * f.sizeBytes;
      add('free-space', p.freeBytes >= need, p.freeBytes >= need
        ? `${gib(p.freeBytes)} free, at least ${FREE_SPACE_FACTOR} × the test size is needed`
        : `refused: only ${gib(p.freeBytes)} free in ${p.requested}; the test needs ${FREE_SPACE_FACTOR} × ${gib(f.sizeBytes)} = ${gib(need)}`, freeSpaceWayForward(from));
    }
  }

  if (f.deviceError !== null) add('device', false, `refused: ${f.deviceError}`);
  if (f.device) {
    const d = f.device;
    add('device-blank', d.inUse.length === 0, d.inUse.length === 0
      ? `${d.path} is blank: no partition table, no signature, not mounted, not in a pool, no holders`
      : `refused: ${d.path} is not blank — it ${d.inUse.join('; it ')}. A raw-device benchmark would destroy that data`, deviceBlankWayForward(d.path, d.inUse));
    const c = confirmationFor(d);
    const typed = f.confirmSerial ?? '';
    const what = { serial: 'serial number', wwn: 'WWN', 'name-and-size': 'kernel name and exact size in bytes (NAME:BYTES)' };
    if (c === null) {
      add('device-serial', false, `refused: ${d.path} reports no serial number, no WWN and no size, so it cannot be confirmed beyond its name; benchmark it through a directory or pool instead`);
    } else {
      const ok = confirmationMatches(c, typed);
      add('device-serial', ok, ok
        ? `the typed ${what[c.kind]} matches ${d.path}`
        : `refused: the confirmation "${typed}" does not match ${d.path}'s ${what[c.kind]}: ${c.howTo}, to confirm you mean this device`);
    }
    if (d.sizeBytes !== null) {
      add('device-size', d.sizeBytes >= f.sizeBytes, d.sizeBytes >= f.sizeBytes
        ? `the test size fits on ${d.path}`
        : `refused: the test size ${gib(f.sizeBytes)} is larger than ${d.path} (${gib(d.sizeBytes)})`);
    }
  }
  if (f.cell) cellGuards(f.cell, f.readHonesty ?? null, add);
  return v;
}

/** Whether the target can do what the run (a suite's matrix cell) asks; the reason when it cannot. */
function cellGuards(c: CellFacts, honesty: ReadHonesty | null, add: (id: string, ok: boolean, message: string) => void): void {
  if (c.targetKind === 'zvol' && c.zvols !== null) {
    add('zvol', c.zvols, c.zvols
      ? 'the platform makes zvols: a temporary one is created and destroyed afterwards'
      : 'refused: zvols are not supported on this platform (zfs-fuse has no zvols: `zfs create -V` is not implemented); run without --zvol, or on OpenZFS');
  }
  if (c.targetKind === 'zvol' && c.readsFromDisk) {
    add('zvol-reads', false, 'refused: a fresh zvol has never been written, so reads would return holes without touching a disk; read profiles run on datasets');
  }
  if (c.sync === 'disabled') {
    add('sync-setting', c.syncPropertyUsable, c.syncPropertyUsable
      ? 'sync=disabled is set on the temporary dataset/zvol only'
      : 'refused: sync=disabled needs a ZFS dataset or zvol whose sync property can be set; this target has none (a directory, a raw device, or zfs-fuse)');
  }
  if (c.targetKind === 'path' && c.readsFromDisk && c.io === 'buffered' && honesty?.method === 'o-direct') {
    add('io-mode', false, 'refused: buffered reads on this directory would be served from the page cache; honest reads here need O_DIRECT (io=direct)');
  }
}

export function refusals(v: GuardVerdict[]): GuardVerdict[] {
  return v.filter((g) => !g.ok);
}

/** A verdict as one sentence: the message, then its way forward where it has one. */
export const guardSentence = (g: GuardVerdict): string => (g.wayForward ? `${g.message.replace(/\.$/, '')}. ${g.wayForward}.` : g.message);

/** Guard ids that judge one matrix cell against its target: a suite skips such a cell instead of refusing. */
export const CELL_GUARD_IDS: readonly string[] = ['zvol', 'zvol-reads', 'sync-setting', 'io-mode'];

export interface SuiteGuardFacts {
  runCount: number;
  skippedReasons: string[];
  estimatedSeconds: number;
  maxTotalS: number;
}

/** The suite's own guards; each run still passes every single-run guard above. */
export function evaluateSuiteGuards(f: SuiteGuardFacts): GuardVerdict[] {
  const v: GuardVerdict[] = [];
  v.push({
    id: 'suite-runs', ok: f.runCount > 0, message: f.runCount > 0
      ? `${f.runCount} run(s) planned`
      : `refused: no run of this suite can be done on this target (${[...new Set(f.skippedReasons)].join('; ') || 'empty matrix'})`,
  });
  const fits = f.estimatedSeconds <= f.maxTotalS;
  v.push({
    id: 'max-total', ok: fits, message: fits
      ? `estimated ${Math.round(f.estimatedSeconds)} s, within the total cap of ${f.maxTotalS} s; the suite stops at the cap whatever happens`
      : `refused: the suite is estimated at ${Math.round(f.estimatedSeconds)} s, more than the total cap of ${f.maxTotalS} s (--max-total)`,
    ...(fits ? {} : { wayForward: maxTotalWayForward(f.estimatedSeconds) }),
  });
  return v;
}

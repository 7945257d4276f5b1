/**
 * What a single run needs to know before it touches anything: the facts the guards judge, the
 * effective profile (a suite's matrix cell applied), the sync mechanism, the fio plan and the
 * commands in order. Shared by the dry run, the single run and the suite planner, so the commands
 * a plan prints are the ones a run executes.
 */
import { cpus, loadavg } from 'node:os';
import { realpathSync, statSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { getProfile, type Profile } from './profiles.ts';
import { chooseSyncMode, layoutArgs, runArgs, type FioPlan, type SyncMode } from './fio-args.ts';
import { evaluateGuards, refusals, type GuardFacts, type PathFacts } from './guards.ts';
import { readPoolFacts, type PoolFacts } from './pool-facts.ts';
import { readDeviceFacts, type DeviceFacts } from './device-facts.ts';
import { checkDevicePath, checkPath, checkPoolName, checkSerial, benchDatasetName, BENCH_DIR_PREFIX } from './names.ts';
import { lockHolder } from './store.ts';
import { benchQuotaText, datasetCreateArgs } from './targets.ts';
import { zvolCreateArgs, zvolLink } from './zvol.ts';
import { isStaleHolder } from './recover.ts';
import { liveHostLockHolder } from './host-lock.ts';
import { liveProbe, type LivenessProbe } from './process-identity.ts';
import { realExec, type BenchExec } from './exec.ts';
import {
  DATASET_READ_HONESTY_NOTE, DEVICE_READ_HONESTY_NOTE, fsKindOf, oDirectProbeArgs, planDirectoryReads, readCacheBound,
  type CacheBound, type ReadHonesty,
} from './read-honesty.ts';
import type { BenchRequest, GuardVerdict } from './types.ts';

export type SyncSetting = 'always' | 'standard' | 'disabled';
export type IoMode = 'direct' | 'buffered';

export function defaultMaxLoad1(): number {
  return Math.max(4, 2 * cpus().length);
}

/** Layout allowance for a file enlarged above the cache (honest reads): written at ≥ 50 MiB/s. */
const LAYOUT_ALLOWANCE_BPS = 50 * 1024 * 1024;

/**
 * The hard wall-clock cap: the request's, or runtime × 3 + 60 s; when the file was enlarged above
 * the cache (read-honesty.ts) the default also allows laying that file out at 50 MiB/s.
 */
export function wallCapOf(req: BenchRequest, fileBytes: number = req.sizeBytes): number {
  if (req.wallCapS !== undefined) return req.wallCapS;
  const extra = fileBytes > req.sizeBytes ? Math.ceil(fileBytes / LAYOUT_ALLOWANCE_BPS) : 0;
  return req.runtimeS * 3 + 60 + extra;
}

/** The profile with the request's matrix cell applied (block size, queue depth, sync). */
export function effectiveProfile(req: BenchRequest): Profile {
  const base = getProfile(req.profile)!; // BenchRequest.profile is the enum of profile ids
  const sync = base.writes ? (req.sync ?? (base.sync ? 'always' : 'standard')) === 'always' : false;
  return { ...base, blockSize: req.blockSize ?? base.blockSize, iodepth: req.iodepth ?? base.iodepth, sync };
}

export function effectiveSync(req: BenchRequest): SyncSetting {
  const base = getProfile(req.profile)!;
  if (!base.writes) return 'standard';
  return req.sync ?? (base.sync ? 'always' : 'standard');
}

export interface Context {
  profile: Profile;
  facts: GuardFacts;
  pool: PoolFacts | null;
  device: DeviceFacts | null;
  realDir: string | null;
  syncMode: SyncMode;
  sync: SyncSetting;
  io: IoMode;
  /** ZFS underneath (dataset, zvol, or a directory whose statfs says ZFS): only then may wording name the ZIL. */
  zfs: boolean;
  /** How read profiles stay honest (null for write-only profiles); may change after the O_DIRECT probe. */
  readHonesty: ReadHonesty | null;
  /** The path target's free bytes (for re-checking a fallback to a bigger file). */
  pathFreeBytes: number | null;
}

export function targetLabel(req: BenchRequest, runId: string): string {
  switch (req.target.kind) {
    case 'dataset': case 'zvol': return benchDatasetName(req.target.pool, runId);
    case 'path': return join(req.target.dir, `${BENCH_DIR_PREFIX}${runId}`);
    case 'device': return req.target.device;
  }
}

export interface GatherOptions {
  db: Database | null;
  readLoad: () => number;
  probe: LivenessProbe;
  cacheBound?: CacheBound;
  exec?: BenchExec;
}

export async function gather(req: BenchRequest, o: GatherOptions): Promise<Context> {
  const exec = o.exec ?? realExec;
  const profile = effectiveProfile(req);
  const sync = effectiveSync(req);
  const nameProblems: string[] = [];
  let pool: PoolFacts | null = null;
  let poolError: string | null = null;
  let path: PathFacts | null = null;
  let device: DeviceFacts | null = null;
  let deviceError: string | null = null;
  let realDir: string | null = null;
  let readHonesty: ReadHonesty | null = null;
  let fsMagic: number | null = null;
  const t = req.target;
  if (t.kind === 'dataset' || t.kind === 'zvol') {
    const bad = checkPoolName(t.pool);
    if (bad) nameProblems.push(bad);
    else {
      const r = await readPoolFacts(t.pool, exec);
      if (r.ok) pool = r.facts; else poolError = r.message;
    }
  } else if (t.kind === 'path') {
    const bad = checkPath('path', t.dir);
    if (bad) nameProblems.push(bad);
    else {
      let real: string | null = null;
      let isDirectory = false;
      let freeBytes: number | null = null;
      try {
        real = realpathSync(t.dir);
        isDirectory = statSync(real).isDirectory();
        const fs = statfsSync(real);
        freeBytes = fs.bavail * fs.bsize;
        fsMagic = fs.type;
      } catch { /* reported by the path-exists guard */ }
      path = { requested: t.dir.length > 1 ? t.dir.replace(/\/+$/, '') : t.dir, realPath: real, isDirectory, freeBytes };
      if (real !== null && real === path.requested && isDirectory) realDir = real;
      if (profile.readsFromDisk && real !== null) {
        const kind = fsKindOf(fsMagic);
        readHonesty = planDirectoryReads(kind, req.sizeBytes, o.cacheBound ?? await readCacheBound(kind));
      }
    }
  } else {
    const bad = checkDevicePath(t.device) ?? checkSerial(t.confirmSerial);
    if (bad) nameProblems.push(bad);
    else {
      const r = await readDeviceFacts(t.device);
      if (r.ok) device = r.facts; else deviceError = r.message;
    }
  }
  const holder = o.db ? lockHolder(o.db) : null;
  const isPool = t.kind === 'dataset' || t.kind === 'zvol';
  const syncPropertyUsable = isPool && pool !== null && pool.syncProperty;
  const rawDevice = t.kind === 'device' || t.kind === 'zvol';
  const io: IoMode = req.io ?? (rawDevice || readHonesty?.method === 'o-direct' ? 'direct' : 'buffered');
  const facts: GuardFacts = {
    nameProblems,
    sizeBytes: req.sizeBytes,
    runtimeS: req.runtimeS,
    wallCapS: wallCapOf(req, readHonesty?.fileBytes),
    load1: o.readLoad(),
    maxLoad1: req.maxLoad1 ?? defaultMaxLoad1(),
    limitsFrom: req.limitsFrom ?? 'cli',
    lock: (holder && !isStaleHolder(holder, o.probe) ? holder : null) ?? liveHostLockHolder(o.probe),
    pool, poolError, path, device, deviceError,
    confirmSerial: t.kind === 'device' ? t.confirmSerial : null,
    readHonesty,
    cell: {
      targetKind: t.kind, sync, io, syncPropertyUsable, zvols: pool?.zvols ?? null, readsFromDisk: profile.readsFromDisk,
    },
  };
  if (readHonesty) facts.sizeBytes = readHonesty.fileBytes; // the free-space guard judges the real file
  if (profile.readsFromDisk && t.kind === 'dataset') readHonesty = { method: 'primarycache-metadata', fileBytes: req.sizeBytes, note: DATASET_READ_HONESTY_NOTE };
  if (profile.readsFromDisk && t.kind === 'device') readHonesty = { method: 'o-direct', fileBytes: req.sizeBytes, note: DEVICE_READ_HONESTY_NOTE };
  const syncMode = chooseSyncMode(profile, syncPropertyUsable);
  const zfs = isPool || fsKindOf(fsMagic) === 'zfs';
  return { profile, facts, pool, device, realDir, syncMode, sync, io, zfs, readHonesty, pathFreeBytes: path?.freeBytes ?? null };
}

/** The test file's size: the request's, or the larger one read honesty chose. */
export const fileBytesOf = (ctx: Context, req: BenchRequest): number => ctx.readHonesty?.fileBytes ?? req.sizeBytes;

export function planFor(ctx: Context, filename: string, req: BenchRequest): FioPlan {
  const rawDevice = ctx.device !== null || req.target.kind === 'zvol';
  return {
    filename, sizeBytes: fileBytesOf(ctx, req), runtimeS: req.runtimeS, syncMode: ctx.syncMode,
    rawDevice, direct: ctx.io === 'direct',
  };
}

/** The sync property to set on the temporary dataset/zvol (null where it cannot be set). */
export function datasetSyncValue(ctx: Context): SyncSetting | null {
  if (!ctx.pool?.syncProperty) return null;
  return ctx.sync;
}

/** The O_DIRECT probe's file, inside the run's own sub-directory. */
export const ODIRECT_PROBE_FILE = 'odirect-probe.dat';

/** The commands a run would execute, in order (mkdir/rm are done in-process, shown for clarity). */
export function commandsFor(req: BenchRequest, ctx: Context, runId: string, exec: BenchExec = realExec): string[][] {
  const t = req.target;
  const cmds: string[][] = [];
  let filename: string;
  if (t.kind === 'dataset') {
    cmds.push(['zfs', ...datasetCreateArgs(t.pool, runId, req.sizeBytes, datasetSyncValue(ctx), ctx.profile)]);
    filename = `<mountpoint of ${benchDatasetName(t.pool, runId)}>/zfs-advisor-bench.dat`;
  } else if (t.kind === 'zvol') {
    cmds.push(['zfs', ...zvolCreateArgs(t.pool, runId, req.sizeBytes, t.volblocksize, datasetSyncValue(ctx), ctx.profile)]);
    filename = zvolLink(exec, t.pool, runId);
  } else if (t.kind === 'path') {
    const dir = join(ctx.realDir ?? t.dir, `${BENCH_DIR_PREFIX}${runId}`);
    cmds.push(['mkdir', '-m', '0700', dir]);
    filename = join(dir, 'zfs-advisor-bench.dat');
    if (ctx.readHonesty?.method === 'o-direct') cmds.push(['fio', ...oDirectProbeArgs(join(dir, ODIRECT_PROBE_FILE))]);
  } else {
    filename = ctx.device?.realPath ?? t.device;
  }
  const plan = planFor(ctx, filename, req);
  const layout = layoutArgs(ctx.profile, plan);
  if (layout) cmds.push(['fio', ...layout]);
  // The laid-out file is still dirty in RAM: its transaction group would be written out during the
  // first seconds of the measured run and compete with it. `zpool sync` writes it out first; it
  // changes nothing in the pool.
  if (layout && t.kind === 'dataset') cmds.push(['zpool', 'sync', t.pool]);
  cmds.push(['fio', ...runArgs(ctx.profile, plan)]);
  if (t.kind === 'dataset' || t.kind === 'zvol') cmds.push(['zfs', 'destroy', '-r', benchDatasetName(t.pool, runId)]);
  if (t.kind === 'path') cmds.push(['rm', '-r', join(ctx.realDir ?? t.dir, `${BENCH_DIR_PREFIX}${runId}`)]);
  return cmds;
}

export interface DryRun {
  profile: Profile;
  syncMode: SyncMode;
  /** The effective sync setting and I/O mode (a suite's matrix cell, or the profile's defaults). */
  sync: SyncSetting;
  io: IoMode;
  commands: string[][];
  guards: GuardVerdict[];
  wouldRun: boolean;
  /** How read profiles stay honest on this target (o-direct on a directory is confirmed by a probe at run time). */
  readHonesty: ReadHonesty | null;
  /** What a person needs to read the commands: the temporary dataset's quota in words (targets.ts benchQuotaText). */
  notes: string[];
}

export interface DryRunOptions { db?: Database | null; readLoad?: () => number; cacheBound?: CacheBound; exec?: BenchExec }

/** Every command and every guard's verdict, without creating or writing anything. */
export async function dryRun(req: BenchRequest, opts: DryRunOptions = {}): Promise<DryRun> {
  const exec = opts.exec ?? realExec;
  const ctx = await gather(req, { db: opts.db ?? null, readLoad: opts.readLoad ?? (() => loadavg()[0]!), probe: await liveProbe(), cacheBound: opts.cacheBound, exec });
  const guards = evaluateGuards(ctx.facts);
  return {
    profile: ctx.profile, syncMode: ctx.syncMode, sync: ctx.sync, io: ctx.io, commands: commandsFor(req, ctx, '<id>', exec), guards,
    wouldRun: refusals(guards).length === 0, readHonesty: ctx.readHonesty,
    notes: req.target.kind === 'dataset' ? [benchQuotaText(req.sizeBytes, ctx.pool?.sizeBytes ?? null)] : [],
  };
}

/**
 * One sentence on how writes were made durable, written here once for every renderer. It names
 * the ZIL only when ZFS is underneath.
 */
export function syncTextOf(mode: SyncMode, sync: SyncSetting, targetKind: BenchRequest['target']['kind'], zfs: boolean, writes: boolean): string | null {
  if (!writes) return null;
  const where = targetKind === 'zvol' ? 'zvol' : 'dataset';
  const why = targetKind === 'dataset' || targetKind === 'zvol' ? 'the sync property cannot be set on this platform' : 'a directory or device has no sync property';
  const durable = zfs ? 'waited for the ZIL (the SLOG, or the pool without one)' : 'waited until the file system had it on stable storage';
  switch (mode) {
    case 'property':
      return `sync=always on the temporary ${where}: every write ${durable} before it counted; the headline latency is the write's completion latency (fio clat).`;
    case 'fio-fsync':
      return `fio called fsync after every write (${why}), so each write ${durable}; the headline latency is the fsync's (fio's sync section), not the write()'s, which returns from memory.`;
    case 'fio-sync':
      return `fio opened the file with O_SYNC (${why}), so every write ${durable}; the headline latency is the write's completion latency (fio clat).`;
    case 'async':
      if (sync === 'disabled') return `sync=disabled on the temporary ${where}: even requested flushes return at once, so these numbers are a ceiling — and a crash loses the last seconds of writes.`;
      return zfs
        ? 'asynchronous writes: acknowledged from RAM and written out with the next transaction group; one fsync at the end is counted so the result is not RAM alone.'
        : 'asynchronous writes: acknowledged from the page cache; one fsync at the end is counted so the result is not RAM alone.';
  }
}

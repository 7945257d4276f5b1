/**
 * Creating and removing what a benchmark writes into: a temporary child dataset or a new
 * sub-directory. Every creation is journaled BEFORE it happens; every removal checks that the
 * thing has exactly the shape the app gives its own creations, so no path or name from the
 * journal can make it destroy anything else.
 */
import { realpathSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { describeFailure } from '../exec/runner.ts';
import { BENCH_DIR_PREFIX, benchDatasetName, isBenchDatasetName } from './names.ts';
import { journalAdd, journalRemoved, type JournalEntry } from './store.ts';
import { pidAlive } from './process-identity.ts';
import { realExec, type BenchExec } from './exec.ts';
import { createRunDirectory, removeRunDirectory } from './run-directory.ts';
import { recordsizeFor, type Profile } from './profiles.ts';
import { formatBytes } from '../text/format.ts';

export const DATASET_PROPERTIES_KEPT = ['recordsize', 'compression', 'sync', 'primarycache', 'logbias', 'quota', 'atime', 'checksum', 'dedup', 'copies'];

export interface PreparedTarget {
  /** Directory fio writes its file into (null for a raw device). */
  workDir: string | null;
  filename: string;
  dataset: string | null;
  datasetProperties: Record<string, string>;
  commands: string[][];
}

export type Prepared = { ok: true; target: PreparedTarget } | { ok: false; message: string; commands: string[][] };

/** What of a profile decides the temporary dataset's record size and caching. */
export type DatasetShape = Pick<Profile, 'rw' | 'blockSize' | 'readsFromDisk'>;

/**
 * The ARC keeps data only where a profile must not read it back from RAM (read profiles). A write
 * profile on primarycache=metadata would read every partly overwritten record from the disks first
 * (read-modify-write): on hard disks that doubled a sync write's cost and measured the reads, not
 * the ZIL (issue 27, lab: 41 against 142 IOPS).
 */
export const primarycacheFor = (p: Pick<Profile, 'readsFromDisk'>): 'metadata' | 'all' => (p.readsFromDisk ? 'metadata' : 'all');

const sizeWord = (bytes: number): string => (bytes % 1024 === 0 ? `${bytes / 1024}K` : String(bytes));

/**
 * The temporary dataset's quota: the file twice over (and 64 MiB at least), plus room that keeps
 * the quota from throttling the run. ZFS counts writes still in RAM against a quota at 24× their
 * size (`spa_asize_inflation`), and forces a txg sync whenever that estimate would pass it; under a
 * quota of twice the file, 1 GiB written by the write-back probe took 16 txgs and 74–81 MiB/s in
 * the lab, without one 7–8 txgs and 109–111 MiB/s. The room is 24× the most dirty data ZFS holds
 * by default (`zfs_dirty_data_max_max`, 4 GiB, zfs-facts A13). The file's size (fio's `--size`,
 * once through or wrapping inside it) and the pool-fill guard bound what is written; the quota
 * stays as a backstop.
 */
export const benchQuotaBytes = (sizeBytes: number): number => Math.max(2 * sizeBytes, 64 * 1024 * 1024) + 24 * 4 * 1024 ** 3;

/**
 * The quota in words, for people reading the dry run (issue 38: `quota=103213432832` on a 5.7 GiB
 * pool, with no word of why). The command keeps the exact bytes; this sentence says what they are.
 */
export function benchQuotaText(sizeBytes: number, poolSizeBytes: number | null): string {
  const quota = benchQuotaBytes(sizeBytes);
  const beyond = poolSizeBytes !== null && quota > poolSizeBytes ? `; it is larger than the pool (${formatBytes(poolSizeBytes)}) on purpose, as a quota is a ceiling, not space taken` : '';
  return `quota=${quota} on the temporary dataset is ${formatBytes(quota)} of headroom, not space the run takes: the test file is ${formatBytes(sizeBytes)} (fio's --size), `
    + `and the pool-fill guard bounds what is written. ZFS counts writes still in RAM against a quota at 24× their size (its in-memory estimate, spa_asize_inflation) `
    + `and forces a txg sync whenever that estimate would pass the quota, which would throttle the run; so the quota is 2 × the file (at least 64 MiB) plus 24 × 4 GiB `
    + `(the most dirty data ZFS holds by default, zfs_dirty_data_max_max) and stays a backstop against a runaway write${beyond}.`;
}

/** `zfs create` arguments for the temporary dataset. */
export function datasetCreateArgs(pool: string, runId: string, sizeBytes: number, sync: 'always' | 'standard' | 'disabled' | null, shape: DatasetShape): string[] {
  const args = ['create', '-o', `recordsize=${sizeWord(recordsizeFor(shape))}`, '-o', 'compression=off', '-o', `primarycache=${primarycacheFor(shape)}`, '-o', 'atime=off',
    '-o', `quota=${benchQuotaBytes(sizeBytes)}`];
  if (sync) args.push('-o', `sync=${sync}`);
  args.push(benchDatasetName(pool, runId));
  return args;
}

export async function prepareDataset(db: Database, runId: string, pool: string, sizeBytes: number, sync: 'always' | 'standard' | 'disabled' | null, shape: DatasetShape, exec: BenchExec = realExec): Promise<Prepared> {
  const runCommand = exec.run;
  const name = benchDatasetName(pool, runId);
  const create = datasetCreateArgs(pool, runId, sizeBytes, sync, shape);
  const commands: string[][] = [['zfs', ...create]];
  journalAdd(db, runId, 'dataset', name);
  const r = await runCommand('zfs', create, { timeoutMs: 60_000 });
  if (r.exitCode !== 0 || r.error) return { ok: false, message: `cannot create ${name}: ${describeFailure(r)}`, commands };
  const mp = await runCommand('zfs', ['get', '-H', '-o', 'value', 'mountpoint', name]);
  const mountpoint = mp.stdout.trim();
  if (mp.exitCode !== 0 || !mountpoint.startsWith('/')) return { ok: false, message: `${name} has no usable mountpoint ("${mountpoint}")`, commands };
  let real: string;
  try { real = realpathSync(mountpoint); } catch { return { ok: false, message: `${name} is not mounted at ${mountpoint}`, commands }; }
  if (real !== mountpoint) return { ok: false, message: `the mountpoint of ${name} (${mountpoint}) leads elsewhere (${real}) through a symlink`, commands };
  const props = await runCommand('zfs', ['get', '-H', '-p', '-o', 'property,value', 'all', name]);
  const datasetProperties: Record<string, string> = {};
  for (const line of props.stdout.split('\n')) {
    const [k, v] = line.split('\t');
    if (k && v !== undefined && DATASET_PROPERTIES_KEPT.includes(k)) datasetProperties[k] = v;
  }
  return { ok: true, target: { workDir: real, filename: join(real, 'zfs-advisor-bench.dat'), dataset: name, datasetProperties, commands } };
}

/** The run's sub-directory, made and handed to fio through descriptors (run-directory.ts says why). */
export async function prepareDirectory(db: Database, runId: string, realDir: string): Promise<Prepared> {
  journalAdd(db, runId, 'directory', join(realDir, `${BENCH_DIR_PREFIX}${runId}`));
  const r = createRunDirectory(realDir, runId);
  if (!r.ok) return { ok: false, message: r.message, commands: [] };
  return { ok: true, target: { workDir: r.workDir, filename: r.filename, dataset: null, datasetProperties: {}, commands: [] } };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** kill(pid, 0) and not a zombie: enough for fio processes found by their file (not by a recorded pid). */
const processAlive = pidAlive;
export { processAlive };

/**
 * Journal path for a fio process: the file it writes. Written BEFORE fio is spawned (a pid is only
 * known afterwards, and a kill -9 can land in between); recovery finds the process by this file.
 */
export function processJournalPath(filename: string): string {
  return filename;
}

/** fio processes (any thread/fork) whose command line writes to `filename`. */
function fioProcessesFor(filename: string): number[] {
  return fioProcessesWhere((arg) => arg === `--filename=${filename}`);
}

function fioProcessesWhere(match: (arg: string) => boolean): number[] {
  const out: number[] = [];
  let entries: string[] = [];
  try { entries = readdirSync('/proc'); } catch { return out; }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const argv = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
      if (basename(argv[0] ?? '') === 'fio' && argv.some(match) && processAlive(Number(e))) out.push(Number(e));
    } catch { /* exited meanwhile */ }
  }
  return out;
}

/** Stops every fio still writing to our file (after a crash of the app, or a killed parent). */
export async function killFioFor(filename: string): Promise<number[]> {
  const pids = fioProcessesFor(filename);
  for (const pid of pids) { try { process.kill(pid, 'SIGKILL'); } catch { /* ended meanwhile */ } }
  for (let i = 0; i < 50 && pids.some(processAlive); i++) await sleep(100);
  return pids;
}

/**
 * Stops the fio processes a DEAD benchmark process left behind. fio gets a directory run's file
 * through its parent's descriptors (`/proc/<parent pid>/fd/N/…`, run-directory.ts), so its command
 * line names the parent: only fio processes pointing into a process that no longer exists match.
 */
export async function killOrphanFioOf(deadPid: number): Promise<number[]> {
  if (!Number.isInteger(deadPid) || deadPid <= 0 || processAlive(deadPid)) return [];
  const pids = fioProcessesWhere((arg) => arg.startsWith(`--filename=/proc/${deadPid}/fd/`));
  for (const pid of pids) { try { process.kill(pid, 'SIGKILL'); } catch { /* ended meanwhile */ } }
  for (let i = 0; i < 50 && pids.some(processAlive); i++) await sleep(100);
  return pids;
}

async function killOurFio(filename: string): Promise<string> {
  if (!filename.startsWith('/')) return `ignored malformed process entry "${filename}"`;
  // A pid would prove nothing (reuse): what counts is a fio writing to our file.
  const killed = await killFioFor(filename);
  return killed.length > 0 ? `stopped fio (pid ${killed.join(', ')}) writing ${filename}` : `no fio was writing ${filename}`;
}

async function destroyDataset(name: string, exec: BenchExec): Promise<{ done: boolean; message: string }> {
  const runCommand = exec.run;
  if (!isBenchDatasetName(name)) return { done: true, message: `refused to destroy "${name}": not a benchmark dataset name` };
  let last = '';
  for (let attempt = 0; attempt < 10; attempt++) {
    const exists = await runCommand('zfs', ['list', '-H', '-o', 'name', name]);
    if (exists.exitCode !== 0 && !exists.error) return { done: true, message: attempt === 0 ? `${name} did not exist` : `destroyed ${name}` };
    const r = await runCommand('zfs', ['destroy', '-r', name], { timeoutMs: 60_000 });
    if (r.exitCode === 0 && !r.error) return { done: true, message: `destroyed ${name}` };
    last = describeFailure(r) ?? '';
    await sleep(300 * (attempt + 1)); // "dataset is busy" right after fio exits
  }
  return { done: false, message: `could not destroy ${name}: ${last}` };
}

/** Undoes the open journal entries of a run, newest first (the fio process before its files). */
export async function undoJournal(db: Database, runId: string, entries: JournalEntry[], exec: BenchExec = realExec): Promise<{ clean: boolean; messages: string[] }> {
  const messages: string[] = [];
  let clean = true;
  for (const e of entries) {
    if (e.kind === 'process') {
      messages.push(await killOurFio(e.path));
      journalRemoved(db, e.id);
    } else if (e.kind === 'dataset') {
      const r = await destroyDataset(e.path, exec);
      messages.push(r.message);
      if (r.done) journalRemoved(db, e.id); else clean = false;
    } else {
      const r = removeRunDirectory(e.path, runId);
      messages.push(r.message);
      if (r.done) journalRemoved(db, e.id); else clean = false;
    }
  }
  return { clean, messages };
}

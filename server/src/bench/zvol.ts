/**
 * A temporary zvol as a benchmark target (the dataset-vs-zvol comparison of 002). Like the
 * temporary dataset it is journaled BEFORE `zfs create -V`, carries the benchmark name shape
 * (so recovery's `zfs destroy` can never hit anything else), and is destroyed afterwards.
 * volblocksize is always given explicitly: its default changed between OpenZFS releases (8K → 16K
 * in 2.2), and a comparison whose block size depends on the release is no comparison.
 */
import { realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { describeFailure } from '../exec/runner.ts';
import { benchDatasetName } from './names.ts';
import { journalAdd } from './store.ts';
import type { BenchExec } from './exec.ts';
import { primarycacheFor, type Prepared } from './targets.ts';
import type { Profile } from './profiles.ts';

export const DEFAULT_VOLBLOCKSIZE = 16 * 1024;
/** How long udev may take to create /dev/zvol/POOL/NAME after `zfs create -V` returns. */
const DEVICE_WAIT_MS = 15_000;

export function volSizeOf(sizeBytes: number, volblocksize: number): number {
  return Math.ceil(sizeBytes / volblocksize) * volblocksize;
}

/** `zfs create -V` arguments for the temporary zvol. */
export function zvolCreateArgs(pool: string, runId: string, sizeBytes: number, volblocksize: number, sync: 'always' | 'standard' | 'disabled' | null, shape: Pick<Profile, 'readsFromDisk'>): string[] {
  // The block size is the comparison's own (002), so only the caching follows the profile.
  const args = ['create', '-V', String(volSizeOf(sizeBytes, volblocksize)), '-o', `volblocksize=${volblocksize}`,
    '-o', 'compression=off', '-o', `primarycache=${primarycacheFor(shape)}`];
  if (sync) args.push('-o', `sync=${sync}`);
  args.push(benchDatasetName(pool, runId));
  return args;
}

/** The zvol's device link as OpenZFS names it (before udev resolves it to /dev/zdN). */
export function zvolLink(exec: BenchExec, pool: string, runId: string): string {
  return join(exec.zvolDevDir, benchDatasetName(pool, runId));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function prepareZvol(
  db: Database, exec: BenchExec, runId: string, pool: string, sizeBytes: number, volblocksize: number,
  sync: 'always' | 'standard' | 'disabled' | null, shape: Pick<Profile, 'readsFromDisk'>,
): Promise<Prepared> {
  const name = benchDatasetName(pool, runId);
  const create = zvolCreateArgs(pool, runId, sizeBytes, volblocksize, sync, shape);
  const commands: string[][] = [['zfs', ...create]];
  journalAdd(db, runId, 'dataset', name); // a zvol is a dataset of type volume: destroyed the same way
  const r = await exec.run('zfs', create, { timeoutMs: 60_000 });
  if (r.exitCode !== 0 || r.error) return { ok: false, message: `cannot create zvol ${name}: ${describeFailure(r)}`, commands };
  const link = zvolLink(exec, pool, runId);
  let device: string | null = null;
  for (const t0 = Date.now(); Date.now() - t0 < DEVICE_WAIT_MS; await sleep(200)) {
    try { device = realpathSync(link); break; } catch { /* udev has not made the link yet */ }
  }
  if (device === null) return { ok: false, message: `zvol ${name} was created but ${link} did not appear within ${DEVICE_WAIT_MS / 1000} s`, commands };
  try {
    const st = statSync(device);
    if (!st.isBlockDevice() && !st.isFile()) return { ok: false, message: `${link} leads to ${device}, which is not a block device`, commands };
  } catch (err) {
    return { ok: false, message: `${device} vanished: ${err instanceof Error ? err.message : String(err)}`, commands };
  }
  const props = await exec.run('zfs', ['get', '-H', '-p', '-o', 'property,value', 'volblocksize,volsize,compression,sync,primarycache', name]);
  const datasetProperties: Record<string, string> = {};
  for (const line of props.stdout.split('\n')) {
    const [k, v] = line.split('\t');
    if (k && v !== undefined) datasetProperties[k] = v;
  }
  return { ok: true, target: { workDir: null, filename: device, dataset: name, datasetProperties, commands } };
}

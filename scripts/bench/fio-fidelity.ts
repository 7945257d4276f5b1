/**
 * Fidelity of the benchmark runner: the same fio job run through the app (startBenchmark: guards,
 * journal, progress parsing, watchers) and bare (the very commands the app recorded for its run,
 * with only its run id swapped for another name, nothing around them), on the same target.
 * Targets: a plain directory, and a temporary dataset on a real zfs-fuse pool (started through the
 * test harness tests/support/zfs-fuse.ts; skipped with the reason when zfs-fuse is unavailable).
 * Each pair alternates its order (app first, then bare first) so warm-up and drift do not favour
 * one side; reported are the medians of IOPS and the median of the per-pair ratios.
 * Target: the app within 5 % of bare fio.
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../server/src/exec/runner.ts';
import { openStore } from '../../server/src/store/db.ts';
import { startBenchmark } from '../../server/src/bench/run.ts';
import { BenchRequest, type BenchTarget } from '../../server/src/bench/types.ts';
import { fioResultFromText, totals } from '../../server/src/bench/fio-result.ts';
import type { ProfileId } from '../../server/src/bench/profiles.ts';
import { startZfsFuse, zfsFuseUnavailableReason } from '../../tests/support/zfs-fuse.ts';
import type { Database } from 'better-sqlite3';

const REPEATS = 5;
const RUNTIME_S = 4;
const SIZE = 128 * 1024 * 1024;
const PROFILES: ProfileId[] = ['sync-write-4k-qd1', 'async-write-4k', 'seq-write-1m', 'rand-read-4k'];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function appRun(db: Database, profile: ProfileId, target: BenchTarget): Promise<{ iops: number; id: string; commands: string[][] }> {
  const run = await startBenchmark(BenchRequest.parse({ profile, target, sizeBytes: SIZE, runtimeS: RUNTIME_S, maxLoad1: 1e6 }), { db });
  if (run.summary.status !== 'completed') throw new Error(`${profile} through the app: ${run.summary.status}: ${run.message}`);
  return { iops: run.summary.readIops + run.summary.writeIops, id: run.summary.id, commands: run.detail.commands };
}

/** Replays the app's recorded commands with its run id swapped: mkdir/rm in-process, zfs and fio as programs. */
async function bareRun(commands: string[][], appId: string, tag: string): Promise<number> {
  const swap = (a: string) => a.split(`zfs-advisor-bench-${appId}`).join(tag);
  let last = '';
  let cleanup: string[] | null = null;
  try {
    for (const c of commands.map((x) => x.map(swap))) {
      const [prog, ...args] = c;
      if (prog === 'mkdir') mkdirSync(args.at(-1)!, { mode: 0o700 });
      else if (prog === 'rm' || (prog === 'zfs' && args[0] === 'destroy')) cleanup = c;
      else if (prog === 'zfs' || prog === 'zpool' || prog === 'fio') {
        const r = await runCommand(prog, args, { timeoutMs: (RUNTIME_S + 300) * 1000, maxBytes: 256 * 1024 * 1024 });
        // As the app does: `zpool sync` before the run is best effort (zfs-fuse's zpool has no sync).
        if (r.exitCode !== 0 && !(prog === 'zpool' && args[0] === 'sync')) throw new Error(`bare ${prog} failed: ${r.stderr.trim()}`);
        if (prog === 'fio') last = r.stdout;
        if (prog === 'fio' && args.some((a) => a.startsWith('--name=odirect-probe'))) {
          const f = args.find((a) => a.startsWith('--filename='))!.slice('--filename='.length);
          rmSync(f, { force: true }); // the app removes its probe file too
        }
      } else throw new Error(`unexpected command in the app's record: ${c.join(' ')}`);
    }
  } finally {
    if (cleanup?.[0] === 'rm') rmSync(cleanup.at(-1)!, { recursive: true, force: true });
    else if (cleanup) {
      for (let i = 0; i < 10; i++) {
        const r = await runCommand('zfs', cleanup.slice(1), { timeoutMs: 60_000 });
        if (r.exitCode === 0) break;
        await new Promise((res) => setTimeout(res, 300 * (i + 1))); // "dataset is busy" right after fio
      }
    }
  }
  const res = fioResultFromText(last);
  if (!res) throw new Error('bare fio printed no result');
  const t = totals(res);
  return t.readIops + t.writeIops;
}

async function measure(db: Database, target: BenchTarget, label: string): Promise<string[]> {
  const rows: string[] = [];
  for (const profile of PROFILES) {
    const app: number[] = [];
    const bare: number[] = [];
    const ratios: number[] = [];
    // The latest app run's commands: a bare-first repeat replays them (with its own tag).
    let latest: { iops: number; id: string; commands: string[][] } | null = null;
    for (let i = 0; i < REPEATS; i++) {
      const tag = `fidelity-bare-${profile}-${i}`;
      let a: number;
      let b: number;
      if (i % 2 === 0 || latest === null) {
        latest = await appRun(db, profile, target);
        a = latest.iops;
        b = await bareRun(latest.commands, latest.id, tag);
      } else {
        b = await bareRun(latest.commands, latest.id, tag);
        latest = await appRun(db, profile, target);
        a = latest.iops;
      }
      app.push(a);
      bare.push(b);
      ratios.push(a / b);
    }
    const r = median(ratios);
    rows.push(`| ${label} | ${profile} | ${median(app).toFixed(0)} | ${median(bare).toFixed(0)} | ${r.toFixed(3)} | ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)} | ${Math.abs(r - 1) <= 0.05 ? 'yes' : 'no'} |`);
  }
  return rows;
}

export default async function fioFidelity(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zfs-advisor-fidelity-store-'));
  const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-fidelity-'));
  const opened = await openStore(dataDir);
  if (!opened.ok) throw new Error(opened.error.message);
  const db = opened.store.db;
  const rows: string[] = [];
  const notes: string[] = [];
  const record = async (target: BenchTarget, label: string) => { rows.push(...await measure(db, target, label)); };
  try {
    await record({ kind: 'path', dir }, `directory (${tmpdir()})`);
    const why = zfsFuseUnavailableReason();
    if (why) notes.push(`zfs-fuse dataset: not measured (${why}).`);
    else {
      const zf = await startZfsFuse();
      try {
        await zf.createPool('fidelity', [await zf.fileVdev('fidelity1', '2G')]);
        await record({ kind: 'dataset', pool: 'fidelity' }, 'zfs-fuse dataset');
      } finally { await zf.stop(); }
    }
  } finally {
    opened.store.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    '## fio fidelity: the benchmark runner vs bare fio',
    '',
    `Same fio job (the app's recorded commands, replayed bare with only the run id swapped), ${REPEATS} repeats of ${RUNTIME_S} s each with the order alternating (app first, then bare first), ${SIZE / 2 ** 20} MiB file, on a plain directory and on a temporary dataset of a zfs-fuse pool (one 2 GiB file vdev). Reported: medians of total IOPS, the median of the per-pair app/bare ratios and their range. Target: app/bare within 5 %.`,
    '',
    '| target | profile | app IOPS | bare fio IOPS | app / bare (median) | range | within 5 % |',
    '|---|---|---:|---:|---:|---:|:---:|',
    ...rows,
    ...(notes.length ? ['', ...notes] : []),
  ].join('\n');
}

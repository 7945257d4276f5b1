/**
 * Fidelity of the benchmark runner: the same fio job run through the app (startBenchmark: guards,
 * journal, progress parsing, watchers) and bare (fio with the identical arguments, nothing
 * around it), alternating, on the same file system. Target: the app within 5 % of bare fio.
 * The bare run uses the very argument list the app printed for its own run (only the directory
 * differs), so the comparison is of the wrapper, not of two different jobs.
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../server/src/exec/runner.ts';
import { openStore } from '../../server/src/store/db.ts';
import { startBenchmark } from '../../server/src/bench/run.ts';
import { BenchRequest } from '../../server/src/bench/types.ts';
import { fioResultFromText, totals } from '../../server/src/bench/fio-result.ts';
import type { ProfileId } from '../../server/src/bench/profiles.ts';

const REPEATS = 3;
const RUNTIME_S = 5;
const SIZE = 256 * 1024 * 1024;
const PROFILES: ProfileId[] = ['sync-write-4k-qd1', 'async-write-4k', 'seq-write-1m'];

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] ?? 0; };

export default async function fioFidelity(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zfs-advisor-fidelity-store-'));
  const target = mkdtempSync(join(tmpdir(), 'zfs-advisor-fidelity-'));
  const opened = await openStore(dataDir);
  if (!opened.ok) throw new Error(opened.error.message);
  const db = opened.store.db;
  const rows: string[] = [];
  try {
    for (const profile of PROFILES) {
      const app: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < REPEATS; i++) {
        const run = await startBenchmark(BenchRequest.parse({
          profile, target: { kind: 'path', dir: target }, sizeBytes: SIZE, runtimeS: RUNTIME_S, maxLoad1: 1e6,
        }), { db });
        if (run.summary.status !== 'completed') throw new Error(`${profile} through the app: ${run.summary.status}: ${run.message}`);
        app.push(run.summary.readIops + run.summary.writeIops);

        // Bare: the app's own commands, pointed at another fresh directory.
        const bareDir = join(target, `bare-${profile}-${i}`);
        mkdirSync(bareDir);
        const appDir = join(target, `zfs-advisor-bench-${run.summary.id}`);
        const fioCmds = run.detail.commands.filter((c) => c[0] === 'fio').map((c) => c.slice(1).map((a) => a.split(appDir).join(bareDir)));
        let last = '';
        for (const args of fioCmds) {
          const r = await runCommand('fio', args, { timeoutMs: (RUNTIME_S + 120) * 1000 });
          if (r.exitCode !== 0) throw new Error(`bare fio failed: ${r.stderr.trim()}`);
          last = r.stdout;
        }
        const res = fioResultFromText(last);
        if (!res) throw new Error('bare fio printed no result');
        const t = totals(res);
        bare.push(t.readIops + t.writeIops);
        rmSync(bareDir, { recursive: true, force: true });
      }
      const ratio = median(app) / median(bare);
      rows.push(`| ${profile} | ${median(app).toFixed(0)} | ${median(bare).toFixed(0)} | ${ratio.toFixed(3)} | ${Math.abs(ratio - 1) <= 0.05 ? 'yes' : 'no'} |`);
    }
  } finally {
    opened.store.close();
    rmSync(target, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    '## fio fidelity: the benchmark runner vs bare fio',
    '',
    `Same fio job (identical arguments), ${REPEATS} alternating repeats of ${RUNTIME_S} s each, ${SIZE / 2 ** 20} MiB file, on a plain directory under ${tmpdir()}; medians of total IOPS. Target: app/bare within 5 %.`,
    '',
    '| profile | app IOPS | bare fio IOPS | app / bare | within 5 % |',
    '|---|---:|---:|---:|:---:|',
    ...rows,
  ].join('\n');
}

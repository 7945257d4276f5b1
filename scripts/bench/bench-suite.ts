/**
 * Suite overhead: one suite run through the real CLI (`zfs-advisor bench suite … --json`, a child
 * process: planning, guards per run, journal, progress parsing, load/iowait sampling, cleanup,
 * store) next to the same runs as bare commands — the very mkdir / fio layout / fio run / rm lines
 * the suite's plan prints, run one after another with nothing around them — on the same directory,
 * in the same process of this script, twice with the order swapped so warm-up favours neither.
 * Reported: wall time of each, the overhead per run, and the IOPS of each run side by side (the
 * suite must not change what fio measures). No pause between runs on either side.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../server/src/exec/runner.ts';
import { SuiteRequest } from '../../server/src/bench/suites.ts';
import { planSuite } from '../../server/src/bench/suite-runner.ts';
import { fioResultFromText, totals } from '../../server/src/bench/fio-result.ts';
import { openStore } from '../../server/src/store/db.ts';
import { getRun } from '../../server/src/bench/store.ts';

const PROFILES = 'sync-write-4k-qd1,async-write-4k,seq-write-1m';
const RUNTIME_S = 3;
const SIZE = '64M';
const CLI = join(import.meta.dirname, '..', '..', 'server', 'bin', 'zfs-advisor.js');

/** Wall time, time spent inside fio processes (layout + run), IOPS per run. */
interface Side { wallS: number; fioS: number; iops: number[] }

async function viaSuite(dir: string, dataDir: string): Promise<Side> {
  const t0 = performance.now();
  const r = await runCommand(process.execPath, [CLI, 'bench', 'suite', '--profiles', PROFILES, '--path', dir, '--runtime', String(RUNTIME_S),
    '--size', SIZE, '--pause', '0', '--max-load', '1000000', '--json', '--data-dir', dataDir], { timeoutMs: 300_000, maxBytes: 256 * 1024 * 1024 });
  const wallS = (performance.now() - t0) / 1000;
  if (r.exitCode !== 0) throw new Error(`bench suite exited ${String(r.exitCode)}: ${r.stderr.split('\n').slice(-3).join(' ')}`);
  const out = JSON.parse(r.stdout) as { runs: { result: { id: string; writeIops: number; readIops: number; wallSeconds: number | null } | null }[] };
  // fio's own time per run from the store: the layout process and the measured process.
  const opened = await openStore(dataDir);
  if (!opened.ok) throw new Error(opened.error.message);
  let fioS = 0;
  for (const x of out.runs) {
    const d = x.result ? getRun(opened.store.db, x.result.id)?.run?.detail : null;
    fioS += (x.result?.wallSeconds ?? 0) + (d?.layoutSeconds ?? 0);
  }
  opened.store.close();
  return { wallS, fioS, iops: out.runs.map((x) => (x.result ? x.result.writeIops + x.result.readIops : 0)) };
}

async function bare(dir: string): Promise<Side> {
  const plan = await planSuite(SuiteRequest.parse({ profiles: PROFILES.split(','), target: { kind: 'path', dir }, runtimeS: RUNTIME_S, sizeBytes: 64 * 1024 * 1024, pauseS: 0, maxLoad1: 1e6 }));
  if (!plan.ok) throw new Error(plan.message);
  const iops: number[] = [];
  let fioS = 0;
  const t0 = performance.now();
  for (const run of plan.plan.runs) {
    for (const c of run.commands.map((x) => x.map((a) => a.replaceAll('<id>', 'bare0000001')))) {
      if (c[0] === 'mkdir') { mkdirSync(c.at(-1)!, { mode: 0o700 }); continue; }
      if (c[0] === 'rm') { rmSync(c.at(-1)!, { recursive: true, force: true }); continue; }
      const r = await runCommand(c[0]!, c.slice(1), { timeoutMs: 300_000, maxBytes: 256 * 1024 * 1024 });
      if (r.exitCode !== 0) throw new Error(`${c.join(' ')}: exit ${String(r.exitCode)} ${r.stderr}`);
      fioS += r.durationMs / 1000;
      if (c.includes('--time_based=1')) {
        const f = fioResultFromText(r.stdout);
        const t = f ? totals(f) : null;
        iops.push(t ? t.readIops + t.writeIops : 0);
      }
    }
  }
  return { wallS: (performance.now() - t0) / 1000, fioS, iops };
}

export default async function run(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'zfsa-bench-suite-'));
  try {
    const rows: string[] = [];
    const pairs: { suite: Side; bare: Side }[] = [];
    for (let round = 0; round < 2; round++) {
      const dir = join(root, `t${round}`);
      mkdirSync(dir);
      const dataDir = join(root, `d${round}`);
      let s: Side; let b: Side;
      if (round === 0) { s = await viaSuite(dir, dataDir); b = await bare(dir); } else { b = await bare(dir); s = await viaSuite(dir, dataDir); }
      pairs.push({ suite: s, bare: b });
      const n = s.iops.length;
      rows.push(`| ${round + 1} (${round === 0 ? 'suite first' : 'bare first'}) | ${s.wallS.toFixed(1)} s | ${b.wallS.toFixed(1)} s | ${((s.wallS - s.fioS) / n).toFixed(2)} s | ${((b.wallS - b.fioS) / n).toFixed(2)} s | ${s.iops.map((x, i) => `${Math.round(x)} / ${Math.round(b.iops[i] ?? 0)}`).join(', ')} |`);
    }
    const n = pairs[0]!.suite.iops.length;
    const outside = (x: Side) => (x.wallS - x.fioS) / n;
    const over = pairs.map((p) => outside(p.suite) - outside(p.bare));
    const ratios = pairs.flatMap((p) => p.suite.iops.map((x, i) => x / (p.bare.iops[i] || 1))).sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    return [
      '## Benchmark suite overhead vs bare fio',
      '',
      `The same ${PROFILES.split(',').length} runs (${PROFILES}; ${RUNTIME_S} s each, ${SIZE} files, no pause) on one directory: once as \`zfs-advisor bench suite --profiles … --path DIR --json\` (a child process: planning, every run's guards, journal, progress parsing, load/iowait sampling, cleanup and the store), once as the bare commands the suite's plan prints (mkdir, fio layout, fio run, rm) one after another. Two rounds, the order swapped.`,
      '',
      'Whole wall times swing with layout speed on this shared machine (load 10+ from other work), so the overhead is measured as the time **outside fio** per run: wall time minus the fio processes\' own durations (layout and measured run).',
      '',
      '| round | suite wall | bare wall | suite: outside fio per run | bare: outside fio per run | IOPS per run, suite / bare |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Suite overhead (outside-fio time, suite minus bare), mean per run: **${(over.reduce((a, b) => a + b, 0) / over.length).toFixed(2)} s** — Node start, planning (pool/path facts and guards for every cell), journal and store writes, the check that no fio is left, and cleanup. Median IOPS ratio suite ÷ bare over all runs: **${median.toFixed(2)}** (single runs on this busy machine scatter by tens of percent either way; tests/bench and \`npm run bench -- fio-fidelity\` hold the single-run fidelity).`,
    ].join('\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Issues 8 and 20 benchmark: `zfs-advisor sizes DIR --json` (the bundled CLI, a whole process:
 * start-up, the parallel find walk, binning, JSON) against the pipelines a user would type, run
 * as real pipelines (every stage a process, each stage's stdout the next one's stdin, so stages
 * overlap exactly as under `sh -c 'a | b | c'`; scripts/bench/processes.ts):
 *   seed:   find . -type f -print0 | xargs -0 ls -l | awk '{ n=int(log($5)/log(2)); … }'
 *   printf: find . -type f -printf '%s\n' | awk '{ n=int(log($1)/log(2)); … }'
 * plus, in this process (no start-up), each walk method of measureSizes. Trees from
 * tests/sizing/generate-tree.ts, 300,000 and 1,000,000 files unless SIZING_BENCH_FILES says
 * otherwise (comma-separated); SIZING_BENCH_DIR keeps generated trees between runs. Warm cache,
 * ROUNDS rounds each running every case once in turn (alternating), medians.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureSizes, type WalkMethod } from '../../server/src/sizing/measure.ts';
import { generateTree } from '../../tests/sizing/generate-tree.ts';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildServer } from '../build-server.mjs';
import { pipeline, timedWithRss } from './processes.ts';

const SIZES = (process.env.SIZING_BENCH_FILES ?? '300000,1000000').split(',').map(Number);
const ROUNDS = Number(process.env.SIZING_BENCH_ROUNDS ?? 7);
const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'server', 'bin', 'zfs-advisor.js');
const SEED_AWK = '{ n=int(log($5)/log(2)); if (n<10) { n=10; } size[n]++ } END { for (i in size) printf("%d %d\\n", 2^i, size[i]) }';
const PRINTF_AWK = '{ n=int(log($1)/log(2)); if (n<10) { n=10; } size[n]++ } END { for (i in size) printf("%d %d\\n", 2^i, size[i]) }';

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

interface Case { label: string; run: () => Promise<{ ms: number; rssMiB?: number }> }

async function inProcess(root: string, files: number, method: WalkMethod, processes?: number): Promise<{ ms: number }> {
  const t = performance.now();
  const r = await measureSizes(root, { recordsize: 131072, ashift: 12, method, processes });
  const ms = performance.now() - t;
  if (r.stats.files !== files) throw new Error(`${r.method} walk counted ${r.stats.files} files, expected ${files}`);
  return { ms };
}

async function benchTree(root: string, files: number, genNote: string): Promise<string[]> {
  const cli = async () => {
    const r = await timedWithRss([process.execPath, BIN, 'sizes', root, '--json']);
    const out = JSON.parse(r.stdout) as { histogram: { files: number; notes: string[] } };
    if (out.histogram.files !== files) throw new Error(`zfs-advisor sizes counted ${out.histogram.files} files, expected ${files}`);
    if (!out.histogram.notes.some((n) => n.startsWith('walk: by ') && n.includes('at once over'))) throw new Error('the CLI did not run the parallel walk');
    return r;
  };
  const cases: Case[] = [
    { label: `**\`zfs-advisor sizes DIR --json\`** (bundled CLI, whole process: ${availableParallelism()} find processes over subtrees)`, run: cli },
    { label: 'seed: `find . -type f -print0 | xargs -0 ls -l | awk …` (real pipe)', run: () => pipeline([['find', '.', '-type', 'f', '-print0'], ['xargs', '-0', 'ls', '-l'], ['awk', SEED_AWK]], { cwd: root }) },
    { label: "`find . -type f -printf '%s\\n' | awk …` (real pipe)", run: () => pipeline([['find', '.', '-type', 'f', '-printf', '%s\\n'], ['awk', PRINTF_AWK]], { cwd: root }) },
    { label: "(floor) `find . -type f -printf '%s\\n'` alone, output discarded", run: () => pipeline([['find', '.', '-type', 'f', '-printf', '%s\\n']], { cwd: root }).then((r) => ({ ms: r.ms })) },
    { label: `measureSizes in this process, parallel find walk forced to ${availableParallelism()} processes (no start-up)`, run: () => inProcess(root, files, 'parallel', availableParallelism()) },
    { label: 'measureSizes in this process, one find stream (the previous default)', run: () => inProcess(root, files, 'find') },
    { label: 'measureSizes in this process, Node walker (fallback without GNU find)', run: () => inProcess(root, files, 'node') },
  ];
  const loadStart = load();
  await pipeline([['find', '.', '-type', 'f', '-printf', '%s\\n']], { cwd: root }); // warm the dentry/inode caches
  await cli(); // and the CLI's files
  const ms = cases.map(() => [] as number[]);
  let rss = 0;
  for (let i = 0; i < ROUNDS; i++) {
    for (const [k, c] of cases.entries()) {
      const r = await c.run();
      ms[k]!.push(r.ms);
      if (k === 0 && r.rssMiB !== undefined) rss = Math.max(rss, r.rssMiB);
    }
  }
  const m = ms.map(median);
  const ours = m[0]!;
  const runs = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(', ');
  const vsSeed = m[1]! / ours;
  const vsPrintf = m[2]! / ours;
  const rssMb = rss * 1.048576;
  return [
    `### ${files.toLocaleString('en')} files`,
    '',
    `${genNote} Load average at start ${loadStart}, at end ${load()}.`,
    '',
    '| method | median s | runs (s) | `zfs-advisor sizes` is … faster |',
    '|---|---|---|---|',
    ...cases.map((c, k) => `| ${c.label} | ${(m[k]! / 1000).toFixed(2)} | ${runs(ms[k]!)} | ${(m[k]! / ours).toFixed(2)}× |`),
    '',
    `Targets (issue 20): ≥ 3× faster than the seed pipeline — ${vsSeed >= 3 ? 'met' : 'NOT met'} (${vsSeed.toFixed(2)}×); ≥ 1.3× faster than find -printf | awk — ${vsPrintf >= 1.3 ? 'met' : 'NOT met'} (${vsPrintf.toFixed(2)}×); peak RSS of the CLI process < 150 MB — ${rssMb < 150 ? 'met' : 'NOT met'} (${rssMb.toFixed(0)} MB).`,
    '',
  ];
}

export default async function sizingBench(): Promise<string> {
  await buildServer(); // the CLI runs its bundle, as installed
  const keep = process.env.SIZING_BENCH_DIR;
  const base = keep ?? mkdtempSync(join(tmpdir(), 'bench-sizing-'));
  const out: string[] = [
    '## sizing: size histogram of a generated tree (issues 8 and 20)',
    '',
    `Every case runs once per round, in turn (alternating), ${ROUNDS} rounds, medians. Pipelines are real pipes: the stages run at once, connected stdout → stdin, as \`sh -c\` would run them. ` +
      'Warm cache (the caches are not dropped: the machine is shared). ' +
      'The machine is shared with other engineers: the kernel schedules each login session as one group (`sched_autogroup_enabled=1`), so when other sessions keep the CPUs busy, ' +
      'several processes of ours get no more CPU time than one and the walk is bounded by its total CPU work, not by the number of cores; runs vary accordingly.',
    '',
  ];
  try {
    for (const files of SIZES) {
      const root = join(base, `tree-${files}`);
      let genNote = `Tree: ${files.toLocaleString('en')} files from tests/sizing/generate-tree.ts (reused from ${root}).`;
      if (!existsSync(`${root}.complete`)) {
        rmSync(root, { recursive: true, force: true });
        mkdirSync(base, { recursive: true });
        const t = performance.now();
        generateTree(root, files);
        writeFileSync(`${root}.complete`, '');
        genNote = `Tree: ${files.toLocaleString('en')} files from tests/sizing/generate-tree.ts (generated in ${((performance.now() - t) / 1000).toFixed(0)} s).`;
      }
      out.push(...(await benchTree(root, files, genNote)));
    }
  } finally {
    if (!keep) rmSync(base, { recursive: true, force: true });
  }
  out.push(
    'Method: `zfs-advisor sizes` cuts the tree into subtrees (reading only the top directory levels, in Node), then runs one GNU `find -xdev -printf` per available CPU over them, handing out batches of subtrees as processes finish; ' +
      'every record is binned as it streams in (server/src/sizing/parallel-find.ts). The result equals the single walk\'s and real find\'s (tests/sizing/parallel-find.test.ts).',
    'CPU cost per 300,000 files measured with GNU time on this machine: find -printf with the walk\'s record format 0.15–0.21 s user + 0.65–0.76 s system, with `%s\\n` only 0.07–0.11 s + 0.62–0.77 s; mawk binning 0.03 s; the Node parser ~0.05 s (warm). ' +
      'The system time is one newfstatat per entry and cannot be avoided by any method that reads sizes; only spreading it over cores shortens the wall time, which needs idle cores.',
  );
  return out.join('\n');
}

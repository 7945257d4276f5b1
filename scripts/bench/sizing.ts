/**
 * Issue 8 benchmark: our walker vs the seed pipeline of 000
 *   find . -type f -print0 | xargs -0 ls -l | awk '{ n=int(log($5)/log(2)); … }'
 * vs `find . -type f -printf '%s\n' | awk …`, on the same generated tree (1,000,000 files unless
 * SIZING_BENCH_FILES says otherwise), warm cache, REPEATS runs each, medians and ratios, peak RSS.
 *
 * No shell anywhere: each pipeline stage runs through the runner and hands its output to the next
 * stage through a file (`xargs -a FILE`, `awk … FILE`); a stage's time is its own process time, so
 * a pipeline's time is the sum of its stages (a real shell pipe overlaps them: the seed pipeline
 * is, if anything, favoured by at most the overlap).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../server/src/exec/runner.ts';
import { walkTree } from '../../server/src/sizing/walker.ts';
import { generateTree } from '../../tests/sizing/generate-tree.ts';

const FILES = Number(process.env.SIZING_BENCH_FILES ?? 1_000_000);
const REPEATS = 3;
const SEED_AWK = '{ n=int(log($5)/log(2)); if (n<10) { n=10; } size[n]++ } END { for (i in size) printf("%d %d\\n", 2^i, size[i]) }';
const PRINTF_AWK = '{ n=int(log($1)/log(2)); if (n<10) { n=10; } size[n]++ } END { for (i in size) printf("%d %d\\n", 2^i, size[i]) }';
const BIG = { timeoutMs: 1_800_000, maxBytes: 1024 * 1024 * 1024 };

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

async function stage(program: string, args: string[], cwd: string, outFile: string | null): Promise<number> {
  const t = performance.now();
  const r = await runCommand(program, args, { ...BIG, cwd });
  const ms = performance.now() - t;
  if (r.error || r.exitCode !== 0) throw new Error(`${program} failed: ${r.error?.message ?? r.stderr.split('\n')[0]}`);
  if (outFile) writeFileSync(outFile, r.stdout);
  return ms;
}

export default async function sizingBench(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sizing-'));
  const root = join(dir, 'tree');
  try {
    const g0 = performance.now();
    generateTree(root, FILES);
    const genS = (performance.now() - g0) / 1000;
    await stage('find', ['.', '-type', 'f', '-printf', '%s\\n'], root, null); // warm the dentry/inode caches

    const ours: number[] = [];
    const rssBefore = process.resourceUsage().maxRSS;
    for (let i = 0; i < REPEATS; i++) {
      const t = performance.now();
      const r = await walkTree(root, { recordsize: 131072, ashift: 12 });
      ours.push(performance.now() - t);
      if (r.stats.files !== FILES) throw new Error(`walker counted ${r.stats.files} files, expected ${FILES}`);
    }
    const peakRssMb = process.resourceUsage().maxRSS / 1024; // KiB → MiB; the walker ran first, so this peak is its own (plus Node)

    const list = join(dir, 'list0');
    const lsOut = join(dir, 'ls.txt');
    const sizes = join(dir, 'sizes.txt');
    const seed: number[] = [];
    const printf: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      seed.push(
        (await stage('find', ['.', '-type', 'f', '-print0'], root, list)) +
        (await stage('xargs', ['-0', '-a', list, 'ls', '-l'], root, lsOut)) +
        (await stage('awk', [SEED_AWK, lsOut], root, null)),
      );
      printf.push(
        (await stage('find', ['.', '-type', 'f', '-printf', '%s\\n'], root, sizes)) +
        (await stage('awk', [PRINTF_AWK, sizes], root, null)),
      );
    }
    const [o, s, p] = [median(ours), median(seed), median(printf)];
    return [
      `## sizing: size histogram of a ${FILES.toLocaleString('en')}-file tree (issue 8)`,
      '',
      `Tree: ${FILES.toLocaleString('en')} files from tests/sizing/generate-tree.ts (generated in ${genS.toFixed(0)} s), warm cache, ${REPEATS} runs each, medians.`,
      '',
      '| method | median s | runs (s) | vs ours |',
      '|---|---|---|---|',
      `| zfs-advisor walker (file + block histograms) | ${(o / 1000).toFixed(2)} | ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')} | 1.00× |`,
      `| seed: find -print0 \\| xargs -0 ls -l \\| awk | ${(s / 1000).toFixed(2)} | ${seed.map((x) => (x / 1000).toFixed(2)).join(', ')} | ${(s / o).toFixed(2)}× slower |`,
      `| find -printf '%s\\n' \\| awk | ${(p / 1000).toFixed(2)} | ${printf.map((x) => (x / 1000).toFixed(2)).join(', ')} | ${(p / o).toFixed(2)}× |`,
      '',
      `Peak RSS of the bench process after the walker runs: ${peakRssMb.toFixed(0)} MiB (before: ${(rssBefore / 1024).toFixed(0)} MiB; includes Node/tsx).`,
      `Targets (issue 8): ≥ 3× faster than the seed pipeline — ${s / o >= 3 ? 'met' : 'NOT met'}; no slower than find -printf | awk — ${o <= p ? 'met' : 'NOT met'}; peak RSS < 150 MB — ${peakRssMb < 150 ? 'met' : 'NOT met'}.`,
      'Pipeline stages run one after another through files (no shell), so their times are sums of stage times.',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

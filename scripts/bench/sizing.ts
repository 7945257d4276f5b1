/**
 * Issue 8 benchmark: `sizes` (measureSizes, method auto = the GNU find -printf stream on Linux, and
 * the Node walker fallback) vs the seed pipeline of 000
 *   find . -type f -print0 | xargs -0 ls -l | awk '{ n=int(log($5)/log(2)); … }'
 * vs `find . -type f -printf '%s\n' | awk …`, on the same generated tree (1,000,000 files unless
 * SIZING_BENCH_FILES says otherwise), warm cache, REPEATS interleaved rounds, medians and ratios, peak RSS.
 *
 * No shell anywhere: each pipeline stage runs through the runner and hands its output to the next
 * stage through a file (`xargs -a FILE`, `awk … FILE`); a stage's time is its own process time, so
 * a pipeline's time is the sum of its stages. A real shell pipe overlaps its stages, so summing
 * them favours our method over the pipelines by at most that overlap (the awk stages are short).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../server/src/exec/runner.ts';
import { measureSizes, type WalkMethod } from '../../server/src/sizing/measure.ts';
import { generateTree } from '../../tests/sizing/generate-tree.ts';

const FILES = Number(process.env.SIZING_BENCH_FILES ?? 1_000_000);
const REPEATS = 5;
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
    const loadStart = loadavg().map((x) => x.toFixed(1)).join(' ');
    const g0 = performance.now();
    generateTree(root, FILES);
    const genS = (performance.now() - g0) / 1000;
    await stage('find', ['.', '-type', 'f', '-printf', '%s\\n'], root, null); // warm the dentry/inode caches

    // Peak RSS first, before the pipelines' large outputs pass through this process: one untimed
    // run of each of our methods (find stream first; maxRSS is a high-water mark, read after each).
    const rssStart = process.resourceUsage().maxRSS / 1024;
    const once = async (method: WalkMethod): Promise<number> => {
      const t = performance.now();
      const r = await measureSizes(root, { recordsize: 131072, ashift: 12, method });
      const ms = performance.now() - t;
      if (r.stats.files !== FILES) throw new Error(`${r.method} walk counted ${r.stats.files} files, expected ${FILES}`);
      if (method === 'auto' && r.method !== 'find') throw new Error('auto did not pick the find stream on this machine');
      return ms;
    };
    await once('auto');
    const rssFind = process.resourceUsage().maxRSS / 1024;
    await once('node');
    const rssWalker = process.resourceUsage().maxRSS / 1024;
    const peakRssMb = Math.max(rssFind, rssWalker);

    // Timed runs interleaved round by round, so a change of load on this shared machine hits every
    // method alike instead of whichever block happened to run then.
    const list = join(dir, 'list0');
    const lsOut = join(dir, 'ls.txt');
    const sizes = join(dir, 'sizes.txt');
    const ours: number[] = [];
    const walker: number[] = [];
    const seed: number[] = [];
    const printf: number[] = [];
    const findOnly: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      ours.push(await once('auto'));
      walker.push(await once('node'));
      seed.push(
        (await stage('find', ['.', '-type', 'f', '-print0'], root, list)) +
        (await stage('xargs', ['-0', '-a', list, 'ls', '-l'], root, lsOut)) +
        (await stage('awk', [SEED_AWK, lsOut], root, null)),
      );
      const f = await stage('find', ['.', '-type', 'f', '-printf', '%s\\n'], root, sizes);
      findOnly.push(f);
      printf.push(f + (await stage('awk', [PRINTF_AWK, sizes], root, null)));
    }
    const [o, w, s, p, fo] = [median(ours), median(walker), median(seed), median(printf), median(findOnly)];
    const runs = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(', ');
    return [
      `## sizing: size histogram of a ${FILES.toLocaleString('en')}-file tree (issue 8)`,
      '',
      `Tree: ${FILES.toLocaleString('en')} files from tests/sizing/generate-tree.ts (generated in ${genS.toFixed(0)} s), warm cache (caches not dropped: the machine is shared), ${REPEATS} rounds, each running every method once in turn, medians. Load average at start: ${loadStart}, at end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}.`,
      '',
      '| method | median s | runs (s) | ours is … faster |',
      '|---|---|---|---|',
      `| **zfs-advisor sizes** (auto = GNU find -printf stream, file + block histograms, metadata estimate) | ${(o / 1000).toFixed(2)} | ${runs(ours)} | 1.00× |`,
      `| zfs-advisor sizes, Node walker (fallback without GNU find) | ${(w / 1000).toFixed(2)} | ${runs(walker)} | ${(w / o).toFixed(2)}× |`,
      `| seed: find -print0 \\| xargs -0 ls -l \\| awk | ${(s / 1000).toFixed(2)} | ${runs(seed)} | ${(s / o).toFixed(2)}× |`,
      `| find -printf '%s\\n' \\| awk | ${(p / 1000).toFixed(2)} | ${runs(printf)} | ${(p / o).toFixed(2)}× |`,
      `| (floor) find -printf '%s\\n' alone, no binning | ${(fo / 1000).toFixed(2)} | ${runs(findOnly)} | ${(fo / o).toFixed(2)}× |`,
      '',
      `Peak RSS of the bench process (includes Node/tsx; ${rssStart.toFixed(0)} MiB before any walk): ${rssFind.toFixed(0)} MiB after a find-stream run, ${rssWalker.toFixed(0)} MiB after a walker run (measured before any pipeline ran).`,
      `Targets (issue 8), default method: ≥ 3× faster than the seed pipeline — ${s / o >= 3 ? 'met' : 'NOT met'} (${(s / o).toFixed(2)}×); no slower than find -printf | awk — ${o <= p ? 'met' : 'NOT met'} (${(p / o).toFixed(2)}×); peak RSS < 150 MB — ${peakRssMb * 1.048576 < 150 ? 'met' : 'NOT met'} (${(peakRssMb * 1.048576).toFixed(0)} MB).`,
      `Fallback walker: ${(s / w).toFixed(2)}× faster than the seed, ${(p / w).toFixed(2)}× the speed of find -printf | awk.`,
      'Pipeline stages run one after another through files (no shell), so their times are sums of stage times.',
      'The default method is bounded by find\'s own walk: `strace -c` of the find stream on a 200k-file tree shows one newfstatat per entry and ~90 % of its syscall time there. ' +
        'Evaluated and dropped (2026-11-22, 200k-file tree, 2 cores): two find processes over halves of the top-level directories (0.57–0.69 s vs 0.55–0.59 s for one: no gain), ' +
        'readdirSync({withFileTypes}) instead of opendirSync in the Node walker (0.77–0.90 s vs 0.78–1.11 s: noise).',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

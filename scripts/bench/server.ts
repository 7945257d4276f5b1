/**
 * Server benchmark (for BENCHMARKS.md): idle RSS of a freshly started server on the demo
 * snapshot, and 200 concurrent GETs of the findings list over loopback (p50/p99, errors).
 * Targets from issue 5: idle RSS ≤ 80 MB, p99 < 50 ms, 0 errors.
 *
 * Measured twice: as the CLI runs it (`zfs-advisor serve`, TypeScript through tsx) and as
 * `npm start` runs it (the esbuild bundle dist/server.mjs, rebuilt here). The server runs in a
 * child process (via the runner) so its RSS is its own, not this script's. The load generator
 * shares the machine's cores with the server, so the load average is recorded with the result,
 * and the server's own CPU time per request is given as the figure least affected by other work.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { runStreaming } from '../../server/src/exec/runner.ts';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildServer } from '../build-server.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const CONCURRENT = 200;
const ROUNDS = 5;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** utime + stime of a process, in ms (from /proc/PID/stat; clock ticks are 100 Hz on Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Round { p50: number; p99: number; errors: number }
interface Measured { label: string; rssMb: number; rounds: Round[]; cpuPerRequestMs: number; body: string }

async function oneRound(url: string): Promise<Round> {
  const times: number[] = [];
  let errors = 0;
  await Promise.all(Array.from({ length: CONCURRENT }, async () => {
    const t0 = performance.now();
    try {
      const r = await fetch(new URL('api/hosts/demo/findings', url));
      await r.arrayBuffer();
      if (r.status !== 200) errors++;
    } catch { errors++; }
    times.push(performance.now() - t0);
  }));
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), errors };
}

/**
 * The floor on this machine: a bare node:http server answering the same bytes, measured with the
 * same client. What no Express app can beat here; it shows how much of p99 is client and machine.
 */
async function measureFloor(body: string): Promise<Round[]> {
  // The body goes through a file: the runner refuses arguments over 4 KiB.
  const dir = mkdtempSync(join(tmpdir(), 'zfsa-bench-floor-'));
  const file = join(dir, 'body.json');
  writeFileSync(file, body);
  const code = `const b=require('node:fs').readFileSync(process.argv[1]);require('node:http').createServer((q,r)=>{r.setHeader('Content-Type','application/json; charset=utf-8');r.end(b)}).listen(0,'127.0.0.1',function(){console.log('running at http://127.0.0.1:'+this.address().port+'/')})`;
  const abort = new AbortController();
  let url = '';
  let exited: Promise<unknown> = Promise.resolve();
  const ready = new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('bare server did not start within 30 s')), 30_000);
    exited = runStreaming(process.execPath, ['-e', code, file], {
      signal: abort.signal,
      timeoutMs: 5 * 60_000,
      onStdoutLine: (line) => {
        const m = /running at (http:\/\/\S+)/.exec(line);
        if (m) { url = m[1]!; clearTimeout(t); resolve(); }
      },
    });
  });
  try {
    await ready;
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await oneRound(url));
    return rounds;
  } finally {
    abort.abort();
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(label: string, command: string[]): Promise<Measured> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zfsa-bench-server-'));
  const abort = new AbortController();
  let url = '';
  let pid = 0;
  let exited: Promise<unknown> = Promise.resolve();
  const ready = new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${label}: server did not start within 60 s`)), 60_000);
    exited = runStreaming(process.execPath, [...command, 'serve', '--port', '0', '--data-dir', dataDir, '--demo'], {
      signal: abort.signal,
      timeoutMs: 10 * 60_000,
      onSpawn: (p) => { pid = p; },
      onStdoutLine: (line) => {
        const m = /running at (http:\/\/\S+)/.exec(line);
        if (m) { url = m[1]!; clearTimeout(t); resolve(); }
      },
    });
  });
  try {
    await ready;
    // Let the startup assessment finish, then measure idle RSS from /proc.
    for (let i = 0; i < 100; i++) {
      const r = await fetch(new URL('api/hosts/demo/findings', url));
      if (((await r.json()) as { assessmentId: number | null }).assessmentId !== null) break;
      await new Promise((r2) => setTimeout(r2, 200));
    }
    await new Promise((r) => setTimeout(r, 2000));
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

    const cpu0 = cpuMs(pid);
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await oneRound(url));
    const cpuPerRequestMs = (cpuMs(pid) - cpu0) / (ROUNDS * CONCURRENT);
    const body = await (await fetch(new URL('api/hosts/demo/findings', url))).text();
    return { label, rssMb: rssKb / 1024, rounds, cpuPerRequestMs, body };
  } finally {
    abort.abort();
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

export default async function serverBench(): Promise<string> {
  const loadBefore = loadavg();
  await buildServer();
  const results = [
    await measure('`zfs-advisor serve` (tsx)', [join(ROOT, 'server', 'bin', 'zfs-advisor.js')]),
    await measure('`npm start` (bundle dist/server.mjs)', [join(ROOT, 'dist', 'server.mjs')]),
  ];
  const floor = await measureFloor(results[1]!.body);
  const loadAfter = loadavg();

  const rows: string[] = [];
  for (const r of results) {
    const first = r.rounds[0]!;
    const byP99 = [...r.rounds].sort((a, b) => a.p99 - b.p99);
    const median = byP99[Math.floor(byP99.length / 2)]!;
    const errors = r.rounds.reduce((n, x) => n + x.errors, 0);
    rows.push(
      `| ${r.label} | idle RSS after start + first assessment | ${r.rssMb.toFixed(1)} MB | ≤ 80 MB |`,
      `| ${r.label} | ${CONCURRENT} concurrent GET findings, first round (new connections): p50 / p99 | ${first.p50.toFixed(1)} / ${first.p99.toFixed(1)} ms | p99 < 50 ms |`,
      `| ${r.label} | same, median of ${ROUNDS} rounds (by p99): p50 / p99 | ${median.p50.toFixed(1)} / ${median.p99.toFixed(1)} ms | p99 < 50 ms |`,
      `| ${r.label} | errors in ${ROUNDS * CONCURRENT} requests | ${errors} | 0 |`,
      `| ${r.label} | server CPU time per request (user + system) | ${r.cpuPerRequestMs.toFixed(2)} ms | — |`,
    );
  }
  const floorMedian = [...floor].sort((a, b) => a.p99 - b.p99)[Math.floor(floor.length / 2)]!;
  rows.push(
    `| bare \`node:http\` server, same ${Buffer.byteLength(results[1]!.body)} bytes (floor) | ${CONCURRENT} concurrent GETs, first round: p50 / p99 | ${floor[0]!.p50.toFixed(1)} / ${floor[0]!.p99.toFixed(1)} ms | — |`,
    `| bare \`node:http\` server (floor) | same, median of ${ROUNDS} rounds (by p99): p50 / p99 | ${floorMedian.p50.toFixed(1)} / ${floorMedian.p99.toFixed(1)} ms | — |`,
  );
  return [
    '### Server (issue 5)',
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; server on the demo snapshot, loopback HTTP, client = Node's fetch in the bench process on the same cores.`,
    `Load average (1 / 5 / 15 min) before: ${fmtLoad(loadBefore)}, after: ${fmtLoad(loadAfter)} (other work on the machine competes with both server and client).`,
    '',
    '| server | measure | result | target |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

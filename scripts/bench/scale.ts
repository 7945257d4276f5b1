/**
 * Issue 21 benchmark: a large host. Synthetic captures from scripts/gen-large-snapshot.ts (half
 * the pools 12-wide raidz2, half six 2-way mirrors; SATA HDDs with smartctl JSON; 57 `zfs get`
 * properties a dataset, a fifth of them zvols):
 *  - CLI: `zfs-advisor inventory|assess --snapshot DIR --json` (stdout through a real pipe), side
 *    by side with `node -e 0` in the same rounds; wall time (median) and peak RSS (GNU time %M, max).
 *    Growth: 12 → 60 → 240 disks at 5,000 datasets, and 1,000 → 5,000 → 20,000 datasets at 240 disks.
 *  - Server: `node dist/server.mjs serve --snapshot DIR` (240 disks, 5,000 datasets) in its own
 *    process; a load process sends 200 concurrent GETs of the inventory and the findings while a
 *    third process probes /api/health every 10 ms. Rounds: the first (answers not built yet), warm
 *    ones, and one while an assessment runs. Targets: health p99 ≤ 50 ms, 0 errors.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStreaming } from '../../server/src/exec/runner.ts';
import { writeLargeSnapshot } from '../gen-large-snapshot.ts';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildServer, bundleIsFresh } from '../build-server.mjs';
import { pipeline, timedWithRss } from './processes.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'server', 'bin', 'zfs-advisor.js');
const ROUNDS = Number(process.env.SCALE_BENCH_ROUNDS ?? 5);
const CONCURRENT = 200;

interface Shape { pools: number; datasets: number }
const SHAPES: Shape[] = [
  { pools: 1, datasets: 5000 }, { pools: 5, datasets: 5000 }, { pools: 20, datasets: 5000 },
  { pools: 20, datasets: 1000 }, { pools: 20, datasets: 20000 },
];
const MAIN: Shape = { pools: 20, datasets: 5000 };
const key = (s: Shape) => `${s.pools * 12}/${s.datasets}`;

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const pct = (xs: number[], p: number): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN; };

// ---- CLI ---------------------------------------------------------------------------------------

interface CliRow { shape: Shape; cmd: 'inventory' | 'assess'; ms: number[]; rss: number[]; bytes: number }

async function cliRuns(dirs: Map<string, string>): Promise<{ floor: number[]; floorRss: number[]; rows: CliRow[] }> {
  const rows: CliRow[] = [];
  for (const shape of SHAPES) for (const cmd of ['inventory', 'assess'] as const) rows.push({ shape, cmd, ms: [], rss: [], bytes: 0 });
  const floor: number[] = [];
  const floorRss: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const f = await timedWithRss([process.execPath, '-e', '0']);
    floor.push(f.ms);
    floorRss.push(f.rssMiB);
    for (const row of rows) {
      const r = await timedWithRss([process.execPath, BIN, row.cmd, '--snapshot', dirs.get(key(row.shape))!, '--json']);
      row.ms.push(r.ms);
      row.rss.push(r.rssMiB);
      row.bytes = Buffer.byteLength(r.stdout);
    }
  }
  return { floor, floorRss, rows };
}

// ---- server ------------------------------------------------------------------------------------

/** A load process: `n` concurrent GETs of the given paths (round robin); prints one JSON line. */
const LOAD = `const [base, n, ...paths] = process.argv.slice(1);
(async () => { const lat = []; let errors = 0; let bytes = 0;
await Promise.all(Array.from({ length: Number(n) }, async (_, i) => { const t = performance.now();
  try { const r = await fetch(base + paths[i % paths.length]); const b = await r.arrayBuffer(); bytes += b.byteLength; if (r.status !== 200) errors++; } catch { errors++; }
  lat.push(performance.now() - t); }));
console.log(JSON.stringify({ lat, errors, bytes })); })();`;

/** A probe process: GET /api/health every 10 ms until it reads a line on stdin; prints latencies. */
const PROBE = `const base = process.argv[1]; let stop = false; process.stdin.on('data', () => { stop = true; });
(async () => { const lat = []; let errors = 0; while (!stop) { const t = performance.now();
  try { const r = await fetch(base + 'api/health'); await r.text(); if (r.status !== 200) errors++; } catch { errors++; }
  lat.push(performance.now() - t); await new Promise((r) => setTimeout(r, 10)); }
console.log(JSON.stringify({ lat, errors })); process.exit(0); })();`;

interface Round { label: string; health: number[]; healthErrors: number; load: number[]; loadErrors: number; loadMiB: number; wallMs: number; loop: { p99: number; max: number } | null }

/** The server's own event-loop delay since the previous scrape (its /metrics), in ms. */
async function loopDelay(url: string): Promise<{ p99: number; max: number } | null> {
  const text = await (await fetch(new URL('metrics', url))).text();
  const q = (x: string) => Number(new RegExp(`zfs_advisor_event_loop_delay_seconds\\{quantile="${x}"\\} (\\S+)`).exec(text)?.[1]) * 1000;
  const p99 = q('0.99');
  const max = q('1');
  return Number.isFinite(p99) && Number.isFinite(max) ? { p99, max } : null;
}

async function serverRound(url: string, label: string, during: () => Promise<unknown>): Promise<Round> {
  // The probe runs in its own process, so a busy load client cannot delay it.
  let probeOut = '';
  const probe = spawn(process.execPath, ['-e', PROBE, url], { stdio: ['pipe', 'pipe', 'inherit'] });
  probe.stdout.setEncoding('utf8').on('data', (d: string) => { probeOut += d; });
  const probeDone = new Promise<void>((resolve) => probe.on('close', () => resolve()));
  await new Promise((r) => setTimeout(r, 300));
  await loopDelay(url); // starts the server's window for this round
  const t = performance.now();
  await during();
  const wallMs = performance.now() - t;
  await new Promise((r) => setTimeout(r, 200));
  const loop = await loopDelay(url);
  probe.stdin.write('stop\n');
  await probeDone;
  const p = JSON.parse(probeOut.trim().split('\n').at(-1) ?? '{}') as { lat: number[]; errors: number };
  return { label, health: p.lat, healthErrors: p.errors, load: [], loadErrors: 0, loadMiB: 0, wallMs, loop };
}

async function loadRound(url: string, label: string): Promise<Round> {
  let load: { lat: number[]; errors: number; bytes: number } = { lat: [], errors: 0, bytes: 0 };
  const r = await serverRound(url, label, async () => {
    const out = await pipeline([[process.execPath, '-e', LOAD, url, String(CONCURRENT), 'api/hosts/local/inventory', 'api/hosts/local/findings']]);
    load = JSON.parse(out.stdout.trim()) as typeof load;
  });
  return { ...r, load: load.lat, loadErrors: load.errors, loadMiB: load.bytes / 2 ** 20 };
}

async function serverBench(dir: string): Promise<{ rounds: Round[]; idleRssMiB: number; peakRssMiB: number; startupMs: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zfsa-bench-scale-'));
  const abort = new AbortController();
  let url = '';
  let pid = 0;
  let exited: Promise<unknown> = Promise.resolve();
  const t0 = performance.now();
  const ready = new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('server did not start within 60 s')), 60_000);
    exited = runStreaming(process.execPath, [join(ROOT, 'dist', 'server.mjs'), 'serve', '--port', '0', '--data-dir', dataDir, '--snapshot', dir], {
      signal: abort.signal, timeoutMs: 30 * 60_000,
      onSpawn: (p) => { pid = p; },
      onStdoutLine: (line) => { const m = /running at (http:\/\/\S+)/.exec(line); if (m) { url = m[1]!; clearTimeout(t); resolve(); } },
    });
  });
  try {
    await ready;
    // The startup assessment (in the server's worker thread) must finish before the first round.
    for (let i = 0; i < 600; i++) {
      const r = (await (await fetch(new URL('api/hosts/local/findings?limit=1', url))).json()) as { assessmentId: number | null };
      if (r.assessmentId !== null) break;
      await new Promise((r2) => setTimeout(r2, 100));
    }
    const startupMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    const status = () => readFileSync(`/proc/${pid}/status`, 'utf8');
    const idleRssMiB = Number(/VmRSS:\s+(\d+)/.exec(status())?.[1]) / 1024;
    const rounds: Round[] = [];
    rounds.push(await serverRound(url, 'health alone (no other requests)', () => new Promise((r) => setTimeout(r, 2000))));
    rounds.push(await loadRound(url, `${CONCURRENT} concurrent GETs (inventory, findings), first: answers built by the read worker`));
    for (let i = 0; i < 3; i++) rounds.push(await loadRound(url, `${CONCURRENT} concurrent GETs, warm round ${i + 1}`));
    rounds.push(await serverRound(url, 'during an assessment (POST …/assessments, worker thread)', async () => {
      const r = await fetch(new URL('api/hosts/local/assessments', url), { method: 'POST', headers: { 'Content-Type': 'application/json' } });
      await r.arrayBuffer();
      if (r.status !== 201) throw new Error(`assessment answered ${r.status}`);
    }));
    rounds.push(await loadRound(url, `${CONCURRENT} concurrent GETs right after that assessment (answers rebuilt)`));
    const peakRssMiB = Number(/VmHWM:\s+(\d+)/.exec(status())?.[1]) / 1024;
    return { rounds, idleRssMiB, peakRssMiB, startupMs };
  } finally {
    abort.abort();
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- report ------------------------------------------------------------------------------------

export default async function scaleBench(): Promise<string> {
  await buildServer();
  if (!bundleIsFresh()) throw new Error('the bundle is not fresh right after building it');
  const root = mkdtempSync(join(tmpdir(), 'zfsa-bench-large-'));
  const dirs = new Map<string, string>();
  const lines = new Map<string, number>();
  try {
    for (const s of SHAPES) {
      const dir = join(root, key(s).replace('/', '-'));
      const r = writeLargeSnapshot(dir, { pools: s.pools, disksPerPool: 12, datasets: s.datasets, zvolShare: 0.2 });
      dirs.set(key(s), dir);
      lines.set(key(s), r.zfsGetLines);
    }
    const loadStart = loadavg().map((x) => x.toFixed(1)).join(' ');
    const cli = await cliRuns(dirs);
    const server = await serverBench(dirs.get(key(MAIN))!);
    const loadEnd = loadavg().map((x) => x.toFixed(1)).join(' ');

    const floor = median(cli.floor);
    const cliRows = cli.rows.map((r) => {
      const ms = median(r.ms);
      const target = key(r.shape) === key(MAIN) ? ' ≤ 8× / ≤ 200 MiB' : '';
      return `| \`${r.cmd}\` | ${r.shape.pools * 12} | ${r.shape.datasets.toLocaleString('en')} | ${lines.get(key(r.shape))!.toLocaleString('en')} | ${ms.toFixed(0)} | ${(ms / floor).toFixed(1)}× | ${Math.max(...r.rss).toFixed(0)} | ${(r.bytes / 2 ** 20).toFixed(1)} | ${target} |`;
    });
    const at = (cmd: string, s: Shape) => median(cli.rows.find((r) => r.cmd === cmd && key(r.shape) === key(s))!.ms);
    const growth = (cmd: string) => {
      const d = [1000, 5000, 20000].map((n) => at(cmd, { pools: 20, datasets: n }));
      const k = [1, 5, 20].map((p) => at(cmd, { pools: p, datasets: 5000 }));
      return `\`${cmd}\`: datasets 1k → 5k → 20k: ${d.map((x) => x.toFixed(0)).join(' → ')} ms (minus \`node -e 0\`: ${d.map((x) => (x - floor).toFixed(0)).join(' → ')}; per 1,000 datasets from 5k to 20k: ${((d[2]! - d[1]!) / 15).toFixed(0)} ms); disks 12 → 60 → 240: ${k.map((x) => x.toFixed(0)).join(' → ')} ms.`;
    };
    const srvRows = server.rounds.map((r) => {
      const h = `${pct(r.health, 50).toFixed(1)} / ${pct(r.health, 99).toFixed(1)} / ${Math.max(...r.health).toFixed(0)}`;
      const l = r.load.length > 0 ? `${pct(r.load, 50).toFixed(0)} / ${pct(r.load, 99).toFixed(0)}` : '—';
      const loop = r.loop ? `${r.loop.p99.toFixed(0)} / ${r.loop.max.toFixed(0)}` : '—';
      return `| ${r.label} | ${r.health.length} | ${h} | ${r.healthErrors} | ${loop} | ${l} | ${r.load.length > 0 ? r.loadErrors : '—'} | ${r.load.length > 0 ? r.loadMiB.toFixed(0) : '—'} | ${r.wallMs.toFixed(0)} |`;
    });
    const loaded = server.rounds.filter((r) => r.load.length > 0);
    const worstP99 = Math.max(...loaded.map((r) => pct(r.health, 99)));
    const errors = server.rounds.reduce((n, r) => n + r.healthErrors + r.loadErrors, 0);
    return [
      '## scale: a 240-disk, 5,000-dataset host (issue 21)',
      '',
      `Synthetic captures written by \`scripts/gen-large-snapshot.ts\` (not real systems). Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average ${loadStart} at start, ${loadEnd} at end (a shared machine).`,
      '',
      `### CLI (${ROUNDS} rounds, every case once per round in turn; median wall, max peak RSS)`,
      '',
      `\`node -e 0\` in the same rounds: median ${floor.toFixed(0)} ms, ${Math.max(...cli.floorRss).toFixed(0)} MiB. Commands run as users run them (\`server/bin/zfs-advisor.js\`, which runs the esbuild bundle), stdout through a pipe to this process.`,
      '',
      '| command | disks | datasets | `zfs get` lines | wall ms | × `node -e 0` | peak RSS MiB | stdout MiB | target (240/5,000) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...cliRows,
      '',
      `Growth — ${growth('inventory')} ${growth('assess')}`,
      '',
      '### Server under load (240 disks, 5,000 datasets, `node dist/server.mjs serve --snapshot DIR`)',
      '',
      `Start to first assessment stored: ${(server.startupMs / 1000).toFixed(1)} s; RSS idle after it ${server.idleRssMiB.toFixed(0)} MiB, peak over the run ${server.peakRssMiB.toFixed(0)} MiB. ` +
        `Health is probed every 10 ms by its own process; the ${CONCURRENT} GETs (half inventory, half findings, Node's fetch: gzip accepted) come from another. ` +
        'The event-loop delay is the server\'s own measure (`zfs_advisor_event_loop_delay_seconds` of its /metrics, 10 ms resolution, read before and after each round): how long any request waited for the loop, whatever the clients on the same two cores did.',
      '',
      '| round | health probes | health p50 / p99 / max ms | health errors | server event-loop delay p99 / max ms | GETs p50 / p99 ms | GET errors | MiB received (decoded) | round ms |',
      '|---|---|---|---|---|---|---|---|---|',
      ...srvRows,
      '',
      `Worst health p99 in a loaded round: ${worstP99.toFixed(1)} ms (target ≤ 50 ms); errors: ${errors} (target 0).`,
      '',
    ].join('\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

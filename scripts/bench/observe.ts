/**
 * Benchmark: the observer's own CPU cost (issue 10 target: < 1 % CPU during an observation).
 * 1. Offline: parse + fingerprint of recorded counter pairs (the per-observation CPU the app adds).
 * 2. Live: a 60 s `observeWorkload` with a 10 s interval on this machine (whatever `zpool` answers:
 *    OpenZFS, a running zfs-fuse, or else a zfs-fuse daemon with a small file-backed pool started
 *    for the run through the test harness), CPU = this process + its waited-for children (`zpool`),
 *    from /proc/self/stat; the load average before and after is recorded (2 shared cores: a busy
 *    machine inflates the figure).
 */
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFingerprint } from '../../server/src/observe/fingerprint.ts';
import { snapshotFromTexts } from '../../server/src/observe/snapshot.ts';
import { loadavg } from 'node:os';
import { observeWorkload } from '../../server/src/observe/collect.ts';
import { runCommand } from '../../server/src/exec/runner.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../../tests/support/zfs-fuse.ts';

const WINDOW_S = 60;
const INTERVAL_S = 10;

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fx = (f: string) => readFileSync(join(root, 'tests', 'fixtures', 'observe', f), 'utf8');

/** CPU seconds of this process and its reaped children (Linux /proc; null elsewhere). */
function cpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields after ")": state(0) … utime(11) stime(12) cutime(13) cstime(14), in clock ticks (100 Hz on Linux)
    const ticks = [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0);
    return ticks / 100;
  } catch {
    return null;
  }
}

export default async function bench(): Promise<string> {
  const zil = fx('zil-openzfs23-real-no-slog.txt');
  const arc = fx('arcstats-openzfs23-real-147rows.txt');
  const r = fx('iostat-r-openzfs244-nvme1.txt');
  const v = fx('iostat-v-raidz2-special-slog.txt');
  const runs = 500;
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const a = snapshotFromTexts({ takenAt: 'a', monotonicMs: 0, zil, arc, iostatR: r, iostatV: v });
    const b = snapshotFromTexts({ takenAt: 'b', monotonicMs: 10_000, zil, arc, iostatR: r, iostatV: v });
    buildFingerprint({ start: a, end: b, source: 'recorded' });
  }
  const cpu = process.cpuUsage(t0);
  const perObsMs = (cpu.user + cpu.system) / 1000 / runs;
  const wallMs = (performance.now() - w0) / runs;

  const lines = [
    '## observe — the observer\'s own CPU cost',
    '',
    'Target (issue 10): the observation itself costs < 1 % CPU. It reads counters only (kstat files, `sysctl`, `zpool iostat`).',
    '',
    '| measurement | value |',
    '|---|---|',
    `| parse + fingerprint of one recorded pair (2 snapshots: zil, 147-row arcstats, -r histogram, -v table), CPU | ${perObsMs.toFixed(3)} ms (wall ${wallMs.toFixed(3)} ms, ${runs} runs) |`,
    `| same, as a share of a 10 min window | ${((perObsMs / 600_000) * 100).toFixed(6)} % |`,
  ];

  // Something must answer `zpool`: the host's ZFS, or a zfs-fuse daemon started for this run.
  let zf: ZfsFuseHandle | null = null;
  let what = 'this machine\'s ZFS';
  const probe = await runCommand('zpool', ['list', '-H'], { timeoutMs: 10_000 });
  if ((probe.exitCode !== 0 || probe.stdout.trim() === '') && zfsFuseAvailable()) {
    zf = await startZfsFuse();
    await zf.createPool('benchobs', [await zf.fileVdev('benchobs-a', '128M')]);
    what = 'zfs-fuse 0.7 (started for the run, one 128 MiB file vdev, idle pool)';
  }
  try {
    // The audit's setting first (10 s, interval 5 s), for a like-for-like comparison with its 1.39 %.
    const a0 = cpuSeconds();
    const s0 = performance.now();
    const short = await observeWorkload({ durationSec: 10, intervalSec: 5 });
    const a1 = cpuSeconds();
    const shortWall = (performance.now() - s0) / 1000;
    const load0 = loadavg();
    const c0 = cpuSeconds();
    const l0 = performance.now();
    const live = await observeWorkload({ durationSec: WINDOW_S, intervalSec: INTERVAL_S });
    const c1 = cpuSeconds();
    const wall = (performance.now() - l0) / 1000;
    const load1 = loadavg();
    const answered = live.commands.some((c) => c.exitCode === 0);
    if (!answered) {
      lines.push(`| live ${WINDOW_S} s observation | not measured: no ZFS (kernel module or zfs-fuse daemon) answered \`zpool\` on this machine |`);
    } else if (c0 !== null && c1 !== null) {
      lines.push(`| live ${WINDOW_S} s observation, interval ${INTERVAL_S} s, on ${what}: CPU of node + zpool children | ${(c1 - c0).toFixed(2)} s over ${wall.toFixed(1)} s wall = **${(((c1 - c0) / wall) * 100).toFixed(2)} % of one core** |`);
      if (a0 !== null && a1 !== null) {
        lines.push(`| live 10 s observation, interval 5 s (the audit's setting), same machine | ${(a1 - a0).toFixed(2)} s over ${shortWall.toFixed(1)} s wall = ${(((a1 - a0) / shortWall) * 100).toFixed(2)} % of one core (${short.commands.length} spawns) |`);
      }
      lines.push(`| process spawns during the 60 s observation | ${live.commands.length} (independent of the window length) |`);
      lines.push(`| load average (1 min) before → after | ${load0[0]!.toFixed(2)} → ${load1[0]!.toFixed(2)} (2 cores shared with other work) |`);
    }
    lines.push('', `Commands of the live run: ${live.commands.map((c) => `\`${c.command}\` (exit ${c.exitCode}, ${c.ms} ms)`).join(', ')}.`,
      '', 'Where the cost was: process spawns (each `zpool` start costs more CPU than parsing a whole reading, row 1). The audit measured 1.39 % over a 10 s window; on zfs-fuse that code made 10 spawns per observation (the end reading re-tried every option the platform had refused at the start, and each end ran its own layout command, with a fallback). Now a refused option is not asked again, the layout comes from the window\'s own samples, and the window is a single `zpool iostat INTERVAL COUNT` that sleeps in the kernel between samples: 4 spawns on zfs-fuse, 5 on OpenZFS 2.x, for any window length.');
  } finally {
    await zf?.stop();
  }
  return lines.join('\n');
}

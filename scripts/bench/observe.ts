/**
 * Benchmark: the observer's own CPU cost (issue 10 target: < 1 % CPU during an observation).
 * 1. Offline: parse + fingerprint of recorded counter pairs (the per-observation CPU the app adds).
 * 2. Live: a 10 s `observeWorkload` on this machine (whatever `zpool` answers: OpenZFS or a running
 *    zfs-fuse), CPU = this process + its waited-for children (`zpool`), from /proc/self/stat.
 */
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFingerprint } from '../../server/src/observe/fingerprint.ts';
import { snapshotFromTexts } from '../../server/src/observe/snapshot.ts';
import { observeWorkload } from '../../server/src/observe/collect.ts';

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

  const c0 = cpuSeconds();
  const l0 = performance.now();
  const live = await observeWorkload({ durationSec: 10, intervalSec: 5 });
  const c1 = cpuSeconds();
  const wall = (performance.now() - l0) / 1000;
  const answered = live.commands.some((c) => c.exitCode === 0);
  if (!answered) {
    lines.push('| live 10 s observation | not measured: no ZFS (kernel module or zfs-fuse daemon) answered `zpool` on this machine |');
  } else if (c0 !== null && c1 !== null) {
    lines.push(`| live 10 s observation on this machine, CPU of node + zpool children | ${(c1 - c0).toFixed(2)} s over ${wall.toFixed(1)} s wall = ${(((c1 - c0) / wall) * 100).toFixed(2)} % of one core |`);
  }
  lines.push('', `Commands of the live run: ${live.commands.map((c) => `\`${c.command}\` (exit ${c.exitCode}, ${c.ms} ms)`).join(', ')}.`,
    '', 'Note: the live figure includes node start-up of the module graph only once; `zpool iostat INTERVAL COUNT` sleeps in the kernel between samples.');
  return lines.join('\n');
}

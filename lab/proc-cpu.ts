/**
 * CPU time from /proc, for the test run's timing table (issue 37: where the run's CPU goes on a
 * two-core machine): a process's own user + system seconds, optionally with those of the children it
 * has waited for (a lab file's QEMU, a test's Chromium, fio, tsc), and the machine's busy and total
 * seconds since boot (all cores). NaN where /proc cannot be read.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** Clock ticks per second of /proc's times, asked once, on first use. */
let clkTck: number | undefined;
const tick = (): number => (clkTck ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100);
const readSafe = (p: string): string => { try { return readFileSync(p, 'utf8'); } catch { return ''; } };

/** User + system CPU seconds of a process (all its threads); with `children`, also its waited-for children's. */
export function cpuSeconds(pid: number | 'self' | undefined, { children = false } = {}): number {
  if (pid === undefined) return NaN;
  const stat = readSafe(`/proc/${pid}/stat`);
  if (!stat) return NaN;
  // Fields after the command name (which may hold spaces): utime, stime, cutime, cstime are the 12th to 15th.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return (f[11]! + f[12]! + (children ? f[13]! + f[14]! : 0)) / tick();
}

/** The machine's CPU seconds since boot, summed over its cores: busy (everything but idle and iowait) and total. */
export function machineCpu(): { busy: number; total: number } {
  const line = readSafe('/proc/stat').split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return { busy: NaN, total: NaN };
  // user nice system idle iowait irq softirq steal (guest and guest_nice are inside user and nice).
  const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: (total - v[3]! - v[4]!) / tick(), total: total / tick() };
}

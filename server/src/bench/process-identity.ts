/**
 * Is the process that recorded a run or a lock still the same process? `kill(pid, 0)` alone says
 * only that *some* process has that pid: after a reboot (power loss) pids start again from 1 and
 * a stale lock or journal can point at an unrelated live process, which would keep the lock
 * forever and block the cleanup. So every run and lock also records
 *   - the boot id: Linux `/proc/sys/kernel/random/boot_id`; FreeBSD `sysctl -n kern.boottime`,
 *   - the process start time: Linux `/proc/<pid>/stat` field 22 (clock ticks since boot);
 *     FreeBSD (no procfs by default): none, so the boot id is the guard there.
 * A different boot, or the same pid with a different start time, means the recorded process is dead.
 * Rows written before these were recorded (null) fall back to the pid check alone.
 */
import { readFileSync } from 'node:fs';
import { platform } from 'node:os';
import { runCommand } from '../exec/runner.ts';

export interface ProcessIdentity {
  pid: number;
  bootId: string | null;
  startTime: string | null;
}

/** What the current machine says about pids, read once per check (boot id) or per pid (the rest). */
export interface LivenessProbe {
  bootId: string | null;
  /** kill(pid, 0) succeeds and the process is not a zombie. */
  pidAlive(pid: number): boolean;
  startTimeOf(pid: number): string | null;
}

/** `sysctl -n kern.boottime` → "1700000000.123456" ("{ sec = 1700000000, usec = 123456 } Tue …"). */
export function bootIdFromKernBoottime(text: string): string | null {
  const m = /sec\s*=\s*(\d+),\s*usec\s*=\s*(\d+)/.exec(text);
  return m ? `boottime:${m[1]}.${m[2]}` : null;
}

/**
 * Field 22 (starttime) of `/proc/<pid>/stat`. The command name (field 2) is in parentheses and may
 * itself contain spaces and ')', so fields are counted after the LAST ')'.
 */
export function startTimeFromProcStat(text: string): string | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const rest = text.slice(close + 1).trim().split(/\s+/); // rest[0] is field 3 (state)
  const v = rest[22 - 3];
  return v !== undefined && /^\d+$/.test(v) ? v : null;
}

export async function readBootId(): Promise<string | null> {
  try {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (id) return id;
  } catch { /* not Linux */ }
  if (platform() === 'linux') return null;
  const r = await runCommand('sysctl', ['-n', 'kern.boottime'], { timeoutMs: 5_000 });
  return r.exitCode === 0 ? bootIdFromKernBoottime(r.stdout) : null;
}

export function readStartTime(pid: number): string | null {
  try {
    return startTimeFromProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else; still alive.
    if (!(err instanceof Error && 'code' in err && err.code === 'EPERM')) return false;
  }
  try {
    // A zombie still answers kill(0); it holds no files.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

export async function liveProbe(): Promise<LivenessProbe> {
  return { bootId: await readBootId(), pidAlive, startTimeOf: readStartTime };
}

/** This process, as it is recorded with a run and a lock. */
export function selfIdentity(probe: LivenessProbe): ProcessIdentity {
  return { pid: process.pid, bootId: probe.bootId, startTime: probe.startTimeOf(process.pid) };
}

export type Liveness = { alive: true } | { alive: false; why: string };

/** Is the recorded process still running (same boot, same pid, same start time)? */
export function recordedProcessLiveness(rec: ProcessIdentity, probe: LivenessProbe): Liveness {
  if (rec.bootId !== null && probe.bootId !== null && rec.bootId !== probe.bootId) {
    return { alive: false, why: `process ${rec.pid} belonged to an earlier boot (the host restarted since)` };
  }
  if (!probe.pidAlive(rec.pid)) return { alive: false, why: `process ${rec.pid} ended` };
  if (rec.startTime !== null) {
    const now = probe.startTimeOf(rec.pid);
    if (now !== null && now !== rec.startTime) {
      return { alive: false, why: `pid ${rec.pid} now belongs to another process (start time ${now}, recorded ${rec.startTime})` };
    }
  }
  return { alive: true };
}

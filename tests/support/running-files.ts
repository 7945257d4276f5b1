/**
 * Which test files are running right now, across vitest's workers: each file leaves a marker (its
 * path and its process's pid) in one directory per test run while it runs (a setup file,
 * vitest.config.ts). A measurement that the rest of the suite would disturb — the lab's
 * advice-followed gains, on an emulated guest that shares the host's two cores — waits until it is
 * the only file left (`waitUntilAlone`); it runs as a benchmark (tests/lab/vitest.lab-bench.config.ts), where nothing else starts after it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's marker directory (vitest.config.ts names it after the main process and passes it to every worker). */
export const runningDir = (): string => process.env.ZFS_ADVISOR_TEST_RUNNING_DIR ?? join(tmpdir(), `zfs-advisor-test-running-${process.pid}`);

interface Marker { file: string; pid: number }

const alive = (pid: number): boolean => {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
};

/** Marks `file` as running in this process; returns the function that unmarks it. */
export function markRunning(file: string): () => void {
  const dir = runningDir();
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ file, pid: process.pid } satisfies Marker));
  return () => rmSync(path, { force: true });
}

/** The other files running now (a marker whose process died is not running). */
export function othersRunning(self: string): string[] {
  let names: string[];
  try { names = readdirSync(runningDir()); } catch { return []; }
  const others: string[] = [];
  for (const n of names) {
    let m: Marker;
    try { m = JSON.parse(readFileSync(join(runningDir(), n), 'utf8')) as Marker; } catch { continue; } // removed meanwhile
    if (m.file !== self && alive(m.pid)) others.push(m.file);
  }
  return others;
}

/**
 * Waits until no other test file runs, at most `timeoutMs`. Returns how long it waited and what was
 * still running at the end (empty when it got the host to itself).
 */
export async function waitUntilAlone(self: string, timeoutMs: number, pollMs = 2_000): Promise<{ waitedMs: number; stillRunning: string[] }> {
  const start = Date.now();
  for (;;) {
    const others = othersRunning(self);
    if (others.length === 0 || Date.now() - start >= timeoutMs) return { waitedMs: Date.now() - start, stillRunning: others };
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

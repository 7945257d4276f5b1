/**
 * kill -9 of `zfs-advisor bench suite` in the middle of its second run, then the next start:
 * no benchmark directory, no fio, the run marked aborted and the suite closed as aborted.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCommand, runStreaming } from '../../server/src/exec/runner.ts';
import { DB_FILE_NAME } from '../../server/src/store/db.ts';
import { fioAvailable, fioProcessesFor, removeTempDirs, tmpDir } from './support.ts';

afterAll(() => removeTempDirs(), 60_000);
const live = fioAvailable();
const CLI = join(import.meta.dirname, '..', '..', 'server', 'bin', 'zfs-advisor.js');

describe('kill -9 during a suite', () => {
  it.runIf(live)('the next start leaves nothing behind and closes the suite as aborted', async () => {
    const dataDir = tmpDir('zfs-advisor-suite-crash-');
    const dir = tmpDir();
    let pid: number | null = null;
    let killedAt: { runIndex: number; step: string } | null = null;
    const r = await runStreaming(process.execPath, [CLI, 'bench', 'suite', '--profiles', 'sync-write-4k-qd1,async-write-4k,seq-write-1m', '--path', dir,
      '--runtime', '8s', '--size', '8M', '--pause', '0', '--max-load', '1000', '--json', '--data-dir', dataDir], {
      timeoutMs: 120_000,
      onSpawn: (p) => { pid = p; },
      onStderrLine: (line) => {
        if (killedAt || pid === null) return;
        let p: { runIndex: number; step: string; iops: number | null } | undefined;
        try { p = (JSON.parse(line) as { progress?: { runIndex: number; step: string; iops: number | null } }).progress; } catch { return; }
        // Killed during the second run's measured phase.
        if (p && p.runIndex === 1 && p.step === 'run' && p.iops !== null) { killedAt = p; process.kill(pid, 'SIGKILL'); }
      },
    });
    expect(r.signal).toBe('SIGKILL');
    expect(killedAt).toMatchObject({ runIndex: 1, step: 'run' });
    // The kill left the run's directory (and possibly its fio) behind; the next start removes them —
    // any bench command, here one that is not about suites, and says so.
    const first = await runCommand(process.execPath, [CLI, 'bench', '--history', '--json', '--data-dir', dataDir], { timeoutMs: 60_000 });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^recovered abandoned run [0-9a-f]{12} \(pid \d+\): /m);
    // The dead run's host-wide lock is freed too; its files were removed just now, not "later".
    expect(first.stderr).toMatch(/^recovered abandoned run [0-9a-f]{12} \(pid \d+\): freed the host-wide lock it held$/m);
    expect(readdirSync(dir)).toEqual([]);
    expect(fioProcessesFor(dir)).toEqual([]);
    // It closed the suite too (read straight from the store, before any `bench suite` command could).
    const db = new Database(join(dataDir, DB_FILE_NAME), { readonly: true });
    try {
      expect(db.prepare('SELECT status FROM bench_suites').all()).toEqual([{ status: 'aborted' }]);
    } finally { db.close(); }
    const h = await runCommand(process.execPath, [CLI, 'bench', 'suite', '--history', '--json', '--data-dir', dataDir], { timeoutMs: 60_000 });
    expect(h.exitCode, h.stderr).toBe(0);
    const suites = JSON.parse(h.stdout) as { status: string; message: string | null }[];
    expect(suites).toHaveLength(1);
    expect(suites[0]!.status).toBe('aborted');
    expect(suites[0]!.message).toMatch(/^abandoned: process \d+ ended during the suite/);
    expect(readdirSync(dir)).toEqual([]);
    expect(fioProcessesFor(dir)).toEqual([]);
    const runs = await runCommand(process.execPath, [CLI, 'bench', '--history', '--json', '--data-dir', dataDir], { timeoutMs: 60_000 });
    const statuses = (JSON.parse(runs.stdout) as { status: string }[]).map((x) => x.status).sort();
    expect(statuses).toEqual(['aborted', 'completed']);
  }, 180_000);
});

/**
 * Crash safety on a directory target: the CLI is killed with SIGKILL mid-benchmark (at varying
 * phases), then started again: nothing is left in the directory, no fio keeps running, and the
 * run is marked aborted. Ten times in a row on the same store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { fioAvailable, fioProcessesFor, tmpDir } from './support.ts';
import { removeTempDirs } from './support.ts';
import { benchAndKill } from './crash.ts';

afterAll(() => removeTempDirs(), 60_000);
const live = fioAvailable();
const PHASES = ['run', 'layout', 'prepare'];

describe('kill -9 during a benchmark', () => {
  it.runIf(live)('leaves nothing behind and marks the run aborted, 10 times in a row', async () => {
    const dataDir = tmpDir('zfs-advisor-bench-crash-');
    const dir = tmpDir();
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const phase = PHASES[i % PHASES.length]!;
      const profile = i % 2 === 0 ? 'sync-write-4k-qd1' : 'rand-read-4k';
      const out = await benchAndKill([profile, '--path', dir, '--size', '8M', '--runtime', '30'], dataDir, phase);
      expect(out.killedInPhase, `iteration ${i}`).toBe(phase);
      expect(out.exitSignal).toBe('SIGKILL');
      expect(readdirSync(dir), `iteration ${i}: leftovers`).toEqual([]);
      expect(fioProcessesFor(dir), `iteration ${i}: orphaned fio`).toEqual([]);
      const fresh = out.history.filter((r) => !seen.has(r.id));
      expect(fresh, `iteration ${i}`).toHaveLength(1);
      expect(fresh[0]!.status).toBe('aborted');
      expect(fresh[0]!.message).toMatch(/^abandoned: process \d+ ended without cleaning up/);
      for (const r of out.history) seen.add(r.id);
    }
    expect(seen.size).toBe(10);
  }, 300_000);
});

/**
 * A real fio suite on a zfs-fuse dataset (real ZFS in userspace; harness tests/support/zfs-fuse.ts):
 * every cell on its own temporary dataset, destroyed afterwards; zfs-fuse has no zvols and no sync
 * property, so zvol cells and sync=disabled are skipped with the reason; kill -9 mid-suite leaves
 * no dataset once the next command has started.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';
import { SuiteRequest } from '../../server/src/bench/suites.ts';
import { planSuite, runSuite } from '../../server/src/bench/suite-runner.ts';
import { suitePairs } from '../../server/src/bench/compare.ts';
import { runCommand, runStreaming } from '../../server/src/exec/runner.ts';
import { fioAvailable, freshStore, removeTempDirs, tmpDir } from './support.ts';

afterAll(() => removeTempDirs(), 60_000);
const live = zfsFuseAvailable() && fioAvailable();
const CLI = join(import.meta.dirname, '..', '..', 'server', 'bin', 'zfs-advisor.js');
let zf: ZfsFuseHandle;

beforeAll(async () => {
  if (!live) return;
  zf = await startZfsFuse();
  await zf.createPool('bs_mirror', ['mirror', await zf.fileVdev('bsm1'), await zf.fileVdev('bsm2')]);
}, 600_000);
afterAll(async () => { await zf?.stop(); }, 120_000);

async function benchDatasets(): Promise<string[]> {
  const r = await zf.run('zfs', ['list', '-H', '-o', 'name']);
  return r.stdout.split('\n').filter((n) => n.includes('zfs-advisor-bench-'));
}

describe('suites on a zfs-fuse dataset', () => {
  it.runIf(live)('runs sync and async cells on temporary datasets, skips what zfs-fuse cannot do, and leaves no dataset', async () => {
    const s = await freshStore();
    try {
      const req = SuiteRequest.parse({
        profiles: ['sync-write-4k-qd1'], matrix: { sync: ['always', 'standard', 'disabled'] }, target: { kind: 'dataset', pool: 'bs_mirror' },
        zvol: true, runtimeS: 1, sizeBytes: 8 * 1024 * 1024, pauseS: 0.5, maxLoad1: 1000,
      });
      const p = await planSuite(req, { db: s.db });
      if (!p.ok) throw new Error(p.message);
      expect(p.plan.runs.map((r) => `${r.targetKind}/${r.sync}`)).toEqual(['dataset/always', 'dataset/standard']);
      expect(p.plan.notes[0]).toMatch(/^zvol runs are unsupported on this target: zvols are not supported on this platform \(zfs-fuse/);
      expect(p.plan.skipped.find((x) => x.targetKind === 'dataset')!.reason).toMatch(/sync=disabled needs a ZFS dataset or zvol whose sync property can be set/);
      const r = await runSuite(p.plan, { db: s.db });
      expect(r.status, r.stopReason ?? '').toBe('completed');
      const [sync, async] = r.runs.map((x) => x.result!);
      expect(sync!.syncMode).toBe('fio-fsync');
      expect(sync!.syncOpLatency?.source).toBe('sync');
      expect(sync!.zfsTarget).toBe(true);
      expect(sync!.syncText).toMatch(/ZIL/);
      expect(async!.syncOpLatency).toBeNull();
      expect(async!.syncText).toMatch(/transaction group/);
      expect(suitePairs(r, 'sync')[0]!.ratio).toBeGreaterThan(0);
      expect(await benchDatasets()).toEqual([]);
    } finally { s.close(); }
  }, 240_000);

  it.runIf(live)('kill -9 during the second run: the next start destroys its dataset and closes the suite', async () => {
    const dataDir = tmpDir('zfs-advisor-suite-crash-zf-');
    let pid: number | null = null;
    let killed = false;
    const r = await runStreaming(process.execPath, [CLI, 'bench', 'suite', '--profiles', 'sync-write-4k-qd1,async-write-4k,seq-write-1m', '--pool', 'bs_mirror',
      '--runtime', '8s', '--size', '8M', '--pause', '0', '--max-load', '1000', '--json', '--data-dir', dataDir], {
      timeoutMs: 180_000,
      onSpawn: (x) => { pid = x; },
      onStderrLine: (line) => {
        if (killed || pid === null) return;
        let p: { runIndex: number; step: string; iops: number | null } | undefined;
        try { p = (JSON.parse(line) as { progress?: { runIndex: number; step: string; iops: number | null } }).progress; } catch { return; }
        if (p && p.runIndex === 1 && p.step === 'run' && p.iops !== null) { killed = true; process.kill(pid, 'SIGKILL'); }
      },
    });
    expect(r.signal, `${r.stdout}\n${r.stderr}`).toBe('SIGKILL');
    expect((await benchDatasets()).length).toBe(1); // the killed run's dataset is still there
    const h = await runCommand(process.execPath, [CLI, 'bench', 'suite', '--history', '--json', '--data-dir', dataDir], { timeoutMs: 120_000 });
    expect(h.exitCode, h.stderr).toBe(0);
    expect((JSON.parse(h.stdout) as { status: string }[])[0]!.status).toBe('aborted');
    expect(await benchDatasets()).toEqual([]);
  }, 300_000);
});

/**
 * Live observation on zfs-fuse. What zfs-fuse exposes: `zpool iostat -v [interval [count]]` only —
 * no ZIL kstat, no -p/-y/-l/-q/-w/-r. So the observer must fall back to the plain interval table,
 * say that sync share and latency are unknown, and still show the difference between an fsync-heavy
 * and an async fio job in what it can see: the size of the writes the pool issues (ZIL log blocks
 * are small; txg sync rewrites whole 128 KiB records).
 */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/src/exec/runner.ts';
import { WorkloadFingerprint } from '../../server/src/model/workload.ts';
import { observeWorkload, type ObserveResult } from '../../server/src/observe/collect.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';

function fioAvailable(): boolean {
  for (const d of ['/usr/bin', '/usr/local/bin', '/bin']) {
    try { accessSync(join(d, 'fio'), constants.X_OK); return true; } catch { /* next */ }
  }
  if (process.env.CI === 'true') throw new Error('fio is required under CI=true (apt-get install fio)');
  return false;
}

const live = zfsFuseAvailable() && fioAvailable();
const POOL = 'hobs_mirror';

describe('observe live on zfs-fuse (platform exposes only zpool iostat -v intervals)', () => {
  let zf: ZfsFuseHandle;
  beforeAll(async () => {
    if (!live) return;
    zf = await startZfsFuse();
    const a = await zf.fileVdev('obs-a', '256M');
    const b = await zf.fileVdev('obs-b', '256M');
    await zf.createPool(POOL, ['mirror', a, b]);
  }, 600_000);
  afterAll(async () => { await zf?.stop(); }, 120_000);

  async function observeDuring(fioArgs: string[]): Promise<ObserveResult> {
    const dir = join(zf.dir, 'mnt', POOL);
    const fio = runCommand('fio', [
      '--name=obs', `--directory=${dir}`, '--filename=obs.dat', '--rw=randwrite', '--bs=4k', '--size=32m',
      '--ioengine=psync', '--time_based', '--runtime=7', '--output-format=json', ...fioArgs,
    ], { timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 1500)); // let fio lay out its file first
    const obs = await observeWorkload({ durationSec: 4, intervalSec: 2, pools: [POOL] });
    const done = await fio;
    expect(done.exitCode, done.stderr).toBe(0);
    return obs;
  }

  it.runIf(live)('fsync=1 job vs async job: the fsync job issues smaller pool writes; sync share reported unknown, with the reason', async () => {
    const sync = await observeDuring(['--fsync=1']);
    const async_ = await observeDuring([]);
    for (const r of [sync, async_]) {
      expect(WorkloadFingerprint.parse(r.fingerprint)).toEqual(r.fingerprint);
      expect(r.series.length).toBe(2);
      expect(r.fingerprint.zil).toBeNull();
      expect(r.fingerprint.notes.join('\n')).toMatch(/without -y\/-p\/-l\/-q/);
      expect(r.fingerprint.notes.join('\n')).toMatch(/ZIL counters not available/);
      expect(r.commands.every((c) => c.command.startsWith('zpool '))).toBe(true);
      // CPU cost is spawns: an option zfs-fuse refused at the start is not asked again at the end, and
      // the layout comes from the window's samples — -w, -r, the -y/-l/-q window (refused), the plain window.
      // (-w and -r run concurrently: compare as a set in order of text.)
      expect(r.commands.map((c) => c.command).sort()).toEqual([
        `zpool iostat -v -p -r ${POOL}`, `zpool iostat -v -p -w ${POOL}`, `zpool iostat -v ${POOL} 2 3`, `zpool iostat -y -v -p -l -q ${POOL} 2 2`,
      ].sort());
    }
    const p = (r: ObserveResult) => r.fingerprint.pools.find((x) => x.pool === POOL)!;
    expect(p(sync).syncWriteShare).toBeNull();
    expect(p(sync).writeIops).toBeGreaterThan(0);
    expect(p(async_).writeBytesPerSec).toBeGreaterThan(0);
    const avgWrite = (r: ObserveResult) => p(r).writeBytesPerSec / Math.max(p(r).writeIops, 1e-9);
    expect(avgWrite(sync)).toBeLessThan(avgWrite(async_));
  }, 180_000);
});

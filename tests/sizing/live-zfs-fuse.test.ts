/**
 * resolveDataset and the `sizes` CLI against a real (userspace) ZFS: a mounted dataset resolves to
 * its mountpoint, an unmounted one and mountpoint=none/legacy are refused, and `--zdb` either
 * parses zfs-fuse's zdb output or reports its failure as a value (never a stack trace).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../server/src/exec/runner.ts';
import { resolveDataset } from '../../server/src/sizing/resolve-target.ts';
import { measureWithZdb } from '../../server/src/sizing/zdb-run.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';

const live = zfsFuseAvailable();
const POOL = 'hsz_sizes';
let zf: ZfsFuseHandle;

describe('sizing against zfs-fuse', () => {
  beforeAll(async () => {
    if (!live) return;
    zf = await startZfsFuse();
    await zf.createPool(POOL, [await zf.fileVdev('sz0')]);
    await zf.must('zfs', ['create', `${POOL}/files`]);
    await zf.must('zfs', ['create', '-o', 'recordsize=16K', `${POOL}/small`]);
    await zf.must('zfs', ['create', '-o', 'mountpoint=none', `${POOL}/nomount`]);
    await zf.must('zfs', ['create', '-o', 'mountpoint=legacy', `${POOL}/legacy`]);
  }, 600_000);
  afterAll(async () => { await zf?.stop(); }, 120_000);

  it.runIf(live)('resolves a mounted dataset to its mountpoint and recordsize', async () => {
    const r = await resolveDataset(`${POOL}/small`);
    expect(r).toEqual({ ok: true, value: { path: join(zf.dir, 'mnt', POOL, 'small'), dataset: `${POOL}/small`, recordsize: 16384 } });
  }, 60_000);

  it.runIf(live)('refuses an unmounted dataset, and mountpoint=none / legacy', async () => {
    await zf.must('zfs', ['umount', `${POOL}/files`]);
    const files = await resolveDataset(`${POOL}/files`);
    expect(files.ok).toBe(false);
    if (!files.ok) expect(files.message).toContain(`${POOL}/files is not mounted (mounted=no)`);
    for (const [name, mp] of [['nomount', 'none'], ['legacy', 'legacy']] as const) {
      const r = await resolveDataset(`${POOL}/${name}`);
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.message).toContain(`mountpoint=${mp}`);
    }
    await zf.must('zfs', ['mount', `${POOL}/files`]);
    expect((await resolveDataset(`${POOL}/files`)).ok).toBe(true);
  }, 60_000);

  it.runIf(live)('runs zfs-fuse\'s zdb -Lbbbs at low priority: a histogram, or its failure as a value', async () => {
    writeFileSync(join(zf.dir, 'mnt', POOL, 'small', 'a.bin'), Buffer.alloc(40_000, 7));
    const r = await measureWithZdb(POOL, { recordsize: 16384, ashift: 9, version: '0.6.9', run: runCommand, timeoutMs: 120_000 });
    expect(r.commands.length).toBeGreaterThanOrEqual(1);
    expect(r.commands[0]!.command).toMatch(new RegExp(`^nice -n 19 (ionice -c 3 )?zdb -Lbbbs ${POOL}$`));
    if (r.ok) {
      expect(r.histogram.method).toBe('zdb');
      expect(r.histogram.blockBins.length).toBeGreaterThan(0);
    } else {
      // zfs-fuse's zdb (zpool v23) cannot open a pool created with cachefile=none and has no
      // -U, nor the block size histogram: the outcome must name the command and why, in one line.
      // The parse of real OpenZFS output is covered by zdb-run.test.ts with the Level1Techs fixture.
      expect(r.message).toMatch(/zdb -Lbbbs hsz_sizes/);
      expect(r.message).not.toMatch(/\n/);
    }
  }, 300_000);
});

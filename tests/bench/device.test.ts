/**
 * Raw-device targets on real loop devices: a blank one is accepted only with the typed
 * confirmation and benchmarked; one carrying a swap signature or a DOS partition table is refused
 * (blkid/wipefs probes), as is a wrong confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSync } from 'node:fs';
import { basename } from 'node:path';
import { runCommand } from '../../server/src/exec/runner.ts';
import { dryRun, startBenchmark } from '../../server/src/bench/run.ts';
import { fioAvailable, freshStore, loopDevice, losetupAvailable, req, tmpDir } from './support.ts';
import { removeTempDirs } from './support.ts';

afterAll(() => removeTempDirs(), 60_000);
const live = losetupAvailable() && fioAvailable();
const loops: string[] = [];
const dir = live ? tmpDir('zfs-advisor-bench-loops-') : '';

async function loopWith(name: string, write?: (fd: number) => void): Promise<string> {
  const dev = await loopDevice(dir, name, write);
  loops.push(dev);
  return dev;
}

let blank = '';
let swap = '';
let dos = '';
beforeAll(async () => {
  if (!live) return;
  blank = await loopWith('blank');
  // A Linux swap header as mkswap writes it: version 1 and last page at 1024, "SWAPSPACE2" ending
  // the first 4 KiB page.
  swap = await loopWith('swap', (fd) => {
    const hdr = Buffer.alloc(12);
    hdr.writeUInt32LE(1, 0);
    hdr.writeUInt32LE(64 * 256 - 1, 4);
    writeSync(fd, hdr, 0, 12, 1024);
    writeSync(fd, Buffer.from('SWAPSPACE2'), 0, 10, 4096 - 10);
  });
  // A DOS partition table: one Linux partition entry (type 0x83) and the 0x55AA boot signature.
  dos = await loopWith('dos', (fd) => {
    const mbr = Buffer.alloc(512);
    mbr[446 + 4] = 0x83;
    mbr.writeUInt32LE(2048, 446 + 8);
    mbr.writeUInt32LE(20480, 446 + 12);
    mbr[510] = 0x55; mbr[511] = 0xaa;
    writeSync(fd, mbr, 0, 512, 0);
  });
}, 60_000);

afterAll(async () => {
  for (const d of loops) await runCommand('losetup', ['-d', d]);
});

describe('raw device target', () => {
  it.runIf(live)('accepts a blank loop device only with NAME:BYTES typed (loop devices report no serial and no WWN)', async () => {
    // 64 MiB = 67108864 bytes (truncate -s 64M above).
    const ok = await dryRun(req({ profile: 'sync-write-4k-qd1', target: { kind: 'device', device: blank, confirmSerial: `${basename(blank)}:67108864` } }));
    expect(ok.guards.filter((g) => !g.ok)).toEqual([]);
    expect(ok.guards.find((g) => g.id === 'device-blank')?.ok).toBe(true);
    expect(ok.commands).toEqual([expect.arrayContaining(['fio', `--filename=${blank}`, '--direct=1', '--allow_mounted_write=0'])]);
    const wrong = await dryRun(req({ profile: 'sync-write-4k-qd1', target: { kind: 'device', device: blank, confirmSerial: 'loop999' } }));
    expect(wrong.wouldRun).toBe(false);
    expect(wrong.guards.find((g) => g.id === 'device-serial')?.message).toMatch(/does not match/);
    // The kernel name alone (what the command line already says) is no confirmation.
    const nameOnly = await dryRun(req({ profile: 'sync-write-4k-qd1', target: { kind: 'device', device: blank, confirmSerial: basename(blank) } }));
    expect(nameOnly.wouldRun).toBe(false);
    expect(nameOnly.guards.find((g) => g.id === 'device-serial')?.message).toMatch(/reports neither a serial number nor a WWN, so type its kernel name and exact size in bytes as NAME:BYTES/);
    const wrongSize = await dryRun(req({ profile: 'sync-write-4k-qd1', target: { kind: 'device', device: blank, confirmSerial: `${basename(blank)}:67108865` } }));
    expect(wrongSize.wouldRun).toBe(false);
  });

  it.runIf(live)('benchmarks a blank loop device (fio-sync fallback, O_DIRECT)', async () => {
    const s = await freshStore();
    try {
      const run = await startBenchmark(req({ profile: 'sync-write-4k-qd1', target: { kind: 'device', device: blank, confirmSerial: `${basename(blank)}:67108864` } }), { db: s.db });
      expect(run.summary.status, run.message ?? '').toBe('completed');
      expect(run.summary.writeIops).toBeGreaterThan(0);
      expect(run.summary.syncMode).toBe('fio-fsync');
      expect(run.summary.target).toBe(blank);
    } finally { s.close(); }
  }, 60_000);

  it.runIf(live)('refuses a device with a swap signature', async () => {
    const s = await freshStore();
    try {
      const run = await startBenchmark(req({ profile: 'seq-write-1m', target: { kind: 'device', device: swap, confirmSerial: basename(swap) } }), { db: s.db });
      expect(run.summary.status).toBe('refused');
      expect(run.message).toMatch(/not blank .*TYPE=swap/);
    } finally { s.close(); }
  });

  it.runIf(live)('refuses a device with a partition table', async () => {
    const dr = await dryRun(req({ profile: 'seq-write-1m', target: { kind: 'device', device: dos, confirmSerial: basename(dos) } }));
    expect(dr.wouldRun).toBe(false);
    expect(dr.guards.find((g) => g.id === 'device-blank')?.message).toMatch(/PTTYPE=dos/);
  });

  it.runIf(live)('refuses something that is not a block device', async () => {
    const dr = await dryRun(req({ profile: 'seq-write-1m', target: { kind: 'device', device: '/dev/null', confirmSerial: 'null' } }));
    expect(dr.wouldRun).toBe(false);
    expect(dr.guards.find((g) => g.id === 'device-blank')?.message).toMatch(/not a block device/);
  });
});

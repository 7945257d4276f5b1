/**
 * A drive that something other than a pool holds is never a candidate and never accepted by a plan
 * (issue 24: on a live host the app offered the boot disk /dev/vda, mounted at /, as an "unused" SLOG
 * and printed `zpool add … log /dev/vda`). The lsblk outputs are real: this machine kind's own
 * (tests/fixtures/devices/PROVENANCE.md) and the lab guest's (tests/fixtures/lab/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLsblk } from '../../server/src/parsers/lsblk.ts';
import { driveUses } from '../../server/src/gather/drive-uses.ts';
import { buildInventory } from '../../server/src/gather/build.ts';
import { unusedDrives } from '../../rules/lib/slog-devices.ts';
import { planAddVdev } from '../../server/src/planner/add-vdev.ts';
import { PlanRefused } from '../../server/src/planner/plan-refused.ts';
import { drive, host, leaf, pool } from '../support/builders.ts';

const lsblk = (name: string) => {
  const r = parseLsblk(readFileSync(join(import.meta.dirname, '../fixtures/devices', name), 'utf8'));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('drive uses from lsblk', () => {
  it('the boot disk of this machine kind is mounted at / and so in use', () => {
    const vda = lsblk('lsblk-local-util-linux-2.38.1.json').find((d) => d.name === 'vda')!;
    expect(driveUses(vda)).toEqual([{ kind: 'mounted', device: '/dev/vda', detail: '/dev/vda is mounted at /', mountpoint: '/' }]);
  });

  it('partitions, signatures, swap and holders each count, once, in order', () => {
    const disk = {
      ...lsblk('lsblk-local-util-linux-2.38.1.json').find((d) => d.name === 'vda')!, name: 'sdb', path: '/dev/sdb', mountpoints: [],
      children: [
        { ...lsblk('lsblk-local-util-linux-2.38.1.json').find((d) => d.name === 'vda')!, name: 'sdb1', path: '/dev/sdb1', type: 'part', fstype: 'swap', mountpoints: ['[SWAP]'], children: [] },
        { ...lsblk('lsblk-local-util-linux-2.38.1.json').find((d) => d.name === 'vda')!, name: 'sdb2', path: '/dev/sdb2', type: 'part', fstype: 'LVM2_member', mountpoints: [],
          children: [{ ...lsblk('lsblk-local-util-linux-2.38.1.json').find((d) => d.name === 'vda')!, name: 'vg-root', path: '/dev/mapper/vg-root', type: 'lvm', fstype: 'ext4', mountpoints: ['/srv'], children: [] }] },
      ],
    };
    expect(driveUses(disk).map((u) => u.kind)).toEqual(['swap', 'filesystem', 'holder', 'mounted', 'partitions']);
    expect(driveUses(disk).at(-1)!.detail).toBe('/dev/sdb has a partition table with 2 partitions (sdb1, sdb2)');
  });
});

describe('in-use drives are neither offered nor planned', () => {
  const raw = (file: string, text: string) => ({ [file]: { text, command: ['lsblk'], exitCode: 0, stderr: '', error: null } });
  const inv = buildInventory({
    ...raw('uname.txt', 'Linux host 6.1.0-26-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.112-1 (2024-09-30) x86_64 GNU/Linux'),
    ...raw('lsblk.json', readFileSync(join(import.meta.dirname, '../fixtures/devices/lsblk-local-util-linux-2.38.1.json'), 'utf8')),
  } as never, { kind: 'snapshot', label: 'lsblk', capturedAt: '2026-11-22T00:00:00Z', demo: false, redacted: false });
  const vda = inv.drives.find((d) => d.devPath === '/dev/vda')!;

  it('the inventory carries the use, and no candidate list includes the drive', () => {
    expect(vda.uses?.map((u) => u.detail)).toEqual(['/dev/vda is mounted at /']);
    expect(unusedDrives([], inv.drives).map((d) => d.devPath)).not.toContain('/dev/vda');
  });

  it('a plan naming it is refused, whole disk or partitioned', () => {
    const tank = pool('tank', [leaf('/dev/disk/by-id/ata-HDD1', { class: 'data' })]);
    for (const partitions of [undefined, [{ role: 'slog' as const, sizeBytes: 16 * 2 ** 30 }]]) {
      const attempt = () => planAddVdev({ kind: 'slog', pool: tank, devices: ['/dev/vda'], drives: inv.drives, host: host('2.3.2'), openzfs: '2.3.2', ...(partitions ? { partitions } : {}) });
      expect(attempt).toThrow(PlanRefused);
      expect(attempt).toThrow(/device \/dev\/vda refused: \/dev\/vda is in use: system disk \(mounted at \/\)/);
    }
  });

  it('a free drive beside it is still accepted', () => {
    const free = drive('nvme-free', { devPath: '/dev/nvme0n1', aliases: ['/dev/nvme0n1'], uses: [] });
    const tank = pool('tank', [leaf('/dev/disk/by-id/ata-HDD1', { class: 'data' })]);
    const plan = planAddVdev({ kind: 'slog', pool: tank, devices: ['/dev/nvme0n1'], drives: [...inv.drives, free], host: host('2.3.2'), openzfs: '2.3.2' });
    expect(plan.steps[0]!.argv.join(' ')).toMatch(/^zpool add -n .*tank log \/dev\/nvme0n1$/);
  });
});

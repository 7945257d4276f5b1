/**
 * One idea of "usable" (issue 38 §1): server/src/model/usable.ts judges every drive of real
 * inventories — the lab guest's in-use-devices capture (OpenZFS 2.4 and 2.3: the ext4 root disk
 * mounted at /, a mirror of two partitioned disks, an ext4 disk, a disk with a partition table,
 * free disks; tests/fixtures/lab/*\/in-use-devices/PROVENANCE.md), this machine kind's lsblk
 * (tests/fixtures/devices) and the bundled demo — and every list that offers devices reads it.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadInventory } from '../../server/src/gather/load.ts';
import { buildInventory } from '../../server/src/gather/build.ts';
import { driveUsability, heldDrives, inUseSentence, usabilityWayForward, usableDrives } from '../../server/src/model/usable.ts';
import { unusedDrives } from '../../rules/lib/slog-devices.ts';
import { unusedDisksForPlanning } from '../../server/src/planner/unused-disks.ts';
import { driveRows, filterRows } from '../../ui/src/overview/drives-table.ts';
import { deviceChoices } from '../../ui/src/planner/planner-view.ts';
import { summarise } from '../../server/src/cli/commands/inventory.ts';
import type { Drive, Inventory } from '../../server/src/model/inventory.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures');
const lab = async (line: string): Promise<Inventory> => (await loadInventory({ snapshot: join(FIX, 'lab', line, 'in-use-devices') })).inventory;
const byDev = (inv: Inventory, dev: string): Drive => inv.drives.find((d) => d.devPath === dev)!;
const words = (inv: Inventory) => Object.fromEntries(inv.drives.map((d) => [d.devPath, driveUsability(d, inv.pools, inv.drives).words]));

describe('driveUsability on the lab guest\'s in-use-devices capture', () => {
  for (const line of ['2.4', '2.3']) {
    it(`OpenZFS ${line}: each drive usable or not, with the fact that decided it`, async () => {
      const inv = await lab(line);
      const w = words(inv);
      expect(w['/dev/vda']).toBe('in use: system disk (mounted at /)');
      expect(w['/dev/vdb']).toMatch(/^in pool tank \(data, mirror-0, virtio-ZD0001-part1\)$/);
      expect(w['/dev/vdc']).toMatch(/^in pool tank \(data, mirror-0, virtio-ZD0002-part1\)$/);
      expect(w['/dev/vdd']).toBe('in use: holds an ext4 signature');
      expect(w['/dev/vde']).toBe('in use: partition table (1 partition)');
      for (const free of ['/dev/vdf', '/dev/vdg', '/dev/nvme0n1']) expect(w[free]).toBe('unused');
      const vda = driveUsability(byDev(inv, '/dev/vda'), inv.pools, inv.drives);
      expect(vda.usable).toBe(false);
      expect(vda.reasons.map((r) => r.kind)).toEqual(['system']); // the ext4 signature of the mounted root says nothing more
      expect(usableDrives(inv.pools, inv.drives).map((d) => d.devPath)).not.toContain('/dev/vda');
    });
  }

  it('the rules\' candidate list, the layout planner and the Overview read the same verdict', async () => {
    const inv = await lab('2.4');
    const free = usableDrives(inv.pools, inv.drives).map((d) => d.id);
    expect(unusedDrives(inv.pools, inv.drives).map((d) => d.id)).toEqual(free);
    const rows = driveRows(inv.drives, inv.pools);
    expect(filterRows(rows, { text: '', kind: 'all', use: 'unused' }).map((r) => r.drive.id)).toEqual(free);
    expect(filterRows(rows, { text: '', kind: 'all', use: 'in-use' }).map((r) => r.drive.devPath)).toEqual(['/dev/vda', '/dev/vdd', '/dev/vde']);
    expect(rows.find((r) => r.drive.devPath === '/dev/vda')!.roleText).toBe('in use: system disk (mounted at /)');
    const hdd = unusedDisksForPlanning(inv, 'hdd');
    expect(hdd.ok && hdd.value.inUse.map((d) => `${d.path}: ${d.words}`)).toContain('/dev/disk/by-id/virtio-LABROOT: in use: system disk (mounted at /)');
    expect(hdd.ok && hdd.value.drives.map((d) => d.path)).not.toContain('/dev/disk/by-id/virtio-LABROOT');
  });

  it('the Planner offers the free drives to tick and shows the others with the reason', async () => {
    const inv = await lab('2.4');
    const choices = deviceChoices(inv.drives, inv.pools);
    const vda = choices.find((c) => c.path === '/dev/disk/by-id/virtio-LABROOT')!;
    expect(vda).toMatchObject({ usable: false, why: 'in use: system disk (mounted at /)' });
    expect(choices.filter((c) => c.usable).length).toBe(usableDrives(inv.pools, inv.drives).length);
    // Free ones first, then those held otherwise, then pool members.
    const order = choices.map((c) => (c.usable ? 0 : c.why!.startsWith('in pool') ? 2 : 1));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('the Optane page lists the drives held otherwise, with the reason, beside the offers', async () => {
    const inv = await lab('2.4');
    expect(heldDrives(inv.pools, inv.drives).map((h) => `${h.device}: ${h.why}`)).toEqual([
      '/dev/disk/by-id/virtio-LABROOT: in use: system disk (mounted at /)',
      '/dev/disk/by-id/virtio-ZD0003: in use: holds an ext4 signature',
      '/dev/disk/by-id/virtio-ZD0004: in use: partition table (1 partition)',
    ]);
  });

  it('`inventory` prints each drive\'s use', async () => {
    const text = summarise(await lab('2.4'));
    expect(text).toMatch(/\/dev\/vda .* in use: system disk \(mounted at \/\)\n/);
    expect(text).toMatch(/\/dev\/vdf .* unused\n/);
  });

  it('the words of a refusal and its way forward', async () => {
    const inv = await lab('2.4');
    const u = (dev: string) => driveUsability(byDev(inv, dev), inv.pools, inv.drives);
    expect(inUseSentence('/dev/vda', u('/dev/vda'))).toBe('/dev/vda is in use: system disk (mounted at /)');
    expect(usabilityWayForward('/dev/vda', u('/dev/vda'))).toBe('Choose another drive: /dev/vda runs this host, and nothing in the app can make it a vdev member');
    expect(usabilityWayForward('/dev/vdd', u('/dev/vdd'))).toBe('Choose another drive, or — only when what is on /dev/vdd is no longer needed — root on this host may remove its signatures and partition table (wipefs -a /dev/vdd), and assess again. That destroys everything on it');
    expect(usabilityWayForward('/dev/vdb', u('/dev/vdb'))).toMatch(/^Choose a drive listed as unused .* zpool remove or zpool detach/);
  });
});

describe('driveUsability on other real outputs', () => {
  it('this machine kind\'s boot disk (lsblk of the build machine): the system disk', () => {
    const raw = (file: string, text: string) => ({ [file]: { text, command: ['lsblk'], exitCode: 0, stderr: '', error: null } });
    const inv = buildInventory({
      ...raw('uname.txt', 'Linux host 6.1.0-26-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.112-1 (2024-09-30) x86_64 GNU/Linux'),
      ...raw('lsblk.json', readFileSync(join(FIX, 'devices', 'lsblk-local-util-linux-2.38.1.json'), 'utf8')),
    } as never, { kind: 'snapshot', label: 'lsblk', capturedAt: '2026-11-22T00:00:00Z', demo: false, redacted: false });
    const vda = driveUsability(byDev(inv, '/dev/vda'), [], inv.drives);
    expect(vda).toMatchObject({ usable: false, words: 'in use: system disk (mounted at /)' });
  });

  it('an inventory stored before the mount point was kept still reads "mounted at"', async () => {
    const inv = await lab('2.4');
    const vda = byDev(inv, '/dev/vda');
    const old: Drive = { ...vda, uses: vda.uses!.map(({ kind, device, detail }) => ({ kind, device, detail })) };
    expect(driveUsability(old, inv.pools, inv.drives).words).toBe('in use: system disk (mounted at /)');
    const srv: Drive = { ...vda, uses: [{ kind: 'mounted', device: '/dev/vda1', detail: '/dev/vda1 is mounted at /srv' }] };
    expect(driveUsability(srv, [], [srv]).words).toBe('in use: mounted at /srv (vda1)');
  });

  it('the demo: its Optane is free, its pool members are not', async () => {
    const inv = (await loadInventory({ demo: true })).inventory;
    const w = words(inv);
    expect(w['/dev/nvd1']).toBe('unused');
    expect(w['/dev/da1']).toBe('in pool bench-pool (data, mirror-0)');
  });
});

describe('a pool member held otherwise as well', () => {
  it('keeps its pool role first and says what else holds it (a boot disk with its pool on one partition)', async () => {
    const inv = await lab('2.4');
    const vdb = byDev(inv, '/dev/vdb');
    // As lsblk reports a Proxmox boot disk: the EFI partition mounted, the pool on another partition.
    const boot: Drive = { ...vdb, uses: [...vdb.uses!, { kind: 'mounted', device: '/dev/vdb9', detail: '/dev/vdb9 is mounted at /boot/efi', mountpoint: '/boot/efi' }] };
    const drives = inv.drives.map((d) => (d.id === boot.id ? boot : d));
    const u = driveUsability(boot, inv.pools, drives);
    expect(u.words).toBe('in pool tank (data, mirror-0, virtio-ZD0001-part1); system disk (vdb9 mounted at /boot/efi)');
    const row = driveRows(drives, inv.pools).find((r) => r.drive.id === boot.id)!;
    expect(row.roleText).toBe('tank · data · mirror-0 (vdb1, 1014 MiB), also system disk (vdb9 mounted at /boot/efi)');
  });
});

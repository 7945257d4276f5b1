/**
 * Leaf → drive resolution and per-vdev sizes on the reference snapshots whose names differ
 * between commands (see tests/fixtures/snapshots/*\/PROVENANCE.md): illumos partitions (003-hd),
 * `zpool status -P` full paths vs `zpool list -v` bare names (002), TrueNAS SCALE partuuids (raidz1-4tb).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import type { VdevNode } from '../../server/src/model/inventory.ts';

const SNAPSHOTS = join(import.meta.dirname, '..', 'fixtures', 'snapshots');
const load = async (name: string) => (await loadSnapshotInventory(join(SNAPSHOTS, name))).inventory;
const leafs = (n: VdevNode): VdevNode[] => (n.children.length === 0 ? [n] : n.children.flatMap(leafs));

describe('leaf resolution on reference snapshots', () => {
  it('003-hd: both Optane partitions (c13t1d0p1 log, c13t1d0p3 special) resolve to the 900P c13t1d0', async () => {
    const inv = await load('003-hd-single-disk-optane-special-slog');
    const hd = inv.pools.find((p) => p.name === 'hd')!;
    const byName = new Map(hd.vdevs.flatMap(leafs).map((l) => [l.name, l.driveId]));
    expect(byName.get('c13t1d0p1')).toBe('ms:INTEL_SSDPED1D280GA:PHMB7466015Y280CGN');
    expect(byName.get('c13t1d0p3')).toBe('ms:INTEL_SSDPED1D280GA:PHMB7466015Y280CGN');
  });

  it('002: the MX300 log partition gets its 254 GiB from zpool list -v although status names it by full path', async () => {
    const inv = await load('002-proxmox-zvols');
    const log = inv.pools[0]!.vdevs.find((v) => v.class === 'log')!;
    expect(log.name).toBe('/dev/disk/by-id/ata-Crucial_CT275MX300SSD1_17191A2B3C4D-part1');
    // zpool-list.txt: "254G" → 254 × 2^30 bytes.
    expect(log.sizeBytes).toBe(254 * 2 ** 30);
    expect(log.allocBytes).toBe(136 * 2 ** 10);
  });

  it('raidz1-4tb: partuuid leaves resolve through lsblk partuuids to the 4 TB WD40EFZX disks', async () => {
    const inv = await load('raidz1-4tb-single-special');
    const raidz = inv.pools[0]!.vdevs.find((v) => v.name === 'raidz1-0')!;
    const drives = raidz.children.map((c) => inv.drives.find((d) => d.id === c.driveId));
    expect(drives.map((d) => d?.model)).toEqual(['WDC WD40EFZX-68AWUN0', 'WDC WD40EFZX-68AWUN0', 'WDC WD40EFZX-68AWUN0']);
    expect(drives.map((d) => d?.sizeBytes)).toEqual([4000787030016, 4000787030016, 4000787030016]);
  });
});

import { describe, expect, it } from 'vitest';
import { parentDiskName, parseGlabelStatus, parseLinkListing } from '../../server/src/gather/device-names.ts';
import { aliasIndex, resolveLeaf } from '../../server/src/gather/resolve-drives.ts';
import { drive } from '../support/builders.ts';

describe('device names', () => {
  it('finds the whole disk of Linux and FreeBSD partition names', () => {
    expect(parentDiskName('/dev/sda1')).toBe('sda');
    expect(parentDiskName('nvme0n1p2')).toBe('nvme0n1');
    expect(parentDiskName('/dev/disk/by-id/ata-WDC_WD40EFRX-68N32N0_WD-WCC7K0000001-part1')).toBe('disk/by-id/ata-WDC_WD40EFRX-68N32N0_WD-WCC7K0000001');
    expect(parentDiskName('ada0p2')).toBe('ada0');
    expect(parentDiskName('da0s1a')).toBe('da0');
    // illumos (003: OmniOS with an Optane 900P split into c13t1d0p1 log + c13t1d0p3 special).
    expect(parentDiskName('c13t1d0p1')).toBe('c13t1d0');
    expect(parentDiskName('c13t1d0p3')).toBe('c13t1d0');
    expect(parentDiskName('/dev/dsk/c0t5000CCA26145FF21d0s0')).toBe('dsk/c0t5000CCA26145FF21d0');
    expect(parentDiskName('c11t5000CCA26145FF21d0')).toBeNull();
    expect(parentDiskName('c13t1d0')).toBeNull();
    expect(parentDiskName('nvd1')).toBeNull();
    expect(parentDiskName('sda')).toBeNull();
  });

  it('reads by-id listings and glabel status', () => {
    const ls = 'total 0\nlrwxrwxrwx 1 root root  9 Jan  2 03:04 wwn-0x5000c500a1b2c3d4 -> ../../sda\nlrwxrwxrwx 1 root root 10 Jan  2 03:04 wwn-0x5000c500a1b2c3d4-part1 -> ../../sda1\n';
    expect([...parseLinkListing(ls)]).toEqual([['wwn-0x5000c500a1b2c3d4', 'sda'], ['wwn-0x5000c500a1b2c3d4-part1', 'sda1']]);
    const gl = '                                      Name  Status  Components\ngptid/5c3b1f8e-1c2d-11ed-9a0e-002590f5b3a4     N/A  ada0p2\n';
    expect([...parseGlabelStatus(gl)]).toEqual([['gptid/5c3b1f8e-1c2d-11ed-9a0e-002590f5b3a4', 'ada0p2']]);
  });

  it('resolves leaves by alias, by-id basename and parent disk', () => {
    const a = drive('wwn:0x5000c500a1b2c3d4', { devPath: '/dev/sda', aliases: ['/dev/sda', '/dev/sda1', '/dev/disk/by-id/wwn-0x5000c500a1b2c3d4-part1'], byIdPath: null });
    const b = drive('ms:X:1', { devPath: '/dev/ada0', aliases: ['/dev/ada0', '/dev/gptid/5c3b'], byIdPath: null });
    const idx = aliasIndex([a, b]);
    expect(resolveLeaf('/dev/sda1', idx)).toBe(a.id);
    expect(resolveLeaf('wwn-0x5000c500a1b2c3d4-part1', idx)).toBe(a.id);
    expect(resolveLeaf('/dev/sda9', idx)).toBe(a.id);
    expect(resolveLeaf('gptid/5c3b', idx)).toBe(b.id);
    expect(resolveLeaf('ada0p3', idx)).toBe(b.id);
    expect(resolveLeaf('/var/lab/vdevs/a.img', idx)).toBeNull();
  });

  it('resolves illumos partitions and TrueNAS SCALE partuuid leaves to their disks', () => {
    const optane = drive('ms:INTEL_SSDPED1D280GA:PHMB7466015Y280CGN', { devPath: '/dev/c13t1d0', aliases: ['/dev/c13t1d0'], byIdPath: null });
    // lsblk partuuid of sda1 in the raidz1-4tb-single-special snapshot, as the drives collector aliases it.
    const wd = drive('ms:WDC_WD40EFZX-68AWUN0:WD-WX12D80A0001', { devPath: '/dev/sda', aliases: ['/dev/sda', '/dev/sda1', '/dev/disk/by-partuuid/ca1eb824-c371-491d-ac13-37637e35c683'], byIdPath: null });
    const idx = aliasIndex([optane, wd]);
    expect(resolveLeaf('c13t1d0p1', idx)).toBe(optane.id);
    expect(resolveLeaf('c13t1d0p3', idx)).toBe(optane.id);
    expect(resolveLeaf('c13t1d0s0', idx)).toBe(optane.id);
    expect(resolveLeaf('/dev/disk/by-partuuid/ca1eb824-c371-491d-ac13-37637e35c683', idx)).toBe(wd.id);
    expect(resolveLeaf('ca1eb824-c371-491d-ac13-37637e35c683', idx)).toBe(wd.id);
    expect(resolveLeaf('97cd98fb-8fb8-4ac4-bc84-bd8950a7ace7', idx)).toBeNull();
  });
});

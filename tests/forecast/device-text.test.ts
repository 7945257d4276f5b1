/**
 * Issue 34 item 5: a device class from the model text where the catalog has no entry, and virtual
 * disks and LUNs as a class of unknown latency that asks to be measured, never "hard disk". Each
 * case is a device name as a person types it or as smartctl/lsblk print it (vendor + product).
 */
import { describe, expect, it } from 'vitest';
import { classifyModelText, virtualDrive } from '../../server/src/forecast/device-text.ts';
import { findEntry, profileForDrive, profileForText } from '../../server/src/forecast/catalog.ts';
import { forecastPool, WorkloadSpec } from '../../server/src/forecast/forecast.ts';
import { dataset, drive, group, host, leaf, pool } from '../support/builders.ts';

describe('a class from the model text (no catalog entry)', () => {
  const cases: Array<[text: string, cls: string, gen: number | null]> = [
    // The newcomer case of issue 34: "… 2TB NVMe M.2 2280 PCIe Gen4" got "unknown device".
    ['Acme 2TB NVMe M.2 2280 PCIe Gen4', 'consumer-nvme', 4],
    // clemtibs' published SLOG (tests/fixtures/forecast/calibration/gh-clemtibs-raidz2-draid2-slog.json notes).
    ['Nextorage Japan 2TB NVMe M.2 PCIe Gen4', 'consumer-nvme', 4],
    ['Lexar NM790 2TB NVMe M.2 2280 PCIe Gen4', 'consumer-nvme-dramless', 4],
    ['WD_BLACK SN770 1TB', 'consumer-nvme-dramless', null],
    ['WD_BLACK SN850X 2TB', 'consumer-nvme', null],
    ['Kingston KC3000 2TB NVMe PCIe 4.0', 'consumer-nvme', 4],
    ['Samsung 990 EVO 2TB NVMe PCIe 5.0', 'consumer-nvme-dramless', 5],
    ['KIOXIA CD6-R NVMe U.2 3.84TB', 'plp-nvme', null],
    ['Generic Enterprise NVMe SSD with PLP 1.92TB', 'plp-nvme', null],
    ['Micron 5400 PRO 960GB SATA SSD', 'plp-sata', null],
    ['Micron 5400 PRO 960GB', 'plp-sata', null],
    ['Solidigm D3-S4520 960GB SATA SSD', 'plp-sata', null],
    ['Acme 1TB 2.5" SATA SSD', 'consumer-sata', null],
    ['Seagate IronWolf 4TB NAS HDD 5400 RPM', 'hdd', null],
  ];
  for (const [text, cls, gen] of cases) {
    it(`"${text}" → ${cls}${gen ? `, PCIe Gen${gen}` : ''}`, () => {
      expect(findEntry(text), 'not a catalog entry: the text classifier decides').toBeNull();
      const c = classifyModelText(text);
      expect(c?.cls).toBe(cls);
      expect(c?.pcieGen).toBe(gen);
      const p = profileForText(text);
      expect(p.cls).toBe(cls);
      expect(p.classLabel).not.toBe('unknown device');
      expect(p.basis).toContain(text);
    });
  }

  it('a text that names nothing stays "unknown device" and says so', () => {
    expect(classifyModelText('Acme Turbo 9000')).toBeNull();
    expect(profileForText('Acme Turbo 9000').cls).toBe('unknown');
  });
});

describe('virtual disks and LUNs: unknown latency, measure it — never "hard disk"', () => {
  // smartctl's "Device Model", or SCSI vendor + product, as these targets and hypervisors report them.
  const names = [
    'QEMU HARDDISK', 'QEMU NVMe Ctrl', 'VBOX HARDDISK', 'VMware Virtual disk', 'VMware, VMware Virtual S', 'Msft Virtual Disk',
    'XENSRC PVDISK', 'LIO-ORG TrueNAS iSCSI Disk', 'TrueNAS iSCSI Disk', 'FreeNAS iSCSI Disk', 'LIO-ORG disk01', 'SCST_FIO vdisk0',
    'NETAPP LUN C-Mode', 'SYNOLOGY iSCSI Storage', 'Amazon Elastic Block Store', 'Google PersistentDisk',
  ];
  for (const n of names) {
    it(`"${n}" is a virtual disk or LUN`, () => {
      expect(classifyModelText(n)?.cls).toBe('virtual');
      const p = profileForText(n);
      expect(p.cls).toBe('virtual');
      expect(p.lat4kUs.kind).toBe('class-estimate');
      expect(p.lat4kUs.reasoning).toContain('measure it');
      // As wide as the storage behind it can be: from host NVMe to an array of hard disks.
      expect(p.lat4kUs.high / p.lat4kUs.low).toBeGreaterThanOrEqual(100);
    });
  }

  it('a LUN Linux reports as rotational (LIO\'s default) is a virtual disk, not a hard disk', () => {
    const lun = drive('lun0', { model: 'TrueNAS iSCSI Disk', media: 'hdd', rotational: true, rpm: null, transport: 'scsi' });
    expect(profileForDrive(lun).cls).toBe('virtual');
    expect(profileForDrive(lun).classLabel).not.toBe('hard disk');
  });

  it('a virtio disk (no model, virtual transport, rotational) is a virtual disk; a loop device that says SSD keeps its media; dm-crypt over a hard disk stays a hard disk', () => {
    const vda = drive('vda', { devPath: '/dev/vda', model: null, media: 'hdd', rotational: true, rpm: null, transport: 'virtual' });
    expect(virtualDrive(vda)?.cls).toBe('virtual');
    expect(profileForDrive(vda).cls).toBe('virtual');
    const xvdb = drive('xvdb', { devPath: '/dev/xvdb', model: null, media: 'unknown', rotational: true, rpm: null, transport: 'virtual' });
    expect(virtualDrive(xvdb)?.why).toContain('Xen');
    const loop = drive('loop0', { devPath: '/dev/loop0', model: null, media: 'ssd', rotational: false, rpm: null, transport: 'virtual' });
    expect(virtualDrive(loop)).toBeNull();
    // lsblk gives device-mapper the virtual transport too, and dm-crypt inherits the disk's rotational flag.
    const dm = drive('dm-0', { devPath: '/dev/dm-0', model: null, media: 'hdd', rotational: true, rpm: null, transport: 'virtual' });
    expect(virtualDrive(dm)).toBeNull();
    expect(profileForDrive(dm).cls).toBe('hdd');
  });

  it('drives a NAS vendor brands (Synology HAT5300, a real hard disk) are not LUNs', () => {
    expect(classifyModelText('Synology HAT5300-8T')?.cls).not.toBe('virtual');
  });

  it('a real hard disk stays a hard disk', () => {
    const d = drive('sda', { model: 'ST4000VN008-2DR166', media: 'hdd', rotational: true, rpm: 5900 });
    expect(profileForDrive(d).cls).toBe('hdd');
  });

  it('the forecast for a pool on a LUN: "now" is a guess that asks for the probe, and there is no point gain', () => {
    const lun = drive('lun0', { model: 'TrueNAS iSCSI Disk', media: 'hdd', rotational: true, rpm: null, transport: 'scsi' });
    const p = pool('tank', [leaf('sdb', { driveId: lun.id })]);
    const a = { Host: host('2.2.6'), Pools: [p], Drives: [lun], Datasets: [dataset('tank', { sync: 'always' })] };
    const f = forecastPool(a, p, WorkloadSpec.parse({ numjobs: 16 }), { label: 'Samsung 970 EVO Plus', profile: profileForText('Samsung SSD 970 EVO Plus 2TB'), mirrored: false });
    expect(f.now.guess).toContain('virtual disks or LUNs');
    expect(f.now.guess).toContain('zfs-advisor bench sync-write-4k-qd1 --pool tank');
    expect(f.now.basis).toContain('class estimate "virtual disk or LUN');
    expect(f.now.basis).not.toContain('class estimate "hard disk"');
    expect(f.gain).toBeNull();
    expect(f.gainRange).not.toBeNull();
    // A pool on real hard disks is no guess: the model knows what a hard disk costs.
    const hdd = drive('sda', { model: 'WDC WD40EFRX-68N32N0', media: 'hdd', rotational: true, rpm: 5400 });
    const q = pool('hd', [group('mirror', 'mirror-0', [leaf('sda', { driveId: hdd.id }), leaf('sdc', { driveId: hdd.id })])]);
    const g = forecastPool({ ...a, Pools: [q], Drives: [hdd], Datasets: [dataset('hd', { sync: 'always' })] }, q, WorkloadSpec.parse({}), null);
    expect(g.now.guess).toBeNull();
  });
});

/**
 * Issue 34 item 5, the rules' side: the rules class a drive with the same model-text classifier as
 * the forecast (server/src/forecast/device-text.ts). A virtual disk or LUN is "virtual, latency
 * unknown: measure it" — never a hard disk, never fast; a drive whose media the inventory could not
 * tell gets its class from its model text. Drives come from real lsblk/smartctl captures where this
 * repository has one, else from the model strings the targets and hypervisors report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LATENCY_CLASSES, classifyDrive, isHdd, isNvme, isSsd, isVirtual, measureCommand, powerLossProtection, slowestLatency, syncWriteLatency,
} from '../../rules/lib/device-class.ts';
import { isSlowDataPool } from '../../rules/lib/slog-devices.ts';
import { mediaOf } from '../../rules/lib/layout-geometry.ts';
import { drivesCollector } from '../../server/src/gather/collectors/drives.ts';
import { driveFromSmartctl, parseSmartctl } from '../../server/src/parsers/smartctl.ts';
import { rawText } from '../../server/src/snapshot/raw-set.ts';
import type { Drive } from '../../server/src/model/inventory.ts';
import { drive, leaf, pool } from '../support/builders.ts';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { assess } from '../../server/src/assess/assess.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'devices');
const lsblkDrives = (file: string): Drive[] =>
  drivesCollector.build({ 'lsblk.json': rawText(readFileSync(join(FIX, file), 'utf8'), ['lsblk', '-J', '-O', '-b']) }, { platform: 'linux' } as never).value ?? [];
const smartDrive = (file: string): Drive => {
  const r = parseSmartctl(readFileSync(join(FIX, 'smartctl', file), 'utf8'));
  if (!r.ok) throw new Error(r.error.message);
  return driveFromSmartctl(r.value, '/dev/sda');
};

/** How the inventory sees a LUN or a SCSI/ATA virtual disk: rotational, media hdd (Linux's default for them). */
const scsiDisk = (model: string, transport: Drive['transport'] = 'scsi'): Drive =>
  drive(model.replace(/\W+/g, '-'), { model, media: 'hdd', rotational: true, rpm: null, transport, devPath: '/dev/sdb' });

describe('virtual disks and LUNs: latency unknown, measure it — never hard disk, never fast', () => {
  const cases: Array<[what: string, d: Drive]> = [
    // lsblk -J -O -b in a QEMU guest (tests/fixtures/devices/PROVENANCE.md): vendor ATA, model "QEMU HARDDISK", tran sata, rota 1.
    ['QEMU HARDDISK (real lsblk capture)', lsblkDrives('lsblk-O-b-util-linux-2.37.4-qemu-excerpt.json').find((d) => d.devPath === '/dev/sda')!],
    // The build machine's own virtio disk: no model at all, rota 1, /dev/vda.
    ['virtio /dev/vda (real lsblk capture, no model)', lsblkDrives('lsblk-local-util-linux-2.38.1.json').find((d) => d.devPath === '/dev/vda')!],
    // Issue 34's held-out pair: a pool on one TrueNAS iSCSI LUN (tests/forecast/published-pairs.test.ts).
    ['TrueNAS iSCSI Disk', scsiDisk('TrueNAS iSCSI Disk')],
    ['LIO-ORG TrueNAS iSCSI Disk (vendor + product)', scsiDisk('LIO-ORG TrueNAS iSCSI Disk')],
    ['VMware Virtual disk', scsiDisk('VMware Virtual disk')],
    ['Msft Virtual Disk (Hyper-V)', scsiDisk('Msft Virtual Disk')],
    ['QEMU HARDDISK over SATA', scsiDisk('QEMU HARDDISK', 'sata')],
    // The lab's emulated NVMe (tests/lab: /dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0001): NVMe by transport, virtual by model.
    ['QEMU NVMe Ctrl', drive('nvme-QEMU_NVMe_Ctrl_NV0001', { model: 'QEMU NVMe Ctrl', media: 'nvme', transport: 'nvme', rotational: false, rpm: null, serial: 'NV0001' })],
  ];
  for (const [what, d] of cases) {
    it(what, () => {
      expect(d, 'the fixture has this drive').toBeDefined();
      expect(isVirtual(d)).toBe(true);
      expect(isHdd(d)).toBe(false);
      expect(isSsd(d)).toBe(false);
      const l = syncWriteLatency(d);
      expect(l.cls).toBe('virtual');
      expect(l.known).toBe(false);
      expect(l.label).toBe('virtual disk or LUN (latency unknown: measure it)');
      expect(l.basis).toContain('zfs-advisor bench sync-write-4k-qd1');
      expect(l.basis).not.toMatch(/hard disk|rotational disk/i);
      const c = classifyDrive(d);
      expect([c.hdd, c.ssd, c.virtual?.cls]).toEqual([false, false, 'virtual']);
      expect(c.plp.plp).toBe('unknown');
      expect(c.plp.basis).toMatch(/storage behind it/);
      expect(mediaOf([d, d])).toBe('virtual');
    });
  }

  it('a pool on LUNs is not a "slow data pool" (nothing measured says so), and its slowest class is the unknown one', () => {
    const lun = scsiDisk('TrueNAS iSCSI Disk');
    const p = pool('tank', [leaf('sdb', { driveId: lun.id })]);
    expect(isSlowDataPool(p, [lun])).toBe(false);
    const hdd = drive('hdd');
    expect(slowestLatency([hdd, lun])!.cls).toBe('virtual');
    expect(LATENCY_CLASSES.virtual.rank).toBeGreaterThan(LATENCY_CLASSES.hdd.rank);
    // The same pool on real hard disks is slow: the change is the class, not the gate.
    expect(isSlowDataPool(pool('tank', [leaf('sda', { driveId: hdd.id })]), [hdd])).toBe(true);
  });

  it('the probe command: on the pool when the device is in one, else the guarded blank-device probe', () => {
    const d = drive('nvme-QEMU_NVMe_Ctrl_NV0001', { model: 'QEMU NVMe Ctrl', media: 'nvme', transport: 'nvme', serial: 'NV0001' });
    expect(measureCommand(d, 'tank')).toBe('zfs-advisor bench sync-write-4k-qd1 --pool tank');
    expect(measureCommand(d)).toBe('zfs-advisor bench sync-write-4k-qd1 --device /dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0001 --confirm-serial NV0001');
  });
});

describe('real drives stay what they are', () => {
  it('a WD SATA hard disk (real smartctl -j, rotation rate) is a hard disk, not virtual', () => {
    const wd = smartDrive('sata-hdd-wd140edfz-serial-redacted.json');
    expect(wd.model).toBe('WDC WD140EDFZ-11A0VA0');
    expect([isVirtual(wd), isHdd(wd), isSsd(wd)]).toEqual([false, true, false]);
    expect(syncWriteLatency(wd)).toMatchObject({ cls: 'hdd', known: true });
  });
  it('a consumer NVMe (real smartctl -j, Sabrent Rocket 4.0) is consumer flash, not virtual', () => {
    const rocket = smartDrive('nvme-sabrent-rocket4-1tb.json');
    expect([isVirtual(rocket), isNvme(rocket), isSsd(rocket)]).toEqual([false, true, true]);
    expect(syncWriteLatency(rocket).cls).toBe('consumer-flash');
  });
  it('a dm-crypt mapping over hard disks shares the virtual transport but is no virtual disk', () => {
    const dm = drive('dm-0', { devPath: '/dev/dm-0', transport: 'virtual', media: 'hdd', model: null });
    expect([isVirtual(dm), isHdd(dm)]).toEqual([false, true]);
  });
});

describe('a drive of unknown media: its class from its model text', () => {
  const unknownMedia = (model: string, opts: Partial<Drive> = {}): Drive =>
    drive(model.replace(/\W+/g, '-'), { model, media: 'unknown', transport: 'unknown', rotational: null, rpm: null, ...opts });
  const cases: Array<[model: string, hdd: boolean, nvme: boolean, latency: string, basis: RegExp]> = [
    // Issue 34: "… 2TB NVMe M.2 PCIe Gen4" got "unknown device"; clemtibs' published SLOG.
    ['Nextorage Japan 2TB NVMe M.2 PCIe Gen4', false, true, 'consumer-flash', /NVMe SSD, PCIe Gen4/],
    ['Lexar NM790 2TB NVMe M.2 2280 PCIe Gen4', false, true, 'consumer-flash', /DRAM-less/],
    // A Samsung PM9A3 model number (data-centre family with PLP, not on OpenZFS's list).
    ['SAMSUNG MZQL23T8HCLS-00A07', false, true, 'plp-nvme', /power-loss protection/],
    ['Micron 5400 PRO 960GB SATA SSD', false, false, 'plp-sata', /Micron 5100-5400/],
    ['Seagate IronWolf 4TB NAS HDD 5400 RPM', true, false, 'hdd', /reads as a hard disk/],
    ['WD Red Plus 4TB SATA HDD', true, false, 'hdd', /reads as a hard disk/],
  ];
  for (const [model, hdd, nvme, latency, basis] of cases) {
    it(`"${model}" → ${latency}`, () => {
      const d = unknownMedia(model);
      expect([isVirtual(d), isHdd(d), isNvme(d), isSsd(d)]).toEqual([false, hdd, nvme, !hdd]);
      const l = syncWriteLatency(d);
      expect(l.cls).toBe(latency);
      expect(l.basis).toMatch(basis);
      expect(l.basis).toContain(model);
    });
  }

  it('a named data-centre family has PLP from its text; a named consumer family has none; a bare "NVMe" stays unknown', () => {
    expect(powerLossProtection(unknownMedia('SAMSUNG MZQL23T8HCLS-00A07'))).toMatchObject({ plp: 'yes', kind: 'capacitor' });
    expect(powerLossProtection(unknownMedia('WD_BLACK SN850X 2TB', { media: 'nvme', transport: 'nvme' }))).toMatchObject({ plp: 'no' });
    expect(powerLossProtection(unknownMedia('Nextorage Japan 2TB NVMe M.2 PCIe Gen4')).plp).toBe('unknown');
  });

  it('text that names nothing leaves the old reading: rotational flag, else unknown', () => {
    expect(isHdd(unknownMedia('Acme Turbo 9000', { rotational: true }))).toBe(true);
    expect(syncWriteLatency(unknownMedia('Acme Turbo 9000')).cls).toBe('unknown');
  });
});

/**
 * The lab's real OpenZFS 2.3 capture of a pool with every vdev class (tests/fixtures/lab/2.3/all-classes,
 * PROVENANCE.md there): virtio data disks without a model and QEMU NVMe controllers as special, log,
 * cache and dedup. Every drive is virtual; the rules say "measure it" and never "hard disk".
 */
describe('the lab\'s capture: virtio disks and QEMU NVMe, assessed', async () => {
  const { inventory } = await loadSnapshotInventory(join(import.meta.dirname, '..', 'fixtures', 'lab', '2.3', 'all-classes'));
  const { assessment } = assess(inventory, {}, new Date('2026-11-28T00:00:00Z'));
  const about = (rule: string) => assessment.findings.filter((f) => f.ruleId === rule);

  it('every drive of the guest is a virtual disk of unknown latency', () => {
    expect(inventory.drives.length).toBe(16);
    expect(inventory.drives.filter((d) => syncWriteLatency(d).cls !== 'virtual').map((d) => `${d.devPath} ${d.model}`)).toEqual([]);
  });
  it('the log mirror of two QEMU NVMe: "virtual disks or LUNs of unknown latency: measure it", the probe on tank', () => {
    const [f, ...more] = about('slog-device-suitability');
    expect(more).toEqual([]);
    expect(f!.title).toMatch(/are virtual disks or LUNs of unknown latency: measure it$/);
    expect(f!.action?.commands).toEqual(['zfs-advisor bench sync-write-4k-qd1 --pool tank']);
  });
  it('no power-loss guess about the QEMU NVMe special and dedup mirrors; raidz2 media "virtual"', () => {
    expect(about('special-device-plp')).toEqual([]);
    expect(about('mirrors-for-random-io').map((f) => f.evidence.find((e) => e.label === 'media')?.value)).toEqual(['virtual']);
  });
  it('no finding calls a drive of the guest a hard disk or a consumer drive', () => {
    for (const f of assessment.findings) expect(`${f.ruleId}: ${f.title} ${f.explanation} ${JSON.stringify(f.evidence)}`).not.toMatch(/\bhard disks?\b|consumer-grade|"hdd"/);
  });
});

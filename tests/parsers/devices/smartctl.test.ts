import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeSmartctlExit, driveFromSmartctl, matchOptane, parseSmartctl, toSmartctlContract } from '../../../server/src/parsers/devices.ts';
import { Drive } from '../../../server/src/model/inventory.ts';

const DIR = join(import.meta.dirname, '../../fixtures/devices/smartctl');
const load = (f: string) => readFileSync(join(DIR, f), 'utf8');
const report = (f: string, exit?: number) => {
  const r = parseSmartctl(load(f), exit);
  if (!r.ok) throw new Error(`${f}: ${r.error.message}`);
  return r.value;
};

type Row = [file: string, model: string, serial: string, rotational: boolean | null, transport: string, health: boolean | null, optane: string | null];
/** Written by hand from each fixture's model_name/serial_number/rotation_rate/device/smart_status. */
const EVERY_FILE: Row[] = [
  ['macos-apple-nvme-ioservice-path.json', 'APPLE SSD AP0256Q', '0ba0147940253c15', false, 'nvme', true, null],
  ['megaraid-sat-kingston-a400-ssd.json', 'KINGSTON SA400S37240G', '50026B73815A6C11', false, 'sata', true, null],
  ['megaraid-sat-seagate-st6000nm0115.json', 'ST6000NM0115-1YZ110', 'ZAD2C11G', true, 'sata', true, null],
  ['megaraid-sat-wd4000fyyx.json', 'WD4000FYYX', 'XXXXXXXXXXXX', true, 'sata', true, null],
  ['nvme-corsair-force-mp510-serial-yes.json', 'Force MP510', 'yes', false, 'nvme', true, null],
  ['nvme-intel-660p-devname-edited.json', 'INTEL SSDPEKNW010T8', 'BTNH93710FS91P0B', false, 'nvme', true, null],
  ['nvme-intel-optane-900p-ssdped1d280ga.json', 'INTEL SSDPED1D280GA', 'PHMB7466015Y280CGN', false, 'nvme', true, 'Intel Optane SSD 900P 280GB (add-in card)'],
  ['nvme-peladn-512gb-smartctl75.json', 'PELADN 512GB', '2024031600129', false, 'nvme', true, null],
  ['nvme-sabrent-rocket4-1tb.json', 'Sabrent Rocket 4.0 1TB', '6D1107091C9583054511', false, 'nvme', true, null],
  ['nvme-samsung-970evo.json', 'Samsung SSD 970 EVO 500GB', 'S466NX0M776250H', false, 'nvme', true, null],
  ['sas-redacted-14tb-scsi-extended.json', 'SEAGATE ST0000000', 'XYZZZZ', true, 'sas', true, null],
  // No scsi_transport_protocol in this older JSON: smartctl does not say it is SAS, so neither do we.
  ['sas-seagate-st1200mm0088-10k5.json', 'SEAGATE ST1200MM0088', 'Z4028VRY0000C810BZXB', true, 'scsi', true, null],
  ['sas-seagate-st4000nm0043-grown-defects.json', 'SEAGATE ST4000NM0043', 'Z1Z5DWJK0000XXXXXXXX', true, 'scsi', true, null],
  ['sas-wdc-wuh721818al5204-env-temp.json', 'WDC WUH721818AL5204', '2PKXXXXXXX', true, 'scsi', true, null],
  ['sas-yadro-wuh721414al4204.json', 'YADRO WUH721414AL4204', '9YHSDH9B', true, 'sas', true, null],
  ['sata-hdd-wd140edfz-serial-redacted.json', 'WDC WD140EDFZ-11A0VA0', '9RK1XXXX', true, 'sata', true, null],
  ['sata-ssd-850pro-model-redacted.json', 'X SSD 850 PRO 128GB', 'S24ZN902000L', false, 'sata', true, null],
  ['sata-ssd-p3-2tb-exit64.json', 'P3-2TB', '9C40918040082', false, 'sata', true, null],
  ['sata-ssd-samsung-840-wear.json', 'Samsung SSD 840 Series', 'S14LNEACC02756X', false, 'sata', true, null],
  ['sata-ssd-samsung-860evo-full.json', 'Samsung SSD 860 EVO 500GB', 'S3YZNB0KB00864E', false, 'sata', true, null],
  ['sce-nvme-hgst-sn200-husmr7632.json', 'HUSMR7632BHP301', 'REDACTED', false, 'nvme', true, null],
  ['sce-nvme-intel-optane-memory-m10-mempek1w032ga.json', 'INTEL MEMPEK1W032GA', 'REDACTED', false, 'nvme', true, 'Intel Optane Memory 32GB'],
  ['sce-nvme-intel-optane-p1600x-ssdpek1a058ga.json', 'INTEL SSDPEK1A058GA', 'REDACTED', false, 'nvme', true, 'Intel Optane SSD P1600X 58GB'],
  ['sce-nvme-intel-p3700-aic-51pct-used.json', 'INTEL SSDPEDMD800G4', 'REDACTED', false, 'nvme', true, null],
  ['sce-nvme-intel-p4500-75pct-used.json', 'INTEL SSDPE2KX020T7', 'REDACTED', false, 'nvme', true, null],
  ['sce-nvme-micron-9300-3t8.json', 'Micron_9300_MTFDHAL3T8TDP', 'REDACTED', false, 'nvme', true, null],
  ['sce-nvme-samsung-pm1725a-FAILED-volatile-backup.json', 'SAMSUNG MZWLL3T2HAJQ-00005', 'REDACTED', false, 'nvme', false, null],
  ['sce-sas-hitachi-sun-oem-600g-10k.json', 'HITACHI H109060SESUN600G', 'REDACTED', true, 'sas', true, null],
  ['sce-sas-hp-fujitsu-73g-no-poweron.json', 'HP 73.4G MAS3735NC', 'REDACTED', true, 'scsi', true, null],
  ['sce-sata-hdd-seagate-exos-x16-16tb.json', 'ST16000NM001G-2KK103', 'REDACTED', true, 'sata', true, null],
  ['sce-sata-hdd-toshiba-x300-6tb.json', 'TOSHIBA HDWE160', 'REDACTED', true, 'sata', true, null],
  // smartctl prints "WDC  WUH721818ALE6L4" (two spaces); runs of spaces are collapsed.
  ['sce-sata-hdd-wd-hc550-18tb.json', 'WDC WUH721818ALE6L4', 'REDACTED', true, 'sata', true, null],
  ['sce-sata-ssd-intel-s3500-480g-hpa-379gb.json', 'INTEL SSDSC2BB480G4', 'REDACTED', false, 'sata', true, null],
  ['sce-sata-ssd-kingston-a400-m2-120gb.json', 'KINGSTON SA400M8120G', 'REDACTED', false, 'sata', true, null],
  ['sce-sata-ssd-transcend-mts400-32gb-m2.json', 'TS32GMTS400', 'REDACTED', false, 'sata', true, null],
  ['usb-jmicron-hitachi-hdd-failing.json', 'Hitachi HDS721050DLE630', 'MSK423Y20S3HBC', true, 'usb', false, null],
  // A USB enclosure speaking plain SAT looks exactly like a SATA port to smartctl; lsblk's tran=usb settles it.
  ['usb-sandisk-pssd-no-temperature.json', 'SanDisk pSSD', '06c9f4c44', false, 'sata', true, null],
  ['windows-intel-raid1-volume-no-smart.json', 'Intel Raid 1 Volume', 'Volume1', true, 'scsi', null, null],
];

describe('parseSmartctl on every real smartctl sample', () => {
  it('covers every fixture file', () => {
    expect(EVERY_FILE.map((r) => r[0]).sort()).toEqual(readdirSync(DIR).filter((f) => f.endsWith('.json')).sort());
  });
  it.each(EVERY_FILE)('%s', (file, model, serial, rotational, transport, health, optane) => {
    const r = report(file);
    expect(r.model).toBe(model);
    expect(r.serial).toBe(serial);
    expect(r.rotational).toBe(rotational);
    expect(r.transport).toBe(transport);
    expect(r.healthPassed).toBe(health);
    expect(r.optane?.product ?? null).toBe(optane);
  });
});

describe('parseSmartctl full contract objects (hand-written from the fixtures)', () => {
  it('Optane 900P (NVMe, write-in-place → PLP yes)', () => {
    const r = report('nvme-intel-optane-900p-ssdped1d280ga.json');
    expect(toSmartctlContract(r)).toEqual({
      model: 'INTEL SSDPED1D280GA', serial: 'PHMB7466015Y280CGN', capacityBytes: 280065171456, rotational: false,
      transport: 'nvme', healthPassed: true, powerOnHours: 42772, temperatureC: 31, percentageUsed: 0, mediaErrors: 0,
      optane: { product: 'Intel Optane SSD 900P 280GB (add-in card)' },
    });
    expect(r.media).toBe('nvme');
    expect(r.firmware).toBe('E2010325');
    expect(r.logicalSectorSize).toBe(512);
    expect(r.powerLossProtection).toBe('yes');
    expect(r.optane?.modelKey).toBe('SSDPED1D280GA');
  });
  it('Optane P1600X 58 GB (4Kn namespace)', () => {
    const r = report('sce-nvme-intel-optane-p1600x-ssdpek1a058ga.json');
    expect(toSmartctlContract(r)).toEqual({
      model: 'INTEL SSDPEK1A058GA', serial: 'REDACTED', capacityBytes: 58977157120, rotational: false, transport: 'nvme',
      healthPassed: true, powerOnHours: 3752, temperatureC: 44, percentageUsed: 0, mediaErrors: 0,
      optane: { product: 'Intel Optane SSD P1600X 58GB' },
    });
    expect(r.logicalSectorSize).toBe(4096);
    expect(r.optane).toEqual({ modelKey: 'SSDPEK1A058GA', product: 'Intel Optane SSD P1600X 58GB', capacityGb: 58, plp: 'near', enduranceTbw: 635 });
  });
  it('Samsung 860 EVO: wear from Wear_Leveling_Count normalised 81 → 19 % used', () => {
    const r = report('sata-ssd-samsung-860evo-full.json');
    expect(toSmartctlContract(r)).toEqual({
      model: 'Samsung SSD 860 EVO 500GB', serial: 'S3YZNB0KB00864E', capacityBytes: 500107862016, rotational: false,
      transport: 'sata', healthPassed: true, powerOnHours: 14551, temperatureC: 36, percentageUsed: 19, mediaErrors: 0, optane: null,
    });
    expect(r.wwn).toBe('0x5002538e40a22954');
    expect(r.firmware).toBe('RVT02B6Q');
    expect(r.media).toBe('ssd');
    expect(r.rpm).toBeNull();
    expect(r.reallocatedSectors).toBe(0);
    expect(r.wearSource).toBe('ATA 177 Wear_Leveling_Count (normalised 81)');
  });
  it('failing Hitachi behind a JMicron USB bridge: exit 216 decoded bit by bit', () => {
    const r = report('usb-jmicron-hitachi-hdd-failing.json');
    expect(toSmartctlContract(r)).toEqual({
      model: 'Hitachi HDS721050DLE630', serial: 'MSK423Y20S3HBC', capacityBytes: 500107862016, rotational: true,
      transport: 'usb', healthPassed: false, powerOnHours: 65592, temperatureC: 25, percentageUsed: null, mediaErrors: null, optane: null,
    });
    expect(r.reallocatedSectors).toBe(1975);
    expect(r.pendingSectors).toBe(8);
    expect(r.offlineUncorrectable).toBe(0);
    expect(r.rpm).toBe(7200);
    expect(r.physicalSectorSize).toBe(4096);
    expect(r.wwn).toBe('0x5000cca37fca81a8');
    // 216 = 128 + 64 + 16 + 8
    expect(r.exit).toMatchObject({ code: 216, diskFailing: true, prefailAttributesBelowThreshold: true, errorLogHasErrors: true, selfTestLogHasErrors: true, commandFailed: false, noData: false });
  });
  it('SAS Seagate with 56 grown defects (JSON header removed by the fixture author)', () => {
    const r = report('sas-seagate-st4000nm0043-grown-defects.json');
    expect(toSmartctlContract(r)).toEqual({
      model: 'SEAGATE ST4000NM0043', serial: 'Z1Z5DWJK0000XXXXXXXX', capacityBytes: 4000787030016, rotational: true,
      transport: 'scsi', healthPassed: true, powerOnHours: 43549, temperatureC: 34, percentageUsed: null, mediaErrors: 0, optane: null,
    });
    expect(r.grownDefects).toBe(56);
    expect(r.exit).toBeNull();
  });
  it('Seagate behind MegaRAID (-d sat+megaraid,14): exit 4 is a pass-through artefact, not a failure', () => {
    const r = report('megaraid-sat-seagate-st6000nm0115.json');
    expect(toSmartctlContract(r)).toEqual({
      model: 'ST6000NM0115-1YZ110', serial: 'ZAD2C11G', capacityBytes: 6001175126016, rotational: true, transport: 'sata',
      healthPassed: true, powerOnHours: 44316, temperatureC: 25, percentageUsed: null, mediaErrors: 0, optane: null,
    });
    expect(r.raidPassThrough).toBe('megaraid,14');
    expect(r.wwn).toBe('0x5000c500a496983d');
    expect(r.exit).toMatchObject({ code: 4, commandFailed: true, diskFailing: false });
  });
  it('Samsung PM1725a with failed volatile-memory backup: PLP reported as no', () => {
    const r = report('sce-nvme-samsung-pm1725a-FAILED-volatile-backup.json');
    expect(toSmartctlContract(r)).toEqual({
      model: 'SAMSUNG MZWLL3T2HAJQ-00005', serial: 'REDACTED', capacityBytes: 3200631791616, rotational: false, transport: 'nvme',
      healthPassed: false, powerOnHours: 18376, temperatureC: 40, percentageUsed: 0, mediaErrors: 0, optane: null,
    });
    expect(r.nvmeCriticalWarning).toBe(16);
    expect(r.powerLossProtection).toBe('no');
    expect(r.exit?.diskFailing).toBe(true);
  });
  it('Intel DC S3500 with HPA: capacity as the host sees it, wear from Media_Wearout_Indicator 95', () => {
    const r = report('sce-sata-ssd-intel-s3500-480g-hpa-379gb.json');
    expect(toSmartctlContract(r)).toEqual({
      model: 'INTEL SSDSC2BB480G4', serial: 'REDACTED', capacityBytes: 379282144768, rotational: false, transport: 'sata',
      healthPassed: true, powerOnHours: 56437, temperatureC: 21, percentageUsed: 5, mediaErrors: 0, optane: null,
    });
    expect(r.powerLossProtection).toBe('yes');
    expect(r.physicalSectorSize).toBe(4096);
  });
  it('SAS drive reporting 0 °C in temperature.current falls back to the environmental report (38 °C)', () => {
    expect(report('sas-wdc-wuh721818al5204-env-temp.json').temperatureC).toBe(38);
  });
  it('driveFromSmartctl yields a valid Drive with a WWN-based id', () => {
    const d = driveFromSmartctl(report('sata-ssd-samsung-860evo-full.json'));
    expect(Drive.parse(d)).toEqual(d);
    expect(d.id).toBe('wwn:0x5002538e40a22954');
    expect(d.wearPct).toBe(19);
  });
  it('caller exit code wins over the JSON exit_status', () => {
    expect(report('sata-ssd-p3-2tb-exit64.json').exit?.errorLogHasErrors).toBe(true);
    expect(report('sata-ssd-p3-2tb-exit64.json', 0).exit?.code).toBe(0);
  });
});

describe('decodeSmartctlExit', () => {
  it('decodes each bit', () => {
    expect(decodeSmartctlExit(1)).toMatchObject({ commandLineError: true, noData: true });
    expect(decodeSmartctlExit(2)).toMatchObject({ deviceOpenFailed: true, noData: true });
    expect(decodeSmartctlExit(32)).toMatchObject({ attributesBelowThresholdInPast: true, diskFailing: false, noData: false });
    expect(decodeSmartctlExit(64).messages).toEqual(['device error log contains errors']);
    expect(decodeSmartctlExit(0).messages).toEqual([]);
  });
  it('every code 0..255 sets exactly its bits', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 255 }), (c) => decodeSmartctlExit(c).messages.length === c.toString(2).split('').filter((b) => b === '1').length));
  });
});

describe('matchOptane', () => {
  it('matches by prefix with OEM suffixes and without the INTEL prefix', () => {
    expect(matchOptane('INTEL SSDPEK1A058GA')?.modelKey).toBe('SSDPEK1A058GA');
    expect(matchOptane('SSDPE21D480GAM3')?.product).toBe('Intel Optane SSD 905P 480GB (U.2)');
    expect(matchOptane('INTEL MEMPEK1J016GAL')?.modelKey).toBe('MEMPEK1J016GA');
    expect(matchOptane('SSDPED1D960GA')?.modelKey).toBe('SSDPED1D960GAY');
    expect(matchOptane('INTEL SSDPEKNW010T8')).toBeNull();
    expect(matchOptane('Samsung SSD 970 EVO 500GB')).toBeNull();
    expect(matchOptane('')).toBeNull();
  });
});

describe('parseSmartctl never throws', () => {
  const sample = load('sata-ssd-samsung-860evo-full.json');
  it('truncated JSON gives a clear error', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: sample.length - 2 }), (n) => {
      const r = parseSmartctl(sample.slice(0, n));
      return !r.ok && r.error.message.length > 0;
    }), { numRuns: 60 });
  });
  it('garbage and arbitrary JSON values are answered, not thrown', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (s) => {
      const r = parseSmartctl(s);
      return typeof r.ok === 'boolean';
    }), { numRuns: 200 });
  });
  it('a huge input is handled', () => {
    const big = `{"model_name":"X","serial_number":"Y","pad":"${'a'.repeat(5_000_000)}"}`;
    const r = parseSmartctl(big);
    expect(r.ok && r.value.model).toBe('X');
  });
  it('an empty input names the problem', () => {
    const r = parseSmartctl('');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/empty/);
  });
});

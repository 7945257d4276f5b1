/**
 * Device classification on model strings taken verbatim from real smartctl outputs in
 * shared/samples/real-outputs/smartctl/ (file named per case) and the 000 reference document.
 */
import { describe, expect, it } from 'vitest';
import {
  classifyDrive, isHdd, isNvme, isOptane, isQlcOrDramless, isSsd, powerLossProtection, qlcOrDramless, slowestLatency, syncWriteLatency,
} from '../../rules/lib/device-class.ts';
import { drive } from '../support/builders.ts';
import type { Drive } from '../../server/src/model/inventory.ts';

const nvme = (model: string, opts: Partial<Drive> = {}): Drive =>
  drive(model.replace(/\W+/g, '-'), { model, media: 'nvme', transport: 'nvme', rotational: false, rpm: null, ...opts });
const sata = (model: string, opts: Partial<Drive> = {}): Drive =>
  drive(model.replace(/\W+/g, '-'), { model, media: 'ssd', transport: 'sata', rotational: false, rpm: null, ...opts });

describe('media', () => {
  it('HDD by media, by rotational flag when media is unknown, not an SSD', () => {
    const hdd = drive('hdd', { model: 'ST16000NM001G-2KK103' }); // sce-sata-hdd-seagate-exos-x16-16tb.json
    expect(isHdd(hdd)).toBe(true);
    expect(isSsd(hdd)).toBe(false);
    expect(isHdd(drive('u', { media: 'unknown', rotational: true, rpm: null }))).toBe(true);
  });
  it('an SSD built with a leftover rpm is still an SSD (explicit media wins)', () => {
    const d = drive('ssd', { media: 'ssd', rotational: false }); // builder default rpm 7200 left in place
    expect(isHdd(d)).toBe(false);
    expect(isSsd(d)).toBe(true);
    expect(isNvme(d)).toBe(false);
  });
});

describe('Optane', () => {
  it('recognises P1600X, 900P and Optane Memory by family prefix (OEM suffixes allowed)', () => {
    expect(isOptane(nvme('INTEL SSDPEK1A058GA'))).toBe(true); // sce-nvme-intel-optane-p1600x-ssdpek1a058ga.json
    expect(isOptane(nvme('INTEL SSDPED1D280GA'))).toBe(true); // nvme-intel-optane-900p-ssdped1d280ga.json
    expect(isOptane(nvme('INTEL MEMPEK1W032GA'))).toBe(true); // sce-nvme-intel-optane-memory-m10-mempek1w032ga.json
    expect(isOptane(nvme('INTEL SSDPE21K375GAT'))).toBe(true);
  });
  it('does not call NAND Intel drives or the H10 hybrid Optane', () => {
    expect(isOptane(nvme('INTEL SSDPEKNW010T8'))).toBe(false); // 660p, nvme-intel-660p-devname-edited.json
    expect(isOptane(nvme('INTEL SSDPE2KX020T7'))).toBe(false); // P4500
    expect(isOptane(nvme('INTEL HBRPEKNX0202AHO'))).toBe(false);
  });
  it('classes DC Optane as the fastest sync-write class, consumer Optane next', () => {
    expect(syncWriteLatency(nvme('INTEL SSDPEK1A058GA')).cls).toBe('optane-dc');
    expect(syncWriteLatency(nvme('INTEL SSDPED1D280GA')).cls).toBe('optane-consumer');
    const plp = powerLossProtection(nvme('INTEL SSDPED1D280GA'));
    expect(plp).toMatchObject({ plp: 'yes', kind: 'no-volatile-cache' });
  });
});

describe('power-loss protection', () => {
  it('finds drives on the OpenZFS PLP list', () => {
    expect(powerLossProtection(sata('INTEL SSDSC2BB480G4'))).toMatchObject({ plp: 'yes', kind: 'capacitor' }); // S3500, sce-sata-ssd-intel-s3500-480g-hpa-379gb.json
    expect(syncWriteLatency(sata('INTEL SSDSC2BB480G4')).cls).toBe('plp-sata');
    expect(syncWriteLatency(nvme('Micron_9300_MTFDHAL3T8TDP')).cls).toBe('plp-nvme'); // sce-nvme-micron-9300-3t8.json
    expect(syncWriteLatency(nvme('INTEL SSDPEDMD800G4')).cls).toBe('plp-nvme'); // P3700 AIC
  });
  it('Crucial MX200 is PLP for flushed data only and still a consumer-latency device (G3)', () => {
    const d = sata('Crucial_CT500MX200SSD1');
    expect(powerLossProtection(d)).toMatchObject({ plp: 'yes', kind: 'firmware-flushed-only' });
    expect(syncWriteLatency(d).cls).toBe('consumer-flash');
  });
  it('unknown consumer SSD: PLP unknown, assumed consumer latency, basis says how to measure', () => {
    const d = sata('Samsung SSD 860 EVO 500GB'); // sata-ssd-samsung-860evo-full.json
    expect(powerLossProtection(d).plp).toBe('unknown');
    const l = syncWriteLatency(d);
    expect(l.cls).toBe('consumer-flash');
    expect(l.basis).toContain('sync-write-4k-qd1');
  });
  it('the inventory saying "no" wins over the model table', () => {
    expect(powerLossProtection(sata('INTEL SSDSC2BB480G4', { powerLossProtection: 'no' })).plp).toBe('no');
  });
});

describe('consumer QLC / DRAM-less', () => {
  it('matches the real model strings of the 660p and the Kingston A400', () => {
    expect(qlcOrDramless(nvme('INTEL SSDPEKNW010T8'))).toMatchObject({ product: 'Intel SSD 660p', kind: 'QLC' });
    expect(qlcOrDramless(sata('KINGSTON SA400S37240G'))).toMatchObject({ product: 'Kingston A400', kind: 'DRAM-less' }); // megaraid-sat-kingston-a400-ssd.json
    expect(qlcOrDramless(sata('KINGSTON SA400M8120G'))?.product).toBe('Kingston A400'); // sce-sata-ssd-kingston-a400-m2-120gb.json
    expect(qlcOrDramless(sata('Samsung SSD 870 QVO 1TB'))?.kind).toBe('QLC');
    expect(qlcOrDramless(nvme('CT1000P3SSD8'))?.kind).toBe('QLC, DRAM-less');
    expect(qlcOrDramless(sata('CT480BX500SSD1'))?.product).toBe('Crucial BX500');
  });
  it('does not flag TLC drives with DRAM or enterprise drives', () => {
    for (const m of ['Samsung SSD 970 EVO 500GB', 'Samsung SSD 860 EVO 500GB', 'INTEL SSDSC2BB480G4', 'Micron_9300_MTFDHAL3T8TDP', 'Force MP510']) {
      expect(isQlcOrDramless(nvme(m)), m).toBe(false);
    }
  });
  it('every entry names a source', () => {
    const c = classifyDrive(sata('KINGSTON SA400S37240G'));
    expect(c.cheapFlash?.source).toMatch(/https?:\/\/|zfs-facts/);
    expect(c.plp.plp).toBe('no');
    expect(c.latency.cls).toBe('consumer-flash');
  });
});

describe('ranking', () => {
  it('orders Optane < PLP NVMe < PLP SATA < consumer flash < HDD, and the slowest member wins', () => {
    const ranks = [nvme('INTEL SSDPEK1A058GA'), nvme('INTEL SSDPEDMD800G4'), sata('INTEL SSDSC2BB480G4'), sata('KINGSTON SA400S37240G'), drive('hdd')]
      .map((d) => syncWriteLatency(d).rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks).size).toBe(5);
    expect(slowestLatency([nvme('INTEL SSDPEK1A058GA'), drive('hdd')])?.cls).toBe('hdd');
  });
});

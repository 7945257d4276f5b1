/**
 * Issue 34 item 5 and "the published pairs" of its Done-when: an asynchronous workload's gain is
 * exactly 1 whatever the device; the data vdevs receive the txg's write-back (records dirtied in
 * a txg written once), not one record per write; the held-out pair the issue quotes (a pool on one
 * iSCSI LUN with a write-back cache, a consumer NVMe SLOG: 1,506 -> 6,293 IOPS at 16 jobs) no
 * longer reads 1.03x; and on the calibration set's published pairs no async control has a gain
 * other than 1, no forecast after the probe flips the decision, and model only neither does the
 * gain range the app shows (it carries "now"'s class range) nor the decision it takes on it.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadCalibration, memoryOf, toScorable, workingSetOf, type Scorable } from '../../server/src/forecast/calibration.ts';
import { profileForDrive, profileForText, type DeviceProfile } from '../../server/src/forecast/catalog.ts';
import { asyncControls, pairGains, predict } from '../../server/src/forecast/fit.ts';
import { forecastPool, workloadOf, WorkloadSpec, type Candidate } from '../../server/src/forecast/forecast.ts';
import { DEFAULT_PARAMS, latencyForMeasured, poolCeiling, writesPerRecord, type DatasetSide, type DataVdevs, type Workload } from '../../server/src/forecast/model.ts';
import { currentLog, dataVdevs, datasetSide, dirtyDataMax } from '../../server/src/forecast/pool-shape.ts';
import { artifacts000, benchPool, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, group, host, leaf, pool } from '../support/builders.ts';

const records = loadCalibration(join(import.meta.dirname, '..', 'fixtures', 'forecast', 'calibration'));
const scorable = records.map((r) => toScorable(r)).filter((s): s is Scorable => !('skip' in s));
const GiB = 2 ** 30;

describe('no sync writes: the gain is exactly 1, its range [1, 1], whatever the device', () => {
  const candidates: Array<[string, Candidate]> = [
    ['a catalog Optane (P1600X in the box)', { label: 'P1600X', profile: profileForDrive(p1600x), mirrored: false }],
    ['a model text the catalog lacks (class guess)', { label: 'Acme 2TB NVMe M.2 2280 PCIe Gen4', profile: profileForText('Acme 2TB NVMe M.2 2280 PCIe Gen4'), mirrored: false }],
    ['an unknown device', { label: 'Acme Turbo 9000', profile: profileForText('Acme Turbo 9000'), mirrored: true }],
  ];
  const modes: Array<[string, ReturnType<typeof artifacts000>, WorkloadSpec]> = [
    ['an asynchronous workload (--sync none), QD16', artifacts000(), WorkloadSpec.parse({ sync: 'none', iodepth: 16 })],
    ['a sync=disabled dataset, QD1', { ...artifacts000(), Datasets: [dataset('bench-pool', { sync: 'disabled' })] }, WorkloadSpec.parse({})],
  ];
  for (const [what, c] of candidates) {
    for (const [mode, a, spec] of modes) {
      it(`${mode}, ${what}`, () => {
        const r = forecastPool(a, benchPool, spec, c);
        expect(r.gain).toBe(1);
        expect(r.gainRange).toEqual({ low: 1, high: 1 });
        expect(r.with!.guess).toBeNull();
        expect([r.with!.iops, r.with!.low, r.with!.high]).toEqual([r.now.iops, r.now.low, r.now.high]);
        expect(r.with!.basis).toContain('No sync writes: a SLOG changes nothing');
      });
    }
  }

  it('the published async controls (sync=disabled or no sync in the source): a SLOG added gives 1.00x', () => {
    const controls = asyncControls(scorable);
    expect(controls.map((c) => c.id).sort()).toEqual(['ant-slog-2', 'zilpmem-async-1t', 'zilpmem-async-7t']);
    for (const c of controls) expect(c.gain, c.id).toBe(1);
  });
});

describe('what the data vdevs receive: the txg write-back, each dirtied record once', () => {
  const side = (dirtyMaxBytes: number | null, blockSize = 131_072): DatasetSide => ({ sync: 'always', logbias: 'latency', target: 'dataset', blockSize, openzfs: '2.2.6', dirtyMaxBytes });
  const w = (sizeBytes: number | null, rw: Workload['rw'] = 'randwrite'): Workload => ({ rw, bs: 4096, iodepth: 16, numjobs: 1, sync: 'always', sizeBytes });
  const cases: Array<[what: string, ds: DatasetSide, w: Workload, m: number]> = [
    ['working set unknown: every write its own record (the worst case)', side(4 * GiB), w(null), 1],
    ['host memory unknown: an 8 GiB host (the least TrueNAS and Proxmox VE support)', side(null), w(4 * GiB), -Math.log(1 - 0.3 * 0.8 / 4) / (0.3 * 0.8 / 4)],
    ['sequential writes fill each record once already', side(4 * GiB), w(4 * GiB, 'write'), 1],
    // 000 (ant-slog-*): fio --size=4g on a 128 GB host (dirty max 4 GiB): a txg holds ~1.2 GiB of records, f = 0.3.
    ['000: a 4 GiB file, 128 GB of RAM', side(4 * GiB, 4096), w(4 * GiB), -Math.log(0.7) / 0.3],
    ['a 4 GiB file on a 32 GiB host (dirty max 3.2 GiB)', side(dirtyDataMax(32 * GiB)!), w(4 * GiB), -Math.log(1 - 0.3 * 3.2 / 4) / (0.3 * 3.2 / 4)],
    ['a 1 GiB file on a 64 GiB host: one txg holds all of it', side(dirtyDataMax(64 * GiB)!), w(1 * GiB), Infinity],
  ];
  for (const [what, ds, wl, m] of cases) {
    it(`${what}: ${Number.isFinite(m) ? m.toFixed(2) : 'no bandwidth ceiling'} writes per record written`, () => {
      if (Number.isFinite(m)) expect(writesPerRecord(ds, wl, 'typical')).toBeCloseTo(m, 6);
      else expect(writesPerRecord(ds, wl, 'typical')).toBe(Infinity);
    });
  }

  it('the pool ceiling rises with the writes a record takes per txg, and the low end stays at or below the typical', () => {
    const hdd = profileForText('WDC WD40EFRX-68N32N0');
    const data: DataVdevs = { layout: 'mirror', vdevs: 1, width: 2, parity: 0, media: hdd };
    const base = poolCeiling(data, side(4 * GiB), w(null), 'typical');
    expect(base).toBeCloseTo(hdd.mbps.typical * 1e6 / 131_072, 0); // one 128 KiB record written back per 4 KiB write
    expect(poolCeiling(data, side(4 * GiB), w(8 * GiB), 'typical')).toBeGreaterThan(base * 1.05);
    expect(poolCeiling(data, side(4 * GiB), w(8 * GiB), 'low')).toBeLessThanOrEqual(poolCeiling(data, side(4 * GiB), w(8 * GiB), 'typical'));
  });

  it('the forecast says what the data vdevs write back, and for which working set', () => {
    const disks = [0, 1].map((i) => drive(`h${i}`, { model: 'WDC WD40EFRX-68N32N0', media: 'hdd', rotational: true, rpm: 5400 }));
    const q = pool('tank', [group('mirror', 'mirror-0', [leaf('sda', { driveId: 'h0' }), leaf('sdb', { driveId: 'h1' })])]);
    const a = { Host: host('2.2.6', { memoryBytes: 64 * GiB }), Pools: [q], Drives: disks, Datasets: [dataset('tank', { sync: 'always' })] };
    const c = { label: 'P1600X', profile: profileForText('INTEL SSDPEK1A118GA'), mirrored: false };
    const unknown = forecastPool(a, q, WorkloadSpec.parse({ iodepth: 16 }), c);
    const fits = forecastPool(a, q, WorkloadSpec.parse({ iodepth: 16, sizeBytes: GiB }), c);
    const big = forecastPool(a, q, WorkloadSpec.parse({ iodepth: 16, sizeBytes: 8 * GiB }), c);
    expect(unknown.with!.basis).toContain('taken to dirty a 128 KiB record of its own, written back whole at txg sync (working set not given: the worst case)');
    expect(fits.with!.basis).toContain('one txg holds this whole 1 GiB working set');
    expect(big.with!.basis).toMatch(/~1\.\d writes per record over this 8 GiB working set/);
    expect(fits.with!.iops).toBeGreaterThan(big.with!.iops);
    expect(big.with!.iops).toBeGreaterThan(unknown.with!.iops);
  });

  it('calibration records carry fio\'s working set and the host\'s RAM as published', () => {
    expect(workingSetOf('fio --name=random-write --ioengine=posixaio --rw=randwrite --bs=4k --numjobs=1 --size=4g --iodepth=16', 1)).toBe(4 * GiB);
    expect(workingSetOf('fio --rw=write --bs=8k --size=4G --numjobs=8', 8)).toBe(32 * GiB);
    expect(workingSetOf('fio --rw=write --size=22m --bs=4k --name=mytest --filename=test-data', 1)).toBe(22 * 2 ** 20);
    expect(workingSetOf('[global] bs=4K size=1G numjobs=32 sync=1; filename_format=fio.temp.$jobnum', 32)).toBe(32 * GiB);
    expect(workingSetOf('CrystalDiskMark in a VM', 1)).toBeNull();
    expect(memoryOf('Host Xeon D-1541, 128 GB RAM, LSI3008.')).toBe(128 * GiB);
    expect(memoryOf('no memory stated')).toBeNull();
    const ant = scorable.find((s) => s.record.id === 'ant-slog-4')!;
    expect([ant.w.sizeBytes, ant.ds.dirtyMaxBytes]).toEqual([4 * GiB, 4 * GiB]);
  });
});

/**
 * The held-out pair of issue 34 (its source is not in this repository: the issue quotes the
 * numbers; the SLOG's model is named only as a consumer NVMe): one iSCSI LUN with a write-back
 * cache as the only data vdev, 4 KiB sync writes, 16 jobs; 1,506 IOPS without a SLOG, 6,293 with
 * one on a consumer NVMe (4.18x). The app said 880 -> 908 (1.03x): the LUN was a "hard disk" and
 * the "with" side was held at 170 MB/s ÷ 128 KiB × 0.7 = 908.
 */
describe('issue 34\'s held-out pair: a pool on one iSCSI LUN, a consumer NVMe SLOG, 16 jobs', () => {
  const MEASURED_NOW = 1506;
  const MEASURED_WITH = 6293;
  const lun = drive('lun0', { model: 'TrueNAS iSCSI Disk', media: 'hdd', rotational: true, rpm: null, transport: 'scsi' });
  const p = pool('tank', [leaf('sdb', { driveId: lun.id })]);
  const a = { Host: host('2.2.6'), Pools: [p], Drives: [lun], Datasets: [dataset('tank', { sync: 'always' })] };
  const spec = WorkloadSpec.parse({ numjobs: 16 });
  const inside = (x: number, lo: number, hi: number) => x >= lo && x <= hi;
  /** What the app's probe gives the forecast: the ZIL device's latency that reproduces the measured "now". */
  const probed = (): DeviceProfile => {
    const log = currentLog(p, [lun], a.Host);
    const us = latencyForMeasured(dataVdevs(p, [lun]), log, datasetSide(p, a.Datasets, a.Host).side, workloadOf(spec), MEASURED_NOW)!;
    return { ...log.device, matched: 'measured', lat4kUs: { ...log.device.lat4kUs, typical: us, low: us * 0.9, high: us * 1.1 } };
  };
  const slogs: Array<[string, DeviceProfile]> = [
    ['a catalog consumer NVMe (Samsung 970 EVO Plus)', profileForText('Samsung SSD 970 EVO Plus 2TB')],
    ['the text "… 2TB NVMe M.2 2280 PCIe Gen4" (class consumer NVMe)', profileForText('Acme 2TB NVMe M.2 2280 PCIe Gen4')],
  ];
  for (const [what, profile] of slogs) {
    it(`model only, ${what}: the LUN is no hard disk, "now" asks to be measured, the ranges hold both measurements`, () => {
      const f = forecastPool(a, p, spec, { label: what, profile, mirrored: false });
      expect(f.now.guess).not.toBeNull();
      expect(f.gain).toBeNull();
      expect(inside(MEASURED_NOW, f.now.low, f.now.high)).toBe(true);
      expect(inside(MEASURED_WITH, f.with!.low, f.with!.high)).toBe(true);
      expect(inside(MEASURED_WITH / MEASURED_NOW, f.gainRange!.low, f.gainRange!.high)).toBe(true);
    });

    it(`after the probe measured ${MEASURED_NOW} IOPS, ${what}: the gain does not flip the decision (≥ 1.3x where 4.18x was measured)`, () => {
      const f = forecastPool(a, p, spec, { label: what, profile, mirrored: false }, { nowDevice: probed() });
      expect(f.now.guess).toBeNull();
      expect(f.now.iops).toBeGreaterThanOrEqual(MEASURED_NOW * 0.95);
      expect(f.now.iops).toBeLessThanOrEqual(MEASURED_NOW * 1.05);
      expect(inside(MEASURED_WITH, f.with!.low, f.with!.high)).toBe(true);
      expect(inside(MEASURED_WITH / MEASURED_NOW, f.gainRange!.low, f.gainRange!.high)).toBe(true);
      if (profile.matched === 'catalog') expect(f.gain!).toBeGreaterThanOrEqual(2);
      else expect(f.with!.guess).toContain('consumer NVMe');
      expect(f.gainRange!.low).toBeLessThan(f.gainRange!.high);
    });
  }
});

describe('the calibration set\'s published with/without pairs', () => {
  it('after the probe no forecast gain, and model only no gain range shown, is < 1.3x where ≥ 2x was measured, nor ≥ 2x where < 1.3x was', () => {
    const pairs = pairGains(scorable, DEFAULT_PARAMS);
    expect(pairs.length).toBeGreaterThanOrEqual(10);
    expect(pairs.filter((g) => g.probedFlipped)).toEqual([]);
    // Model only, no range the app shows says < 1.3x (its high end) where ≥ 2x was measured, nor ≥ 2x (its low end) where < 1.3x was.
    expect(pairs.filter((g) => g.measuredGain >= 2 && g.forecastRange.high < 1.3)).toEqual([]);
    expect(pairs.filter((g) => g.measuredGain < 1.3 && g.forecastRange.low >= 2)).toEqual([]);
    expect(pairs.filter((g) => g.flipped)).toEqual([]);
  });

  it('000\'s 16-writer SLOG runs on its 4 GiB file: the txg write-back puts them inside the range', () => {
    for (const id of ['ant-slog-4', 'ant-slog-6', 'ant-slog-10']) {
      const s = scorable.find((x) => x.record.id === id)!;
      const r = predict(s, DEFAULT_PARAMS);
      expect(s.measured, id).toBeGreaterThanOrEqual(r.low);
      expect(s.measured, id).toBeLessThanOrEqual(r.high);
    }
  });
});

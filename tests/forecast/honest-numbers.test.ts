/**
 * Issue 27 §4 and the model's structure: what a user on a live pool would see from the forecast.
 * An unknown model gets no point forecast, ranges are coherent, different latencies give different
 * forecasts, group commit lets a flush-bound SLOG rise with writers, and the pool ceiling caps "with".
 */
import { describe, expect, it } from 'vitest';
import { profileForText } from '../../server/src/forecast/catalog.ts';
import { estimate, latencyForMeasured, type DataVdevs, type DatasetSide, type Workload } from '../../server/src/forecast/model.ts';
import { runForecast, renderForecast } from '../../server/src/forecast/request.ts';
import { slogTarget } from '../../server/src/forecast/pool-shape.ts';
import { forecastConfidence } from '../../server/src/forecast/confidence.ts';
import { artifacts000 } from '../fixtures/rules/slog-fixtures.ts';
import { formatGain } from '../../server/src/text/format.ts';

const hdd = profileForText('WDC WD40EFRX-68N32N0');
const mirror2: DataVdevs = { layout: 'mirror', vdevs: 1, width: 2, parity: 0, media: hdd };
const raidz2: DataVdevs = { layout: 'raidz', vdevs: 1, width: 5, parity: 2, media: hdd };
const ds = (o: Partial<DatasetSide> = {}): DatasetSide => ({ sync: 'always', logbias: 'latency', target: 'dataset', blockSize: 4096, openzfs: '2.3.0', ...o });
const w = (o: Partial<Workload> = {}): Workload => ({ rw: 'randwrite', bs: 4096, iodepth: 1, numjobs: 1, sync: 'always', ...o });
const fc = (slogModel: string, iodepth = 1) => {
  const r = runForecast(artifacts000(), { pool: 'bench-pool', slogModel, mirrored: false, workload: { rw: 'randwrite', bs: 4096, iodepth, numjobs: 1, sync: 'always' } });
  if (!r.ok) throw new Error(r.message);
  return r.result;
};

describe('group commit and the pool ceiling', () => {
  it('a flush-bound consumer NVMe SLOG rises severalfold from 4 to 64 writers (one write + flush serves the waiting writers)', () => {
    const nvme = slogTarget(profileForText('Samsung SSD 990 PRO 1TB'), false);
    const big = ds({ blockSize: 1_048_576 });
    const at = (jobs: number) => estimate(raidz2, nvme, big, w({ rw: 'write', bs: 8192, numjobs: jobs })).iops;
    expect(at(64) / at(4)).toBeGreaterThan(3);
    expect(at(16)).toBeGreaterThan(at(4));
  });

  it('"with" never exceeds the pool\'s sustained ceiling: 4 KiB random writes into 128 KiB records on two hard disks', () => {
    const opt = slogTarget(profileForText('P1600X'), false);
    const e = estimate(mirror2, opt, ds({ blockSize: 131_072 }), w({ iodepth: 64 }));
    expect(e.iops).toBeLessThan(e.latencyIops);
  });

  it('sequential writes are not charged a rewrite of the whole record (only random ones are)', () => {
    const opt = slogTarget(profileForText('P1600X'), false);
    const seq = estimate(raidz2, opt, ds({ blockSize: 1_048_576 }), w({ rw: 'write', bs: 8192, numjobs: 8 })).iops;
    const rnd = estimate(raidz2, opt, ds({ blockSize: 1_048_576 }), w({ rw: 'randwrite', bs: 8192, numjobs: 8 })).iops;
    expect(seq).toBeGreaterThan(rnd * 5);
  });

  it('"now" on hard disks comes out of the same group commit: 8 writers share the log writes and flushes of the embedded ZIL, two blocks in flight', () => {
    const onData = { kind: 'data' as const, device: hdd, vdevs: 1, waitsFor: 3, streams: 3 };
    const big = ds({ blockSize: 1_048_576, openzfs: '2.2.2' });
    const at = (jobs: number) => estimate(raidz2, onData, big, w({ rw: 'write', bs: 8192, numjobs: jobs })).iops;
    // A hard disk's flush waits for its cache: the open block is issued behind the one being
    // flushed, so each round serves half the waiting writers: nearly 4× QD1, the batch's bytes the only extra.
    expect(at(8) / at(1)).toBeGreaterThan(3.5);
    expect(at(8) / at(1)).toBeLessThanOrEqual(4);
    // A device with power-loss protection flushes at once: one block serves all 8.
    const plp = { ...onData, device: { ...hdd, cls: 'plp-nvme' as const } };
    const atPlp = (jobs: number) => estimate(raidz2, plp, big, w({ rw: 'write', bs: 8192, numjobs: jobs })).latencyIops;
    expect(atPlp(8) / atPlp(1)).toBeGreaterThan(7);
  });

  it('large writes without a SLOG are logged indirectly: each writer\'s block goes to the pool in parallel, so 16 and 32 threads meet the same pool bandwidth', () => {
    const onData = { kind: 'data' as const, device: hdd, vdevs: 1, waitsFor: 2, streams: 1 };
    const big = ds({ blockSize: 1_048_576, openzfs: '2.2.2' });
    const at = (jobs: number) => estimate(mirror2, onData, big, w({ rw: 'write', bs: 1_048_576, numjobs: jobs }));
    expect(at(16).iops).toBe(at(32).iops);
    expect(at(16).iops).toBeLessThan(at(16).latencyIops);
    expect(at(16).basis.join(' ')).toContain('logged indirectly');
  });

  it('copied writes into an embedded ZIL are written twice on the data disks, so the pool\'s ceiling halves', () => {
    const single: DataVdevs = { layout: 'stripe', vdevs: 1, width: 1, parity: 0, media: hdd };
    const onData = { kind: 'data' as const, device: hdd, vdevs: 1, waitsFor: 1, streams: 1 };
    const load = w({ rw: 'write', bs: 1_048_576, iodepth: 24 });
    // OpenZFS ≤ 2.3 zvols log a write indirectly only when volblocksize > 32 KiB (zfs-facts A8): into 8 KiB blocks every write is copied.
    const zvol = estimate(single, onData, ds({ target: 'zvol', blockSize: 8192, openzfs: '2.0.3', sync: 'standard' }), load).iops;
    const dataset = estimate(single, onData, ds({ blockSize: 1_048_576, openzfs: '2.0.3', sync: 'standard' }), load).iops;
    expect(zvol / dataset).toBeCloseTo(0.5, 1);
  });

  it('a measured result inverts to the device latency that reproduces it', () => {
    const log = { kind: 'data' as const, device: hdd, vdevs: 1, waitsFor: 2, streams: 1 };
    const us = latencyForMeasured(mirror2, log, ds(), w(), 220)!;
    const again = estimate(mirror2, { ...log, device: { ...hdd, matched: 'measured', lat4kUs: { ...hdd.lat4kUs, typical: us } } }, ds(), w()).latencyIops;
    expect(Math.abs(again - 220)).toBeLessThanOrEqual(1);
  });
});

describe('honest numbers on a live pool', () => {
  it('an unknown model ("Foobar XYZ 123") gets no point forecast and no gain: its class range, labelled a guess, and how to measure it', () => {
    const r = fc('Foobar XYZ 123');
    expect(r.gain).toBeNull();
    expect(r.with!.guess).toMatch(/a guess, so there is no point forecast and no gain/);
    expect(r.with!.guess).toContain('zfs-advisor bench sync-write-4k-qd1 --device');
    const text = renderForecast(r);
    expect(text).toContain('no point forecast');
    expect(text).not.toMatch(/gain: ×/);
  });

  it('a known model\'s gain reads as every view writes a gain ("83×", never "×83.33")', () => {
    const r = fc('Micron 7450 PRO');
    expect(r.gain).not.toBeNull();
    const text = renderForecast(r);
    expect(text).toContain(`gain: ${formatGain(r.gain)}`);
    expect(text).not.toMatch(/×\d/);
  });

  it('Optane and a PLP NVMe differ where their latency differs; the three PLP NVMe share one class figure and one forecast', () => {
    const opt = fc('Intel Optane SSD P4800X');
    const plp = ['Micron 7450 PRO', 'Samsung PM9A3', 'Solidigm D7-P5520'].map((m) => fc(m));
    for (const p of plp) expect(p.with!.latencyIops).toBeLessThan(opt.with!.latencyIops);
    expect(new Set(plp.map((p) => p.with!.iops)).size).toBe(1);
  });

  it('QD16 differs from QD1 where the model says it should (group commit below the ceiling)', () => {
    expect(fc('Micron 7450 PRO', 16).with!.iops).toBeGreaterThan(fc('Micron 7450 PRO', 1).with!.iops * 2);
  });

  it('ranges are coherent: a faster device\'s "with" range never ends below "now"\'s, and a slower one says so', () => {
    for (const m of ['P1600X', 'Micron 7450 PRO', 'Samsung 980', 'Foobar XYZ 123']) {
      const r = fc(m);
      if (r.with!.iops >= r.now.iops) expect(r.with!.high, m).toBeGreaterThanOrEqual(r.now.high);
      if (r.with!.high < r.now.low) { expect(r.with!.slower, m).toBe(true); expect(r.with!.basis).toContain('slower'); }
    }
  });
});

describe('one confidence', () => {
  it('measured now + seen sync writes → high; one of them → medium; only configured and modelled → low', () => {
    expect(forecastConfidence('benchmark', 'observed')).toBe('high');
    expect(forecastConfidence('observed', 'counters')).toBe('high');
    expect(forecastConfidence('benchmark', 'configured')).toBe('medium');
    expect(forecastConfidence('model', 'observed')).toBe('medium');
    expect(forecastConfidence('model', 'configured')).toBe('low');
  });
});

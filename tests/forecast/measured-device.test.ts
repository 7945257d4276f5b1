/**
 * Measure before forecasting, the candidate's side (issue 27 §2): a blank-device test of an unused
 * drive (same serial, else WWN) replaces its catalog or class figure in the "with" forecast, the
 * verdict and the slog-benefit finding cite it ("measured on this host, run <id>, <date>"), an
 * unknown model gets a point forecast from it, and a run of another device is never used. Where
 * nothing was measured, the verdict says how to measure it in one click.
 */
import { describe, expect, it } from 'vitest';
import { buildOptaneVerdict } from '../../server/src/optane/verdict.ts';
import slogBenefit from '../../rules/slog-benefit.ts';
import { runForecast, ForecastRequest } from '../../server/src/forecast/request.ts';
import { candidateProfile, deviceMeasurement, sameDevice } from '../../server/src/forecast/measured-device.ts';
import { confidenceReason, forecastConfidence } from '../../server/src/forecast/confidence.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import type { Artifacts } from '../../server/src/model/artifacts.ts';
import { artifacts000, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, group, host, leaf, pool } from '../support/builders.ts';

const SERIAL = 'PHOC209200KC058A';
const deviceRun = (o: Partial<BenchmarkSummary> = {}): BenchmarkSummary => ({
  id: 'dev1', profile: 'sync-write-4k-qd1', pool: null, target: '/dev/nvme1n1', startedAt: '2026-11-26T02:00:00.000Z',
  status: 'completed', syncMode: 'fio-fsync', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 5000, readBytesPerSec: 0, writeBytesPerSec: 5000 * 4096,
  writeLatency: null, readLatency: null, wallSeconds: 5, fioRuntimeSeconds: 5, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
  targetKind: 'device', sync: 'always', io: 'direct', device: { serial: SERIAL, wwn: null, sizeBytes: 58e9 }, ...o,
});
const ev = (v: ReturnType<typeof buildOptaneVerdict>) => Object.fromEntries(v.evidence.map((e) => [e.label, e.value]));
const findingOf = (a: Artifacts) => {
  const out = slogBenefit.check(a as never);
  const f = 'findings' in out ? out.findings : [];
  expect(f).toHaveLength(1);
  return f[0]!;
};

describe('which run measured this drive', () => {
  it('the same serial, else the WWN where a side reports no serial; the newest completed QD1 4 KiB sync-write device run', () => {
    expect(sameDevice({ serial: SERIAL, wwn: null, sizeBytes: null }, { serial: SERIAL, wwn: null })).toBe(true);
    expect(sameDevice({ serial: 'OTHER', wwn: '0x5000c500a1b2c3d4', sizeBytes: null }, { serial: SERIAL, wwn: '5000c500a1b2c3d4' })).toBe(false);
    expect(sameDevice({ serial: null, wwn: '0x5000C500A1B2C3D4', sizeBytes: null }, { serial: SERIAL, wwn: 'naa.5000c500a1b2c3d4' })).toBe(true);
    // Neither serial nor WWN (a loop device): only the same path and the same size to the byte, as NAME:BYTES confirmed it.
    const loop = { serial: null, wwn: null, devPath: '/dev/loop3', byIdPath: null, aliases: [], sizeBytes: 67108864 };
    expect(sameDevice({ serial: null, wwn: null, sizeBytes: 67108864 }, loop, '/dev/loop3')).toBe(true);
    expect(sameDevice({ serial: null, wwn: null, sizeBytes: 67108864 }, loop, '/dev/loop4')).toBe(false);
    expect(sameDevice({ serial: null, wwn: null, sizeBytes: 67108865 }, loop, '/dev/loop3')).toBe(false);
    expect(sameDevice({ serial: null, wwn: null, sizeBytes: 67108864 }, { ...loop, serial: 'S1' }, '/dev/loop3')).toBe(false);
    expect(sameDevice({ serial: null, wwn: null, sizeBytes: 67108864 }, { serial: null, wwn: null })).toBe(false);
    const runs = [deviceRun({ id: 'old', startedAt: '2026-11-01T00:00:00Z', writeIops: 100 }), deviceRun()];
    expect(deviceMeasurement(runs, p1600x)).toEqual({ runId: 'dev1', startedAt: '2026-11-26T02:00:00.000Z', iops: 5000, latencyUs: 200, cpuUsPerIo: null });
    for (const bad of [{ status: 'aborted' as const }, { syncMode: 'async' as const }, { iodepth: 16 }, { blockSize: 1_048_576 }, { readIops: 10 }, { targetKind: 'dataset' as const }, { device: null }]) {
      expect(deviceMeasurement([deviceRun(bad)], p1600x), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('the forecast rests on the measured device', () => {
  it('the P1600X measured at 200 µs per write: the "with" side is that, cited with run id and date, not the catalog or the published SLOG test', () => {
    const measured = runForecast(artifacts000({ Benchmarks: [deviceRun()] }), ForecastRequest.parse({ pool: 'bench-pool', slog: '/dev/nvd1' }));
    const catalog = runForecast(artifacts000(), ForecastRequest.parse({ pool: 'bench-pool', slog: '/dev/nvd1' }));
    if (!measured.ok || !catalog.ok) throw new Error('forecast failed');
    const w = measured.result.with!;
    expect(w.deviceRun).toEqual({ id: 'dev1', startedAt: '2026-11-26T02:00:00.000Z' });
    expect(w.basis).toContain('measured on this host, run dev1, 2026-11-26 02:00 UTC: 200 µs per durable 4 KiB write at QD1 (5,000 IOPS, blank-device test of this drive), instead of the catalog figure for "Intel Optane SSD P1600X (58/118 GB)"');
    expect(w.measured).toBeNull(); // the published 000 SLOG measurement no longer stands in for this device
    expect(w.guess).toBeNull();
    // A 200 µs device cannot do the 13,700 QD1 IOPS the published test of a healthy P1600X did.
    expect(catalog.result.with!.iops).toBe(13_700);
    expect(w.latencyIops).toBeLessThan(5000);
    expect(w.iops).toBeLessThan(catalog.result.with!.iops);
    expect(catalog.result.with!.deviceRun).toBeNull();
    // Unmeasured, the forecast says so and how to measure it in one click; measured, it does not.
    expect(catalog.result.with!.measure).toContain('Measure it in one click (blank-device test, destroys its contents): the "Measure this device" button');
    expect(w.measure).toBeNull();
  });

  it('a measurement of another serial is not used', () => {
    const other = runForecast(artifacts000({ Benchmarks: [deviceRun({ device: { serial: 'PHOC2092SOMEOTHER', wwn: null, sizeBytes: 58e9 } })] }), ForecastRequest.parse({ pool: 'bench-pool', slog: '/dev/nvd1' }));
    if (!other.ok) throw new Error(other.message);
    expect(other.result.with!.deviceRun).toBeNull();
    expect(other.result.with!.iops).toBe(13_700);
    expect(other.result.with!.basis).not.toContain('measured on this host');
    const v = buildOptaneVerdict(artifacts000({ Benchmarks: [deviceRun({ device: { serial: 'PHOC2092SOMEOTHER', wwn: null, sizeBytes: 58e9 } })] }), null);
    expect(v.deviceProbes[0]!.measured).toBeNull();
  });

  it('the faster the measured device, the higher the forecast (the measurement drives the number)', () => {
    const at = (iops: number) => {
      const r = runForecast(artifacts000({ Benchmarks: [deviceRun({ writeIops: iops })] }), ForecastRequest.parse({ pool: 'bench-pool', slog: '/dev/nvd1' }));
      if (!r.ok) throw new Error(r.message);
      return r.result.with!.latencyIops;
    };
    expect(at(20_000)).toBeGreaterThan(at(5000));
    expect(at(5000)).toBeGreaterThan(at(1000));
  });

  it('an unknown model: a class range labelled a guess without a measurement, a point forecast and a gain with one', () => {
    const disks = [0, 1].map((i) => drive(`h${i}`, { model: 'WDC WD40EFRX-68N32N0', media: 'hdd', rotational: true, rpm: 5400 }));
    const odd = drive('nvme-Foobar_XYZ_123_FB123', { model: 'Foobar XYZ 123', serial: 'FB123', devPath: '/dev/nvme2n1', media: 'nvme', transport: 'nvme', rotational: false, rpm: null, sizeBytes: 128e9 });
    const p = pool('tank', [group('mirror', 'mirror-0', disks.map((d, i) => leaf(`sd${i}`, { driveId: d.id })))]);
    const a: Artifacts = { Host: host('2.3.0'), Pools: [p], Drives: [...disks, odd], Datasets: [dataset('tank', { sync: 'always' })] };
    const req = ForecastRequest.parse({ pool: 'tank', slog: '/dev/nvme2n1' });
    const guess = runForecast(a, req);
    if (!guess.ok) throw new Error(guess.message);
    expect(guess.result.gain).toBeNull();
    expect(guess.result.with!.guess).toContain('a guess');
    // How to measure it in one click: the UI button and the CLI command for this very drive.
    expect(guess.result.with!.guess).toContain('the "Measure this device" button on the Optane page');
    expect(guess.result.with!.guess).toContain('`zfs-advisor bench sync-write-4k-qd1 --device /dev/disk/by-id/nvme-Foobar_XYZ_123_FB123 --confirm-serial SERIAL --runtime 5 --size 256M`');
    const run = deviceRun({ id: 'odd1', device: { serial: 'FB123', wwn: null, sizeBytes: 128e9 }, writeIops: 8000 });
    const point = runForecast({ ...a, Benchmarks: [run] }, req);
    if (!point.ok) throw new Error(point.message);
    expect(point.result.with!.guess).toBeNull();
    expect(point.result.gain).toBeGreaterThan(1);
    expect(point.result.with!.basis).toContain('measured on this host, run odd1');
    expect(point.result.with!.basis).toContain('instead of the "');
    expect(candidateProfile(odd, [run]).profile.matched).toBe('measured');
  });
});

describe('verdict and finding cite the measurement; one confidence', () => {
  it('the verdict and the slog-benefit finding both say "measured on this host, run <id>, <date>"', () => {
    const a = artifacts000({ Benchmarks: [deviceRun({ writeIops: 20_000 })] });
    const v = buildOptaneVerdict(a, null);
    const cite = 'measured on this host, run dev1, 2026-11-26 02:00 UTC';
    expect(String(ev(v)['forecast "with" for'])).toContain(cite);
    expect(v.reasons.join(' ')).toContain(cite);
    expect(v.reasons.join(' ')).not.toContain('not measured on this host — measure it in one click: the "Measure this device"');
    expect(v.deviceProbes[0]).toMatchObject({ driveId: p1600x.id, measured: { runId: 'dev1', iops: 20_000, latencyUs: 50 } });
    const f = findingOf(a);
    expect(f.explanation).toContain(cite);
    expect(f.evidence.find((e) => e.label === 'log device measured on this host')?.value).toContain('run dev1');
    expect(f.confidence).toBe(v.confidence);
    expect(v.reasons).toContain('confidence low: "now" is a model estimate, sync writes only configured, "with" measured on this host (blank-device test).');
  });

  it('nothing measured: the verdict says the figure is the catalog\'s and how to measure the device in one click (UI button and CLI command)', () => {
    const v = buildOptaneVerdict(artifacts000(), null);
    const r = v.reasons.join(' ');
    expect(r).toContain('not measured on this host — measure it in one click: the "Measure this device" button on the Optane page');
    expect(r).toContain('--confirm-serial SERIAL --runtime 5 --size 256M');
    const u = v.unknowns.find((x) => x.what.startsWith('Sync-write latency of /dev/nvd1'));
    expect(u?.howToMeasure).toMatch(/^zfs-advisor bench sync-write-4k-qd1 --device \/dev\/nvd1 --confirm-serial SERIAL --runtime 5 --size 256M$/);
    expect(v.deviceProbes).toEqual([expect.objectContaining({ device: '/dev/nvd1', measured: null, sizeBytes: 256 * 1024 * 1024 })]);
    // "Now" too: a model estimate, and the one click that measures it.
    expect(String(ev(v)['"now" based on'])).toContain('measure it in one click: "Should I add Optane?" with the sync-write probe ticked, or `zfs-advisor bench sync-write-4k-qd1 --pool bench-pool`');
  });

  it('confidence: a class guess for "with" costs one step; a measured or catalog figure none', () => {
    expect(forecastConfidence('benchmark', 'observed', 'measured')).toBe('high');
    expect(forecastConfidence('benchmark', 'observed', 'catalog')).toBe('high');
    expect(forecastConfidence('benchmark', 'observed', 'class')).toBe('medium');
    expect(forecastConfidence('model', 'configured', 'class')).toBe('low');
    expect(confidenceReason('model', 'observed', 'class')).toBe('confidence low: "now" is a model estimate, sync writes observed, "with" only a class estimate (a guess)');
  });
});

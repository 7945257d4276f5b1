import { describe, expect, it } from 'vitest';
import { CATALOG, findEntry, profileForDrive, profileForText } from '../../server/src/forecast/catalog.ts';
import { estimate, type DataVdevs, type DatasetSide, type Workload } from '../../server/src/forecast/model.ts';
import { forecastPool, WorkloadSpec } from '../../server/src/forecast/forecast.ts';
import { slogTarget } from '../../server/src/forecast/pool-shape.ts';
import { artifacts000, benchPool, da1, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, group, host, leaf, pool } from '../support/builders.ts';

const hdd = profileForDrive(da1);
// recordsize=4k as in 000, so the pool's async ceiling does not hide the device differences.
const ds: DatasetSide = { sync: 'always', logbias: 'latency', target: 'dataset', blockSize: 4096, openzfs: '2.2.6' };
const w = (o: Partial<Workload> = {}): Workload => ({ rw: 'randwrite', bs: 4096, iodepth: 1, numjobs: 1, sync: 'always', ...o });
const mirror2: DataVdevs = { layout: 'mirror', vdevs: 1, width: 2, parity: 0, media: hdd };
const dataLog = (data: DataVdevs) => ({ kind: 'data' as const, device: data.media, vdevs: data.vdevs, waitsFor: data.layout === 'mirror' ? data.width : 1 + data.parity, streams: data.layout === 'mirror' ? 1 : data.width - data.parity });

describe('device catalog', () => {
  it('every figure has a source with a quote or is a labelled class estimate (the schema refuses anything else)', () => {
    for (const e of CATALOG.entries) {
      for (const f of [e.syncWrite4kUs, e.syncWriteMBps]) {
        if (f.kind === 'class-estimate') expect(f.reasoning, e.id).toBeTruthy();
        else { expect(f.source, e.id).toBeTruthy(); expect(f.quote, e.id).toBeTruthy(); }
      }
    }
    // Every source key that is a web address is an https/http link.
    for (const [k, v] of Object.entries(CATALOG.sources)) if (k !== 'github-notes') expect(v, k).toMatch(/^https?:\/\//);
  });

  it('matches smartctl model strings and typed model text', () => {
    expect(findEntry('INTEL SSDPEK1A058GA')?.id).toBe('optane-p1600x');
    expect(findEntry('INTEL MEMPEK1J016GAL')?.id).toBe('optane-memory-m10');
    expect(findEntry('Intel Optane Memory M10 16GB')?.id).toBe('optane-memory-m10');
    expect(findEntry('INTEL SSDPED1K375GA')?.id).toBe('optane-p4800x');
    expect(findEntry('Samsung 980')?.id).toBe('samsung-980');
    expect(findEntry('Samsung SSD 980 PRO 1TB')?.id).toBe('samsung-980-pro-970');
    expect(findEntry('Micron 7450 PRO')?.id).toBe('micron-7450');
    expect(findEntry('Samsung SSD 850 EVO 500GB')?.id).toBe('samsung-8x0-evo');
    expect(findEntry('WDC WD40EFRX-68N32N0')?.id).toBe('hdd-nas-5400');
  });

  it('an unknown model is a class estimate with a wide range that says so', () => {
    const p = profileForText('Acme Turbo 9000');
    expect(p.matched).toBe('class');
    expect(p.lat4kUs.high / p.lat4kUs.low).toBeGreaterThan(100);
    expect(p.basis).toContain('not in the device catalog');
  });

  it('small consumer Optane is forecast far slower than a P4800X', () => {
    const m10 = estimate(mirror2, slogTarget(profileForText('Intel Optane Memory M10 16GB'), false), ds, w());
    const p48 = estimate(mirror2, slogTarget(profileForText('P4800X'), false), ds, w());
    // Both pay the same per-commit host overhead at QD1; the forecasts differ by the devices' own
    // write + flush latency (M10 ~54 µs, P4800X ~14 µs per 4 KiB write).
    expect(p48.iops).toBeGreaterThan(m10.iops * 1.2);
    expect(1e6 / m10.iops - 1e6 / p48.iops).toBeGreaterThan(30);
  });
});

describe('model ordering', () => {
  const order = ['P4800X', 'Micron 7450 PRO', 'Intel DC S3500', 'Samsung 990 PRO', 'Samsung 980'];
  for (const qd of [1, 16]) {
    it(`faster device → higher forecast (QD${qd})`, () => {
      const v = order.map((m) => estimate(mirror2, slogTarget(profileForText(m), false), ds, w({ iodepth: qd })).iops);
      for (let i = 1; i < v.length; i++) expect(v[i - 1]!, `${order[i - 1]} vs ${order[i]}`).toBeGreaterThanOrEqual(v[i]!);
      expect(v[0]!).toBeGreaterThan(v[v.length - 1]!);
    });
  }

  it('async workload → gain 1', () => {
    const r = forecastPool(artifacts000(), benchPool, WorkloadSpec.parse({ sync: 'none', iodepth: 16 }), { label: 'P1600X', profile: profileForDrive(p1600x), mirrored: false });
    expect(r.gain).toBe(1);
  });

  it('sync=disabled dataset → gain 1', () => {
    const a = { ...artifacts000(), Datasets: [dataset('bench-pool', { sync: 'disabled' })] };
    const r = forecastPool(a, benchPool, WorkloadSpec.parse({}), { label: 'P1600X', profile: profileForDrive(p1600x), mirrored: false });
    expect(r.gain).toBe(1);
  });

  it('1M sync writes with logbias=throughput: the SLOG takes only the log block off the disks, never the data (zfs-facts A7, A9)', () => {
    const tp = { ...ds, logbias: 'throughput' as const, blockSize: 1_048_576 };
    const lat = { ...ds, blockSize: 1_048_576 };
    const now = estimate(mirror2, dataLog(mirror2), tp, w({ bs: 1_048_576 }));
    const withS = estimate(mirror2, slogTarget(profileForText('P1600X'), false), tp, w({ bs: 1_048_576 }));
    const withLatency = estimate(mirror2, slogTarget(profileForText('P1600X'), false), lat, w({ bs: 1_048_576 }));
    // Each write still waits for its 1 MiB block on the hard disks: at most the log block's share is gained …
    expect(withS.iops / now.iops).toBeLessThan(2);
    // … less than logbias=latency, where the data itself goes to the SLOG.
    expect(withS.iops).toBeLessThan(withLatency.iops);
  });

  it('without a SLOG, an indirect write on hard disks costs its data block and its log block one after the other', () => {
    const big = { ...ds, blockSize: 131_072 };
    const small = estimate(mirror2, dataLog(mirror2), big, w({ bs: 4096 }));
    const large = estimate(mirror2, dataLog(mirror2), big, w({ bs: 131_072 }));
    // 4 KiB is copied into the log (one write); 128 KiB is written in place and pointed to (two).
    expect(large.iops).toBeLessThan(small.iops * 0.8);
  });

  it('1M streaming sync writes through a SATA SLOG onto a wide HDD raidz are slower than without it (zfs-facts A11)', () => {
    const wide: DataVdevs = { layout: 'raidz', vdevs: 2, width: 12, parity: 2, media: hdd };
    const big = { ...ds, blockSize: 1_048_576 };
    const now = estimate(wide, dataLog(wide), big, w({ bs: 1_048_576, iodepth: 32, rw: 'write' }));
    const withS = estimate(wide, slogTarget(profileForText('Intel DC S3500'), false), big, w({ bs: 1_048_576, iodepth: 32, rw: 'write' }));
    expect(withS.iops).toBeLessThan(now.iops);
  });

  it('a raidz2 of HDDs forecasts no better "now" than a mirror of the same disks', () => {
    const disks = Array.from({ length: 12 }, (_, i) => drive(`d${i}`, { model: 'WDC WD40EFRX-68N32N0', media: 'hdd', rotational: true, rpm: 5400 }));
    const rz = pool('rz', [group('raidz2', 'raidz2-0', disks.map((d, i) => leaf(`sd${i}`, { driveId: d.id })))]);
    const mi = pool('mi', Array.from({ length: 6 }, (_, k) => group('mirror', `mirror-${k}`, [0, 1].map((j) => leaf(`sd${2 * k + j}`, { driveId: disks[2 * k + j]!.id })))));
    const a = { Host: host('2.2.6'), Pools: [rz, mi], Drives: disks, Datasets: [dataset('rz', { sync: 'always' }), dataset('mi', { sync: 'always' })] };
    for (const qd of [1, 4, 16, 64]) {
      const spec = WorkloadSpec.parse({ iodepth: qd });
      expect(forecastPool(a, rz, spec, null).now.iops, `QD${qd}`).toBeLessThanOrEqual(forecastPool(a, mi, spec, null).now.iops);
    }
  });

  it('the demo pool with its P1600X at QD16 is the measured 39.2k as SLOG, not the sync=disabled ceiling', () => {
    const r = forecastPool(artifacts000(), benchPool, WorkloadSpec.parse({ iodepth: 16 }), { label: 'P1600X', profile: profileForDrive(p1600x), mirrored: false });
    expect(r.with!.iops).toBe(39_200);
    expect(r.with!.basis).toContain('IOPS = 39.2k');
    expect(r.now.low).toBeLessThanOrEqual(894);
    expect(r.now.high).toBeGreaterThanOrEqual(894);
  });
});

describe('ZIL on a special vdev (OpenZFS ≥ 2.4, zil_special_is_slog)', () => {
  const nvme = (id: string) => drive(id, { model: 'INTEL SSDPE2KX020T7', media: 'nvme', transport: 'nvme', rotational: false, rpm: null });
  const disks = [0, 1].map((i) => drive(`h${i}`, { model: 'WDC WD40EFRX-68N32N0', media: 'hdd', rotational: true, rpm: 5400 }));
  const p = pool('sp', [
    group('mirror', 'mirror-0', disks.map((d, i) => leaf(`sd${i}`, { driveId: d.id }))),
    { ...group('mirror', 'mirror-1', [leaf('nvme0n1', { driveId: 'n0' }), leaf('nvme1n1', { driveId: 'n1' })]), class: 'special' as const },
  ]);
  const drives = [...disks, nvme('n0'), nvme('n1')];
  const a = (v: string) => ({ Host: host(v), Pools: [p], Drives: drives, Datasets: [dataset('sp', { sync: 'always', recordsize: 4096 })] });
  it('on 2.4 "now" credits the special vdev; on 2.2 the ZIL stays on the hard disks', () => {
    const f24 = forecastPool(a('2.4.0'), p, WorkloadSpec.parse({}), null);
    const f22 = forecastPool(a('2.2.6'), p, WorkloadSpec.parse({}), null);
    expect(f24.now.zil).toBe('special vdev');
    expect(f22.now.zil).toBe('data vdevs');
    expect(f24.now.iops).toBeGreaterThan(f22.now.iops * 20);
  });
});

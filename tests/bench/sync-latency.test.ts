/**
 * The sync-latency headline against fio's own JSON (recorded fio 3.33 outputs, tests/fixtures/bench,
 * sources in PROVENANCE.md): fsync/fdatasync jobs are judged by fio's `sync` section, O_SYNC and
 * sync=always writes by the write's `clat`. The expected numbers are read from the raw JSON here,
 * independently of the app's parser, so a parser that picked the wrong section fails.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fioResultFromText } from '../../server/src/bench/fio-result.ts';
import { syncOpLatency } from '../../server/src/bench/kpi.ts';
import { headlineLatency } from '../../server/src/bench/compare.ts';
import { syncTextOf } from '../../server/src/bench/context.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'bench');
const text = (f: string) => readFileSync(join(dir, f), 'utf8');
interface RawJob { write: { clat_ns: { mean: number; percentile: Record<string, number> } }; sync: { lat_ns: { mean: number; N: number; percentile?: Record<string, number> } } }
const raw = (f: string): RawJob => (JSON.parse(text(f)) as { jobs: RawJob[] }).jobs[0]!;

describe('sync-operation latency from fio JSON', () => {
  for (const f of ['fio-rootfs-fsync1.json', 'fio-zfsfuse-latency-fsync1.json', 'fio-rootfs-fsync1-jsonplus.json']) {
    it(`${f}: fsync=1 → fio's sync section, not the write's clat`, () => {
      const job = fioResultFromText(text(f))!.jobs[0]!;
      const r = raw(f);
      const s = syncOpLatency(job, 'fio-fsync')!;
      expect(s.source).toBe('sync');
      expect(s.operation).toBe('fsync');
      expect(s.meanNs).toBeCloseTo(r.sync.lat_ns.mean, 3);
      expect(s.p50Ns).toBe(r.sync.lat_ns.percentile!['50.000000']);
      expect(s.p99Ns).toBe(r.sync.lat_ns.percentile!['99.000000']);
      // The write() itself is not the number: on ext4 its clat is tens of times smaller than the fsync's.
      if (f.startsWith('fio-rootfs')) expect(r.write.clat_ns.mean * 10).toBeLessThan(s.meanNs!);
      // The job's own options say fsync, so the mode need not be known to pick the section.
      expect(syncOpLatency(job, 'async')?.source).toBe('sync');
    });
  }

  for (const f of ['fio-rootfs-sync1.json', 'fio-zfsfuse-latency-sync1.json']) {
    it(`${f}: sync=1 (O_SYNC) → the write's clat; fio's sync section is empty`, () => {
      const job = fioResultFromText(text(f))!.jobs[0]!;
      const r = raw(f);
      expect(r.sync.lat_ns.N).toBe(0);
      const s = syncOpLatency(job, 'fio-sync')!;
      expect(s.source).toBe('clat');
      expect(s.operation).toBe('write');
      expect(s.meanNs).toBeCloseTo(r.write.clat_ns.mean, 3);
      expect(s.p50Ns).toBe(r.write.clat_ns.percentile['50.000000']);
      expect(s.p99Ns).toBe(r.write.clat_ns.percentile['99.000000']);
    });
  }

  it('async writes have no sync-operation latency', () => {
    const job = fioResultFromText(text('fio-rootfs-fsync1.json'))!.jobs[0]!;
    expect(syncOpLatency({ ...job, syncOptions: { fsync: null, fdatasync: null, syncIo: false }, sync: null }, 'async')).toBeNull();
  });

  it('the headline a renderer shows is the sync operation, in µs', () => {
    const job = fioResultFromText(text('fio-rootfs-fsync1.json'))!.jobs[0]!;
    const s = { syncOpLatency: syncOpLatency(job, 'fio-fsync'), writeLatency: job.write.latency, writeIops: 1, readIops: 0, readLatency: null } as unknown as BenchmarkSummary;
    const h = headlineLatency(s)!;
    expect(h.of).toBe('sync latency (fsync)');
    expect(h.p50Us).toBeCloseTo(raw('fio-rootfs-fsync1.json').sync.lat_ns.percentile!['50.000000']! / 1000, 1);
  });

  it('names the ZIL only when ZFS is underneath', () => {
    expect(syncTextOf('fio-fsync', 'always', 'path', false, true)).not.toMatch(/ZIL/);
    expect(syncTextOf('fio-fsync', 'always', 'path', false, true)).toMatch(/stable storage.*fsync's \(fio's sync section\)/);
    expect(syncTextOf('fio-fsync', 'always', 'dataset', true, true)).toMatch(/ZIL/);
    expect(syncTextOf('fio-sync', 'always', 'device', false, true)).not.toMatch(/ZIL|transaction group/);
    expect(syncTextOf('async', 'standard', 'path', false, true)).not.toMatch(/ZIL|transaction group/);
    expect(syncTextOf('async', 'standard', 'dataset', true, true)).toMatch(/transaction group/);
    expect(syncTextOf('property', 'always', 'zvol', true, true)).toMatch(/temporary zvol.*ZIL/);
    expect(syncTextOf('async', 'standard', 'path', false, false)).toBeNull();
  });
});

/**
 * Fingerprints from recorded counter pairs (OpenZFS 2.x). The START side of every pair is a real
 * capture (zil/arcstats kstats of OpenZFS 2.3, `zpool iostat -r` of OpenZFS 2.4.4); the END side is
 * DERIVED from it by adding the increments a known workload would produce over a 10 s window —
 * test names say so. The `-w` latency block is DERIVED too (no real capture was available).
 */
import { describe, expect, it } from 'vitest';
import { WorkloadFingerprint } from '../../server/src/model/workload.ts';
import { counterDeltas } from '../../server/src/observe/counter-delta.ts';
import { buildFingerprint } from '../../server/src/observe/fingerprint.ts';
import { latencyPercentileNs, sizeBins } from '../../server/src/observe/histogram.ts';
import { snapshotFromTexts } from '../../server/src/observe/snapshot.ts';
import { summariseFingerprint } from '../../server/src/observe/summary.ts';
import { asyncOnlyPair, bump, fixtureText, syncHeavyPair } from './recorded-pairs.ts';

const text = fixtureText;

describe('fingerprint from recorded OpenZFS 2.x counter pairs (start real, end derived)', () => {
  const syncHeavy = syncHeavyPair();
  const asyncOnly = asyncOnlyPair();

  it('validates against the WorkloadFingerprint schema', () => {
    expect(WorkloadFingerprint.parse(syncHeavy)).toEqual(syncHeavy);
    expect(WorkloadFingerprint.parse(asyncOnly)).toEqual(asyncOnly);
  });
  it('sync-heavy pair: sync share 6000 / 7000 writes, 600 commits/s, ZIL bytes to the main pool', () => {
    const p = syncHeavy.pools[0]!;
    expect(p.pool).toBe('NVME1');
    expect(p.syncWriteShare).toBeCloseTo(6000 / 7000, 10);
    expect(p.syncWriteIops).toBe(600);
    expect(p.writeIops).toBe(700);
    expect(syncHeavy.zil).toEqual({
      commitsPerSec: 600, itxBytesPerSec: 2_457_600, bytesToSlogPerSec: 0, bytesToMainPoolPerSec: 2_600_000, indirectBytesPerSec: 0, copiedBytesPerSec: 2_457_600,
    });
    expect(p.smallWriteShare).toBeCloseTo(6000 / 7000, 10);
    expect(p.writeSizes.find((b) => b.upperBytes === 8192)).toEqual({ upperBytes: 8192, count: 6000, bytes: 6000 * 4096, cumulativeBytes: 6000 * 4096, cumulativeCount: 6000 });
  });
  it('sync-heavy pair: p50/p99 sync-write latency of the data class from the -w delta (derived block)', () => {
    // 5940 writes in [4.19, 8.39) ms and 60 in [16.8, 33.6) ms: p50 interpolated, p99 = top of the 8 ms bucket.
    expect(syncHeavy.pools[0]!.syncWriteLatencyMs).toEqual({ data: { p50: 6.31, p99: 8.39 } });
  });
  it('sync vs async written bytes per pool from the -r priority columns (bins at their lower bound)', () => {
    // 6000 sync_write I/Os in the 4K bin and 1000 async_write aggregates in the 128K bin, over 10 s.
    const p = syncHeavy.pools[0]!;
    expect(p.syncWriteBytesPerSec).toBe(6000 * 4096 / 10);
    expect(p.asyncWriteBytesPerSec).toBe(1000 * 131072 / 10);
    expect(p.syncAsyncBasis).toBe('request-size-histogram');
    const a = asyncOnly.pools[0]!;
    expect([a.syncWriteBytesPerSec, a.asyncWriteBytesPerSec]).toEqual([0, 20000 * 131072 / 10]);
    expect(syncHeavy.notes.some((n) => n.startsWith('sync/async bytes: from the `zpool iostat -r` pool histogram'))).toBe(true);
  });
  it('without a -r histogram the split comes from the ZIL log bytes of the only pool (window bandwidth)', () => {
    const st = snapshotFromTexts({ takenAt: 'a', monotonicMs: 0, zil: text('zil-openzfs23-real-no-slog.txt') });
    const en = snapshotFromTexts({ takenAt: 'b', monotonicMs: 10_000, zil: bump(text('zil-openzfs23-real-no-slog.txt'), { zil_commit_count: 100, zil_itx_copied_bytes: 10_000_000 }) });
    // One window sample of the real raidz2 `-v` table: its pool row gives the write bandwidth.
    const win = snapshotFromTexts({ takenAt: 'w', monotonicMs: 0, iostatV: text('iostat-v-raidz2-special-slog.txt') }).layout!;
    const fp = buildFingerprint({ start: st, end: en, window: [win], source: 'recorded' });
    const pool = fp.pools.find((p) => p.syncAsyncBasis !== null && p.syncAsyncBasis !== undefined);
    const wb = win.rows.find((r) => r.kind === 'pool')!.values.bw_write!;
    expect(pool?.syncAsyncBasis).toBe('zil-log-bytes');
    expect(pool!.syncWriteBytesPerSec).toBe(Math.min(1_000_000, wb));
    expect(pool!.asyncWriteBytesPerSec).toBe(wb - Math.min(1_000_000, wb));
  });
  it('async-only pair: sync share 0, no commits', () => {
    expect(asyncOnly.pools[0]!.syncWriteShare).toBe(0);
    expect(asyncOnly.zil!.commitsPerSec).toBe(0);
    expect(asyncOnly.pools[0]!.syncWriteLatencyMs).toEqual({});
  });
  it('ARC metadata indicators from the arcstats delta', () => {
    expect(syncHeavy.arc).toEqual({ hitRatio: 0.9, metadataHitRatio: 4000 / 4600, metadataMissesPerSec: 60, metadataShareOfMisses: 0.6 });
  });
  it('human summary says the difference', () => {
    const s = summariseFingerprint(syncHeavy).join('\n');
    expect(s).toContain('NVME1: 86 % of writes are synchronous (600/s); p99 sync-write latency 8.4 ms on the data vdevs; a SLOG with ~20 µs flush latency would take that to ~0.1 ms');
    expect(s).toContain('86 % of write I/Os are below 32 KiB; written 2.3 MiB/s sync, 13 MiB/s async.');
    expect(s).toContain('ZIL: 600 commits/s, 2.3 MiB/s of logged data, 0 % of log blocks to a SLOG, 0 % written indirectly.');
    expect(s).toContain('ARC: 90 % hits, 60 metadata misses/s (60 % of all misses).');
    const a = summariseFingerprint(asyncOnly).join('\n');
    expect(a).toContain('NVME1: 0 % of writes are synchronous (0/s)');
    expect(a).toContain('practically no synchronous writes in this window — a SLOG would change nothing');
  });
});

describe('counter wrap and reset (real underflowed ZoL 0.7 kstat)', () => {
  it('the wrapped zil_itx_needcopy_bytes gives no delta and a note; the rest still counts', () => {
    const before = text('zil-zol07-underflowed-needcopy-bytes.txt');
    const after = bump(before, { zil_commit_count: 50 });
    const s = snapshotFromTexts({ takenAt: 'a', monotonicMs: 0, zil: before });
    const e = snapshotFromTexts({ takenAt: 'b', monotonicMs: 5000, zil: after });
    const fp = buildFingerprint({ start: s, end: e, source: 'recorded' });
    expect(fp.zil!.commitsPerSec).toBe(10);
    // needcopy unknown → logged bytes from indirect + copied only (both 0 here)
    expect(fp.zil!.itxBytesPerSec).toBe(0);
    expect(fp.notes.some((n) => n.includes('zil_itx_needcopy_bytes ≥ 2^63'))).toBe(true);
  });
  it('a counter that went backwards is counted from zero and noted', () => {
    const d = counterDeltas({ a: '1000', b: '5' }, { a: '40', b: '9' });
    expect(d.deltas).toEqual({ a: 40, b: 4 });
    expect(d.reset).toEqual(['a']);
    expect(d.notes[0]).toMatch(/went backwards/);
  });
  it('deltas are exact above 2^53', () => {
    expect(counterDeltas({ x: '9007199254740993' }, { x: '9007199254740999' }).deltas.x).toBe(6);
  });
});

describe('histogram helpers', () => {
  it('latency percentile interpolates inside power-of-two buckets', () => {
    const m = new Map([[2 ** 10, 50], [2 ** 11, 50]]);
    expect(latencyPercentileNs(m, 0.5)).toBe(1024);
    expect(latencyPercentileNs(m, 1)).toBe(2048);
    expect(latencyPercentileNs(new Map(), 0.5)).toBeNull();
  });
  it('size bins: upper bound = 2 × lower bound, cumulative sums', () => {
    expect(sizeBins(new Map([[4096, 2], [512, 4]]))).toEqual([
      { upperBytes: 1024, count: 4, bytes: 2048, cumulativeBytes: 2048, cumulativeCount: 4 },
      { upperBytes: 8192, count: 2, bytes: 8192, cumulativeBytes: 10240, cumulativeCount: 6 },
    ]);
  });
});

/**
 * Fingerprints from recorded counter pairs (OpenZFS 2.x). The START side of every pair is a real
 * capture (zil/arcstats kstats of OpenZFS 2.3, `zpool iostat -r` of OpenZFS 2.4.4); the END side is
 * DERIVED from it by adding the increments a known workload would produce over a 10 s window —
 * test names say so. The `-w` latency block is DERIVED too (no real capture was available).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkloadFingerprint } from '../../server/src/model/workload.ts';
import { counterDeltas } from '../../server/src/observe/counter-delta.ts';
import { buildFingerprint } from '../../server/src/observe/fingerprint.ts';
import { latencyPercentileNs, sizeBins } from '../../server/src/observe/histogram.ts';
import { snapshotFromTexts, type CounterSnapshot } from '../../server/src/observe/snapshot.ts';
import { summariseFingerprint } from '../../server/src/observe/summary.ts';

const OBS = join(import.meta.dirname, '../fixtures/observe');
const text = (f: string) => readFileSync(join(OBS, f), 'utf8');

/** Adds increments to named rows of a kstat text (exact, BigInt) — the derived second reading. */
function bump(kstat: string, inc: Record<string, number>): string {
  return kstat.split('\n').map((line) => {
    const m = /^(\S+)(\s+\d+\s+)(\d+)$/.exec(line);
    if (!m || !(m[1]! in inc)) return line;
    return `${m[1]}${m[2]}${(BigInt(m[3]!) + BigInt(inc[m[1]!]!)).toString()}`;
  }).join('\n');
}

const LAT_LABELS = '1ns 3ns 7ns 15ns 31ns 63ns 127ns 255ns 511ns 1us 2us 4us 8us 16us 32us 65us 131us 262us 524us 1ms 2ms 4ms 8ms 16ms 33ms 67ms 134ms 268ms 536ms 1s 2s 4s 8s 17s 34s 68s 137s'.split(' ');
/** DERIVED `zpool iostat -w -p`-style block for pool NVME1: counts[j] in the disk_wait write column. */
function latencyBlock(diskWrite: Record<number, number>): string {
  const head = 'NVME1        total_wait     disk_wait    syncq_wait    asyncq_wait\nlatency      read  write   read  write   read  write   read  write  scrub   trim  rebuild\n----------  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----';
  const rows = LAT_LABELS.map((l, j) => `${l.padEnd(10)}  ${Array.from({ length: 11 }, (_, c) => String(c === 3 ? diskWrite[j] ?? 0 : 0).padStart(5)).join('  ')}`);
  return `${head}\n${rows.join('\n')}\n`;
}

const START_ZIL = text('zil-openzfs23-real-no-slog.txt');
const START_ARC = text('arcstats-openzfs23-real-147rows.txt');
const START_R = text('iostat-r-openzfs244-nvme1.txt');
const START_W = latencyBlock({ 22: 1000, 12: 50 });

function start(): CounterSnapshot {
  return snapshotFromTexts({ takenAt: '2026-11-22T10:00:00.000Z', monotonicMs: 0, zil: START_ZIL, arc: START_ARC, iostatR: START_R, iostatW: START_W });
}

/** End reading 10 s later: kstats bumped, -r buckets bumped (by bucket lower bound), -w replaced. */
function end(zilInc: Record<string, number>, arcInc: Record<string, number>, rInc: { bound: number; col: string; n: number }[], w: string): CounterSnapshot {
  const s = snapshotFromTexts({ takenAt: '2026-11-22T10:00:10.000Z', monotonicMs: 10_000, zil: bump(START_ZIL, zilInc), arc: bump(START_ARC, arcInc), iostatR: START_R, iostatW: w });
  const h = structuredClone(s.reqSize);
  for (const { bound, col, n } of rInc) {
    const b = h[0]!.buckets.find((x) => x.bound === bound)!;
    b.values[col] = (b.values[col] ?? 0) + n;
  }
  return { ...s, reqSize: h };
}

const ARC_INC = { hits: 9000, misses: 1000, demand_metadata_hits: 4000, demand_metadata_misses: 600, prefetch_metadata_misses: 0 };

describe('fingerprint from recorded OpenZFS 2.x counter pairs (start real, end derived)', () => {
  // fio --fsync=1 style: 6000 commits of 4 KiB over 10 s, the ZIL copies the data (no SLOG, small writes).
  const syncHeavy = buildFingerprint({
    source: 'recorded',
    start: start(),
    end: end(
      { zil_commit_count: 6000, zil_commit_writer_count: 5900, zil_itx_count: 6000, zil_itx_copied_count: 6000, zil_itx_copied_bytes: 24_576_000, zil_itx_metaslab_normal_count: 5900, zil_itx_metaslab_normal_bytes: 26_000_000 },
      ARC_INC,
      [{ bound: 4096, col: 'sync_write_ind', n: 6000 }, { bound: 131072, col: 'async_write_agg', n: 1000 }],
      latencyBlock({ 22: 1000 + 5940, 24: 60, 12: 50 }),
    ),
  });
  // Buffered async writes: no commits, txg-sync writes only.
  const asyncOnly = buildFingerprint({
    source: 'recorded',
    start: start(),
    end: end({}, ARC_INC, [{ bound: 131072, col: 'async_write_agg', n: 20000 }], latencyBlock({ 22: 1000, 12: 50 })),
  });

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

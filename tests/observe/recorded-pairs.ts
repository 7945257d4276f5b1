/**
 * Recorded OpenZFS 2.x counter pairs → fingerprints, shared by the observe, rules and optane tests.
 * The START side of every pair is a real capture (zil/arcstats kstats of OpenZFS 2.3, `zpool iostat -r`
 * of OpenZFS 2.4.4, tests/fixtures/observe/PROVENANCE.md); the END side is DERIVED from it by adding
 * the increments a known workload would produce over a 10 s window. The `-w` latency block is DERIVED
 * too (no real capture was available): laid out as `print_iostat_histo` prints it (zfs-facts F16).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkloadFingerprint } from '../../server/src/model/workload.ts';
import { buildFingerprint } from '../../server/src/observe/fingerprint.ts';
import { snapshotFromTexts, type CounterSnapshot } from '../../server/src/observe/snapshot.ts';

const OBS = join(import.meta.dirname, '../fixtures/observe');
export const fixtureText = (f: string) => readFileSync(join(OBS, f), 'utf8');

/** Adds increments to named rows of a kstat text (exact, BigInt) — the derived second reading. */
export function bump(kstat: string, inc: Record<string, number>): string {
  return kstat.split('\n').map((line) => {
    const m = /^(\S+)(\s+\d+\s+)(\d+)$/.exec(line);
    if (!m || !(m[1]! in inc)) return line;
    return `${m[1]}${m[2]}${(BigInt(m[3]!) + BigInt(inc[m[1]!]!)).toString()}`;
  }).join('\n');
}

const LAT_LABELS = '1ns 3ns 7ns 15ns 31ns 63ns 127ns 255ns 511ns 1us 2us 4us 8us 16us 32us 65us 131us 262us 524us 1ms 2ms 4ms 8ms 16ms 33ms 67ms 134ms 268ms 536ms 1s 2s 4s 8s 17s 34s 68s 137s'.split(' ');
/** DERIVED `zpool iostat -w -p`-style block for pool NVME1: counts[j] in the disk_wait write column. */
export function latencyBlock(diskWrite: Record<number, number>): string {
  const head = 'NVME1        total_wait     disk_wait    syncq_wait    asyncq_wait\nlatency      read  write   read  write   read  write   read  write  scrub   trim  rebuild\n----------  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----';
  const rows = LAT_LABELS.map((l, j) => `${l.padEnd(10)}  ${Array.from({ length: 11 }, (_, c) => String(c === 3 ? diskWrite[j] ?? 0 : 0).padStart(5)).join('  ')}`);
  return `${head}\n${rows.join('\n')}\n`;
}

const START_ZIL = fixtureText('zil-openzfs23-real-no-slog.txt');
const START_ARC = fixtureText('arcstats-openzfs23-real-147rows.txt');
const START_R = fixtureText('iostat-r-openzfs244-nvme1.txt');
const START_W = latencyBlock({ 22: 1000, 12: 50 });

export function startReading(withArc = true): CounterSnapshot {
  return snapshotFromTexts({ takenAt: '2026-11-22T10:00:00.000Z', monotonicMs: 0, zil: START_ZIL, arc: withArc ? START_ARC : null, iostatR: START_R, iostatW: START_W });
}

/** End reading 10 s later: kstats bumped, -r buckets bumped (by bucket lower bound), -w replaced. */
export function endReading(zilInc: Record<string, number>, arcInc: Record<string, number> | null, rInc: { bound: number; col: string; n: number }[], w: string): CounterSnapshot {
  const s = snapshotFromTexts({ takenAt: '2026-11-22T10:00:10.000Z', monotonicMs: 10_000, zil: bump(START_ZIL, zilInc), arc: arcInc ? bump(START_ARC, arcInc) : null, iostatR: START_R, iostatW: w });
  const h = structuredClone(s.reqSize);
  for (const { bound, col, n } of rInc) {
    const b = h[0]!.buckets.find((x) => x.bound === bound)!;
    b.values[col] = (b.values[col] ?? 0) + n;
  }
  return { ...s, reqSize: h };
}

export const ARC_INC = { hits: 9000, misses: 1000, demand_metadata_hits: 4000, demand_metadata_misses: 600, prefetch_metadata_misses: 0 };

/**
 * fio --fsync=1 style: 6000 commits of 4 KiB over 10 s, the ZIL copies the data (no SLOG, small
 * writes), plus 1000 128 KiB txg-sync writes. 5940 sync writes wait 4–8 ms, 60 wait 16–33 ms.
 */
export function syncHeavyPair(withArc = true): WorkloadFingerprint {
  return buildFingerprint({
    source: 'recorded',
    start: startReading(withArc),
    end: endReading(
      { zil_commit_count: 6000, zil_commit_writer_count: 5900, zil_itx_count: 6000, zil_itx_copied_count: 6000, zil_itx_copied_bytes: 24_576_000, zil_itx_metaslab_normal_count: 5900, zil_itx_metaslab_normal_bytes: 26_000_000 },
      withArc ? ARC_INC : null,
      [{ bound: 4096, col: 'sync_write_ind', n: 6000 }, { bound: 131072, col: 'async_write_agg', n: 1000 }],
      latencyBlock({ 22: 1000 + 5940, 24: 60, 12: 50 }),
    ),
  });
}

/** Buffered async writes: no commits, 20000 128 KiB txg-sync writes only. */
export function asyncOnlyPair(withArc = true): WorkloadFingerprint {
  return buildFingerprint({
    source: 'recorded',
    start: startReading(withArc),
    end: endReading({}, withArc ? ARC_INC : null, [{ bound: 131072, col: 'async_write_agg', n: 20000 }], latencyBlock({ 22: 1000, 12: 50 })),
  });
}

/**
 * The recorded pair's pool (NVME1, the name in the real `-r` capture) renamed to the pool of the
 * inventory under test, so the rules see the observation as that pool's. Only the name changes.
 */
export function asPool(fp: WorkloadFingerprint, pool: string): WorkloadFingerprint {
  return { ...fp, pools: fp.pools.map((p) => ({ ...p, pool })) };
}

/**
 * Benchmark summaries made from real fio 3.33 JSON (tests/fixtures/bench, PROVENANCE.md) the way
 * the runner makes them (single-run.ts summaryOf: totals, the first job's latencies, syncOpLatency),
 * and the raw numbers read straight from the same JSON, for the sync-latency surface tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fioResultFromText, totals } from '../../server/src/bench/fio-result.ts';
import { syncOpLatency } from '../../server/src/bench/kpi.ts';
import { BenchmarkSummary } from '../../server/src/model/workload.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'bench');
const text = (f: string) => readFileSync(join(dir, f), 'utf8');

type Pct = Record<string, number>;
interface RawJob { write: { iops: number; clat_ns: { mean: number; percentile: Pct } }; sync: { lat_ns: { mean: number; N: number; percentile?: Pct } } }

/** The raw JSON's own figures (µs is what the surfaces print). */
export function raw(file: string): { writeP50Ns: number; writeP99Ns: number; syncP50Ns: number | null; syncP99Ns: number | null; syncMeanNs: number | null } {
  const j = (JSON.parse(text(file)) as { jobs: RawJob[] }).jobs[0]!;
  const sp = j.sync.lat_ns.N > 0 ? j.sync.lat_ns.percentile ?? null : null;
  return {
    writeP50Ns: j.write.clat_ns.percentile['50.000000']!, writeP99Ns: j.write.clat_ns.percentile['99.000000']!,
    syncP50Ns: sp?.['50.000000'] ?? null, syncP99Ns: sp?.['99.000000'] ?? null, syncMeanNs: j.sync.lat_ns.N > 0 ? j.sync.lat_ns.mean : null,
  };
}

export function summaryFrom(file: string, syncMode: BenchmarkSummary['syncMode'], over: Partial<BenchmarkSummary> = {}): BenchmarkSummary {
  const fio = fioResultFromText(text(file));
  if (!fio) throw new Error(`${file}: not fio JSON`);
  const job = fio.jobs[0]!;
  const t = totals(fio);
  return BenchmarkSummary.parse({
    id: file.replace(/\.json$/, ''), profile: 'sync-write-4k-qd1', pool: 'tank', target: 'tank/zfs-advisor-bench-x', startedAt: '2026-11-22T06:14:52Z',
    status: 'completed', syncMode, iodepth: 1, writers: 1, blockSize: 4096,
    readIops: t.readIops, writeIops: t.writeIops, readBytesPerSec: t.readBps, writeBytesPerSec: t.writeBps,
    writeLatency: job.write.latency, readLatency: job.read.latency, wallSeconds: null, fioRuntimeSeconds: t.runtimeS, wallTimeMismatch: false,
    topologyFingerprint: 'aaaaaaaaaaaaaaaa', notes: [], targetKind: 'dataset', zfsTarget: true,
    syncOpLatency: syncOpLatency(job, syncMode), ...over,
  });
}

/** fsync=1 on a zfs-fuse pool without a log vdev (fsync p99 962.6 µs; the write() clat p99 114.2 µs). */
export const FSYNC_BEFORE = 'fio-zfsfuse-latency-fsync1.json';
/** The same job on a zfs-fuse pool with a log vdev (fsync p99 577.5 µs; write() clat p99 109.1 µs). */
export const FSYNC_AFTER = 'fio-zfsfuse-slog-fsync1.json';
/** sync=1 (O_SYNC): no sync section, the write is the durable operation. */
export const OSYNC = 'fio-zfsfuse-latency-sync1.json';

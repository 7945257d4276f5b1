/** Shared inputs of the closing-the-loop tests: a raidz1 that gets a log vdev, a verdict given before, the probe before and after. */
import type { StoredForecast } from '../../server/src/optane/outcome.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import type { Pool } from '../../server/src/model/inventory.ts';
import { group, inClass, leaf, pool } from '../support/builders.ts';

export const raidz = group('raidz1', 'raidz1-0', [leaf('/tank/d1'), leaf('/tank/d2'), leaf('/tank/d3'), leaf('/tank/d4')]);
export const plainPool = pool('nctank', [raidz]);
export const logPool = pool('nctank', [raidz, inClass('log', leaf('/tank/slog'))]);

export const verdictFor = (poolName = 'nctank') => ({
  pool: poolName, verdict: 'yes', decisive: 'measured 88 sync writes/s, 11 ms each, on hard disks',
  evidence: [{ label: 'forecast "with" for', value: 'Intel Optane P1600X (to buy): catalog figure' }],
  expected: { qd1: { now: { iops: 88, low: 88, high: 88 }, withOptane: { iops: 700, low: 400, high: 1200 } } },
});

export const storedForecast = (id: number, at: string, pools: Pool[], v: StoredForecast['verdict'] = verdictFor()): StoredForecast =>
  ({ assessmentId: id, generatedAt: at, snapshotId: id, capturedAt: at, pools, verdict: v });

export const probeRun = (id: string, at: string, iops: number, o: Partial<BenchmarkSummary> = {}): BenchmarkSummary => ({
  id, profile: 'sync-write-4k-qd1', pool: 'nctank', target: `nctank/zfs-advisor-bench-${id}`, startedAt: at,
  status: 'completed', syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: iops, readBytesPerSec: 0, writeBytesPerSec: iops * 4096,
  writeLatency: { meanNs: 1e6, p50Ns: 1e6, p99Ns: 2e6, p999Ns: 3e6 }, readLatency: null, wallSeconds: 10, fioRuntimeSeconds: 10, wallTimeMismatch: false,
  topologyFingerprint: 'fp-a', notes: [], targetKind: 'dataset', sync: 'always', fileBytes: 64 * 2 ** 20,
  syncOpLatency: { source: 'clat', operation: 'write', meanNs: 1e9 / iops, p50Ns: 1e9 / iops, p99Ns: 2e9 / iops, p999Ns: null }, ...o,
});

/**
 * Host-wide ZIL counters count the app's own probes too: three probes on a freshly booted host can
 * make "commits per second since boot" say there is sync demand when there is none, or (on slow
 * disks, fewer probe writes) sit just under the threshold and read as "no sync writes" beside the
 * probe that measured 10 sync writes/s. Found in the lab (installed-deb on OpenZFS 2.4, disks at 12
 * IOPS): "Decided by: 0.493 ZIL commits/s since boot: no sync writes to speed up" on a pool holding
 * a VM disk, where every one of those commits was a probe's. The counters, less what the app's own
 * runs may have committed, decide only when the remainder does.
 */
import { describe, expect, it } from 'vitest';
import { buildOptaneVerdict } from '../../server/src/optane/verdict.ts';
import { ownProbeSyncWrites, syncEvidence } from '../../rules/lib/slog-evidence.ts';
import slogBenefit from '../../rules/slog-benefit.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { artifacts000, benchPool } from '../fixtures/rules/slog-fixtures.ts';
import { dataset } from '../support/builders.ts';

const CAPTURED = '2026-11-28T12:00:00Z';
const at = (minutesBefore: number) => new Date(Date.parse(CAPTURED) - minutesBefore * 60_000).toISOString();
const run = (o: Partial<BenchmarkSummary> = {}): BenchmarkSummary => ({
  id: 'p1', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench-p1', startedAt: at(5),
  status: 'completed', syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 10, readBytesPerSec: 0, writeBytesPerSec: 40_960,
  writeLatency: null, readLatency: null, wallSeconds: 12, fioRuntimeSeconds: 10, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
  targetKind: 'dataset', zfsTarget: true, sync: 'always', ...o,
});
// As in the lab: the QD1 probe (10 writes/s × 10 s), the 16-writer probe (40/s × 20 s); 15 min since the module loaded.
const PROBES = [run(), run({ id: 'p16', profile: 'sync-write-4k-qd16', iodepth: 16, writers: 16, writeIops: 40, fioRuntimeSeconds: 20, startedAt: at(4) })];
const PROBE_WRITES = 100 + 800;
const zil = (commits: number, windowSeconds = 900) => ({ counters: { zil_commit_count: commits }, perDataset: {}, windowSeconds });
const capture = { kind: 'local' as const, capturedAt: CAPTURED, demo: false };
const vmDisk = dataset('bench-pool/vm-100-disk-0', { type: 'volume', sync: 'standard' });

describe('the app\'s own probes in host-wide ZIL counters', () => {
  it('counts the sync writes of its runs on ZFS inside the window; not async runs, raw devices, refused runs or runs before the window', () => {
    const window = { from: Date.parse(CAPTURED) - 900_000, to: Date.parse(CAPTURED) };
    expect(ownProbeSyncWrites(PROBES, window)).toEqual({ writes: PROBE_WRITES, runs: 2 });
    expect(ownProbeSyncWrites([
      run({ syncMode: 'async' }), run({ targetKind: 'device', zfsTarget: false }), run({ status: 'refused' }),
      run({ startedAt: at(20) }), run({ startedAt: '2026-11-28T12:01:00Z' }),
    ], window)).toEqual({ writes: 0, runs: 0 });
    // No window known (FreeBSD's sysctl has no header): every run before the capture may be in it.
    expect(ownProbeSyncWrites([run({ startedAt: at(60 * 24 * 30) })], { from: null, to: window.to }).runs).toBe(1);
  });

  it('a count the probes explain is no evidence either way: the pool\'s zvol (a VM disk) decides, and the slow probe says "yes"', () => {
    const a = { ...artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 }), vmDisk], ZilStats: zil(PROBE_WRITES - 456), Benchmarks: PROBES }), Capture: capture };
    const ev = syncEvidence(benchPool, { ...a, poolCount: 1, capturedAt: CAPTURED });
    expect(ev.level).toBe('configured');
    expect(ev.ownProbeWrites).toBe(PROBE_WRITES);
    expect(ev.reasons.join(' ')).toContain(`Up to ${PROBE_WRITES} of those commits were this app's own probes (2 sync-write runs in that time)`);
    const v = buildOptaneVerdict(a, null);
    expect(v.verdict).toBe('yes');
    expect(v.decisive).toMatch(/^measured 10 sync writes\/s, 100 ms each/);
    // The slog-benefit rule reads the same evidence: it speaks for the pool, as the verdict does.
    const out = slogBenefit.check(a as never);
    expect('findings' in out && out.findings.length).toBe(1);
  });

  it('without a zvol or sync=always, the slow probe beside counters the probes explain says "it depends" and asks to observe, never "no"', () => {
    const a = { ...artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 })], ZilStats: zil(PROBE_WRITES), Benchmarks: PROBES }), Capture: capture };
    const v = buildOptaneVerdict(a, null);
    expect(v.verdict).toBe('depends');
    expect(v.decisive).toContain('whether bench-pool receives sync writes is not known');
  });

  it('commits well beyond what the probes can explain still count, at the rate left after taking the probes out', () => {
    const a = { ...artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 })], ZilStats: zil(PROBE_WRITES + 9000), Benchmarks: PROBES }), Capture: capture };
    const ev = syncEvidence(benchPool, { ...a, poolCount: 1, capturedAt: CAPTURED });
    expect(ev.level).toBe('counters');
    expect(ev.commitsPerSec).toBe(10);
    expect(ev.reasons.join(' ')).toContain(`at least 9000, 10.0/s`);
    expect(buildOptaneVerdict(a, null).verdict).toBe('yes');
  });

  it('counters the probes had no part in decide as before: a negligible rate with no probe in the window is "no"', () => {
    const a = { ...artifacts000({ Datasets: [dataset('bench-pool', { recordsize: 4096 }), vmDisk], ZilStats: zil(100, 86_400 * 30), Benchmarks: [run({ startedAt: at(60 * 24 * 60) })] }), Capture: capture };
    expect(syncEvidence(benchPool, { ...a, poolCount: 1, capturedAt: CAPTURED }).ownProbeWrites).toBe(0);
    expect(buildOptaneVerdict(a, null).verdict).toBe('no');
  });
});

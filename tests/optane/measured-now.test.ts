/**
 * Measure before forecasting (issue 27 §2): after the app's QD1 probe on a pool, the verdict and
 * the slog-benefit finding use the measured value for "now", state the same confidence, and
 * forecast only the "with" side; an async or sync=disabled run never counts as the probe.
 */
import { describe, expect, it } from 'vitest';
import { buildOptaneVerdict } from '../../server/src/optane/verdict.ts';
import slogBenefit from '../../rules/slog-benefit.ts';
import { newestQd1Probe } from '../../server/src/forecast/measured-now.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { artifacts000 } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, group, host, leaf, pool } from '../support/builders.ts';

const probe = (o: Partial<BenchmarkSummary> = {}): BenchmarkSummary => ({
  id: 'b1', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench-b1', startedAt: '2026-11-26T01:00:00Z',
  status: 'completed', syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 220, readBytesPerSec: 0, writeBytesPerSec: 220 * 4096,
  writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
  targetKind: 'dataset', sync: 'always', ...o,
});
const ev = (v: ReturnType<typeof buildOptaneVerdict>) => Object.fromEntries(v.evidence.map((e) => [e.label, e.value]));

describe('measured "now"', () => {
  it('the probe is the "now": measured QD1 sync IOPS shown, the forecast names it, and the gain is against it', () => {
    const v = buildOptaneVerdict(artifacts000({ Benchmarks: [probe()] }), null);
    expect(ev(v)['measured QD1 sync IOPS']).toBe(220);
    expect(v.expected!.qd1.now.iops).toBe(220);
    expect(String(ev(v)['"now" based on'])).toContain('measured on this host: 220 sync IOPS at QD1, 4 KiB (benchmark b1');
    expect(v.unknowns.some((u) => u.what.startsWith('Current sync-write latency'))).toBe(false);
  });

  it('verdict and finding state one confidence', () => {
    for (const a of [artifacts000({ Benchmarks: [probe({ writeIops: 90 })] }), artifacts000()]) {
      const v = buildOptaneVerdict(a, null);
      const out = slogBenefit.check(a as never);
      const findings = 'findings' in out ? out.findings : [];
      expect(findings.length).toBe(1);
      expect(findings[0]!.confidence).toBe(v.confidence);
    }
    const v = buildOptaneVerdict(artifacts000({ Benchmarks: [probe()] }), null);
    expect(v.confidence).toBe('medium'); // measured now, sync writes only configured (sync=always)
    expect(v.reasons).toContain('confidence medium: "now" measured by a benchmark, sync writes only configured.');
  });

  it('end_fsync-only, sync=disabled, other pools and unfinished runs are not the probe', () => {
    expect(newestQd1Probe([probe({ syncMode: 'async' })], 'bench-pool')).toBeNull();
    expect(newestQd1Probe([probe({ sync: 'disabled' })], 'bench-pool')).toBeNull();
    expect(newestQd1Probe([probe({ pool: 'other' })], 'bench-pool')).toBeNull();
    expect(newestQd1Probe([probe({ status: 'aborted' })], 'bench-pool')).toBeNull();
    expect(newestQd1Probe([probe({ id: 'old', startedAt: '2026-01-01T00:00:00Z', writeIops: 90 }), probe()], 'bench-pool')?.id).toBe('b1');
  });

  it('without a probe the verdict says "now" is a model estimate and how to measure it in one click', () => {
    const v = buildOptaneVerdict(artifacts000(), null);
    expect(ev(v)['measured QD1 sync IOPS']).toBeNull();
    expect(String(ev(v)['"now" based on'])).toMatch(/^model estimate, not measured on this host .*zfs-advisor bench sync-write-4k-qd1 --pool bench-pool/);
  });
});

describe('the same binding limit for every candidate', () => {
  it('4 KiB sync writes into 128 KiB records on two hard disks: QD16 is the pool\'s ceiling for all, and the verdict ranks by what differs', () => {
    const disks = [0, 1].map((i) => drive(`h${i}`, { model: 'WDC WD40EFRX-68N32N0', media: 'hdd', rotational: true, rpm: 5400 }));
    const p = pool('tank', [group('mirror', 'mirror-0', disks.map((d, i) => leaf(`sd${i}`, { driveId: d.id })))]);
    const v = buildOptaneVerdict({ Host: host('2.3.0'), Pools: [p], Drives: disks, Datasets: [dataset('tank', { sync: 'always' })] }, null);
    const r = v.reasons.join(' ');
    expect(r).toMatch(/At QD16 every candidate reaches the same ~[\d,]+ sync IOPS: tank's sustained ceiling binds/);
    expect(r).toContain('Micron 7450 PRO / MAX: ~');
    expect(r).toMatch(/Intel Optane SSD P1600X 118GB: ~[\d,]+ IOPS per writer at QD1 \(measured\), 6 DWPD/);
    expect(r).toContain('endurance unknown');
    expect(r).not.toContain('? DWPD');
    expect(v.purchase.map((x) => x.why).join(' ')).not.toContain('? DWPD');
  });
});

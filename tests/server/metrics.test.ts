import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMetrics, newestPerPoolAndProfile, labelValue } from '../../server/src/metrics/prometheus.ts';
import { INVENTORY_SCHEMA_VERSION, type Inventory } from '../../server/src/model/inventory.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { group, host, leaf, pool, inClass } from '../support/builders.ts';

// Numbers of the 000 special vdev (P1600X mirror) are not needed: hand-made sizes keep the arithmetic visible.
function inventory(): Inventory {
  const special = inClass('special', group('mirror', 'mirror-1', [leaf('nvme0n1'), leaf('nvme1n1')], { sizeBytes: 100, allocBytes: 80 }));
  const p = pool('tank', [group('mirror', 'mirror-0', [leaf('sda', { cksum: 2 }), leaf('sdb', { read: 1 })]), special], {
    state: 'DEGRADED', sizeBytes: 1000, allocBytes: 850, capacityPct: 85, fragmentationPct: 12,
  });
  return {
    schemaVersion: INVENTORY_SCHEMA_VERSION,
    source: { kind: 'snapshot', label: 't', capturedAt: '2026-01-01T00:00:00Z', demo: false, redacted: false },
    host: host('2.2.6'), pools: [p], drives: [], datasets: [], zil: null, arc: null, gaps: [],
  };
}

function bench(over: Partial<BenchmarkSummary>): BenchmarkSummary {
  return {
    id: 'x', profile: 'sync-write-4k-qd1', pool: 'tank', target: 'tank/zfs-advisor-bench-x', startedAt: '2026-01-01T00:00:00Z', status: 'completed',
    syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 894, readBytesPerSec: 0, writeBytesPerSec: 894 * 4096,
    writeLatency: { meanNs: 1_000_000, p50Ns: 900_000, p99Ns: 17_800_000, p999Ns: null }, readLatency: null,
    wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [], ...over,
  };
}

describe('Prometheus metrics', () => {
  const text = renderMetrics(
    [{ hostId: 'nas', inventory: inventory(), counts: { critical: 1, warning: 2, suggestion: 0, info: 3 }, benchmarks: [bench({})] }],
    { version: '0.1.0' },
  );

  it('pool health, capacity, special fill, errors, findings and benchmark numbers', () => {
    const lines = text.split('\n');
    expect(lines).toContain('zfs_advisor_pool_health{host="nas",pool="tank",state="DEGRADED"} 1');
    expect(lines).toContain('zfs_advisor_pool_health{host="nas",pool="tank",state="ONLINE"} 0');
    expect(lines).toContain('zfs_advisor_pool_capacity_ratio{host="nas",pool="tank"} 0.85');
    expect(lines).toContain('zfs_advisor_pool_fragmentation_ratio{host="nas",pool="tank"} 0.12');
    expect(lines).toContain('zfs_advisor_special_class_fill_ratio{host="nas",pool="tank"} 0.8');
    expect(lines).toContain('zfs_advisor_pool_vdev_errors{host="nas",pool="tank",kind="checksum"} 2');
    expect(lines).toContain('zfs_advisor_pool_vdev_errors{host="nas",pool="tank",kind="read"} 1');
    expect(lines).toContain('zfs_advisor_findings{host="nas",severity="critical"} 1');
    expect(lines).toContain('zfs_advisor_benchmark_iops{host="nas",pool="tank",profile="sync-write-4k-qd1",direction="write"} 894');
    expect(lines).toContain('zfs_advisor_benchmark_latency_seconds{host="nas",pool="tank",profile="sync-write-4k-qd1",direction="write",quantile="0.99"} 0.0178');
    // Every sample line belongs to a family declared with HELP and TYPE.
    const declared = new Set(lines.filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]));
    for (const l of lines.filter((x) => x && !x.startsWith('#'))) expect(declared.has(l.split(/[{ ]/)[0]!)).toBe(true);
  });

  it('escapes label values', () => {
    expect(labelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
  });

  it('keeps the newest completed run per pool and profile', () => {
    const newest = newestPerPoolAndProfile([
      bench({ id: 'old', startedAt: '2026-01-01T00:00:00Z' }),
      bench({ id: 'new', startedAt: '2026-02-01T00:00:00Z' }),
      bench({ id: 'refused', startedAt: '2026-03-01T00:00:00Z', status: 'refused' }),
    ]);
    expect(newest.map((b) => b.id)).toEqual(['new']);
  });

  it('the Grafana dashboard only queries metrics the server exports', () => {
    const dash = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'plugin', 'grafana', 'zfs-advisor-dashboard.json'), 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const exprs = dash.panels.flatMap((p) => p.targets.map((t) => t.expr));
    const used = new Set(exprs.flatMap((e) => e.match(/zfs_advisor_[a-z_]+/g) ?? []));
    expect(used.size).toBeGreaterThan(5);
    for (const m of used) expect(text, m).toContain(`# TYPE ${m} `);
  });
});

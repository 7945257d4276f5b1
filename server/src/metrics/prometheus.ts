/**
 * `/metrics` in the Prometheus text exposition format (0.0.4): pool health and capacity,
 * special-class fill, findings by severity, and the last benchmark's IOPS and latency per
 * profile and pool. Built from what the store already holds (the newest snapshot and assessment
 * per host): scraping never runs a command on the host.
 */
import type { Inventory, VdevNode } from '../model/inventory.ts';
import type { Counts } from '../api/schemas.ts';
import type { BenchmarkSummary } from '../model/workload.ts';

export interface HostMetricsInput {
  hostId: string;
  inventory: Inventory | null;
  counts: Counts | null;
  /** Newest benchmark per (pool, profile). */
  benchmarks: BenchmarkSummary[];
}

const POOL_STATES = ['ONLINE', 'DEGRADED', 'FAULTED', 'OFFLINE', 'UNAVAIL', 'REMOVED', 'SUSPENDED'];

/** Escapes a label value per the exposition format. */
export function labelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labels(l: Record<string, string>): string {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${labelValue(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

class Family {
  readonly lines: string[] = [];
  constructor(readonly name: string, readonly help: string, readonly type: 'gauge' | 'counter') {}
  add(l: Record<string, string>, value: number | null): void {
    if (value === null || !Number.isFinite(value)) return;
    this.lines.push(`${this.name}${labels(l)} ${value}`);
  }
  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`, ...this.lines].join('\n');
  }
}

/** Sum of size/alloc over the top-level vdevs of one class (special, dedup…). */
function classSpace(vdevs: VdevNode[], cls: string): { size: number; alloc: number } | null {
  const tops = vdevs.filter((v) => v.class === cls);
  if (tops.length === 0) return null;
  let size = 0;
  let alloc = 0;
  for (const v of tops) {
    if (typeof v.sizeBytes !== 'number' || typeof v.allocBytes !== 'number') return null;
    size += v.sizeBytes;
    alloc += v.allocBytes;
  }
  return { size, alloc };
}

/** The server's own event-loop delay since the previous scrape, in seconds (perf_hooks histogram). */
export interface EventLoopDelay { p50: number; p99: number; max: number }

export function renderMetrics(hosts: HostMetricsInput[], info: { version: string; eventLoop?: EventLoopDelay }): string {
  const f = {
    info: new Family('zfs_advisor_info', 'Build information of the ZFS Advisor server.', 'gauge'),
    loop: new Family('zfs_advisor_event_loop_delay_seconds', 'How long the server\'s event loop was held up since the previous scrape (quantile 1 = the longest); requests wait this long.', 'gauge'),
    demo: new Family('zfs_advisor_host_demo', '1 when the host shows the bundled demo snapshot, not real data.', 'gauge'),
    health: new Family('zfs_advisor_pool_health', '1 for the pool\'s current state (ONLINE, DEGRADED, …), 0 for the others.', 'gauge'),
    size: new Family('zfs_advisor_pool_size_bytes', 'Pool size as reported by zpool list.', 'gauge'),
    alloc: new Family('zfs_advisor_pool_allocated_bytes', 'Allocated bytes of the pool.', 'gauge'),
    cap: new Family('zfs_advisor_pool_capacity_ratio', 'Fill of the pool, 0..1.', 'gauge'),
    frag: new Family('zfs_advisor_pool_fragmentation_ratio', 'Free-space fragmentation of the pool, 0..1.', 'gauge'),
    errors: new Family('zfs_advisor_pool_vdev_errors', 'Read/write/checksum error counters summed over the pool\'s leaves.', 'gauge'),
    special: new Family('zfs_advisor_special_class_fill_ratio', 'Fill of the special allocation class, 0..1 (small blocks spill to the data vdevs above 0.75).', 'gauge'),
    specialSize: new Family('zfs_advisor_special_class_size_bytes', 'Size of the special allocation class.', 'gauge'),
    findings: new Family('zfs_advisor_findings', 'Findings of the newest assessment by severity.', 'gauge'),
    iops: new Family('zfs_advisor_benchmark_iops', 'IOPS of the newest benchmark per pool, profile and direction.', 'gauge'),
    lat: new Family('zfs_advisor_benchmark_latency_seconds', 'Latency of the newest benchmark per pool, profile, direction and quantile.', 'gauge'),
    benchTime: new Family('zfs_advisor_benchmark_timestamp_seconds', 'When the newest benchmark per pool and profile started (Unix time).', 'gauge'),
  };
  f.info.add({ version: info.version }, 1);
  if (info.eventLoop) {
    for (const [q, v] of [['0.5', info.eventLoop.p50], ['0.99', info.eventLoop.p99], ['1', info.eventLoop.max]] as const) f.loop.add({ quantile: q }, v);
  }

  for (const h of hosts) {
    const host = h.hostId;
    if (h.inventory) {
      f.demo.add({ host }, h.inventory.source.demo ? 1 : 0);
      for (const p of h.inventory.pools) {
        const l = { host, pool: p.name };
        const state = (p.state ?? 'UNKNOWN').toUpperCase();
        for (const s of POOL_STATES) f.health.add({ ...l, state: s }, s === state ? 1 : 0);
        if (!POOL_STATES.includes(state)) f.health.add({ ...l, state }, 1);
        f.size.add(l, p.sizeBytes);
        f.alloc.add(l, p.allocBytes);
        f.cap.add(l, p.capacityPct === null ? null : p.capacityPct / 100);
        f.frag.add(l, p.fragmentationPct === null ? null : p.fragmentationPct / 100);
        const sums = { read: 0, write: 0, checksum: 0 };
        const walk = (n: VdevNode) => {
          if (n.children.length === 0) {
            sums.read += n.read ?? 0;
            sums.write += n.write ?? 0;
            sums.checksum += n.cksum ?? 0;
          }
          n.children.forEach(walk);
        };
        p.vdevs.forEach(walk);
        for (const [kind, v] of Object.entries(sums)) f.errors.add({ ...l, kind }, v);
        const sp = classSpace(p.vdevs, 'special');
        if (sp && sp.size > 0) {
          f.special.add(l, sp.alloc / sp.size);
          f.specialSize.add(l, sp.size);
        }
      }
    }
    if (h.counts) for (const [severity, n] of Object.entries(h.counts)) f.findings.add({ host, severity }, n);
    for (const b of h.benchmarks) {
      const l = { host, pool: b.pool ?? b.target, profile: b.profile };
      if (b.readIops > 0) f.iops.add({ ...l, direction: 'read' }, b.readIops);
      if (b.writeIops > 0) f.iops.add({ ...l, direction: 'write' }, b.writeIops);
      for (const [direction, lat] of [['read', b.readLatency], ['write', b.writeLatency]] as const) {
        if (!lat) continue;
        f.lat.add({ ...l, direction, quantile: '0.5' }, lat.p50Ns === null ? null : lat.p50Ns / 1e9);
        f.lat.add({ ...l, direction, quantile: '0.99' }, lat.p99Ns === null ? null : lat.p99Ns / 1e9);
        f.lat.add({ ...l, direction, quantile: '0.999' }, lat.p999Ns === null ? null : lat.p999Ns / 1e9);
      }
      const t = Date.parse(b.startedAt);
      f.benchTime.add(l, Number.isFinite(t) ? t / 1000 : null);
    }
  }
  return `${Object.values(f).map((x) => x.render()).join('\n')}\n`;
}

/** Newest run per (pool, profile) out of a newest-first history. */
export function newestPerPoolAndProfile(history: BenchmarkSummary[]): BenchmarkSummary[] {
  const seen = new Map<string, BenchmarkSummary>();
  for (const b of history) {
    if (b.status !== 'completed') continue;
    const key = `${b.pool ?? b.target}\u0000${b.profile}`;
    const prev = seen.get(key);
    if (!prev || Date.parse(b.startedAt) > Date.parse(prev.startedAt)) seen.set(key, b);
  }
  return [...seen.values()];
}

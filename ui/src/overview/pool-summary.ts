/** Per-pool numbers for the overview cards: health, fill, special-class fill, findings by severity. */
import type { Finding, Severity } from '../../../server/src/model/finding.ts';
import type { Pool } from '../../../server/src/model/inventory.ts';
import { errorCount } from './layout-words.ts';

export type Health = 'ok' | 'degraded' | 'failed' | 'unknown';

/** ONLINE → ok; DEGRADED → degraded; FAULTED/UNAVAIL/SUSPENDED/REMOVED/OFFLINE → failed. */
export function healthOf(state: string | null): Health {
  const s = (state ?? '').toUpperCase();
  if (s === 'ONLINE' || s === 'AVAIL' || s === 'INUSE') return 'ok';
  if (s === 'DEGRADED') return 'degraded';
  if (['FAULTED', 'UNAVAIL', 'SUSPENDED', 'REMOVED', 'OFFLINE'].includes(s)) return 'failed';
  return 'unknown';
}

export interface PoolSummary {
  name: string;
  state: string;
  health: Health;
  sizeBytes: number | null;
  allocBytes: number | null;
  /** 0..1 */
  capacity: number | null;
  fragmentationPct: number | null;
  /** Special + dedup class fill, 0..1, null when the pool has none or sizes are unknown. */
  specialFill: number | null;
  errors: number;
  findings: Record<Severity, number>;
  scan: string | null;
}

export const emptyCounts = (): Record<Severity, number> => ({ critical: 0, warning: 0, suggestion: 0, info: 0 });

export function specialFill(pool: Pool): number | null {
  const sv = pool.vdevs.filter((v) => v.class === 'special' || v.class === 'dedup');
  if (sv.length === 0) return null;
  let size = 0;
  let alloc = 0;
  for (const v of sv) {
    if (v.sizeBytes == null || v.allocBytes == null || v.sizeBytes <= 0) return null;
    size += v.sizeBytes;
    alloc += v.allocBytes;
  }
  return alloc / size;
}

export function summarisePool(pool: Pool, findings: readonly Pick<Finding, 'severity' | 'subject'>[]): PoolSummary {
  const counts = emptyCounts();
  for (const f of findings) if (f.subject.pool === pool.name || (f.subject.kind === 'pool' && f.subject.id === pool.name)) counts[f.severity] += 1;
  const capacity = pool.capacityPct !== null ? pool.capacityPct / 100
    : pool.sizeBytes && pool.allocBytes !== null ? pool.allocBytes / pool.sizeBytes : null;
  return {
    name: pool.name,
    state: pool.state ?? 'unknown',
    health: healthOf(pool.state),
    sizeBytes: pool.sizeBytes,
    allocBytes: pool.allocBytes,
    capacity,
    fragmentationPct: pool.fragmentationPct,
    specialFill: specialFill(pool),
    errors: pool.vdevs.reduce((s, v) => s + errorCount(v), 0),
    findings: counts,
    scan: pool.scan ? pool.scan.raw.split('\n')[0] ?? null : null,
  };
}

/** Fill level as a meter tone: ZFS slows down past 80 % and best-fit starts near 96 % (see pool-capacity). */
export function fillTone(share: number | null): 'ok' | 'warn' | 'bad' | 'unknown' {
  if (share === null) return 'unknown';
  return share >= 0.9 ? 'bad' : share >= 0.8 ? 'warn' : 'ok';
}

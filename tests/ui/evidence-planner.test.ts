import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LayoutPlanView, ObservationRecord, SizesRecord } from '../../server/src/api/contract.ts';
import { applyJobEvent, formatDuration, idleJob, measureBlocked, type LiveJob } from '../../ui/src/evidence/job.ts';
import { chartSeries, isLoud, layoutRows, OPENZFS_VERSION, openzfsForPlan, parseDiskSize, unusedDevices, deviceChoices } from '../../ui/src/planner/planner-view.ts';
import { sizesRequest, walkTargets } from '../../ui/src/sizing/sizes-request.ts';
import { intervalFor, newestFingerprint, poolRows } from '../../ui/src/workload/fingerprint-view.ts';
import type { SizesProgress } from '../../server/src/api/contract.ts';
import { inventory000, inventory001 } from './fixtures.ts';

const fixture = (area: string, name: string): string => readFileSync(join(import.meta.dirname, '..', 'fixtures', area, name), 'utf8');

function sizesRecord(over: Partial<SizesRecord>): SizesRecord {
  return {
    id: 7, hostId: 'local', status: 'running', target: '/tank/data', path: '/tank/data', dataset: null, pool: null, recordsize: null, ashift: null,
    lowPriority: true, startedAt: '2025-01-01T00:00:00Z', endedAt: null, progress: null, histogram: null, stats: null, message: null, ...over,
  };
}

describe('evidence jobs', () => {
  it('follows progress, then takes the final record from `done`; ignores stray events', () => {
    let j: LiveJob<SizesRecord, SizesProgress> = { ...idleJob(), phase: 'running', id: 7 };
    j = applyJobEvent(j, 'progress', { files: 1000, dirs: 10, bytes: 5e6, elapsedS: 2 });
    expect(j.progress).toEqual({ files: 1000, dirs: 10, bytes: 5e6, elapsedS: 2 });
    expect(applyJobEvent(j, 'progress', 'garbage')).toBe(j);
    expect(applyJobEvent(j, 'other', { id: 7 })).toBe(j);
    const done = applyJobEvent(j, 'done', sizesRecord({ status: 'completed', endedAt: '2025-01-01T00:00:05Z' }));
    expect(done.phase).toBe('completed');
    expect(done.record?.endedAt).toBe('2025-01-01T00:00:05Z');
    // Progress after the end does not reopen the job.
    expect(applyJobEvent(done, 'progress', { files: 1, dirs: 1, bytes: 1, elapsedS: 9 }).progress).toEqual(j.progress);
    const canceled = applyJobEvent(j, 'done', sizesRecord({ status: 'canceled', message: 'canceled by the user' }));
    expect([canceled.phase, canceled.message]).toEqual(['canceled', 'canceled by the user']);
  });

  it('says why a host cannot be measured', () => {
    expect(measureBlocked({ kind: 'demo' }, true, 'Observations')).toContain('bundled demo');
    expect(measureBlocked({ kind: 'truenas' }, false, 'Observations')).toContain('a truenas host');
    expect(measureBlocked({ kind: 'local' }, true, 'Size measurements')).toContain('need ZFS on this machine');
    expect(measureBlocked({ kind: 'local' }, false, 'Observations')).toBeNull();
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(185)).toBe('3 min 5 s');
    expect(formatDuration(3720)).toBe('1 h 2 min');
  });
});

describe('sizing form', () => {
  it('offers only mounted file systems and builds the request the server accepts', () => {
    const inv = inventory000();
    const targets = walkTargets(inv.datasets);
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) {
      const d = inv.datasets.find((x) => x.name === t.name)!;
      expect(d.type).toBe('filesystem');
      expect(d.mountpoint?.startsWith('/')).toBe(true);
    }
    const form = { kind: 'dataset' as const, dataset: targets[0]!.name, path: '', recordsize: 0, ashift: 0, lowPriority: true };
    expect(sizesRequest(form)).toEqual({ ok: true, value: { dataset: targets[0]!.name, lowPriority: true } });
    expect(sizesRequest({ ...form, kind: 'path', path: ' /mnt/tank/media ', recordsize: 1048576, ashift: 12, lowPriority: false }))
      .toEqual({ ok: true, value: { path: '/mnt/tank/media', recordsize: 1048576, ashift: 12, lowPriority: false } });
    expect(sizesRequest({ ...form, kind: 'path', path: 'mnt/tank' }).ok).toBe(false);
    expect(sizesRequest({ ...form, kind: 'path', path: '/mnt/../etc' }).ok).toBe(false);
    expect(sizesRequest({ ...form, dataset: '' }).ok).toBe(false);
  });
});

describe('workload fingerprint', () => {
  // A hand-made record (the UI logic only reads it): pool tank, 62 % sync, p99 14 ms on the data class.
  const fp: ObservationRecord = {
    id: 2, hostId: 'local', trigger: 'manual', status: 'completed', startedAt: '2025-03-01T10:00:00Z', endedAt: '2025-03-01T10:10:00Z',
    durationS: 600, intervalS: 20, pools: null, progress: null, commands: [], message: null,
    summary: ['62 % of writes are synchronous'],
    fingerprint: {
      startedAt: '2025-03-01T10:00:00Z', endedAt: '2025-03-01T10:10:00Z', windowSeconds: 600, source: 'live', zil: null, datasets: [], arc: null, notes: [],
      pools: [
        { pool: 'tank', readIops: 50, writeIops: 400, readBytesPerSec: 1e6, writeBytesPerSec: 8e6, syncWriteShare: 0.62, syncWriteIops: 250,
          syncWriteLatencyMs: { log: { p50: 0.02, p99: 0.05 }, data: { p50: 4, p99: 14 } }, smallWriteShare: 0.8, smallReadShare: null, writeSizes: [], readSizes: [] },
        { pool: 'fast', readIops: 0, writeIops: 10, readBytesPerSec: 0, writeBytesPerSec: 1e4, syncWriteShare: null, syncWriteIops: null,
          syncWriteLatencyMs: { special: { p50: null, p99: 0.3 } }, smallWriteShare: null, smallReadShare: null, writeSizes: [], readSizes: [] },
      ],
    },
  };

  it('picks the newest completed observation and reads its per-pool numbers', () => {
    const older = { ...fp, id: 1, startedAt: '2020-01-01T00:00:00Z' };
    const running = { ...fp, id: 3, status: 'running' as const, fingerprint: null, startedAt: '2030-01-01T00:00:00Z' };
    expect(newestFingerprint([older, running, fp])?.id).toBe(2);
    expect(newestFingerprint([running])).toBeNull();
    expect(poolRows(fp)).toEqual([
      { pool: 'tank', syncShare: 0.62, syncIops: 250, writeIops: 400, readIops: 50, p99SyncMs: 14, p99Class: 'data' },
      // No data-class latency: the class that has one, and unknown shares stay null (not 0).
      { pool: 'fast', syncShare: null, syncIops: null, writeIops: 10, readIops: 0, p99SyncMs: 0.3, p99Class: 'special' },
    ]);
    expect(intervalFor(10)).toBe(1);
    expect(intervalFor(600)).toBe(20);
    expect(intervalFor(3600)).toBe(60);
  });
});

describe('planner', () => {
  const plan = JSON.parse(fixture('ui', 'plan-6x16T-vm.json')) as LayoutPlanView;

  it('turns the planner answer into ranked rows and chart series', () => {
    const rows = layoutRows(plan);
    expect(rows.map((r) => r.rank)).toEqual([...rows.map((r) => r.rank)].sort((a, b) => a - b));
    expect(rows.filter((r) => r.recommended)).toHaveLength(1);
    // Read by hand from the fixture: rank 1 is 2 × 3-way mirror, 31851477467136 usable, 400 random-write IOPS, 24–71 h resilver.
    expect(rows[0]).toMatchObject({ label: '2 × mirror (3-way)', usableBytes: 31851477467136, effectiveBytes: 31851477467136, tolerancePerVdev: 2, worstCaseLoss: 3, randomWriteIops: 400, recommended: true });
    expect(rows[0]!.resilverHours!.map(Math.round)).toEqual([24, 71]);
    const s = chartSeries(rows.slice(0, 1));
    expect(s).toEqual({ labels: ['2 × mirror (3-way)'], usableTiB: [28.97], randomWriteIops: [400] });
    expect(parseDiskSize('16T')).toBe(16e12);
    expect(parseDiskSize('14.5TiB')).toBe(Math.round(14.5 * 1024 ** 4));
    expect(parseDiskSize('lots')).toBeNull();
  });

  it('shows the rules\' findings beside each layout, the flags and the server\'s rank note, as the server wrote them', () => {
    const rows = layoutRows(plan);
    const z1 = rows.find((r) => r.label === '1 × raidz1 (6 wide)')!;
    expect(z1.findings).toContainEqual(expect.objectContaining({ ruleId: 'raidz1-large-disks', severity: 'warning', count: 1 }));
    expect(z1.findings.find((f) => f.ruleId === 'raidz1-large-disks')!.title).toContain('one disk of redundancy');
    expect(rows.at(-1)).toMatchObject({ label: 'stripe of 6', flags: ['no redundancy'] });
    expect(rows.filter((r) => r.rankNote !== null).every((r) => r.findings.some(isLoud))).toBe(true);
    expect(rows[0]!.findings.some(isLoud)).toBe(false);
  });

  it('offers the drives no pool uses, Optane first; pool members are listed with their pool, not offered', () => {
    const inv = inventory000();
    expect(unusedDevices(inv.drives, inv.pools)).toEqual([{ path: '/dev/nvd1', label: '/dev/nvd1 — INTEL SSDPEK1A058GA (NVMe · 54.9 GiB)', optane: true, usable: true, why: null }]); // the same unit as the overview's drive table
    expect(deviceChoices(inv.drives, inv.pools).map((c) => [c.path, c.usable, c.why])).toEqual([
      ['/dev/nvd1', true, null], ['/dev/da1', false, 'in pool bench-pool (data, mirror-0)'], ['/dev/da3', false, 'in pool bench-pool (data, mirror-0)'],
    ]);
    const inv1 = inventory001();
    expect(unusedDevices(inv1.drives, inv1.pools)).toEqual([]);
  });
});

describe('the OpenZFS version the planner plans for', () => {
  it('is read from the host\'s version text, in the form the API accepts', () => {
    for (const [text, want] of [['2.2.6-1', '2.2.6'], ['zfs-2.3.4-pve1', '2.3.4'], ['2.4.0-rc1', '2.4.0'], ['2.1', '2.1'], ['zfs-kmod-2.2.99-365_g5a3b2e1', '2.2.99']] as const) {
      expect(openzfsForPlan(text)).toBe(want);
      expect(OPENZFS_VERSION.test(openzfsForPlan(text))).toBe(true);
    }
    expect(openzfsForPlan(null)).toBe('');
    expect(openzfsForPlan('unknown')).toBe('');
    expect(OPENZFS_VERSION.test('2.x')).toBe(false);
  });
});

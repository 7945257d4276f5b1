/**
 * Closing the loop (issue 34 §2), read as a table: stored verdicts with their inventories, the
 * newest inventory and the stored runs in; the loop's state out — no change, a re-probe offered
 * (the "before" run's own request), or the pair: forecast with its range beside what was measured.
 */
import { describe, expect, it } from 'vitest';
import { addedVdevs, loopOutcome, type LoopInput } from '../../server/src/optane/outcome.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { logPool, plainPool, probeRun, raidz, storedForecast, verdictFor } from './outcome-fixtures.ts';
import type { Pool } from '../../server/src/model/inventory.ts';
import { group, inClass, leaf, pool } from '../support/builders.ts';

const withMirrorLog = pool('nctank', [raidz, inClass('log', group('mirror', 'mirror-1', [leaf('nvme0n1'), leaf('nvme1n1')]))]);
const withSpecial = pool('nctank', [raidz, inClass('special', group('mirror', 'mirror-2', [leaf('sdx'), leaf('sdy')]))]);
const other = pool('other', [leaf('sdz')]);
const plain = plainPool;
const withLog = logPool;
const verdict = verdictFor;
const stored = storedForecast;
const run = probeRun;

const T0 = '2026-11-28T09:00:00.000Z'; // verdict given on the plain pool
const T1 = '2026-11-28T09:30:00.000Z'; // the next inventory (log vdev seen)
const before = run('b', '2026-11-28T08:55:00.000Z', 88);
const afterRun = (iops: number, o: Partial<BenchmarkSummary> = {}) => run('a', '2026-11-28T09:40:00.000Z', iops, { topologyFingerprint: 'fp-b', ...o });
const input = (o: Partial<LoopInput> & { nowPools?: Pool[] } = {}): LoopInput => ({
  forecasts: o.forecasts ?? [stored(2, T1, o.nowPools ?? [withLog]), stored(1, T0, [plain])],
  now: o.now ?? { snapshotId: 2, capturedAt: T1, pools: o.nowPools ?? [withLog] },
  runs: o.runs ?? [before],
});

describe('addedVdevs', () => {
  it.each([
    ['no change', plain, plain, []],
    ['a single log disk', plain, withLog, [{ class: 'log', vdev: 'slog', type: 'file', devices: ['slog'] }]],
    ['a mirrored log', plain, withMirrorLog, [{ class: 'log', vdev: 'mirror-1', type: 'mirror', devices: ['nvme0n1', 'nvme1n1'] }]],
    ['a special mirror', plain, withSpecial, [{ class: 'special', vdev: 'mirror-2', type: 'mirror', devices: ['sdx', 'sdy'] }]],
    ['a log removed is no addition', withLog, plain, []],
    ['the same log, renamed group, is no addition', withMirrorLog, pool('nctank', [raidz, inClass('log', group('mirror', 'mirror-3', [leaf('nvme0n1'), leaf('nvme1n1')]))]), []],
  ] as const)('%s', (_name, a, b, out) => {
    expect(addedVdevs(a, b)).toEqual(out);
  });
});

describe('loopOutcome: evidence → state', () => {
  it('no log or special vdev added → no-change', () => {
    const s = loopOutcome(input({ nowPools: [plain] }));
    expect(s.state).toBe('no-change');
  });

  it('only the verdict given on the newest inventory → no-change (nothing to compare)', () => {
    expect(loopOutcome(input({ forecasts: [stored(2, T1, [withLog])] })).state).toBe('no-change');
  });

  it('a new pool is not an addition to a pool', () => {
    const s = loopOutcome(input({ forecasts: [stored(2, T1, [withLog, other]), stored(1, T0, [plain])], nowPools: [withLog, other] }));
    expect(s.state).toBe('probe-offered');
    expect(s.state === 'probe-offered' && s.pool).toBe('nctank');
  });

  it('log added, no probe since → probe offered with the before run\'s own request and the stored forecast', () => {
    const s = loopOutcome(input());
    expect(s.state).toBe('probe-offered');
    if (s.state !== 'probe-offered') return;
    expect(s.change).toEqual({
      pool: 'nctank', added: [{ class: 'log', vdev: 'slog', type: 'file', devices: ['slog'] }],
      beforeSnapshotId: 1, beforeCapturedAt: T0, seenSnapshotId: 2, seenAt: T1,
    });
    expect(s.before?.runId).toBe('b');
    expect(s.forecast).toMatchObject({ assessmentId: 1, verdict: 'yes', with: { iops: 700, low: 400, high: 1200 }, basis: 'Intel Optane P1600X (to buy): catalog figure' });
    expect(s.reprobe).toEqual({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'nctank' }, sizeBytes: 64 * 2 ** 20, runtimeS: 10, sync: 'always' });
    expect(s.sentence).toBe('nctank has a new log slog; forecast ~700 (400–1,200) sync IOPS at QD1 with Intel Optane P1600X (to buy) was given before. Run the same probe again (sync-write-4k-qd1, on a throw-away dataset) to see what it measures now.');
  });

  it('no probe before the change → the page\'s own probe is offered', () => {
    const s = loopOutcome(input({ runs: [] }));
    expect(s.state === 'probe-offered' && s.reprobe).toEqual({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'nctank' }, sizeBytes: 64 * 2 ** 20, runtimeS: 10 });
    expect(s.state === 'probe-offered' && s.before).toBeNull();
  });

  it.each([
    // after IOPS, range verdict, measured gain
    [729, 'within', 729 / 88],
    [300, 'below', 300 / 88],
    [1500, 'above', 1500 / 88],
  ] as const)('re-probed at %d IOPS → measured, %s the forecast range', (iops, range, gain) => {
    const s = loopOutcome(input({ runs: [before, afterRun(iops)] }));
    expect(s.state).toBe('measured');
    if (s.state !== 'measured') return;
    expect(s.outcome.versusRange).toBe(range);
    expect(s.outcome.measuredGain).toBeCloseTo(gain, 6);
    expect(s.outcome.forecastGain).toBeCloseTo(700 / 88, 6);
    expect(s.outcome.before?.iops).toBe(88);
    expect(s.outcome.after).toMatchObject({ runId: 'a', iops, latency: { of: 'sync latency (sync=always write)' } });
  });

  it('the measured pair reads "forecast X (range), measured Y"', () => {
    const s = loopOutcome(input({ runs: [before, afterRun(729)] }));
    expect(s.state === 'measured' && s.outcome.sentence).toBe(
      'nctank: forecast ~700 (400–1,200) sync IOPS at QD1 with Intel Optane P1600X (to buy), measured 729, 1.37 ms per durable write (p50) — within the forecast range (before: 88, 8.3× measured vs 8.0× forecast), after adding log slog.');
  });

  it('a probe between the change and the inventory that saw it counts as "after" by its layout', () => {
    const between = run('x', '2026-11-28T09:20:00.000Z', 650, { topologyFingerprint: 'fp-b' });
    const s = loopOutcome(input({ runs: [before, between, afterRun(729, { startedAt: '2026-11-28T09:45:00.000Z' })] }));
    expect(s.state === 'measured' && s.outcome.before?.runId).toBe('b');
    // Without a probe after the inventory, the layout cannot tell: it is the "before" candidate, and the re-probe is offered.
    const only = loopOutcome(input({ runs: [between] }));
    expect(only.state).toBe('probe-offered');
  });

  it('runs of other pools, async runs and QD16 runs are never the pair', () => {
    const s = loopOutcome(input({ runs: [before, afterRun(729, { pool: 'other' }), afterRun(5000, { id: 'q', iodepth: 16 }), afterRun(4000, { id: 'n', syncMode: 'async' })] }));
    expect(s.state).toBe('probe-offered');
  });

  it('the verdict was about another pool → the pair has no forecast, and says so', () => {
    const s = loopOutcome(input({ forecasts: [stored(2, T1, [withLog]), stored(1, T0, [plain], verdict('other'))], runs: [before, afterRun(729)] }));
    expect(s.state === 'measured' && s.outcome.forecast).toBeNull();
    expect(s.state === 'measured' && s.outcome.sentence).toMatch(/^nctank: no forecast was given before the change; measured 729/);
  });

  it('the change was seen by an earlier inventory than the newest → "seen" is that one', () => {
    const mid = '2026-11-28T09:10:00.000Z';
    const s = loopOutcome(input({
      forecasts: [stored(3, T1, [withLog]), stored(2, mid, [withLog]), stored(1, T0, [plain])],
      now: { snapshotId: 3, capturedAt: T1, pools: [withLog] },
      runs: [before, run('m', '2026-11-28T09:15:00.000Z', 700, { topologyFingerprint: 'fp-b' })],
    }));
    expect(s.state === 'measured' && s.outcome.change.seenAt).toBe(mid);
    expect(s.state === 'measured' && s.outcome.after.runId).toBe('m');
  });

  it('a special vdev counts too (OpenZFS 2.4 writes the ZIL there without a log vdev)', () => {
    const s = loopOutcome(input({ nowPools: [withSpecial], runs: [before, afterRun(400)] }));
    expect(s.state === 'measured' && s.outcome.sentence).toContain('after adding special mirror sdx sdy.');
  });
});

/**
 * The stored pairs of closing the loop (issue 34 §2): a pair written through the migration's
 * table reads back equal, the same re-probe run recorded twice stays one row, pools filter, a
 * damaged row reads as absent, and a removed host takes its pairs with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../server/src/store/db.ts';
import { createOutcomesRepo } from '../../server/src/store/outcomes-repo.ts';
import { loopOutcome, type LoopOutcome } from '../../server/src/optane/outcome.ts';
import { logPool, plainPool, probeRun, storedForecast } from '../optane/outcome-fixtures.ts';
import { main } from '../../server/src/cli/main.ts';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zfsa-outcomes-'));
  const r = await openStore(dir);
  if (!r.ok) throw new Error(r.error.message);
  store = r.store;
  store.db.prepare(`INSERT INTO hosts (id, kind, name, verify_tls, has_secret, created_at, updated_at) VALUES ('local', 'local', 'This machine', 1, 0, 'x', 'x')`).run();
});
afterEach(() => { store.close(); rmSync(dir, { recursive: true, force: true }); });

const T0 = '2026-11-28T09:00:00.000Z';
const T1 = '2026-11-28T09:30:00.000Z';
function pair(afterIops: number, afterId = 'a'): LoopOutcome {
  const s = loopOutcome({
    forecasts: [storedForecast(2, T1, [logPool]), storedForecast(1, T0, [plainPool])],
    now: { snapshotId: 2, capturedAt: T1, pools: [logPool] },
    runs: [probeRun('b', '2026-11-28T08:55:00.000Z', 88), probeRun(afterId, '2026-11-28T09:40:00.000Z', afterIops, { topologyFingerprint: 'fp-b' })],
  });
  if (s.state !== 'measured') throw new Error(`expected a measured pair, got ${s.state}`);
  return s.outcome;
}

describe('loop outcomes store', () => {
  it('round-trips a pair: forecast with range and basis, before and after, what changed', () => {
    const repo = createOutcomesRepo(store.db);
    const o = pair(729);
    const saved = repo.record('local', o, '2026-11-28T09:41:00.000Z');
    expect(saved.outcome).toEqual(o);
    expect(saved.recordedAt).toBe('2026-11-28T09:41:00.000Z');
    const [back] = createOutcomesRepo(store.db).list('local');
    expect(back!.outcome).toEqual(o);
    expect(back!.outcome.forecast?.with).toEqual({ iops: 700, low: 400, high: 1200 });
    expect(back!.outcome.change.added[0]).toMatchObject({ class: 'log', devices: ['slog'] });
    expect(back!.outcome.before?.iops).toBe(88);
  });

  it('the same re-probe run recorded twice is one row (updated), another run is a second one, newest first', () => {
    const repo = createOutcomesRepo(store.db);
    repo.record('local', pair(729));
    repo.record('local', pair(731));
    expect(repo.list('local').map((x) => x.outcome.after.iops)).toEqual([731]);
    repo.record('local', pair(650, 'a2'));
    expect(repo.list('local').map((x) => x.outcome.after.runId)).toEqual(['a2', 'a']);
    expect(repo.list('local', { pool: 'nctank', limit: 1 }).map((x) => x.outcome.after.runId)).toEqual(['a2']);
    expect(repo.list('local', { pool: 'other' })).toEqual([]);
    expect(repo.list('nobody')).toEqual([]);
  });

  it('refuses a document that is not a pair, and reads a damaged row as absent', () => {
    const repo = createOutcomesRepo(store.db);
    expect(() => repo.record('local', { pool: 'nctank' } as unknown as LoopOutcome)).toThrow();
    repo.record('local', pair(729));
    store.db.prepare(`INSERT INTO loop_outcomes (host_id, pool, after_run_id, recorded_at, outcome_json) VALUES ('local', 'nctank', 'broken', 'x', '{not json')`).run();
    expect(repo.list('local').map((x) => x.outcome.after.runId)).toEqual(['a']);
  });

  it('a removed host takes its pairs with it', () => {
    const repo = createOutcomesRepo(store.db);
    repo.record('local', pair(729));
    store.db.prepare(`DELETE FROM hosts WHERE id = 'local'`).run();
    expect(repo.list('local')).toEqual([]);
  });
});

describe('zfs-advisor bench --before-after shows the stored pairs of the pool', () => {
  const cliIo = () => { const o = { out: '', err: '', isTTY: false, stdout(t: string) { o.out += t; }, stderr(t: string) { o.err += t; }, stdin: async () => '' }; return o; };

  it('text and JSON, only for the pool asked about', async () => {
    createOutcomesRepo(store.db).record('local', pair(729), '2026-11-28T09:41:00.000Z');
    store.close();
    const x = cliIo();
    expect(await main(['bench', '--before-after', '--pool', 'nctank', 'sync-write-4k-qd1', '--data-dir', dir], x), x.err).toBe(0);
    expect(x.out).toContain('forecast and measured (stored after a log or special vdev was added):\n  nctank: forecast ~700 (400–1,200) sync IOPS at QD1 with Intel Optane P1600X (to buy), measured 729, 1.37 ms per durable write (p50) — within the forecast range (before: 88, 8.3× measured vs 8.0× forecast), after adding log slog. [recorded 2026-11-28 09:41 UTC]\n');
    const j = cliIo();
    expect(await main(['bench', '--before-after', '--pool', 'nctank', 'sync-write-4k-qd1', '--data-dir', dir, '--json'], j)).toBe(0);
    const doc = JSON.parse(j.out) as { pool: string; outcomes: { outcome: LoopOutcome }[] };
    expect(doc.outcomes.map((o) => [o.outcome.before?.iops, o.outcome.after.iops])).toEqual([[88, 729]]);
    const other = cliIo();
    expect(await main(['bench', '--before-after', '--pool', 'other', 'sync-write-4k-qd1', '--data-dir', dir], other)).toBe(0);
    expect(other.out).not.toContain('forecast and measured');
    const reopened = await openStore(dir);
    if (!reopened.ok) throw new Error(reopened.error.message);
    store = reopened.store;
  });
});

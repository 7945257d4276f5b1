/**
 * The stored pairs of closing the loop (migrations/0010-loop-outcomes.ts): forecast beside
 * measured, one per re-probe run, newest first. A stored document that no longer parses reads as
 * absent rather than failing the list.
 */
import type { Database } from 'better-sqlite3';
import { LoopOutcome } from '../optane/outcome.ts';

export interface StoredOutcome {
  id: number;
  hostId: string;
  recordedAt: string;
  outcome: LoopOutcome;
}

interface Row { id: number; host_id: string; pool: string; after_run_id: string; recorded_at: string; outcome_json: string }

function parse(r: Row): StoredOutcome | null {
  try {
    const o = LoopOutcome.safeParse(JSON.parse(r.outcome_json));
    return o.success ? { id: r.id, hostId: r.host_id, recordedAt: r.recorded_at, outcome: o.data } : null;
  } catch {
    return null;
  }
}

export function createOutcomesRepo(db: Database) {
  const upsert = db.prepare(`INSERT INTO loop_outcomes (host_id, pool, after_run_id, recorded_at, outcome_json) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(host_id, after_run_id) DO UPDATE SET pool = excluded.pool, outcome_json = excluded.outcome_json`);
  const byRun = db.prepare('SELECT * FROM loop_outcomes WHERE host_id = ? AND after_run_id = ?');
  const list = db.prepare('SELECT * FROM loop_outcomes WHERE host_id = ? ORDER BY id DESC LIMIT ?');
  const listPool = db.prepare('SELECT * FROM loop_outcomes WHERE host_id = ? AND pool = ? ORDER BY id DESC LIMIT ?');
  return {
    /** Stores the pair (once per re-probe run: the same run again updates it in place); returns it as stored. */
    record(hostId: string, outcome: LoopOutcome, recordedAt: string = new Date().toISOString()): StoredOutcome {
      const valid = LoopOutcome.parse(outcome);
      upsert.run(hostId, valid.pool, valid.after.runId, recordedAt, JSON.stringify(valid));
      return parse(byRun.get(hostId, valid.after.runId) as Row)!;
    },
    list(hostId: string, opts: { pool?: string; limit?: number } = {}): StoredOutcome[] {
      const rows = (opts.pool ? listPool.all(hostId, opts.pool, opts.limit ?? 50) : list.all(hostId, opts.limit ?? 50)) as Row[];
      return rows.map(parse).filter((x): x is StoredOutcome => x !== null);
    },
  };
}
export type OutcomesRepo = ReturnType<typeof createOutcomesRepo>;

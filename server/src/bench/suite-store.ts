/**
 * Suite rows (migration 0006): the plan when a suite starts, the result when it ends. A suite whose
 * process died (kill -9, crash) is closed by every recovery (recover.ts), beside its runs' leftovers.
 */
import { hostname } from 'node:os';
import type { Database } from 'better-sqlite3';
import { SuiteResult, type SuitePlan } from './suite-types.ts';
import type { ProcessIdentity } from './process-identity.ts';

export type SuiteStatus = SuiteResult['status'] | 'running' | 'aborted';

export interface SuiteRow {
  id: string;
  name: string;
  status: SuiteStatus;
  startedAt: string;
  endedAt: string | null;
  message: string | null;
  result: SuiteResult | null;
}

interface Raw {
  id: string; name: string; status: SuiteStatus; started_at: string; ended_at: string | null; pid: number; host: string;
  boot_id: string | null; proc_start: string | null; plan_json: string; result_json: string | null; message: string | null;
}

export function insertSuite(db: Database, id: string, plan: SuitePlan, startedAt: string, me: ProcessIdentity): void {
  db.prepare(`INSERT INTO bench_suites (id, name, status, started_at, pid, host, boot_id, proc_start, plan_json)
    VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?)`).run(id, plan.suite, startedAt, process.pid, hostname(), me.bootId, me.startTime, JSON.stringify(plan));
}

export function finishSuite(db: Database, id: string, result: SuiteResult): void {
  db.prepare('UPDATE bench_suites SET status = ?, ended_at = ?, result_json = ?, message = ? WHERE id = ?')
    .run(result.status, result.endedAt, JSON.stringify(result), result.stopReason, id);
}

function rowOf(r: Raw): SuiteRow {
  let result: SuiteResult | null = null;
  if (r.result_json) {
    const p = SuiteResult.safeParse(JSON.parse(r.result_json));
    if (p.success) result = p.data;
  }
  return { id: r.id, name: r.name, status: r.status, startedAt: r.started_at, endedAt: r.ended_at, message: r.message, result };
}

export function getSuiteRow(db: Database, id: string): SuiteRow | null {
  const r = db.prepare('SELECT * FROM bench_suites WHERE id = ?').get(id) as Raw | undefined;
  return r ? rowOf(r) : null;
}

/** Newest first. */
export function listSuites(db: Database, limit = 50): SuiteRow[] {
  return (db.prepare('SELECT * FROM bench_suites ORDER BY started_at DESC, rowid DESC LIMIT ?').all(limit) as Raw[]).map(rowOf);
}

/** The newest suite that finished with at least one completed run (for the report). */
export function latestSuite(db: Database): SuiteResult | null {
  for (const r of listSuites(db, 20)) {
    if (r.result && r.result.runs.some((x) => x.result?.status === 'completed')) return r.result;
  }
  return null;
}

/**
 * Benchmark suites (server/src/bench/suite-runner.ts): one row per suite with its plan and, once
 * finished, its result (the runs' summaries side by side). The runs themselves stay in bench_runs,
 * each with its own journal; the suite row only needs the writer's identity so a suite left
 * `running` by a killed process is recognised and closed at the next start.
 */
import type { Migration } from '../migration.ts';

const migration: Migration = {
  version: 6,
  name: 'bench-suites',
  up(db) {
    db.exec(`
      CREATE TABLE bench_suites (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'stopped', 'canceled', 'failed', 'refused', 'aborted')),
        started_at TEXT NOT NULL,
        ended_at TEXT,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        boot_id TEXT,
        proc_start TEXT,
        plan_json TEXT NOT NULL,
        result_json TEXT,
        message TEXT
      );
      CREATE INDEX bench_suites_started ON bench_suites(started_at);
    `);
  },
};

export default migration;

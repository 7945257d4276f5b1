/**
 * Benchmark tables: runs (one row per request, refused ones included), their progress samples,
 * the one-benchmark-per-host lock, and the journal of everything a run creates.
 * The journal row is written BEFORE the dataset/directory/process exists, so a run killed at any
 * point leaves a record of what to remove (see server/src/bench/recover.ts).
 */
import type { Migration } from '../migration.ts';

const migration: Migration = {
  version: 2,
  name: 'benchmarks',
  up(db) {
    db.exec(`
      CREATE TABLE bench_runs (
        id TEXT PRIMARY KEY,
        profile TEXT NOT NULL,
        target_kind TEXT NOT NULL CHECK (target_kind IN ('dataset', 'path', 'device')),
        target TEXT NOT NULL,
        pool TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'aborted', 'failed', 'refused')),
        started_at TEXT NOT NULL,
        ended_at TEXT,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        sync_mode TEXT,
        size_bytes INTEGER NOT NULL,
        runtime_s INTEGER NOT NULL,
        topology_fingerprint TEXT,
        summary_json TEXT,
        detail_json TEXT,
        message TEXT
      );
      CREATE INDEX bench_runs_pool_profile ON bench_runs(pool, profile, started_at);
      CREATE INDEX bench_runs_status ON bench_runs(status);

      CREATE TABLE bench_samples (
        run_id TEXT NOT NULL REFERENCES bench_runs(id) ON DELETE CASCADE,
        t_s REAL NOT NULL,
        phase TEXT NOT NULL,
        pct REAL NOT NULL,
        iops REAL,
        latency_us REAL,
        load1 REAL,
        pool_write_wait_ns REAL
      );
      CREATE INDEX bench_samples_run ON bench_samples(run_id, t_s);

      CREATE TABLE bench_lock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        run_id TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        profile TEXT NOT NULL,
        target TEXT NOT NULL,
        acquired_at TEXT NOT NULL
      );

      CREATE TABLE bench_journal (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL REFERENCES bench_runs(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('dataset', 'directory', 'process')),
        path TEXT NOT NULL,
        created_at TEXT NOT NULL,
        removed_at TEXT
      );
      CREATE INDEX bench_journal_run ON bench_journal(run_id);
    `);
  },
};

export default migration;

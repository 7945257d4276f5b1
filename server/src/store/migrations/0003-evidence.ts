/**
 * Measured evidence per host: workload observations (their fingerprints, issue 10) and size
 * measurements (their histograms, issue 8). A row is written when the job starts (status
 * 'running') and completed in place, so the history shows running jobs too; rows still 'running'
 * when the server starts were interrupted and are marked failed (evidence-repo.ts).
 * The fingerprint and histogram documents are zlib-compressed JSON, like the inventories.
 */
import type { Migration } from '../migration.ts';

const migration: Migration = {
  version: 3,
  name: 'evidence',
  up(db) {
    db.exec(`
      CREATE TABLE workload_observations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'scheduled')),
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'canceled')),
        started_at TEXT NOT NULL,
        ended_at TEXT,
        duration_s INTEGER NOT NULL,
        interval_s INTEGER NOT NULL,
        pools_json TEXT,
        fingerprint_gz BLOB,
        summary_json TEXT NOT NULL DEFAULT '[]',
        commands_json TEXT NOT NULL DEFAULT '[]',
        message TEXT
      );
      CREATE INDEX workload_observations_host ON workload_observations(host_id, id);
      CREATE INDEX workload_observations_status ON workload_observations(status);

      CREATE TABLE size_measurements (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'canceled')),
        target TEXT NOT NULL,
        path TEXT,
        dataset TEXT,
        pool TEXT,
        recordsize INTEGER,
        ashift INTEGER,
        low_priority INTEGER NOT NULL DEFAULT 0,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        histogram_gz BLOB,
        stats_json TEXT,
        message TEXT
      );
      CREATE INDEX size_measurements_host ON size_measurements(host_id, id);
      CREATE INDEX size_measurements_status ON size_measurements(status);
    `);
  },
};

export default migration;

/**
 * Closing the loop (issue 34 §2): the pairs "forecast X (range), measured Y" the app recorded
 * after a log or special vdev was added and the same probe ran again (optane/outcome.ts). One row
 * per re-probe run (`after_run_id`), so recording the same pair twice keeps one. The document is
 * the LoopOutcome as JSON (forecast with range and basis, before/after runs, what changed).
 *
 * Version 10: 8 and 9 are left for migrations written in parallel this round (gaps are allowed).
 */
import type { Migration } from '../migration.ts';

const migration: Migration = {
  version: 10,
  name: 'loop-outcomes',
  up(db) {
    db.exec(`
      CREATE TABLE loop_outcomes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        pool TEXT NOT NULL,
        after_run_id TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        outcome_json TEXT NOT NULL,
        UNIQUE (host_id, after_run_id)
      );
      CREATE INDEX loop_outcomes_host ON loop_outcomes(host_id, id);
    `);
  },
};

export default migration;

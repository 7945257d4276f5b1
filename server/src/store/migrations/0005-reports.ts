/**
 * Stored reports: every report the API generates is kept (compressed, in the `reports` table of
 * 0001) with what a person needs to find and check it later — the file name it was served under,
 * its size and SHA-256 — and pruned per host by the `retention.reportsPerHost` setting.
 *
 * Version 5 (not 4): 0004 is reserved for a migration being written in parallel; gaps in the
 * version sequence are allowed (versions only have to be unique and ascending).
 */
import type { Migration } from '../migration.ts';

const migration: Migration = {
  version: 5,
  name: 'reports',
  up(db) {
    db.exec(`
      ALTER TABLE reports ADD COLUMN file_name TEXT NOT NULL DEFAULT '';
      ALTER TABLE reports ADD COLUMN size_bytes INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE reports ADD COLUMN sha256 TEXT NOT NULL DEFAULT '';
      CREATE INDEX reports_host ON reports(host_id, id);
    `);
  },
};

export default migration;

/**
 * The core tables. Large JSON documents (inventories, raw outputs, assessments, report bodies)
 * are stored zlib-compressed in BLOB columns (`*_gz`); the columns the API filters or sorts on
 * are kept beside them in plain form.
 *
 * Secrets (remote hosts' API keys and tokens) are NOT in this database: they live in a 0600
 * file in the data directory (see `secrets.ts`), so a copy of the database, a snapshot or a
 * report never carries one. `hosts.has_secret` only says whether one is stored.
 */
import type { Migration } from '../migration.ts';

const migration: Migration = {
  version: 1,
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE hosts (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('local', 'demo', 'truenas', 'proxmox')),
        name TEXT NOT NULL,
        address TEXT,
        port INTEGER,
        node TEXT,
        verify_tls INTEGER NOT NULL DEFAULT 1,
        pinned_fingerprint TEXT,
        has_secret INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE inventory_snapshots (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        captured_at TEXT NOT NULL,
        source_kind TEXT NOT NULL,
        demo INTEGER NOT NULL DEFAULT 0,
        inventory_gz BLOB NOT NULL,
        raw_gz BLOB,
        created_at TEXT NOT NULL
      );
      CREATE INDEX inventory_snapshots_host ON inventory_snapshots(host_id, id);

      CREATE TABLE assessments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        snapshot_id INTEGER REFERENCES inventory_snapshots(id) ON DELETE SET NULL,
        generated_at TEXT NOT NULL,
        rule_catalog_version TEXT NOT NULL,
        trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'scheduled', 'startup')),
        counts_json TEXT NOT NULL,
        assessment_gz BLOB NOT NULL
      );
      CREATE INDEX assessments_host ON assessments(host_id, id);

      CREATE TABLE findings (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        assessment_id INTEGER NOT NULL REFERENCES assessments(id) ON DELETE CASCADE,
        host_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        rule_id TEXT NOT NULL,
        severity TEXT NOT NULL,
        pool TEXT,
        title TEXT NOT NULL,
        finding_json TEXT NOT NULL
      );
      CREATE INDEX findings_assessment ON findings(assessment_id);
      CREATE INDEX findings_host_fingerprint ON findings(host_id, fingerprint);

      -- Keyed by the finding's fingerprint (rule + subject + evidence): when the evidence
      -- changes the fingerprint changes and the finding shows again.
      CREATE TABLE finding_acks (
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('acknowledged', 'dismissed')),
        note TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (host_id, fingerprint)
      );

      CREATE TABLE reports (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        assessment_id INTEGER REFERENCES assessments(id) ON DELETE SET NULL,
        format TEXT NOT NULL,
        redacted INTEGER NOT NULL,
        content_type TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body_gz BLOB NOT NULL
      );

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE scheduled_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id TEXT NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
        assessment_id INTEGER REFERENCES assessments(id) ON DELETE SET NULL,
        new_fingerprints_json TEXT NOT NULL DEFAULT '[]',
        resolved_fingerprints_json TEXT NOT NULL DEFAULT '[]',
        error TEXT
      );
      CREATE INDEX scheduled_runs_host ON scheduled_runs(host_id, id);
    `);
  },
};

export default migration;

/**
 * Evidence belongs to the machine it measured: every benchmark run, workload observation and
 * size measurement records the hashed id of the machine that made it (host-identity.ts). A report
 * includes only the evidence of the host it describes — never this machine's runs in the demo's
 * or a snapshot's report. Rows written before this migration have no id (NULL): they can only
 * have been measured where the store lives, so a live report of this machine still shows them.
 */
import type { Migration } from '../migration.ts';

const migration: Migration = {
  version: 7,
  name: 'evidence-machine',
  up(db) {
    db.exec(`
      ALTER TABLE bench_runs ADD COLUMN machine_id TEXT;
      ALTER TABLE workload_observations ADD COLUMN machine_id TEXT;
      ALTER TABLE size_measurements ADD COLUMN machine_id TEXT;
      CREATE INDEX bench_runs_machine ON bench_runs(machine_id);
    `);
  },
};

export default migration;

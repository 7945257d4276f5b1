/**
 * Process identity for benchmark runs and the lock (additive): the boot id and the process start
 * time next to the pid, so a pid reused after a reboot or by another process is not mistaken for
 * the benchmark that wrote the row (server/src/bench/process-identity.ts). Null in older rows:
 * those fall back to the pid check alone.
 */
import type { Migration } from '../migration.ts';

const migration: Migration = {
  version: 4,
  name: 'bench-boot',
  up(db) {
    db.exec(`
      ALTER TABLE bench_runs ADD COLUMN boot_id TEXT;
      ALTER TABLE bench_runs ADD COLUMN proc_start TEXT;
      ALTER TABLE bench_lock ADD COLUMN boot_id TEXT;
      ALTER TABLE bench_lock ADD COLUMN proc_start TEXT;
    `);
  },
};

export default migration;

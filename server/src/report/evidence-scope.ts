/**
 * Which measured evidence a report may show: only what was measured on the host the report
 * describes. A live inventory of this machine gets this machine's runs (and runs stored before
 * runs carried a machine id, which can only have been made here); the demo, a snapshot and a
 * remote host get none of this machine's — their evidence is not in this store.
 */
import type { Database } from 'better-sqlite3';
import type { Inventory } from '../model/inventory.ts';
import { localMachineId } from '../host-identity.ts';

/** The machine whose stored evidence belongs in a report of `inv`, or null for none. */
export function evidenceMachineOf(inv: Pick<Inventory, 'source'>, machineId: () => string = localMachineId): string | null {
  return inv.source.kind === 'local' && !inv.source.demo ? machineId() : null;
}

/** Ids of the stored benchmark runs another machine measured (rows without an id predate the column: this machine's). */
export function benchRunIdsNotOf(db: Database, machineId: string): Set<string> {
  const rows = db.prepare('SELECT id FROM bench_runs WHERE machine_id IS NOT NULL AND machine_id != ?').all(machineId) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/** The runs of `runs` (history rows or summaries, by `id`) that belong in a report of `inv`. */
export function runsForReport<T extends { id: string }>(db: Database, inv: Pick<Inventory, 'source'>, runs: readonly T[], machineId?: () => string): T[] {
  const machine = evidenceMachineOf(inv, machineId);
  if (!machine) return [];
  const foreign = benchRunIdsNotOf(db, machine);
  return runs.filter((r) => !foreign.has(r.id));
}

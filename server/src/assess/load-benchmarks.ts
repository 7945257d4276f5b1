/**
 * The stored benchmark runs measured on the host an assessment describes: this machine's for a
 * live inventory of it, none for the demo, a snapshot or a remote host (report/evidence-scope.ts).
 * Never creates a store. Shared by `report` and by `assess`/`optane`, so the Optane verdict uses
 * the probe the app just ran in the same data directory ("measure before forecasting").
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Inventory } from '../model/inventory.ts';
import { evidenceMachineOf, runsForReport } from '../report/evidence-scope.ts';

export type Loaded<T> = { ok: true; value: T } | { ok: false; message: string };

export async function benchmarksFromStore(dataDir: string, inventory: Pick<Inventory, 'source'>): Promise<Loaded<unknown[]>> {
  if (!evidenceMachineOf(inventory)) return { ok: true, value: [] };
  const { DB_FILE_NAME, openStore } = await import('../store/db.ts');
  if (!existsSync(join(dataDir, DB_FILE_NAME))) return { ok: true, value: [] };
  const opened = await openStore(dataDir);
  if (!opened.ok) return { ok: false, message: `${join(dataDir, DB_FILE_NAME)}: ${opened.error.message}` };
  try {
    const { history } = await import('../bench/run.ts');
    return { ok: true, value: runsForReport(opened.store.db, inventory, history(opened.store.db, {})) };
  } finally {
    opened.store.close();
  }
}

/**
 * Size measurements made by the CLI, kept in the same evidence store the server uses
 * (`<data dir>/zfs-advisor.db`, table size_measurements), so the server's assessment (newest
 * histogram per dataset → `SizeHistograms`), the UI's "past measurements" and the CLI `assess`
 * all see them.
 *
 * A measurement of this machine belongs to the store's `local` host: the first host of kind
 * 'local', created as the server would create it ("This machine") when the store has none.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SizeHistogram } from '../model/workload.ts';
import { DB_FILE_NAME } from '../store/db.ts';
import { createEvidenceRepo } from '../store/evidence-repo.ts';
import { createHostsRepo } from '../store/hosts-repo.ts';
import { ensureLocalHost, localHostOf, withStore } from '../store/cli-store.ts';

export { localHostOf } from '../store/cli-store.ts';

export interface MeasurementToSave {
  histogram: SizeHistogram;
  /** Walk statistics (files, dirs, errors …) or the commands zdb ran; shown in the UI as is. */
  stats: Record<string, unknown> | null;
  path: string | null;
  lowPriority: boolean;
  startedAt: string;
  endedAt: string;
}

export type SaveOutcome = { ok: true; ids: number[]; hostId: string; file: string } | { ok: false; message: string };
export type StoredHistogramsOutcome = { ok: true; histograms: SizeHistogram[]; hostId: string | null } | { ok: false; message: string };

/** Size measurements kept per host (same bound as the server's sizes job). */
const KEEP_PER_HOST = 500;

/** Stores completed measurements (a walk, and a zdb histogram beside it) for the local host, in one transaction. */
export async function saveMeasurements(dataDir: string, measurements: readonly MeasurementToSave[]): Promise<SaveOutcome> {
  const r = await withStore(dataDir, (store) => store.db.transaction(() => {
    const host = ensureLocalHost(store);
    const evidence = createEvidenceRepo(store.db);
    const ids = measurements.map((m) => {
      const h = m.histogram;
      const id = evidence.addSizes({
        hostId: host.id, target: h.target, path: m.path, dataset: h.dataset, pool: h.pool,
        recordsize: h.recordsize, ashift: h.ashift, lowPriority: m.lowPriority, startedAt: m.startedAt,
      });
      evidence.finishSizes(id, { status: 'completed', endedAt: m.endedAt, histogram: h, stats: m.stats, message: null });
      return id;
    });
    evidence.prune(host.id, KEEP_PER_HOST);
    return { ids, hostId: host.id, file: store.file };
  })());
  return r.ok ? { ok: true, ...r.value } : r;
}

/**
 * The newest completed histogram per dataset (per directory or pool when no dataset is known) of
 * the local host, newest first — what the server passes to the rules as `SizeHistograms`.
 * A data directory without a store yet is not an error: there is nothing measured ([]); the store
 * is not created by reading.
 */
export async function newestStoredHistograms(dataDir: string): Promise<StoredHistogramsOutcome> {
  if (!existsSync(join(dataDir, DB_FILE_NAME))) return { ok: true, histograms: [], hostId: null };
  const r = await withStore(dataDir, (store) => {
    const host = localHostOf(createHostsRepo(store.db).list());
    return host ? { histograms: createEvidenceRepo(store.db).newestHistograms(host.id), hostId: host.id } : { histograms: [], hostId: null };
  });
  return r.ok ? { ok: true, ...r.value } : r;
}

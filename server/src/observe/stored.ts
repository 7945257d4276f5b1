/**
 * Workload observations made by the CLI, kept in the same evidence store the server uses
 * (`<data dir>/zfs-advisor.db`, table workload_observations), so `zfs-advisor observe` feeds the
 * server's assessment, the UI's history, and the CLI's `assess` / `optane`.
 *
 * An observation of this machine belongs to the store's local host: the first host of kind 'local'
 * (sizing/stored.ts `localHostOf`), created as the server would create it ("This machine") when
 * the store has none. Reading never creates a store.
 */
import { localMachineId } from '../host-identity.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkloadFingerprint } from '../model/workload.ts';
import { DB_FILE_NAME } from '../store/db.ts';
import { createEvidenceRepo } from '../store/evidence-repo.ts';
import { createHostsRepo } from '../store/hosts-repo.ts';
import { ensureLocalHost, localHostOf, withStore } from '../store/cli-store.ts';
import type { ObserveResult } from './collect.ts';
import { summariseFingerprint } from './summary.ts';

/** A stored fingerprint older than this is not used by the CLI (the server's default maxAgeDays). */
export const FINGERPRINT_MAX_AGE_DAYS = 7;
/** Observations kept per host (the server's observe job keeps the same number). */
const KEEP_PER_HOST = 500;

export type SaveObservationOutcome = { ok: true; id: number; hostId: string; file: string } | { ok: false; message: string };
export type StoredFingerprintOutcome =
  | { ok: true; fingerprint: WorkloadFingerprint | null; hostId: string | null; file: string | null }
  | { ok: false; message: string };

/** Stores a completed live observation for the local host (trigger 'manual'), in one transaction. */
export async function saveObservation(
  dataDir: string,
  r: Pick<ObserveResult, 'fingerprint' | 'commands'>,
  req: { durationS: number; intervalS: number; pools: string[] | null },
): Promise<SaveObservationOutcome> {
  const fp = r.fingerprint;
  const out = await withStore(dataDir, (store) => store.db.transaction(() => {
    const host = ensureLocalHost(store);
    const evidence = createEvidenceRepo(store.db);
    const id = evidence.addObservation({ hostId: host.id, trigger: 'manual', startedAt: fp.startedAt, durationS: req.durationS, intervalS: req.intervalS, pools: req.pools });
    evidence.finishObservation(id, { status: 'completed', endedAt: fp.endedAt, fingerprint: fp, summary: summariseFingerprint(fp), commands: r.commands, message: null });
    evidence.prune(host.id, KEEP_PER_HOST);
    return { id, hostId: host.id, file: store.file };
  })());
  return out.ok ? { ok: true, ...out.value } : out;
}

/**
 * The local host's newest completed fingerprint whose window ended less than `maxAgeDays` before
 * `now`, or null. A data directory without a store is "nothing observed", not an error.
 */
export async function newestStoredFingerprint(dataDir: string, now: number = Date.now(), maxAgeDays = FINGERPRINT_MAX_AGE_DAYS): Promise<StoredFingerprintOutcome> {
  if (!existsSync(join(dataDir, DB_FILE_NAME))) return { ok: true, fingerprint: null, hostId: null, file: null };
  const r = await withStore(dataDir, (store) => {
    const host = localHostOf(createHostsRepo(store.db).list());
    const fingerprint = host ? createEvidenceRepo(store.db).freshFingerprint(host.id, maxAgeDays * 24 * 3600_000, now, localMachineId()) : null;
    return { fingerprint, hostId: host?.id ?? null, file: store.file };
  });
  return r.ok ? { ok: true, ...r.value } : r;
}

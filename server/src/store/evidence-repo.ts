/**
 * Measured evidence of each host (tables from migrations/0003-evidence.ts): workload
 * observations with their fingerprints, and size measurements with their histograms.
 *
 * The assessment reads from here: the newest completed fingerprint younger than the configured
 * age, and the newest completed histogram per dataset (or directory, when no dataset is known).
 */
import type { Database } from 'better-sqlite3';
import { SizeHistogram, WorkloadFingerprint } from '../model/workload.ts';
import type { EvidenceJobStatus, ObservationRecord, SizesRecord } from '../api/evidence-schemas.ts';
import { packJson, unpackJson } from './compress.ts';
import { localMachineId } from '../host-identity.ts';

export type FinishedStatus = Exclude<EvidenceJobStatus, 'running'>;

interface ObservationRow {
  id: number; host_id: string; trigger: 'manual' | 'scheduled'; status: EvidenceJobStatus; started_at: string; ended_at: string | null;
  duration_s: number; interval_s: number; pools_json: string | null; fingerprint_gz: Buffer | null; summary_json: string;
  commands_json: string; message: string | null;
}

interface SizesRow {
  id: number; host_id: string; status: EvidenceJobStatus; target: string; path: string | null; dataset: string | null; pool: string | null;
  recordsize: number | null; ashift: number | null; low_priority: number; started_at: string; ended_at: string | null;
  histogram_gz: Buffer | null; stats_json: string | null; message: string | null;
}

/** A stored document that no longer parses (schema drift, damage) reads as absent, with a message. */
function decode<T>(blob: Buffer | null, parse: (v: unknown) => { success: true; data: T } | { success: false }): T | null {
  if (!blob) return null;
  try {
    const r = parse(unpackJson(blob));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

function jsonArray(text: string | null): unknown[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export const INTERRUPTED_MESSAGE = 'interrupted: the server stopped while this job was running';

export function createEvidenceRepo(db: Database) {
  // machine_id: the machine that measured it (migration 0007); reports of other hosts leave it out.
  const insObservation = db.prepare(`INSERT INTO workload_observations (host_id, trigger, status, started_at, duration_s, interval_s, pools_json, machine_id)
    VALUES (?, ?, 'running', ?, ?, ?, ?, ?)`);
  const finObservation = db.prepare(`UPDATE workload_observations SET status = ?, ended_at = ?, fingerprint_gz = ?, summary_json = ?, commands_json = ?, message = ?
    WHERE id = ? AND status = 'running'`);
  const observationById = db.prepare('SELECT * FROM workload_observations WHERE id = ?');
  const observationsOf = db.prepare('SELECT * FROM workload_observations WHERE host_id = ? ORDER BY id DESC LIMIT ?');
  const newestCompletedObservation = db.prepare(`SELECT * FROM workload_observations WHERE host_id = ? AND status = 'completed' AND fingerprint_gz IS NOT NULL
    ORDER BY id DESC LIMIT 1`);
  const newestCompletedObservationOn = db.prepare(`SELECT * FROM workload_observations WHERE host_id = ? AND status = 'completed' AND fingerprint_gz IS NOT NULL
    AND (machine_id = ? OR machine_id IS NULL) ORDER BY id DESC LIMIT 1`);
  const newestObservationStart = db.prepare('SELECT started_at FROM workload_observations WHERE host_id = ? ORDER BY id DESC LIMIT 1');

  const insSizes = db.prepare(`INSERT INTO size_measurements (host_id, status, target, path, dataset, pool, recordsize, ashift, low_priority, started_at, machine_id)
    VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const finSizes = db.prepare(`UPDATE size_measurements SET status = ?, ended_at = ?, histogram_gz = ?, stats_json = ?, message = ?, dataset = coalesce(?, dataset), pool = coalesce(?, pool)
    WHERE id = ? AND status = 'running'`);
  const sizesById = db.prepare('SELECT * FROM size_measurements WHERE id = ?');
  const sizesOf = db.prepare('SELECT * FROM size_measurements WHERE host_id = ? ORDER BY id DESC LIMIT ?');
  const completedSizesOf = db.prepare(`SELECT * FROM size_measurements WHERE host_id = ? AND status = 'completed' AND histogram_gz IS NOT NULL ORDER BY id DESC`);

  const interruptObservations = db.prepare(`UPDATE workload_observations SET status = 'failed', ended_at = ?, message = ? WHERE status = 'running'`);
  const interruptSizes = db.prepare(`UPDATE size_measurements SET status = 'failed', ended_at = ?, message = ? WHERE status = 'running'`);
  const pruneObservations = db.prepare(`DELETE FROM workload_observations WHERE host_id = ? AND status != 'running' AND id NOT IN
    (SELECT id FROM workload_observations WHERE host_id = ? ORDER BY id DESC LIMIT ?)`);
  const pruneSizes = db.prepare(`DELETE FROM size_measurements WHERE host_id = ? AND status != 'running' AND id NOT IN
    (SELECT id FROM size_measurements WHERE host_id = ? ORDER BY id DESC LIMIT ?)`);

  const observationOf = (r: ObservationRow): ObservationRecord => ({
    id: r.id, hostId: r.host_id, trigger: r.trigger, status: r.status, startedAt: r.started_at, endedAt: r.ended_at,
    durationS: r.duration_s, intervalS: r.interval_s,
    pools: r.pools_json ? (jsonArray(r.pools_json).filter((x): x is string => typeof x === 'string')) : null,
    progress: null,
    fingerprint: decode(r.fingerprint_gz, (v) => WorkloadFingerprint.safeParse(v)),
    summary: jsonArray(r.summary_json).filter((x): x is string => typeof x === 'string'),
    commands: jsonArray(r.commands_json).filter((x): x is ObservationRecord['commands'][number] =>
      typeof x === 'object' && x !== null && typeof (x as { command?: unknown }).command === 'string'),
    message: r.message,
  });

  const sizesRecordOf = (r: SizesRow): SizesRecord => {
    let stats: Record<string, unknown> | null = null;
    if (r.stats_json) {
      try {
        const v = JSON.parse(r.stats_json) as unknown;
        if (typeof v === 'object' && v !== null && !Array.isArray(v)) stats = v as Record<string, unknown>;
      } catch { /* damaged: shown as absent */ }
    }
    return {
      id: r.id, hostId: r.host_id, status: r.status, target: r.target, path: r.path, dataset: r.dataset, pool: r.pool,
      recordsize: r.recordsize, ashift: r.ashift, lowPriority: r.low_priority === 1, startedAt: r.started_at, endedAt: r.ended_at,
      progress: null, histogram: decode(r.histogram_gz, (v) => SizeHistogram.safeParse(v)), stats, message: r.message,
    };
  };

  return {
    // ---- observations
    addObservation(o: { hostId: string; trigger: 'manual' | 'scheduled'; startedAt: string; durationS: number; intervalS: number; pools: string[] | null }): number {
      return Number(insObservation.run(o.hostId, o.trigger, o.startedAt, o.durationS, o.intervalS, o.pools ? JSON.stringify(o.pools) : null, localMachineId()).lastInsertRowid);
    },
    finishObservation(id: number, f: { status: FinishedStatus; endedAt: string; fingerprint: WorkloadFingerprint | null; summary: string[]; commands: ObservationRecord['commands']; message: string | null }): void {
      finObservation.run(f.status, f.endedAt, f.fingerprint ? packJson(f.fingerprint) : null, JSON.stringify(f.summary), JSON.stringify(f.commands), f.message, id);
    },
    getObservation(id: number): ObservationRecord | null {
      const r = observationById.get(id) as ObservationRow | undefined;
      return r ? observationOf(r) : null;
    },
    listObservations(hostId: string, limit = 50): ObservationRecord[] {
      return (observationsOf.all(hostId, limit) as ObservationRow[]).map(observationOf);
    },
    /** When the newest observation of a host (any status) started, for the schedule. */
    lastObservationStart(hostId: string): string | null {
      return (newestObservationStart.get(hostId) as { started_at: string } | undefined)?.started_at ?? null;
    },
    /** The newest completed fingerprint whose window ended less than `maxAgeMs` before `now`. */
    /** `machineId`: only what that machine measured (the local host's rows; rows older than the column count as its). */
    freshFingerprint(hostId: string, maxAgeMs: number, now: number, machineId?: string): WorkloadFingerprint | null {
      const r = (machineId ? newestCompletedObservationOn.get(hostId, machineId) : newestCompletedObservation.get(hostId)) as ObservationRow | undefined;
      if (!r) return null;
      const fp = decode(r.fingerprint_gz, (v) => WorkloadFingerprint.safeParse(v));
      if (!fp) return null;
      const ended = Date.parse(fp.endedAt);
      return Number.isFinite(ended) && now - ended <= maxAgeMs ? fp : null;
    },

    // ---- size measurements
    addSizes(s: { hostId: string; target: string; path: string | null; dataset: string | null; pool: string | null; recordsize: number | null; ashift: number | null; lowPriority: boolean; startedAt: string }): number {
      return Number(insSizes.run(s.hostId, s.target, s.path, s.dataset, s.pool, s.recordsize, s.ashift, s.lowPriority ? 1 : 0, s.startedAt, localMachineId()).lastInsertRowid);
    },
    finishSizes(id: number, f: { status: FinishedStatus; endedAt: string; histogram: SizeHistogram | null; stats: Record<string, unknown> | null; message: string | null }): void {
      finSizes.run(f.status, f.endedAt, f.histogram ? packJson(f.histogram) : null, f.stats ? JSON.stringify(f.stats) : null, f.message,
        f.histogram?.dataset ?? null, f.histogram?.pool ?? null, id);
    },
    getSizes(id: number): SizesRecord | null {
      const r = sizesById.get(id) as SizesRow | undefined;
      return r ? sizesRecordOf(r) : null;
    },
    listSizes(hostId: string, limit = 50): SizesRecord[] {
      return (sizesOf.all(hostId, limit) as SizesRow[]).map(sizesRecordOf);
    },
    /** The newest completed histogram per dataset (per directory when the dataset is unknown), newest first. */
    newestHistograms(hostId: string): SizeHistogram[] {
      const seen = new Set<string>();
      const out: SizeHistogram[] = [];
      for (const r of completedSizesOf.iterate(hostId) as IterableIterator<SizesRow>) {
        const key = r.dataset ?? `path:${r.path ?? r.target}`;
        if (seen.has(key)) continue;
        const h = decode(r.histogram_gz, (v) => SizeHistogram.safeParse(v));
        if (!h) continue;
        seen.add(key);
        out.push(h);
      }
      return out;
    },

    // ---- housekeeping
    /** Marks jobs left 'running' by a previous process as failed; returns how many. */
    interruptRunning(now: string): number {
      return db.transaction(() => interruptObservations.run(now, INTERRUPTED_MESSAGE).changes + interruptSizes.run(now, INTERRUPTED_MESSAGE).changes)();
    },
    prune(hostId: string, keepPerHost: number): void {
      db.transaction(() => {
        pruneObservations.run(hostId, hostId, keepPerHost);
        pruneSizes.run(hostId, hostId, keepPerHost);
      })();
    },
  };
}
export type EvidenceRepo = ReturnType<typeof createEvidenceRepo>;

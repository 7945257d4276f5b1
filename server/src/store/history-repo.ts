/**
 * What happened to a host over time: inventory snapshots (with their raw outputs, compressed),
 * assessments and their findings, acknowledgements keyed by finding fingerprint, and the
 * scheduled re-assessment runs with the findings each one added and resolved.
 */
import type { Database } from 'better-sqlite3';
import { Assessment, Finding, SEVERITY_ORDER, type Severity } from '../model/finding.ts';
import { Inventory } from '../model/inventory.ts';
import type { Ack, AssessmentSummary, Counts, RunRecord } from '../api/schemas.ts';
import { packJson, unpackJson } from './compress.ts';
import type { PackedFinding, ThreadOutcome } from '../jobs/assess-thread-protocol.ts';

export type AssessmentTrigger = 'manual' | 'scheduled' | 'startup';

export interface StoredSnapshot {
  id: number;
  hostId: string;
  capturedAt: string;
  inventory: Inventory;
}

export interface StoredAssessment extends AssessmentSummary {
  snapshotId: number | null;
  ruleCatalogVersion: string;
  assessment: Assessment;
  /** Whatever the Optane verdict was, as JSON (schema owned by server/src/optane). */
  optane: unknown;
}

interface AssessmentRowDb {
  id: number; host_id: string; snapshot_id: number | null; generated_at: string; rule_catalog_version: string;
  trigger: AssessmentTrigger; counts_json: string; assessment_gz: Buffer;
}

export function emptyCounts(): Counts {
  return { critical: 0, warning: 0, suggestion: 0, info: 0 };
}

export function createHistoryRepo(db: Database) {
  const insSnapshot = db.prepare(`INSERT INTO inventory_snapshots (host_id, captured_at, source_kind, demo, inventory_gz, raw_gz, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const latestSnapshotRef = db.prepare('SELECT id, captured_at FROM inventory_snapshots WHERE host_id = ? ORDER BY id DESC LIMIT 1');
  const snapshotBlob = db.prepare('SELECT captured_at, inventory_gz FROM inventory_snapshots WHERE id = ? AND host_id = ?');
  const assessmentBlob = db.prepare('SELECT generated_at, snapshot_id, assessment_gz FROM assessments WHERE id = ? AND host_id = ?');
  const assessmentMeta = db.prepare('SELECT id, host_id, snapshot_id, generated_at, rule_catalog_version, trigger, counts_json FROM assessments WHERE id = ?');
  const latestAssessmentRef = db.prepare('SELECT id, generated_at FROM assessments WHERE host_id = ? ORDER BY id DESC LIMIT 1');
  const snapshotById = db.prepare('SELECT id, host_id, captured_at, inventory_gz, raw_gz FROM inventory_snapshots WHERE id = ?');
  const insAssessment = db.prepare(`INSERT INTO assessments (host_id, snapshot_id, generated_at, rule_catalog_version, trigger, counts_json, assessment_gz)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insFinding = db.prepare(`INSERT INTO findings (assessment_id, host_id, fingerprint, rule_id, severity, pool, title, finding_json)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const listAssessments = db.prepare('SELECT id, host_id, snapshot_id, generated_at, rule_catalog_version, trigger, counts_json FROM assessments WHERE host_id = ? ORDER BY id DESC LIMIT ?');
  const assessmentById = db.prepare('SELECT * FROM assessments WHERE id = ?');
  const assessmentExists = db.prepare('SELECT 1 FROM assessments WHERE id = ?');
  const demoOfSnapshot = db.prepare('SELECT demo FROM inventory_snapshots WHERE id = ?');
  const findingsOf = db.prepare('SELECT finding_json FROM findings WHERE assessment_id = ? ORDER BY id');
  const fingerprintsOf = db.prepare('SELECT fingerprint FROM findings WHERE assessment_id = ?');
  const firstSeen = db.prepare(`SELECT f.fingerprint AS fingerprint, min(a.generated_at) AS first FROM findings f JOIN assessments a ON a.id = f.assessment_id
    WHERE f.host_id = ? GROUP BY f.fingerprint`);
  const acksOf = db.prepare('SELECT fingerprint, state, note, created_at FROM finding_acks WHERE host_id = ?');
  const upsertAck = db.prepare(`INSERT INTO finding_acks (host_id, fingerprint, state, note, created_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(host_id, fingerprint) DO UPDATE SET state = excluded.state, note = excluded.note, created_at = excluded.created_at`);
  const deleteAck = db.prepare('DELETE FROM finding_acks WHERE host_id = ? AND fingerprint = ?');
  const fingerprintKnown = db.prepare('SELECT 1 FROM findings WHERE host_id = ? AND fingerprint = ? LIMIT 1');
  const insRun = db.prepare(`INSERT INTO scheduled_runs (host_id, started_at, finished_at, status, assessment_id, new_fingerprints_json, resolved_fingerprints_json, error)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const listRuns = db.prepare('SELECT * FROM scheduled_runs WHERE host_id = ? ORDER BY id DESC LIMIT ?');
  const pruneSnapshots = db.prepare(`DELETE FROM inventory_snapshots WHERE host_id = ? AND id NOT IN
    (SELECT id FROM inventory_snapshots WHERE host_id = ? ORDER BY id DESC LIMIT ?)`);
  const pruneAssessments = db.prepare(`DELETE FROM assessments WHERE host_id = ? AND id NOT IN
    (SELECT id FROM assessments WHERE host_id = ? ORDER BY id DESC LIMIT ?)`);
  const pruneRuns = db.prepare(`DELETE FROM scheduled_runs WHERE host_id = ? AND id NOT IN
    (SELECT id FROM scheduled_runs WHERE host_id = ? ORDER BY id DESC LIMIT ?)`);

  const isDemo = (snapshotId: number | null): boolean =>
    snapshotId !== null && ((demoOfSnapshot.get(snapshotId) as { demo: number } | undefined)?.demo ?? 0) === 1;

  const summaryOf = (r: Omit<AssessmentRowDb, 'assessment_gz'>): AssessmentSummary => ({
    id: r.id, hostId: r.host_id, generatedAt: r.generated_at, trigger: r.trigger,
    counts: { ...emptyCounts(), ...(JSON.parse(r.counts_json) as Counts) }, demo: isDemo(r.snapshot_id),
  });

  // Stored assessments never change: keep the few newest parsed ones (inflate + zod parse of a
  // whole assessment is the cost of every findings request otherwise).
  const parsed = new Map<number, StoredAssessment>();
  const parsedSnapshots = new Map<string, StoredSnapshot>();
  const SNAPSHOT_CACHE_SIZE = 4;
  const CACHE_SIZE = 16;
  const latestId = db.prepare('SELECT id FROM assessments WHERE host_id = ? ORDER BY id DESC LIMIT 1');
  const remember = (full: StoredAssessment): StoredAssessment => {
    parsed.set(full.id, full);
    if (parsed.size > CACHE_SIZE) parsed.delete(parsed.keys().next().value!);
    return full;
  };
  const cached = (id: number): StoredAssessment | null => {
    const hit = parsed.get(id);
    if (hit) return hit;
    const r = assessmentById.get(id) as AssessmentRowDb | undefined;
    return r ? remember(fullOf(r)) : null;
  };

  const fullOf = (r: AssessmentRowDb): StoredAssessment => {
    const doc = unpackJson(r.assessment_gz) as { assessment: unknown; optane: unknown };
    return {
      ...summaryOf(r), snapshotId: r.snapshot_id, ruleCatalogVersion: r.rule_catalog_version,
      assessment: Assessment.parse(doc.assessment), optane: doc.optane ?? null,
    };
  };

  function addPackedSnapshot(hostId: string, p: ThreadOutcome['snapshot']): number {
    const info = insSnapshot.run(hostId, p.capturedAt, p.sourceKind, p.demo ? 1 : 0, p.inventoryGz, p.rawGz, new Date().toISOString());
    return Number(info.lastInsertRowid);
  }
  function addPackedAssessment(hostId: string, snapshotId: number | null, trigger: AssessmentTrigger,
    p: Pick<ThreadOutcome, 'assessment' | 'optane' | 'counts' | 'assessmentGz' | 'findings'>): number {
    const id = db.transaction(() => {
      const info = insAssessment.run(hostId, snapshotId, p.assessment.generatedAt, p.assessment.ruleCatalogVersion, trigger,
        JSON.stringify(p.counts), p.assessmentGz);
      const newId = Number(info.lastInsertRowid);
      for (const f of p.findings) insFinding.run(newId, hostId, f.fingerprint, f.ruleId, f.severity, f.pool, f.title, f.json);
      return newId;
    })();
    remember({
      id, hostId, generatedAt: p.assessment.generatedAt, trigger, counts: { ...emptyCounts(), ...p.counts }, demo: isDemo(snapshotId),
      snapshotId, ruleCatalogVersion: p.assessment.ruleCatalogVersion, assessment: p.assessment, optane: p.optane ?? null,
    });
    return id;
  }

  return {
    addSnapshot(hostId: string, inventory: Inventory, raw: unknown): number {
      return addPackedSnapshot(hostId, {
        capturedAt: inventory.source.capturedAt, sourceKind: inventory.source.kind, demo: inventory.source.demo,
        inventoryGz: packJson(inventory), rawGz: raw === undefined || raw === null ? null : packJson(raw),
      });
    },
    /** As addSnapshot, with the JSON already compressed (by the assessment worker). */
    addPackedSnapshot,
    /** The newest snapshot, parsed (the last few parsed ones are kept: snapshots never change). */
    latestSnapshot(hostId: string): StoredSnapshot | null {
      const ref = latestSnapshotRef.get(hostId) as { id: number; captured_at: string } | undefined;
      if (!ref) return null;
      const key = `${ref.id}@${ref.captured_at}`;
      const hit = parsedSnapshots.get(key);
      if (hit) return hit;
      const r = snapshotBlob.get(ref.id, hostId) as { captured_at: string; inventory_gz: Buffer } | undefined;
      if (!r) return null;
      const snap = { id: ref.id, hostId, capturedAt: r.captured_at, inventory: Inventory.parse(unpackJson(r.inventory_gz)) };
      parsedSnapshots.set(key, snap);
      if (parsedSnapshots.size > SNAPSHOT_CACHE_SIZE) parsedSnapshots.delete(parsedSnapshots.keys().next().value!);
      return snap;
    },
    /** The newest snapshot's id and time, without reading its inventory. */
    latestSnapshotRef(hostId: string): { id: number; capturedAt: string } | null {
      const r = latestSnapshotRef.get(hostId) as { id: number; captured_at: string } | undefined;
      return r ? { id: r.id, capturedAt: r.captured_at } : null;
    },
    /** A snapshot of this host: its time and stored (compressed) inventory JSON, or null. */
    snapshotBlob(hostId: string, snapshotId: number): { capturedAt: string; inventoryGz: Buffer } | null {
      const r = snapshotBlob.get(snapshotId, hostId) as { captured_at: string; inventory_gz: Buffer } | undefined;
      return r ? { capturedAt: r.captured_at, inventoryGz: r.inventory_gz } : null;
    },
    /** An assessment of this host: its time, demo flag and stored (compressed) JSON, or null. */
    assessmentBlob(hostId: string, assessmentId: number): { generatedAt: string; demo: boolean; assessmentGz: Buffer } | null {
      const r = assessmentBlob.get(assessmentId, hostId) as { generated_at: string; snapshot_id: number | null; assessment_gz: Buffer } | undefined;
      return r ? { generatedAt: r.generated_at, demo: isDemo(r.snapshot_id), assessmentGz: r.assessment_gz } : null;
    },
    /** An assessment's summary, snapshot and rule catalog, without reading the assessment. */
    assessmentSummary(assessmentId: number): (AssessmentSummary & { snapshotId: number | null; ruleCatalogVersion: string }) | null {
      const r = assessmentMeta.get(assessmentId) as Omit<AssessmentRowDb, 'assessment_gz'> | undefined;
      return r ? { ...summaryOf(r), snapshotId: r.snapshot_id, ruleCatalogVersion: r.rule_catalog_version } : null;
    },
    /** The newest assessment's id and time, without reading it. */
    latestAssessmentRef(hostId: string): { id: number; generatedAt: string } | null {
      const r = latestAssessmentRef.get(hostId) as { id: number; generated_at: string } | undefined;
      return r ? { id: r.id, generatedAt: r.generated_at } : null;
    },
    snapshotRaw(snapshotId: number): unknown {
      const r = snapshotById.get(snapshotId) as { raw_gz: Buffer | null } | undefined;
      return r?.raw_gz ? unpackJson(r.raw_gz) : null;
    },

    /** Stores an assessment and its findings in one transaction; returns its id. */
    addAssessment(hostId: string, snapshotId: number | null, assessment: Assessment, optane: unknown, trigger: AssessmentTrigger): number {
      return addPackedAssessment(hostId, snapshotId, trigger, {
        assessment, optane, counts: countBySeverity(assessment.findings),
        assessmentGz: packJson({ assessment, optane: optane ?? null }), findings: packFindings(assessment),
      });
    },
    /**
     * As addAssessment, with the JSON already compressed and serialised (by the assessment
     * worker). `assessment` was validated there, so it is kept as the parsed copy as it is.
     */
    addPackedAssessment,
    listAssessments(hostId: string, limit = 100): AssessmentSummary[] {
      return (listAssessments.all(hostId, limit) as Omit<AssessmentRowDb, 'assessment_gz'>[]).map(summaryOf);
    },
    latestAssessment(hostId: string): StoredAssessment | null {
      const r = latestId.get(hostId) as { id: number } | undefined;
      return r ? cached(r.id) : null;
    },
    latestAssessmentSummary(hostId: string): AssessmentSummary | null {
      const r = (listAssessments.all(hostId, 1) as Omit<AssessmentRowDb, 'assessment_gz'>[])[0];
      return r ? summaryOf(r) : null;
    },
    getAssessment(id: number): StoredAssessment | null {
      return cached(id);
    },
    /** The fingerprints of an assessment's findings, without reading the assessment. */
    fingerprintsOf(assessmentId: number): string[] {
      return (fingerprintsOf.all(assessmentId) as { fingerprint: string }[]).map((r) => r.fingerprint);
    },
    findingsOf(assessmentId: number): Finding[] {
      return (findingsOf.all(assessmentId) as { finding_json: string }[]).map((r) => Finding.parse(JSON.parse(r.finding_json)));
    },
    firstSeen(hostId: string): Map<string, string> {
      return new Map((firstSeen.all(hostId) as { fingerprint: string; first: string }[]).map((r) => [r.fingerprint, r.first]));
    },

    acks(hostId: string): Map<string, Ack> {
      const m = new Map<string, Ack>();
      for (const r of acksOf.all(hostId) as { fingerprint: string; state: Ack['state']; note: string | null; created_at: string }[]) {
        m.set(r.fingerprint, { state: r.state, note: r.note, createdAt: r.created_at });
      }
      return m;
    },
    /** Whether this host ever had a finding with this fingerprint (acks for unknown ones are refused). */
    knowsFingerprint(hostId: string, fingerprint: string): boolean {
      return fingerprintKnown.get(hostId, fingerprint) !== undefined;
    },
    setAck(hostId: string, fingerprint: string, state: Ack['state'], note: string | null): Ack {
      const createdAt = new Date().toISOString();
      upsertAck.run(hostId, fingerprint, state, note, createdAt);
      return { state, note, createdAt };
    },
    clearAck(hostId: string, fingerprint: string): boolean {
      return deleteAck.run(hostId, fingerprint).changes > 0;
    },

    addRun(run: Omit<RunRecord, 'id'>): number {
      const info = insRun.run(run.hostId, run.startedAt, run.finishedAt, run.status, run.assessmentId,
        JSON.stringify(run.newFingerprints), JSON.stringify(run.resolvedFingerprints), run.error);
      return Number(info.lastInsertRowid);
    },
    listRuns(hostId: string, limit = 200): RunRecord[] {
      return (listRuns.all(hostId, limit) as {
        id: number; host_id: string; started_at: string; finished_at: string | null; status: 'ok' | 'failed'; assessment_id: number | null;
        new_fingerprints_json: string; resolved_fingerprints_json: string; error: string | null;
      }[]).map((r) => ({
        id: r.id, hostId: r.host_id, startedAt: r.started_at, finishedAt: r.finished_at, status: r.status, assessmentId: r.assessment_id,
        newFingerprints: JSON.parse(r.new_fingerprints_json) as string[], resolvedFingerprints: JSON.parse(r.resolved_fingerprints_json) as string[],
        error: r.error,
      }));
    },

    /** Applies the retention settings to one host. */
    prune(hostId: string, keep: { snapshotsPerHost: number; assessmentsPerHost: number; scheduledRunsPerHost: number }): void {
      db.transaction(() => {
        pruneAssessments.run(hostId, hostId, keep.assessmentsPerHost);
        pruneSnapshots.run(hostId, hostId, keep.snapshotsPerHost);
        pruneRuns.run(hostId, hostId, keep.scheduledRunsPerHost);
      })();
      // Forget only what was deleted: the newest assessment stays parsed.
      for (const [id, a] of parsed) if (a.hostId === hostId && assessmentExists.get(id) === undefined) parsed.delete(id);
    },
  };
}
export type HistoryRepo = ReturnType<typeof createHistoryRepo>;

/** The findings rows of an assessment, serialised once. */
export function packFindings(assessment: Assessment): PackedFinding[] {
  return assessment.findings.map((f) => ({ fingerprint: f.fingerprint, ruleId: f.ruleId, severity: f.severity, pool: f.subject.pool, title: f.title, json: JSON.stringify(f) }));
}

export function countBySeverity(findings: readonly Finding[]): Counts {
  const c = emptyCounts();
  for (const f of findings) c[f.severity as Severity] += 1;
  return c;
}

/** Stable severity-then-rule order (the assessment's own order is kept when it has one). */
export function bySeverity(a: Finding, b: Finding): number {
  return SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.ruleId.localeCompare(b.ruleId);
}

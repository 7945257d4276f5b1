/**
 * Benchmark queries on the store (tables from migrations/0002-benchmarks.ts): runs, samples,
 * the per-host lock and the journal. Synchronous better-sqlite3 calls; each write that must be
 * atomic with a check runs in an IMMEDIATE transaction.
 */
import type { Database } from 'better-sqlite3';
import { localMachineId } from '../host-identity.ts';
import { BenchmarkSummary } from '../model/workload.ts';
import { BenchmarkDetail, type BenchmarkRun, type ProgressEvent } from './types.ts';

export interface RunRow {
  id: string;
  profile: string;
  targetKind: 'dataset' | 'path' | 'device';
  target: string;
  pool: string | null;
  status: 'running' | 'completed' | 'aborted' | 'failed' | 'refused';
  startedAt: string;
  endedAt: string | null;
  pid: number;
  host: string;
  sizeBytes: number;
  runtimeS: number;
  message: string | null;
  /** Boot id and process start time of `pid` (process-identity.ts); null in rows from before 0004. */
  bootId: string | null;
  procStart: string | null;
}

export interface LockHolder {
  runId: string;
  pid: number;
  host: string;
  profile: string;
  target: string;
  acquiredAt: string;
  bootId: string | null;
  procStart: string | null;
}

export interface JournalEntry {
  id: number;
  runId: string;
  kind: 'dataset' | 'directory' | 'process';
  path: string;
  createdAt: string;
  removedAt: string | null;
}

const now = () => new Date().toISOString();

export function insertRun(db: Database, r: Omit<RunRow, 'endedAt' | 'message'>): void {
  // machine_id: which machine measured this run, so reports of other hosts leave it out (migration 0007).
  db.prepare(`INSERT INTO bench_runs (id, profile, target_kind, target, pool, status, started_at, pid, host, size_bytes, runtime_s, boot_id, proc_start, machine_id)
    VALUES (@id, @profile, @targetKind, @target, @pool, @status, @startedAt, @pid, @host, @sizeBytes, @runtimeS, @bootId, @procStart, @machineId)`).run({ ...r, machineId: localMachineId() });
}

export function finishRun(db: Database, id: string, status: RunRow['status'], message: string | null, run: BenchmarkRun | null): void {
  db.prepare(`UPDATE bench_runs SET status = ?, ended_at = ?, message = ?, sync_mode = ?, topology_fingerprint = ?,
    summary_json = ?, detail_json = ? WHERE id = ?`).run(
    status, now(), message, run?.summary.syncMode ?? null, run?.summary.topologyFingerprint ?? null,
    run ? JSON.stringify(run.summary) : null, run ? JSON.stringify(run.detail) : null, id,
  );
}

interface RawRun {
  id: string; profile: string; target_kind: RunRow['targetKind']; target: string; pool: string | null;
  status: RunRow['status']; started_at: string; ended_at: string | null; pid: number; host: string;
  size_bytes: number; runtime_s: number; message: string | null; summary_json: string | null; detail_json: string | null;
  boot_id: string | null; proc_start: string | null;
}

function rowOf(r: RawRun): RunRow {
  return {
    id: r.id, profile: r.profile, targetKind: r.target_kind, target: r.target, pool: r.pool, status: r.status,
    startedAt: r.started_at, endedAt: r.ended_at, pid: r.pid, host: r.host, sizeBytes: r.size_bytes,
    runtimeS: r.runtime_s, message: r.message, bootId: r.boot_id ?? null, procStart: r.proc_start ?? null,
  };
}

export function getRun(db: Database, id: string): (RunRow & { run: BenchmarkRun | null }) | null {
  const r = db.prepare('SELECT * FROM bench_runs WHERE id = ?').get(id) as RawRun | undefined;
  if (!r) return null;
  return { ...rowOf(r), run: decodeRun(r) };
}

function decodeRun(r: RawRun): BenchmarkRun | null {
  if (!r.summary_json || !r.detail_json) return null;
  const s = BenchmarkSummary.safeParse(JSON.parse(r.summary_json));
  const d = BenchmarkDetail.safeParse(JSON.parse(r.detail_json));
  return s.success && d.success ? { summary: s.data, detail: d.data, message: r.message } : null;
}

export function runsWithStatus(db: Database, status: RunRow['status']): RunRow[] {
  return (db.prepare('SELECT * FROM bench_runs WHERE status = ? ORDER BY started_at').all(status) as RawRun[]).map(rowOf);
}

export interface HistoryFilter {
  pool?: string;
  profile?: string;
  status?: RunRow['status'];
  limit?: number;
}

/** Runs newest first, with their summaries (refused/aborted runs have a summary too when one was made). */
export function listRuns(db: Database, f: HistoryFilter = {}): (RunRow & { summary: BenchmarkSummary | null })[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (f.pool) { where.push('pool = ?'); params.push(f.pool); }
  if (f.profile) { where.push('profile = ?'); params.push(f.profile); }
  if (f.status) { where.push('status = ?'); params.push(f.status); }
  const sql = `SELECT * FROM bench_runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY started_at DESC, rowid DESC LIMIT ?`;
  params.push(f.limit ?? 100);
  return (db.prepare(sql).all(...params) as RawRun[]).map((r) => {
    const parsed = r.summary_json ? BenchmarkSummary.safeParse(JSON.parse(r.summary_json)) : null;
    return { ...rowOf(r), summary: parsed?.success ? parsed.data : null };
  });
}

export function addSample(db: Database, runId: string, e: ProgressEvent, load1: number | null, poolWriteWaitNs: number | null): void {
  db.prepare(`INSERT INTO bench_samples (run_id, t_s, phase, pct, iops, latency_us, load1, pool_write_wait_ns)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(runId, e.elapsedS, e.phase, e.pct, e.iops, e.latencyUs, load1, poolWriteWaitNs);
}

export function samplesOf(db: Database, runId: string): { tS: number; phase: string; pct: number; iops: number | null; latencyUs: number | null }[] {
  return (db.prepare('SELECT t_s AS tS, phase, pct, iops, latency_us AS latencyUs FROM bench_samples WHERE run_id = ? ORDER BY rowid').all(runId)) as
    { tS: number; phase: string; pct: number; iops: number | null; latencyUs: number | null }[];
}

/** The holder of the per-host benchmark lock, or null. */
export function lockHolder(db: Database): LockHolder | null {
  const r = db.prepare(`SELECT run_id AS runId, pid, host, profile, target, acquired_at AS acquiredAt, boot_id AS bootId, proc_start AS procStart
    FROM bench_lock WHERE id = 1`).get() as LockHolder | undefined;
  return r ?? null;
}

/**
 * Takes the lock unless someone holds it. `isStale(holder)` decides whether an existing holder is
 * dead (its process is gone, or its pid now belongs to another boot or process): a stale lock is
 * taken over inside the same transaction.
 */
export function acquireLock(db: Database, h: LockHolder, isStale: (holder: LockHolder) => boolean): { ok: true } | { ok: false; holder: LockHolder } {
  const tx = db.transaction((): { ok: true } | { ok: false; holder: LockHolder } => {
    const cur = lockHolder(db);
    if (cur && !isStale(cur)) return { ok: false, holder: cur };
    db.prepare('DELETE FROM bench_lock WHERE id = 1').run();
    db.prepare(`INSERT INTO bench_lock (id, run_id, pid, host, profile, target, acquired_at, boot_id, proc_start)
      VALUES (1, @runId, @pid, @host, @profile, @target, @acquiredAt, @bootId, @procStart)`).run(h);
    return { ok: true };
  });
  return tx.immediate();
}

export function releaseLock(db: Database, runId: string): void {
  db.prepare('DELETE FROM bench_lock WHERE id = 1 AND run_id = ?').run(runId);
}

/** Records what is about to be created. Call BEFORE creating it. */
export function journalAdd(db: Database, runId: string, kind: JournalEntry['kind'], path: string): number {
  return Number(db.prepare('INSERT INTO bench_journal (run_id, kind, path, created_at) VALUES (?, ?, ?, ?)').run(runId, kind, path, now()).lastInsertRowid);
}

export function journalRemoved(db: Database, id: number): void {
  db.prepare('UPDATE bench_journal SET removed_at = ? WHERE id = ?').run(now(), id);
}

export function journalOpen(db: Database, runId: string): JournalEntry[] {
  return db.prepare(`SELECT id, run_id AS runId, kind, path, created_at AS createdAt, removed_at AS removedAt
    FROM bench_journal WHERE run_id = ? AND removed_at IS NULL ORDER BY id DESC`).all(runId) as JournalEntry[];
}

/** Runs (any status) with journal entries not yet undone: crash leftovers or failed cleanups. */
export function runsWithOpenJournal(db: Database): RunRow[] {
  return (db.prepare(`SELECT * FROM bench_runs WHERE id IN (SELECT DISTINCT run_id FROM bench_journal WHERE removed_at IS NULL)
    ORDER BY started_at`).all() as RawRun[]).map(rowOf);
}

/**
 * After a crash, kill -9 or power loss: every run still marked `running` whose process is gone
 * gets its journaled leftovers removed (orphaned fio first, then the dataset or directory) and
 * is marked aborted; a lock held by a dead process is released.
 * "Gone" is decided by process identity (process-identity.ts): a different boot id or a pid now
 * used by a process with another start time counts as dead, so a pid reused after a reboot
 * neither blocks the cleanup nor keeps the lock.
 *
 * The host-wide lock (host-lock.ts) is recovered too: a stale owner's orphaned fio is stopped
 * (found by the dead owner's pid in its file path) and the lock broken. The lock never names a
 * store: another data directory's files are cleaned from its own journal when it is next used. Every `bench` invocation (run, --dry-run, --history) and every server
 * start calls this first.
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { breakHostLock, staleHostLocks } from './host-lock.ts';
import { finishRun, journalOpen, lockHolder, releaseLock, runsWithOpenJournal, runsWithStatus, type LockHolder } from './store.ts';
import { killOrphanFioOf, undoJournal } from './targets.ts';
import { liveProbe, recordedProcessLiveness, type Liveness, type LivenessProbe } from './process-identity.ts';

export interface Recovered {
  runId: string;
  pid: number;
  clean: boolean;
  messages: string[];
}

type Recorded = Pick<LockHolder, 'pid' | 'host' | 'bootId' | 'procStart'>;

/** Liveness of the process that wrote a run or lock row; another host's rows are never judged dead. */
export function holderLiveness(h: Recorded, probe: LivenessProbe): Liveness {
  if (h.host !== hostname()) return { alive: true };
  return recordedProcessLiveness({ pid: h.pid, bootId: h.bootId, startTime: h.procStart }, probe);
}

/** A holder is stale when it is on this host and its process is gone (or is not the one recorded). */
export function isStaleHolder(h: Recorded, probe: LivenessProbe): boolean {
  return !holderLiveness(h, probe).alive;
}

export async function recoverAbandoned(db: Database, probe?: LivenessProbe): Promise<Recovered[]> {
  const p = probe ?? await liveProbe();
  const out = await recoverStore(db, p);
  out.push(...await recoverHostLock(p, new Set(out.map((r) => r.runId))));
  return out;
}

/**
 * Breaks stale host-wide locks after stopping their owners' orphaned fio. Also what
 * `bench --dry-run` runs when it has no store of its own.
 */
export async function recoverHostLock(probe?: LivenessProbe, cleanedHere: ReadonlySet<string> = new Set()): Promise<Recovered[]> {
  const p = probe ?? await liveProbe();
  const out: Recovered[] = [];
  for (const stale of staleHostLocks(p)) {
    const o = stale.owner;
    const killed = o && o.host === hostname() ? await killOrphanFioOf(o.pid) : [];
    if (!breakHostLock(stale.file, stale.owner) || !o) continue;
    out.push({ runId: o.runId, pid: o.pid, clean: false, messages: [
      ...(killed.length > 0 ? [`stopped its orphaned fio (pid ${killed.join(', ')})`] : []),
      // Its files were just removed from this store, or belong to another data directory.
      cleanedHere.has(o.runId) ? 'freed the host-wide lock it held'
        : 'freed the host-wide lock it held; its files are removed when its own data directory is next used',
    ] });
  }
  return out;
}

async function recoverStore(db: Database, p: LivenessProbe): Promise<Recovered[]> {
  const out: Recovered[] = [];
  const seen = new Set<string>();
  const candidates = [...runsWithStatus(db, 'running'), ...runsWithOpenJournal(db)];
  for (const run of candidates) {
    if (seen.has(run.id)) continue;
    seen.add(run.id);
    if (run.host !== hostname()) continue; // another host's run (shared store): not ours to judge
    const live = holderLiveness(run, p);
    if (live.alive) continue; // still running (this process included, when its identity matches)
    const entries = journalOpen(db, run.id);
    const { clean, messages } = await undoJournal(db, run.id, entries);
    const message = `abandoned: process ${run.pid} ended without cleaning up (${live.why})${messages.length ? `; ${messages.join('; ')}` : ''}`;
    // A run that ended but failed its own cleanup keeps its status; only 'running' ones become aborted.
    if (clean && run.status === 'running') finishRun(db, run.id, 'aborted', message, null);
    releaseLock(db, run.id);
    out.push({ runId: run.id, pid: run.pid, clean, messages });
  }
  const holder = lockHolder(db);
  if (holder && isStaleHolder(holder, p)) releaseLock(db, holder.runId);
  // Its runs are cleaned up above; the suite row itself would otherwise say `running` until the next
  // `bench suite` command (the server and `bench PROFILE` never closed it).
  closeAbandonedSuites(db, p);
  return out;
}

/** Suites left `running` by a process that is gone become `aborted`, saying so (a store older than suites has none). */
function closeAbandonedSuites(db: Database, probe: LivenessProbe): void {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bench_suites'").get()) return;
  const rows = db.prepare("SELECT id, pid, host, boot_id, proc_start FROM bench_suites WHERE status = 'running'").all() as
    { id: string; pid: number; host: string; boot_id: string | null; proc_start: string | null }[];
  for (const r of rows) {
    if (r.host !== hostname()) continue;
    const live = holderLiveness({ pid: r.pid, host: r.host, bootId: r.boot_id, procStart: r.proc_start }, probe);
    if (live.alive) continue;
    db.prepare("UPDATE bench_suites SET status = 'aborted', ended_at = ?, message = ? WHERE id = ?")
      .run(new Date().toISOString(), `abandoned: process ${r.pid} ended during the suite (${live.why}); its runs were cleaned up through their journals`, r.id);
  }
}

/**
 * What every `bench` invocation runs first (a run, --dry-run, --history, --list, --before-after):
 * the leftovers of dead runs in this data directory's store, when it exists (it is never created
 * here), and stale host-wide locks with their stores' leftovers.
 */
export async function recoverForInvocation(storeFile: string): Promise<Recovered[]> {
  const p = await liveProbe();
  let db: Database | null = null;
  try {
    db = existsSync(storeFile) ? new BetterSqlite3(storeFile, { fileMustExist: true, timeout: 5_000 }) : null;
    return db ? await recoverAbandoned(db, p) : await recoverHostLock(p);
  } catch {
    // An unreadable store is the command's to report (in its own words); the host lock is still ours to clean.
    return recoverHostLock(p);
  } finally {
    db?.close();
  }
}

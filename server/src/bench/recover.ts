/**
 * After a crash, kill -9 or power loss: every run still marked `running` whose process is gone
 * gets its journaled leftovers removed (orphaned fio first, then the dataset or directory) and
 * is marked aborted; a lock held by a dead process is released.
 * "Gone" is decided by process identity (process-identity.ts): a different boot id or a pid now
 * used by a process with another start time counts as dead, so a pid reused after a reboot
 * neither blocks the cleanup nor keeps the lock.
 */
import { hostname } from 'node:os';
import type { Database } from 'better-sqlite3';
import { finishRun, journalOpen, lockHolder, releaseLock, runsWithOpenJournal, runsWithStatus, type LockHolder } from './store.ts';
import { undoJournal } from './targets.ts';
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
  return out;
}

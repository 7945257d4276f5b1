/**
 * After a crash, kill -9 or power loss: every run still marked `running` whose process is gone
 * gets its journaled leftovers removed (orphaned fio first, then the dataset or directory) and
 * is marked aborted; a lock held by a dead process is released.
 */
import { hostname } from 'node:os';
import type { Database } from 'better-sqlite3';
import { finishRun, journalOpen, lockHolder, releaseLock, runsWithOpenJournal, runsWithStatus, type LockHolder } from './store.ts';
import { processAlive, undoJournal } from './targets.ts';

export interface Recovered {
  runId: string;
  pid: number;
  clean: boolean;
  messages: string[];
}

/** A holder is stale when it is on this host and its process is gone. */
export function isStaleHolder(h: Pick<LockHolder, 'pid' | 'host'>): boolean {
  return h.host === hostname() && !processAlive(h.pid);
}

export async function recoverAbandoned(db: Database): Promise<Recovered[]> {
  const out: Recovered[] = [];
  const seen = new Set<string>();
  const candidates = [...runsWithStatus(db, 'running'), ...runsWithOpenJournal(db)];
  for (const run of candidates) {
    if (seen.has(run.id)) continue;
    seen.add(run.id);
    if (run.host !== hostname()) continue; // another host's run (shared store): not ours to judge
    if (run.pid === process.pid || processAlive(run.pid)) continue; // still running
    const entries = journalOpen(db, run.id);
    const { clean, messages } = await undoJournal(db, run.id, entries);
    const message = `abandoned: process ${run.pid} ended without cleaning up${messages.length ? `; ${messages.join('; ')}` : ''}`;
    // A run that ended but failed its own cleanup keeps its status; only 'running' ones become aborted.
    if (clean && run.status === 'running') finishRun(db, run.id, 'aborted', message, null);
    releaseLock(db, run.id);
    out.push({ runId: run.id, pid: run.pid, clean, messages });
  }
  const holder = lockHolder(db);
  if (holder && isStaleHolder(holder)) releaseLock(db, holder.runId);
  return out;
}

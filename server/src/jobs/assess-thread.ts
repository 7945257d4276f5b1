/**
 * Runs one assessment in a worker thread (assess-worker.ts) and hands back what the store keeps.
 * A fresh worker per assessment: assessments are minutes apart, and a worker kept alive would hold
 * its modules and heap (tens of MB) on a server that should idle small.
 */
import { InventoryLoadError } from '../gather/load.ts';
import type { ThreadOutcome, ThreadReply, ThreadRequest } from './assess-thread-protocol.ts';
import { asBuffer, startWorker } from './threads.ts';

/** The worker itself could not run (not the assessment's own error): the caller may run it here instead. */
export class WorkerUnavailable extends Error {}

export function assessInThread(request: ThreadRequest): Promise<ThreadOutcome> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = startWorker('jobs/assess-worker.ts', { workerData: request, stdout: false, stderr: false });
    const settle = (f: () => void) => { if (!settled) { settled = true; f(); } };
    worker.once('message', (reply: ThreadReply) => settle(() => {
      if (reply.ok) {
        const o = reply.outcome;
        resolve({
          ...o,
          snapshot: { ...o.snapshot, inventoryGz: asBuffer(o.snapshot.inventoryGz), rawGz: o.snapshot.rawGz ? asBuffer(o.snapshot.rawGz) : null },
          assessmentGz: asBuffer(o.assessmentGz),
        });
      } else {
        // The one error callers tell apart: a snapshot directory that cannot be read.
        reject(reply.name === 'InventoryLoadError' ? new InventoryLoadError(reply.message) : new Error(reply.message));
      }
    }));
    worker.once('error', (err) => settle(() => reject(new WorkerUnavailable(`the assessment worker failed: ${err.message}`))));
    worker.once('exit', (code) => settle(() => reject(new WorkerUnavailable(`the assessment worker exited (code ${code}) without an answer`))));
  });
}

/**
 * The assessment worker thread: collect (or take) an inventory, run every rule and compress what
 * the store keeps, away from the server's event loop. On a large host this is over a second of
 * CPU that would otherwise hold up every request, `/api/health` included.
 * Started by assess-thread.ts for one request (workerData) and ends after its one reply.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { assess } from '../assess/assess.ts';
import { InventoryLoadError, loadInventory } from '../gather/load.ts';
import { Assessment } from '../model/finding.ts';
import { packJson } from '../store/compress.ts';
import { countBySeverity, packFindings } from '../store/history-repo.ts';
import type { ThreadOutcome, ThreadReply, ThreadRequest } from './assess-thread-protocol.ts';
import { movable } from './threads.ts';

async function work(req: ThreadRequest): Promise<ThreadOutcome> {
  const loaded = req.kind === 'load' ? await loadInventory(req.load) : { inventory: req.inventory, raw: req.raw };
  const { inventory, raw } = loaded;
  const result = assess(inventory, req.extra);
  // Validated here, so the main thread can keep this copy as the parsed assessment.
  const assessment = Assessment.parse(result.assessment);
  const optane = result.optane ?? null;
  return {
    snapshot: {
      capturedAt: inventory.source.capturedAt, sourceKind: inventory.source.kind, demo: inventory.source.demo,
      inventoryGz: packJson(inventory), rawGz: raw === undefined || raw === null ? null : packJson(raw),
    },
    assessment, optane, counts: countBySeverity(assessment.findings),
    assessmentGz: packJson({ assessment, optane }), findings: packFindings(assessment),
  };
}

const port = parentPort;
if (port) {
  work(workerData as ThreadRequest).then(
    (outcome) => {
      port.postMessage({ ok: true, outcome } satisfies ThreadReply, movable(outcome.snapshot.inventoryGz, outcome.snapshot.rawGz, outcome.assessmentGz));
    },
    (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({ ok: false, name: err instanceof InventoryLoadError ? 'InventoryLoadError' : e.name, message: e.message } satisfies ThreadReply);
    },
  );
}

/**
 * Assessments in the worker thread (issue 21): the worker's stored result is the same assessment
 * the main thread computes (same findings, same fingerprints); an assessment's own error (an
 * unreadable snapshot) comes back as that error; a worker that cannot run makes the job assess on
 * the main thread instead, and says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assess } from '../../server/src/assess/assess.ts';
import { InventoryLoadError, loadInventory } from '../../server/src/gather/load.ts';
import { assessInThread, WorkerUnavailable } from '../../server/src/jobs/assess-thread.ts';
import { createAssessmentJob } from '../../server/src/jobs/assessment-job.ts';
import { openStore } from '../../server/src/store/db.ts';
import { createHistoryRepo } from '../../server/src/store/history-repo.ts';
import { createHostsRepo, type HostRow } from '../../server/src/store/hosts-repo.ts';
import { unpackJson } from '../../server/src/store/compress.ts';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-thread-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const demoHost: HostRow = {
  id: 'demo', kind: 'demo', name: 'Demo', address: null, port: null, node: null, verifyTls: true, pinnedFingerprint: null,
  hasSecret: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('assessments in a worker thread', () => {
  it('the worker gives the assessment the main thread computes, packed for the store', async () => {
    const out = await assessInThread({ kind: 'load', load: { demo: true }, extra: {} });
    const here = assess((await loadInventory({ demo: true })).inventory);
    expect(out.assessment.findings.map((f) => f.fingerprint)).toEqual(here.assessment.findings.map((f) => f.fingerprint));
    expect(out.findings.map((f) => f.fingerprint)).toEqual(here.assessment.findings.map((f) => f.fingerprint));
    expect((unpackJson(out.assessmentGz) as { assessment: { findings: unknown[] } }).assessment.findings).toHaveLength(here.assessment.findings.length);
    expect((unpackJson(out.snapshot.inventoryGz) as { source: { demo: boolean } }).source.demo).toBe(true);
    expect(out.snapshot.demo).toBe(true);
  }, 60_000);

  it('an unreadable snapshot comes back as InventoryLoadError with its message', async () => {
    const missing = join(tmp(), 'nothing-here');
    await expect(assessInThread({ kind: 'load', load: { snapshot: missing }, extra: {} })).rejects.toBeInstanceOf(InventoryLoadError);
    await expect(assessInThread({ kind: 'load', load: { snapshot: missing }, extra: {} })).rejects.toThrow(missing);
  }, 60_000);

  it('a worker that cannot run: the job assesses on this thread and says so', async () => {
    const opened = await openStore(tmp());
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      const history = createHistoryRepo(opened.store.db);
      createHostsRepo(opened.store.db).insert(demoHost);
      const told: string[] = [];
      const job = createAssessmentJob({
        history,
        services: { assess: (inv) => assess(inv), missing: {} },
        collect: async () => loadInventory({ demo: true }),
        loadOptions: () => ({ demo: true }),
        inThread: { run: async () => { throw new WorkerUnavailable('no threads here'); } },
        onThreadFailure: (err) => { told.push(err.message); },
        retention: () => ({ snapshotsPerHost: 5, assessmentsPerHost: 5, scheduledRunsPerHost: 5 }),
      });
      const { record } = await job.run(demoHost, 'manual');
      expect(record.assessment.findings.length).toBeGreaterThan(0);
      expect(told).toEqual(['no threads here']);
      // An assessment's own failure is not retried here.
      const failing = createAssessmentJob({
        history, services: { assess: (inv) => assess(inv), missing: {} }, collect: async () => loadInventory({ demo: true }),
        loadOptions: () => ({ demo: true }), inThread: { run: async () => { throw new InventoryLoadError('bad snapshot'); } },
        retention: () => ({ snapshotsPerHost: 5, assessmentsPerHost: 5, scheduledRunsPerHost: 5 }),
      });
      await expect(failing.run(demoHost, 'manual')).rejects.toThrow('bad snapshot');
    } finally {
      opened.store.close();
    }
  }, 60_000);
});

/**
 * Jobs throw domain errors (model/jobs.ts) with a reason and a way forward; the API alone maps
 * them to HTTP (issue 38 §6).
 */
import { describe, expect, it } from 'vitest';
import { JobError } from '../../server/src/model/jobs.ts';
import { httpErrorOf } from '../../server/src/api/errors.ts';
import { createBenchRuns } from '../../server/src/jobs/bench-runs.ts';
import type { BenchRequest } from '../../server/src/model/jobs.ts';

describe('job errors', () => {
  it('a second benchmark on the same host is a busy JobError that says how to go on, and a 409 over HTTP', () => {
    const logger = { log() {}, info() {}, warn() {}, error() {} };
    const runs = createBenchRuns({ bench: { start: () => new Promise(() => {}) }, logger, maxRuntimeSeconds: () => 10 });
    const request = { profile: 'sync-write-4k' } as unknown as BenchRequest;
    runs.start('local', request);
    let thrown: unknown = null;
    try { runs.start('local', request); } catch (err) { thrown = err; }
    expect(thrown).toBeInstanceOf(JobError);
    const e = thrown as JobError;
    expect(e.kind).toBe('busy');
    expect(e.wayForward).toMatch(/cancel it on the Benchmarks page/);
    const http = httpErrorOf(e);
    expect(http.status).toBe(409);
    expect(http.message).toBe(`${e.reason}. ${e.wayForward}`);
    runs.abortAll();
  });

  it('maps every kind to its status', () => {
    const status = (k: JobError['kind']) => httpErrorOf(new JobError(k, 'x')).status;
    expect([status('busy'), status('unavailable'), status('refused'), status('invalid'), status('not-found')]).toEqual([409, 503, 403, 400, 404]);
    expect(httpErrorOf(new JobError('refused', 'refused: no')).message).toBe('refused: no');
  });
});

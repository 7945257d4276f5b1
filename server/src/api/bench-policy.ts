/**
 * Benchmark limits are SERVER POLICY (settings.benchmark, changed only by the operator through
 * the settings): an API request may tighten the wall-clock cap, the load limit and the pool
 * latency limit, never loosen them. A request above a limit is refused with the limit named; a
 * request that leaves one out gets the policy's value. The body's schema (schemas.ts
 * BenchRequestBody) also bounds every field, so no value meaning "no limit" can arrive.
 * (The CLI is the operator at their own machine: its options are not bounded by this.)
 */
import type { z } from 'zod';
import type { BenchRequest as RunnerBenchRequest } from '../bench/types.ts';
import { defaultMaxLoad1, wallCapOf } from '../bench/run.ts';
import type { BenchRequestBody, Settings } from './schemas.ts';

export type ApiBenchRequest = BenchRequestBody;
type RunnerRequest = z.infer<typeof RunnerBenchRequest>;

export interface BenchPolicy {
  maxRuntimeSeconds: number;
  maxLoad1: number;
  maxPoolWriteWaitMs: number;
}

export function benchPolicy(s: Settings['benchmark']): BenchPolicy {
  return { maxRuntimeSeconds: s.maxRuntimeSeconds, maxLoad1: s.maxLoad1 ?? defaultMaxLoad1(), maxPoolWriteWaitMs: s.maxPoolWriteWaitMs };
}

export function applyBenchPolicy(req: ApiBenchRequest, p: BenchPolicy): { ok: true; request: RunnerRequest } | { ok: false; message: string } {
  const above = (what: string, v: number, limit: number, setting: string) =>
    ({ ok: false as const, message: `${what} ${v} is above this server's limit of ${limit} (settings.benchmark.${setting}); a request may only tighten it` });
  if (req.runtimeS > p.maxRuntimeSeconds) return above('runtimeS', req.runtimeS, p.maxRuntimeSeconds, 'maxRuntimeSeconds');
  if (req.wallCapS !== undefined && req.wallCapS > p.maxRuntimeSeconds) return above('wallCapS', req.wallCapS, p.maxRuntimeSeconds, 'maxRuntimeSeconds');
  if (req.maxLoad1 !== undefined && req.maxLoad1 > p.maxLoad1) return above('maxLoad1', req.maxLoad1, p.maxLoad1, 'maxLoad1');
  if (req.maxPoolWriteWaitMs !== undefined && req.maxPoolWriteWaitMs > p.maxPoolWriteWaitMs) return above('maxPoolWriteWaitMs', req.maxPoolWriteWaitMs, p.maxPoolWriteWaitMs, 'maxPoolWriteWaitMs');
  const request: RunnerRequest = { ...req, maxLoad1: req.maxLoad1 ?? p.maxLoad1, maxPoolWriteWaitMs: req.maxPoolWriteWaitMs ?? p.maxPoolWriteWaitMs };
  // The runner's default cap (runtime × 3 + 60 s) may exceed the policy: then the policy's applies.
  if (request.wallCapS === undefined && wallCapOf(request) > p.maxRuntimeSeconds) request.wallCapS = p.maxRuntimeSeconds;
  return { ok: true, request };
}

/**
 * A request the server built itself (a suite's cells, from the runner's defaults): every limit
 * brought within the policy. The caller's own values were checked by `applyBenchPolicy` first.
 */
export function clampToPolicy(req: RunnerRequest, p: BenchPolicy): RunnerRequest {
  const out: RunnerRequest = {
    ...req,
    maxLoad1: Math.min(req.maxLoad1 ?? p.maxLoad1, p.maxLoad1),
    maxPoolWriteWaitMs: Math.min(req.maxPoolWriteWaitMs, p.maxPoolWriteWaitMs),
  };
  if (wallCapOf(out) > p.maxRuntimeSeconds) out.wallCapS = p.maxRuntimeSeconds;
  return out;
}

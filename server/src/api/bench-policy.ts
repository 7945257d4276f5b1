/**
 * Benchmark limits are SERVER POLICY. The operator's CEILING comes from where only root reaches:
 * `serve --bench-max-runtime/--bench-max-load/--bench-max-pool-write-wait` (the unit's command
 * line), defaulting to the built-in settings. Through the API, settings.benchmark may only be set
 * at or below the ceiling (a PATCH that loosens past it is refused: settingsAboveCeiling), and
 * each benchmark request may only tighten what is in force — the wall-clock cap, the load limit
 * and the pool latency limit, never loosen them. A request above a limit is refused with the limit named; a
 * request that leaves one out gets the policy's value. The body's schema (schemas.ts
 * BenchRequestBody) also bounds every field, so no value meaning "no limit" can arrive.
 * (The CLI is the operator at their own machine: its options are not bounded by this.)
 */
import type { z } from 'zod';
import type { BenchRequest as RunnerBenchRequest } from '../bench/types.ts';
import { defaultMaxLoad1, wallCapOf } from '../bench/run.ts';
import { raiseLimit } from '../bench/way-forward.ts';
import { DEFAULT_SETTINGS, type BenchRequestBody, type Settings, type SettingsPatch } from './schemas.ts';

export type ApiBenchRequest = BenchRequestBody;
type RunnerRequest = z.infer<typeof RunnerBenchRequest>;

export interface BenchPolicy {
  maxRuntimeSeconds: number;
  maxLoad1: number;
  maxPoolWriteWaitMs: number;
}

/** The operator's ceiling: what the command line set, else the built-in defaults. */
export function benchCeiling(c: Partial<BenchPolicy> = {}): BenchPolicy {
  const d = DEFAULT_SETTINGS.benchmark;
  return { maxRuntimeSeconds: c.maxRuntimeSeconds ?? d.maxRuntimeSeconds, maxLoad1: c.maxLoad1 ?? d.maxLoad1 ?? defaultMaxLoad1(), maxPoolWriteWaitMs: c.maxPoolWriteWaitMs ?? d.maxPoolWriteWaitMs };
}

/** The limits in force: the settings, never above the ceiling (a value stored before a lower ceiling is clamped). */
export function benchPolicy(s: Settings['benchmark'], ceiling: BenchPolicy = benchCeiling()): BenchPolicy {
  return {
    maxRuntimeSeconds: Math.min(s.maxRuntimeSeconds, ceiling.maxRuntimeSeconds),
    maxLoad1: Math.min(s.maxLoad1 ?? defaultMaxLoad1(), ceiling.maxLoad1),
    maxPoolWriteWaitMs: Math.min(s.maxPoolWriteWaitMs, ceiling.maxPoolWriteWaitMs),
  };
}

const CEILING_FLAG: Record<keyof BenchPolicy, string> = { maxRuntimeSeconds: '--bench-max-runtime', maxLoad1: '--bench-max-load', maxPoolWriteWaitMs: '--bench-max-pool-write-wait' };

/** Why a settings PATCH may not be applied (a limit above the operator's ceiling), or null. */
export function settingsAboveCeiling(patch: SettingsPatch, ceiling: BenchPolicy): string | null {
  const b = patch.benchmark ?? {};
  for (const key of Object.keys(CEILING_FLAG) as (keyof BenchPolicy)[]) {
    const v = key === 'maxLoad1' ? (b.maxLoad1 === null ? defaultMaxLoad1() : b.maxLoad1) : b[key];
    if (v !== undefined && v > ceiling[key]) {
      return `benchmark.${key} ${v} is above the operator's ceiling of ${ceiling[key]}; the API may only tighten it — raising it needs root, on the service's command line (serve ${CEILING_FLAG[key]})`;
    }
  }
  return null;
}

/** Who may raise a server limit and how, and what it risks (bench/way-forward.ts words the how). */
export function raiseLimitSentence(key: keyof BenchPolicy, wanted: number): string {
  const risk = key === 'maxLoad1' ? 'a higher load limit lets a benchmark run beside the host\'s own work, slowing it and measuring a shared machine'
    : key === 'maxRuntimeSeconds' ? 'a longer cap lets a stalled run hold the pool longer before it is stopped'
      : 'a higher latency limit lets a benchmark go on while the pool\'s real writers wait longer';
  return `To allow it, ${raiseLimit(key, 'server', String(wanted))}; ${risk}`;
}

export function applyBenchPolicy(req: ApiBenchRequest, p: BenchPolicy): { ok: true; request: RunnerRequest } | { ok: false; message: string; wayForward: string } {
  const above = (what: string, v: number, limit: number, setting: keyof BenchPolicy) =>
    ({ ok: false as const, message: `${what} ${v} is above this server's limit of ${limit} (settings.benchmark.${setting}); a request may only tighten it`, wayForward: raiseLimitSentence(setting, v) });
  if (req.runtimeS > p.maxRuntimeSeconds) return above('runtimeS', req.runtimeS, p.maxRuntimeSeconds, 'maxRuntimeSeconds');
  if (req.wallCapS !== undefined && req.wallCapS > p.maxRuntimeSeconds) return above('wallCapS', req.wallCapS, p.maxRuntimeSeconds, 'maxRuntimeSeconds');
  if (req.maxLoad1 !== undefined && req.maxLoad1 > p.maxLoad1) return above('maxLoad1', req.maxLoad1, p.maxLoad1, 'maxLoad1');
  if (req.maxPoolWriteWaitMs !== undefined && req.maxPoolWriteWaitMs > p.maxPoolWriteWaitMs) return above('maxPoolWriteWaitMs', req.maxPoolWriteWaitMs, p.maxPoolWriteWaitMs, 'maxPoolWriteWaitMs');
  const request: RunnerRequest = { ...req, maxLoad1: req.maxLoad1 ?? p.maxLoad1, maxPoolWriteWaitMs: req.maxPoolWriteWaitMs ?? p.maxPoolWriteWaitMs, limitsFrom: 'server' };
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
    limitsFrom: 'server',
  };
  if (wallCapOf(out) > p.maxRuntimeSeconds) out.wallCapS = p.maxRuntimeSeconds;
  return out;
}

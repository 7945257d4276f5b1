/**
 * The schema of a run's latency as the API and the JSON report carry it (`bench/sync-latency.ts`
 * computes it and names it). Kept apart from that module so the UI, which imports it, does not
 * bundle zod.
 */
import { z } from 'zod';
import { RUN_LATENCY_KINDS, type RunLatency as RunLatencyShape } from './sync-latency.ts';

export const RunLatency = z.object({
  kind: z.enum(RUN_LATENCY_KINDS),
  durable: z.boolean(),
  label: z.string(),
  meanNs: z.number().nullable(),
  p50Ns: z.number().nullable(),
  p99Ns: z.number().nullable(),
  p999Ns: z.number().nullable(),
  missing: z.string().nullable(),
});

// The schema and the interface describe one shape: a change to either fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: Same<z.infer<typeof RunLatency>, RunLatencyShape> = true;
void same;

/**
 * One confidence for a sync-write forecast and everything that states it (the Optane verdict, the
 * slog-benefit finding): derived from two questions only — was "now" measured on this host (a
 * probe or an observed latency), and were the sync writes themselves seen (observed, or counted by
 * the ZIL kstats), or only configured/unknown?
 *   both measured/seen → high; one of them → medium; neither (model and configuration only) → low.
 */
import type { Confidence } from '../model/finding.ts';
import type { SyncEvidenceLevel } from '../../../rules/lib/slog-evidence.ts';
import type { NowSource } from './measured-now.ts';

export function forecastConfidence(now: NowSource, demand: SyncEvidenceLevel): Confidence {
  const measured = now === 'benchmark' || now === 'observed' ? 1 : 0;
  const seen = demand === 'observed' || demand === 'counters' || demand === 'none-observed' ? 1 : 0;
  return measured + seen === 2 ? 'high' : measured + seen === 1 ? 'medium' : 'low';
}

/** The words every surface uses for it: "confidence medium: now measured, sync writes only configured". */
export function confidenceReason(now: NowSource, demand: SyncEvidenceLevel): string {
  const n = now === 'benchmark' ? '"now" measured by a benchmark' : now === 'observed' ? '"now" from an observed latency' : '"now" is a model estimate';
  const d = demand === 'observed' ? 'sync writes observed' : demand === 'counters' ? 'sync writes counted by the ZIL kstats' : demand === 'none-observed' ? 'no sync writes observed' : demand === 'configured' ? 'sync writes only configured' : 'sync writes unknown';
  return `confidence ${forecastConfidence(now, demand)}: ${n}, ${d}`;
}

/**
 * One confidence for a sync-write forecast and everything that states it (the Optane verdict, the
 * slog-benefit finding): derived from three questions only — was "now" measured on this host (a
 * probe or an observed latency), were the sync writes themselves seen (observed, or counted by the
 * ZIL kstats) or only configured/unknown, and what does the "with" device's figure rest on (a
 * blank-device test of it on this host, a sourced catalog figure, or only its class's range)?
 *   now measured and writes seen → high; one of them → medium; neither → low;
 *   a "with" figure that is only a class guess costs one step (a measured or catalog one costs none).
 */
import type { Confidence } from '../model/finding.ts';
import type { SyncEvidenceLevel } from '../../../rules/lib/slog-evidence.ts';
import type { DeviceProfile } from './catalog.ts';
import type { NowSource } from './measured-now.ts';

/** What the "with" side's device figure rests on. */
export type WithSource = 'measured' | 'catalog' | 'class';

export const withSourceOf = (p: Pick<DeviceProfile, 'matched'>): WithSource => (p.matched === 'measured' ? 'measured' : p.matched === 'catalog' ? 'catalog' : 'class');

const LEVELS: readonly Confidence[] = ['low', 'medium', 'high'];

export function forecastConfidence(now: NowSource, demand: SyncEvidenceLevel, withSource: WithSource = 'catalog'): Confidence {
  const measured = now === 'benchmark' || now === 'observed' ? 1 : 0;
  const seen = demand === 'observed' || demand === 'counters' || demand === 'none-observed' ? 1 : 0;
  return LEVELS[Math.max(0, measured + seen - (withSource === 'class' ? 1 : 0))]!;
}

/** The words every surface uses for it: "confidence medium: "now" measured by a benchmark, sync writes only configured". */
export function confidenceReason(now: NowSource, demand: SyncEvidenceLevel, withSource: WithSource = 'catalog'): string {
  const n = now === 'benchmark' ? '"now" measured by a benchmark' : now === 'observed' ? '"now" from an observed latency' : '"now" is a model estimate';
  const d = demand === 'observed' ? 'sync writes observed' : demand === 'counters' ? 'sync writes counted by the ZIL kstats' : demand === 'none-observed' ? 'no sync writes observed' : demand === 'configured' ? 'sync writes only configured' : 'sync writes unknown';
  // A sourced catalog figure is the default and goes unsaid; the other two are worth the words.
  const w = withSource === 'measured' ? ', "with" measured on this host (blank-device test)' : withSource === 'class' ? ', "with" only a class estimate (a guess)' : '';
  return `confidence ${forecastConfidence(now, demand, withSource)}: ${n}, ${d}${w}`;
}

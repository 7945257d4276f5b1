/**
 * The measured artifacts an assessment adds to the inventory's (assess(inventory, extra)):
 *  - Workload: the host's newest completed fingerprint, when younger than settings.observation.maxAgeDays;
 *  - SizeHistograms: the newest completed histogram per dataset (or directory);
 *  - Benchmarks: the benchmark history (newest first) — benchmarks run on the server's own machine,
 *    so only the `local` host gets them, and not when that host shows the demo snapshot.
 * An artifact without data is left out, so the rules say what is missing ("needs a workload observation").
 */
import type { ObservationSettings } from '../model/evidence.ts';
import type { BenchStarter } from '../model/jobs.ts';
import type { Artifacts } from '../model/artifacts.ts';
import type { EvidenceRepo } from '../store/evidence-repo.ts';
import type { HostRow } from '../store/hosts-repo.ts';

export interface EvidenceSources {
  evidence: EvidenceRepo;
  bench: Pick<BenchStarter, 'history'> | null;
  observation: () => ObservationSettings;
  /** The local host shows the demo snapshot: measurements of this machine do not describe it. */
  demo: boolean;
  now?: () => number;
  onError?: (what: string, err: unknown) => void;
}

const DAY_MS = 24 * 3600_000;

export function evidenceArtifacts(host: HostRow, src: EvidenceSources): Partial<Artifacts> {
  const extra: Partial<Artifacts> = {};
  const fp = src.evidence.freshFingerprint(host.id, src.observation().maxAgeDays * DAY_MS, (src.now ?? Date.now)());
  if (fp) extra.Workload = fp;
  const histograms = src.evidence.newestHistograms(host.id);
  if (histograms.length > 0) extra.SizeHistograms = histograms;
  if (host.kind === 'local' && !src.demo && src.bench) {
    try {
      const runs = src.bench.history({});
      if (runs.length > 0) extra.Benchmarks = runs;
    } catch (err) {
      src.onError?.('benchmark history', err);
    }
  }
  return extra;
}

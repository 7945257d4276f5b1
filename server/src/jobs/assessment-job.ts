/**
 * "Run an assessment now": collect the host's inventory (locally, from the demo, or through the
 * TrueNAS/Proxmox API), run every rule, store snapshot + assessment + findings, and say which
 * findings are new and which were resolved since the previous assessment. The API's "run now"
 * and the scheduler both come through here. One assessment per host at a time.
 */
import type { HistoryRepo, AssessmentTrigger, StoredAssessment } from '../store/history-repo.ts';
import type { HostRow } from '../store/hosts-repo.ts';
import type { LoadedInventory, Services } from '../api/services.ts';
import { HttpError } from '../api/errors.ts';
import type { Artifacts } from '../model/artifacts.ts';

export type Collector = (host: HostRow) => Promise<LoadedInventory>;

export interface AssessmentJobDeps {
  history: HistoryRepo;
  services: Pick<Services, 'assess' | 'missing'>;
  collect: Collector;
  retention: () => { snapshotsPerHost: number; assessmentsPerHost: number; scheduledRunsPerHost: number };
  /** Measured artifacts of the host (workload fingerprint, size histograms, benchmarks), see jobs/evidence-artifacts.ts. */
  evidence?: (host: HostRow) => Partial<Artifacts>;
}

export interface AssessmentOutcome {
  record: StoredAssessment;
  newFingerprints: string[];
  resolvedFingerprints: string[];
}

export function createAssessmentJob(deps: AssessmentJobDeps) {
  const running = new Set<string>();

  return {
    isRunning: (hostId: string) => running.has(hostId),
    async run(host: HostRow, trigger: AssessmentTrigger): Promise<AssessmentOutcome> {
      const assess = deps.services.assess;
      if (!assess) throw new HttpError('unavailable', `assessments are not available in this build (${deps.services.missing.assess ?? 'assess() missing'})`);
      if (running.has(host.id)) throw new HttpError('conflict', `an assessment of host "${host.id}" is already running`);
      running.add(host.id);
      try {
        const previous = deps.history.latestAssessment(host.id);
        const loaded = await deps.collect(host);
        const outcome = await assess(loaded.inventory, deps.evidence?.(host));
        const snapshotId = deps.history.addSnapshot(host.id, loaded.inventory, loaded.raw);
        const id = deps.history.addAssessment(host.id, snapshotId, outcome.assessment, outcome.optane, trigger);
        deps.history.prune(host.id, deps.retention());
        const record = deps.history.getAssessment(id);
        if (!record) throw new Error(`assessment ${id} vanished right after it was stored`);
        const before = new Set(previous?.assessment.findings.map((f) => f.fingerprint) ?? []);
        const after = new Set(outcome.assessment.findings.map((f) => f.fingerprint));
        return {
          record,
          newFingerprints: [...after].filter((f) => !before.has(f)),
          resolvedFingerprints: [...before].filter((f) => !after.has(f)),
        };
      } finally {
        running.delete(host.id);
      }
    },
  };
}
export type AssessmentJob = ReturnType<typeof createAssessmentJob>;

/**
 * "Run an assessment now": collect the host's inventory (locally, from the demo, or through the
 * TrueNAS/Proxmox API), run every rule, store snapshot + assessment + findings, and say which
 * findings are new and which were resolved since the previous assessment. The API's "run now"
 * and the scheduler both come through here. One assessment per host at a time.
 */
import type { HistoryRepo, AssessmentTrigger, StoredAssessment } from '../store/history-repo.ts';
import type { HostRow } from '../store/hosts-repo.ts';
import type { Artifacts } from '../model/artifacts.ts';
import type { Inventory } from '../model/inventory.ts';
import { JobError, type AssessOutcome, type LoadedInventory } from '../model/jobs.ts';
import type { ThreadOutcome, ThreadRequest } from './assess-thread-protocol.ts';
import { WorkerUnavailable } from './assess-thread.ts';

type ThreadLoad = Extract<ThreadRequest, { kind: 'load' }>['load'];

export type Collector = (host: HostRow) => Promise<LoadedInventory>;

export interface AssessmentJobDeps {
  history: HistoryRepo;
  services: {
    assess: ((inventory: Inventory, extra?: Artifacts) => Promise<AssessOutcome> | AssessOutcome) | null;
    /** Why a service is missing from this build. */
    missing: Record<string, string>;
  };
  collect: Collector;
  retention: () => { snapshotsPerHost: number; assessmentsPerHost: number; scheduledRunsPerHost: number };
  /** Where the worker thread loads this host from (gather/load.ts options), or null: `collect` here, assess there. */
  loadOptions?: (host: HostRow) => ThreadLoad | null;
  /** Told when the worker could not run and the assessment ran on this thread instead. */
  onThreadFailure?: (err: Error) => void;
  /** Runs assessments in a worker thread (assess-thread.ts); absent: everything runs on this thread. */
  inThread?: { run: (request: ThreadRequest) => Promise<ThreadOutcome> } | null;
  /** Measured artifacts of the host (workload fingerprint, size histograms, benchmarks), see jobs/evidence-artifacts.ts. */
  evidence?: (host: HostRow) => Partial<Artifacts>;
  /** Told after each stored assessment (closing the loop records a measured pair the new inventory shows: loop-outcome.ts). */
  afterStore?: (hostId: string) => void;
}

export interface AssessmentOutcome {
  record: StoredAssessment;
  newFingerprints: string[];
  resolvedFingerprints: string[];
}

export function createAssessmentJob(deps: AssessmentJobDeps) {

  /** Collect, assess and store on this thread (injected services, tests). */
  const runHere = async (host: HostRow, trigger: AssessmentTrigger, assess: NonNullable<AssessmentJobDeps['services']['assess']>) => {
    const loaded = await deps.collect(host);
    const outcome = await assess(loaded.inventory, deps.evidence?.(host));
    const snapshotId = deps.history.addSnapshot(host.id, loaded.inventory, loaded.raw);
    return { id: deps.history.addAssessment(host.id, snapshotId, outcome.assessment, outcome.optane, trigger), assessment: outcome.assessment };
  };
  /**
   * Rules and compression (and the collection itself, for this machine, the demo and snapshots)
   * in a worker thread; this thread only stores the bytes it gets back.
   */
  const runInThread = async (host: HostRow, trigger: AssessmentTrigger, inThread: NonNullable<AssessmentJobDeps['inThread']>) => {
    const extra = deps.evidence?.(host) ?? {};
    const load = deps.loadOptions?.(host) ?? null;
    const outcome = load
      ? await inThread.run({ kind: 'load', load, extra })
      : await inThread.run({ kind: 'inventory', ...(await deps.collect(host)), extra });
    const snapshotId = deps.history.addPackedSnapshot(host.id, outcome.snapshot);
    return { id: deps.history.addPackedAssessment(host.id, snapshotId, trigger, outcome), assessment: outcome.assessment };
  };

  /** The assessment running per host and what started it. */
  const inflight = new Map<string, { trigger: AssessmentTrigger; promise: Promise<AssessmentOutcome> }>();

  const job = {
    isRunning: (hostId: string) => inflight.has(hostId),
    /**
     * One assessment per host at a time. A person's "run now" while the app is re-assessing by
     * itself (the schedule, a pool change: jobs/freshness.ts) gets that assessment's result — it
     * started after the change the person wants to see — instead of a refusal; any other overlap
     * is refused as busy.
     */
    run(host: HostRow, trigger: AssessmentTrigger): Promise<AssessmentOutcome> {
      const current = inflight.get(host.id);
      if (current) {
        if (trigger === 'manual' && current.trigger === 'scheduled') return current.promise;
        return Promise.reject(new JobError('busy', `an assessment of host "${host.id}" is already running`, 'Its result appears on the Overview when it ends; run again after that.'));
      }
      const promise = runOnce(host, trigger).finally(() => { inflight.delete(host.id); });
      inflight.set(host.id, { trigger, promise });
      return promise;
    },
  };

  async function runOnce(host: HostRow, trigger: AssessmentTrigger): Promise<AssessmentOutcome> {
    const assess = deps.services.assess;
    if (!assess) {
      throw new JobError('unavailable', `assessments are not available in this build (${deps.services.missing.assess ?? 'assess() missing'})`,
        'Reinstall the app from a complete package (the server log at start names the missing file).');
    }
    // Only the fingerprints of the previous assessment are needed: not its parsed whole
    // (on a large host that is a parse of megabytes on the server's thread).
    const previous = deps.history.latestAssessmentRef(host.id);
    const before = new Set(previous ? deps.history.fingerprintsOf(previous.id) : []);
    const stored = deps.inThread
      ? await runInThread(host, trigger, deps.inThread).catch((err: unknown) => {
        // A worker that cannot start (a build without its file, a thread limit) must not
        // stop assessments: they run on this thread then, as before workers existed.
        if (!(err instanceof WorkerUnavailable)) throw err;
        deps.onThreadFailure?.(err);
        return runHere(host, trigger, assess);
      })
      : await runHere(host, trigger, assess);
    deps.history.prune(host.id, deps.retention());
    deps.afterStore?.(host.id);
    const record = deps.history.getAssessment(stored.id);
    if (!record) throw new Error(`assessment ${stored.id} vanished right after it was stored`);
    const after = new Set(stored.assessment.findings.map((f) => f.fingerprint));
    return {
      record,
      newFingerprints: [...after].filter((f) => !before.has(f)),
      resolvedFingerprints: [...before].filter((f) => !after.has(f)),
    };
  }
  return job;
}
export type AssessmentJob = ReturnType<typeof createAssessmentJob>;

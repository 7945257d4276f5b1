/**
 * Workload observations started through the API or by the schedule (issue 10): reads counters
 * only (`observeWorkload`), one observation per host at a time, time-based progress, cancel,
 * and the fingerprint with its human summary stored in the host's history.
 *
 * Observations run on the machine the server runs on, so only `local` hosts can be observed.
 */
import type { ObservationProgress, ObservationRecord, ObservationRequest, ObservationSettings } from '../model/evidence.ts';
import { JobError, type Logger } from '../model/jobs.ts';
import { observeWorkload, type ObserveOptions, type ObserveResult } from '../observe/collect.ts';
import { summariseFingerprint } from '../observe/summary.ts';
import type { EvidenceRepo } from '../store/evidence-repo.ts';
import type { HostRow } from '../store/hosts-repo.ts';
import { createLiveTasks } from './live-tasks.ts';

export type Observer = (opts: ObserveOptions) => Promise<ObserveResult>;

export interface ObserveJobDeps {
  evidence: EvidenceRepo;
  logger: Logger;
  /** Default `observeWorkload` (tests may replay recorded counters). */
  observe?: Observer;
  now?: () => number;
  /** Stored observations kept per host. */
  keepPerHost?: number;
  /** How often progress is sent while the window runs. */
  progressEveryMs?: number;
}

const errText = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0]! : String(err));

export function createObserveJob(deps: ObserveJobDeps) {
  const observe = deps.observe ?? observeWorkload;
  const now = deps.now ?? Date.now;
  const live = createLiveTasks<ObservationProgress, ObservationRecord>();

  const view = (id: number): ObservationRecord | null => {
    const r = deps.evidence.getObservation(id);
    if (!r) return null;
    return live.isRunning(id) ? { ...r, progress: live.lastProgress(id) } : r;
  };

  const start = (host: HostRow, request: ObservationRequest, trigger: 'manual' | 'scheduled'): ObservationRecord => {
    const holder = live.activeFor(host.id);
    if (holder !== undefined) throw new JobError('busy', `an observation is already running on host "${host.id}" (observation ${holder})`, 'Wait for it to end or cancel it on the Workload page, then start again.');
    const startedMs = now();
    const id = deps.evidence.addObservation({
      hostId: host.id, trigger, startedAt: new Date(startedMs).toISOString(),
      durationS: request.durationS, intervalS: request.intervalS, pools: request.pools ?? null,
    });
    const controller = live.begin(id, host.id);
    const elapsedS = () => Math.round((now() - startedMs) / 100) / 10;
    live.progress(id, { phase: 'start', pct: 0, elapsedS: 0 });
    // The window is a fixed duration: elapsed ÷ duration is the progress, held below 100 until the end reading is in.
    const ticker = setInterval(() => {
      const e = elapsedS();
      live.progress(id, { phase: e < request.durationS ? 'window' : 'end', pct: Math.min(99, Math.round((e / request.durationS) * 1000) / 10), elapsedS: e });
    }, deps.progressEveryMs ?? 1000);
    ticker.unref();

    void (async () => {
      let status: 'completed' | 'failed' | 'canceled' = 'failed';
      let result: ObserveResult | null = null;
      let message: string | null = null;
      try {
        result = await observe({ durationSec: request.durationS, intervalSec: request.intervalS, pools: request.pools, signal: controller.signal });
        status = controller.signal.aborted ? 'canceled' : 'completed';
        if (status === 'canceled') message = errText(controller.signal.reason);
      } catch (err) {
        status = controller.signal.aborted ? 'canceled' : 'failed';
        message = controller.signal.aborted ? errText(controller.signal.reason) : `the observation failed: ${errText(err)}`;
        if (!controller.signal.aborted) deps.logger.warn('observation failed', { host: host.id, observation: id, error: errText(err) });
      } finally {
        clearInterval(ticker);
      }
      const keep = status === 'completed' && result !== null;
      try {
        deps.evidence.finishObservation(id, {
          status, endedAt: new Date(now()).toISOString(),
          // A canceled window is shorter than asked and its end reading may be missing: not evidence.
          fingerprint: keep ? result!.fingerprint : null,
          summary: keep ? summariseFingerprint(result!.fingerprint) : [],
          commands: result?.commands ?? [],
          message,
        });
        deps.evidence.prune(host.id, deps.keepPerHost ?? 500);
      } catch (err) {
        deps.logger.error('storing an observation failed', { host: host.id, observation: id, error: errText(err) });
      }
      live.progress(id, { phase: 'done', pct: 100, elapsedS: elapsedS() });
      let record = null;
      try { record = deps.evidence.getObservation(id); } catch { /* store closed (shutdown): answer from memory */ }
      if (record) live.end(id, record);
      else live.end(id, { id, hostId: host.id, trigger, status, startedAt: new Date(startedMs).toISOString(), endedAt: null, durationS: request.durationS, intervalS: request.intervalS, pools: request.pools ?? null, progress: null, fingerprint: null, summary: [], commands: [], message });
      if (status === 'completed') deps.logger.info('observation completed', { host: host.id, observation: id, trigger });
    })();

    return view(id)!;
  };

  return {
    start,
    view,
    cancel(id: number): ObservationRecord | null {
      live.cancel(id, 'canceled by the user');
      return view(id);
    },
    subscribe: live.subscribe,
    isRunning: (id: number) => live.isRunning(id),
    /** Resolves when an observation ends (tests, shutdown). */
    settled: live.settled,
    /**
     * One pass of the schedule: starts an observation on every local host whose newest one
     * started longer ago than the interval. Off when the interval is 0. Returns the ids started.
     */
    scheduledTick(hosts: readonly HostRow[], settings: ObservationSettings, opts: { demo: boolean }): number[] {
      if (settings.scheduleIntervalMinutes <= 0 || opts.demo) return [];
      const started: number[] = [];
      for (const h of hosts) {
        if (h.kind !== 'local' || live.activeFor(h.id) !== undefined) continue;
        const last = deps.evidence.lastObservationStart(h.id);
        if (last && now() - Date.parse(last) < settings.scheduleIntervalMinutes * 60_000) continue;
        const interval = Math.min(settings.intervalSeconds, settings.durationSeconds);
        started.push(start(h, { durationS: settings.durationSeconds, intervalS: interval }, 'scheduled').id);
      }
      return started;
    },
    abortAll: () => live.abortAll('server shutting down'),
  };
}
export type ObserveJob = ReturnType<typeof createObserveJob>;

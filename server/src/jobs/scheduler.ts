/**
 * Scheduled re-assessment: every `tickMs` it looks at the interval setting and re-assesses each
 * host whose newest assessment is older than the interval, recording the run with the findings it
 * added and resolved. Off when the interval is 0. The timer is unref'd: it never keeps the process alive.
 */
import type { AssessmentJob } from './assessment-job.ts';
import type { HistoryRepo } from '../store/history-repo.ts';
import type { HostsRepo } from '../store/hosts-repo.ts';
import type { Logger } from '../model/jobs.ts';

export interface SchedulerDeps {
  hosts: HostsRepo;
  history: HistoryRepo;
  job: AssessmentJob;
  intervalMinutes: () => number;
  logger: Logger;
  tickMs?: number;
  now?: () => number;
  /** Other scheduled work run on every tick, even when re-assessment is off (scheduled observations). */
  alsoOnTick?: () => unknown;
}

export function createScheduler(deps: SchedulerDeps) {
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;

  /** One pass; returns the ids of the hosts it re-assessed. Exposed for tests. */
  const tick = async (): Promise<string[]> => {
    try { await deps.alsoOnTick?.(); } catch (err) {
      deps.logger.warn('scheduled work failed', { error: err instanceof Error ? err.message.split('\n')[0]! : String(err) });
    }
    const minutes = deps.intervalMinutes();
    if (minutes <= 0 || ticking) return [];
    ticking = true;
    const done: string[] = [];
    try {
      for (const host of deps.hosts.list()) {
        const last = deps.history.latestAssessmentSummary(host.id);
        if (last && now() - Date.parse(last.generatedAt) < minutes * 60_000) continue;
        if (deps.job.isRunning(host.id)) continue;
        const startedAt = new Date(now()).toISOString();
        try {
          const out = await deps.job.run(host, 'scheduled');
          deps.history.addRun({
            hostId: host.id, startedAt, finishedAt: new Date(now()).toISOString(), status: 'ok', assessmentId: out.record.id,
            newFingerprints: out.newFingerprints, resolvedFingerprints: out.resolvedFingerprints, error: null,
          });
          deps.logger.info('scheduled assessment', { host: host.id, new: out.newFingerprints.length, resolved: out.resolvedFingerprints.length });
        } catch (err) {
          const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
          deps.history.addRun({ hostId: host.id, startedAt, finishedAt: new Date(now()).toISOString(), status: 'failed', assessmentId: null, newFingerprints: [], resolvedFingerprints: [], error: message });
          deps.logger.warn('scheduled assessment failed', { host: host.id, error: message });
        }
        done.push(host.id);
      }
    } finally {
      ticking = false;
    }
    return done;
  };

  return {
    tick,
    start(): void {
      if (timer) return;
      timer = setInterval(() => { void tick(); }, deps.tickMs ?? 60_000);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
export type Scheduler = ReturnType<typeof createScheduler>;

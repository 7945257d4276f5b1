/**
 * Current by itself (issue 38 §2): the server notices when this machine's pools are laid out
 * differently from the newest assessment (a vdev added or removed, a pool created or destroyed, a
 * disk attached) and re-assesses, so no screen keeps showing a tree that is gone. The check is one
 * `zpool status` (readPools), compared with the stored snapshot's pools as layouts
 * (freshness/layout.ts); it runs on the scheduler's tick and whenever a page asks
 * (GET /api/hosts/:hostId/freshness), at most once per `minIntervalMs`. Only this machine is
 * watched: a TrueNAS or Proxmox host read through its API is re-read by an assessment.
 */
import type { HistoryRepo } from '../store/history-repo.ts';
import type { HostRow } from '../store/hosts-repo.ts';
import type { Logger } from '../model/jobs.ts';
import { layoutChanges, layoutOf, type Freshness, type PoolsReading } from '../freshness/layout.ts';
import type { AssessmentJob } from './assessment-job.ts';

export interface FreshnessDeps {
  history: Pick<HistoryRepo, 'latestSnapshotRef' | 'latestSnapshot' | 'latestAssessmentRef'>;
  job: Pick<AssessmentJob, 'run' | 'isRunning'>;
  /** This machine's pools as `zpool status` prints them now; null when this machine is not read live (demo, snapshot). */
  readPools: (() => Promise<PoolsReading>) | null;
  /** Why this machine is not read live, when readPools is null. */
  notLive: string;
  logger: Logger;
  now?: () => number;
  minIntervalMs?: number;
}

interface Reading { at: number; result: PoolsReading }
type LastRefresh = NonNullable<Freshness['lastRefresh']>;

export function createFreshness(deps: FreshnessDeps) {
  const now = deps.now ?? Date.now;
  const minInterval = deps.minIntervalMs ?? 5_000;
  const readings = new Map<string, Reading>();
  const pending = new Map<string, Promise<PoolsReading>>();
  /** The stored snapshot's layout, by snapshot id (a snapshot never changes; reading one costs a decompression). */
  const stored = new Map<number, Record<string, string[]>>();
  /** The re-assessments a change started, until they end (settled() waits for them). */
  const started = new Set<Promise<unknown>>();
  const lastRefresh = new Map<string, LastRefresh>();

  const unknown = (reason: string, assessmentId: number | null = null): Freshness => ({
    state: 'unknown', checkedAt: null, assessmentId, changes: [], refreshing: false, lastRefresh: null, reason,
  });

  const read = async (hostId: string, readPools: () => Promise<PoolsReading>): Promise<Reading> => {
    const last = readings.get(hostId);
    if (last && now() - last.at < minInterval) return last;
    let p = pending.get(hostId);
    if (!p) {
      p = readPools().finally(() => pending.delete(hostId));
      pending.set(hostId, p);
    }
    const reading = { at: now(), result: await p };
    readings.set(hostId, reading);
    return reading;
  };

  const storedLayout = (hostId: string, snapshotId: number): Record<string, string[]> | null => {
    const hit = stored.get(snapshotId);
    if (hit) return hit;
    const snap = deps.history.latestSnapshot(hostId);
    if (!snap) return null;
    const layout = layoutOf(snap.inventory.pools);
    stored.clear(); // only the newest is ever compared against
    stored.set(snap.id, layout);
    return layout;
  };

  const startRefresh = (host: HostRow, changes: string[]): void => {
    deps.logger.info('pool layout changed: re-assessing', { host: host.id, changes });
    const run = deps.job.run(host, 'scheduled')
      .then((out) => { lastRefresh.set(host.id, { at: new Date(now()).toISOString(), changes, assessmentId: out.record.id, error: null }); })
      .catch((err: unknown) => {
        const error = err instanceof Error ? err.message.split('\n')[0]! : String(err);
        lastRefresh.set(host.id, { at: new Date(now()).toISOString(), changes, assessmentId: null, error });
        deps.logger.warn('re-assessment after a pool change failed', { host: host.id, error });
      })
      .finally(() => { started.delete(run); });
    started.add(run);
  };

  /**
   * How current the newest assessment of `host` is; with `refresh`, a change starts a re-assessment
   * (unless one is running: it reads the pools as they are now anyway).
   */
  async function check(host: HostRow, opts: { refresh: boolean }): Promise<Freshness> {
    if (host.kind !== 'local') return unknown(`only this machine's pools are watched; "${host.name}" (${host.kind}) is read again by an assessment`);
    if (!deps.readPools) return unknown(deps.notLive);
    const ref = deps.history.latestSnapshotRef(host.id);
    const assessment = deps.history.latestAssessmentRef(host.id);
    if (!ref || !assessment) return unknown('no assessment yet');
    const reading = await read(host.id, deps.readPools);
    const base = { checkedAt: new Date(reading.at).toISOString(), assessmentId: assessment.id, lastRefresh: lastRefresh.get(host.id) ?? null };
    if (!reading.result.ok) return { ...unknown(reading.result.reason, assessment.id), ...base, refreshing: deps.job.isRunning(host.id) };
    const before = storedLayout(host.id, ref.id);
    if (!before) return unknown('no stored inventory', assessment.id);
    const changes = layoutChanges(before, layoutOf(reading.result.pools));
    if (changes.length > 0 && opts.refresh && !deps.job.isRunning(host.id)) startRefresh(host, changes);
    return { ...base, state: changes.length > 0 ? 'changed' : 'current', changes, refreshing: deps.job.isRunning(host.id), reason: null };
  }

  return {
    check,
    /** The scheduler's tick: this machine, re-assessed when its layout changed. */
    async tick(hosts: readonly HostRow[]): Promise<void> {
      for (const h of hosts) if (h.kind === 'local') await check(h, { refresh: true });
    },
    /** Resolves when no re-assessment started here is running (tests). */
    async settled(): Promise<void> {
      await Promise.all([...started]);
    },
  };
}
export type FreshnessWatch = ReturnType<typeof createFreshness>;

/**
 * What every router of the API shares: the repositories, the background jobs and a few helpers
 * (look a host up or 404, refuse remote hosts for benchmarks, …). Built once per app by
 * `createAppContext(deps)` from explicit dependencies — nothing global — and handed to each
 * router factory in `routes/`.
 */
import type { Store } from '../store/db.ts';
import type { SecretStore } from '../store/secrets.ts';
import { createHostsRepo, type HostRow } from '../store/hosts-repo.ts';
import { createHistoryRepo } from '../store/history-repo.ts';
import { createSettingsRepo } from '../store/settings-repo.ts';
import { createReportsRepo } from '../store/reports-repo.ts';
import { createEvidenceRepo } from '../store/evidence-repo.ts';
import { createAssessmentJob } from '../jobs/assessment-job.ts';
import { createScheduler } from '../jobs/scheduler.ts';
import { createFreshness } from '../jobs/freshness.ts';
import { readLivePools } from '../gather/live-pools.ts';
import type { PoolsReading } from '../freshness/layout.ts';
import { createBenchRuns, type BenchRuns } from '../jobs/bench-runs.ts';
import { createBenchSuites } from '../jobs/bench-suites.ts';
import { createObserveJob, type Observer } from '../jobs/observe-job.ts';
import { createSizesJob } from '../jobs/sizes-job.ts';
import { createLoopOutcomes } from '../jobs/loop-outcome.ts';
import { createOutcomesRepo } from '../store/outcomes-repo.ts';
import { evidenceArtifacts } from '../jobs/evidence-artifacts.ts';
import type { RemoteClients } from '../remote/clients.ts';
import { routes, type HostView } from './contract.ts';
import type { BenchRequest } from './schemas.ts';
import { createReader } from './read-thread.ts';
import { HttpError, notFound } from './errors.ts';
import type { Logger } from './logger.ts';
import type { LoadedInventory, Services } from './services.ts';
import { createRateLimiter } from './security.ts';
import { lazyRemoteClients } from './lazy-remote.ts';
import { confineBenchRequest } from './bench-confinement.ts';
import { benchCeiling, benchPolicy, type BenchPolicy } from './bench-policy.ts';
import { minimalLocalInventory } from './container-inventory.ts';
import { mountedZfsMountpoints, sizeWalkRefusal } from './sizes-confinement.ts';

export interface AppConfig {
  /** '/' or '/prefix' (no trailing slash). */
  basePath: string;
  /** Bearer token required on every route but the gate's public list; null = no auth (loopback only). */
  token: string | null;
  /** Built UI directory (ui/dist), or null. */
  uiDir: string | null;
  /** This start shows the demo: the demo host is added (beside the local host when ZFS answers too). */
  demo: boolean;
  /**
   * Whether this machine answers `zpool` (default `!demo`). False while `demo` is false means no
   * demo either (container mode or `--no-demo`): the local host gets a minimal inventory that says
   * there is no zpool here, or the inventory of the configured TrueNAS host.
   */
  localZfs?: boolean;
  /**
   * Container mode: benchmarks are confined to this directory (a realpath; the dataset mounted at
   * /bench) — path targets only, at or below it. A local host exists even without ZFS.
   */
  benchDir?: string | null;
  /** Never add the Demo host (`--no-demo` / ZFS_ADVISOR_NO_DEMO=1). */
  noDemo?: boolean;
  /** Benchmark starts allowed per client per minute. */
  benchStartsPerMinute?: number;
  /** Failed token attempts allowed per client per minute. */
  authFailuresPerMinute?: number;
  jsonLimit?: string;
  /** The address the server listens on (default 127.0.0.1): which Host names it answers to (origin-policy.ts). */
  boundAddress?: string;
  /** Names clients use to reach the server besides loopback and the bound address (`--public-name`). */
  publicNames?: readonly string[];
  /** Origins of trusted front ends allowed to send state-changing requests (`--trusted-origin`). */
  trustedOrigins?: readonly string[];
  /** The operator's benchmark-limit ceiling (`serve --bench-max-…`); the API may only set limits at or below it. */
  benchCeiling?: Partial<BenchPolicy>;
  /** Directories (realpaths) path benchmarks from the API may write in (`--bench-allow`); none = no path benchmarks. */
  benchAllow?: readonly string[];
  /** Directories (realpaths) size walks may measure besides mounted ZFS datasets (`--sizes-allow`). */
  sizesAllow?: readonly string[];
  /**
   * `serve --snapshot DIR`: the local host shows this captured snapshot (from `zfs-advisor
   * capture`) instead of this machine; benchmarks and size walks, which would measure this
   * machine, are off.
   */
  snapshot?: string | null;
  /** Replaces the `zfs list` read of mounted datasets' mountpoints (tests). */
  zfsMountpoints?: () => Promise<string[]>;
}

export interface AppDeps {
  store: Store;
  secrets: SecretStore;
  services: Services;
  logger: Logger;
  config: AppConfig;
  remote?: RemoteClients;
  /** Replaces the live counter reader of workload observations (tests replay recorded counters). */
  observe?: Observer;
  /** Replaces the reading of this machine's pools for the freshness check (tests). */
  readLivePools?: () => Promise<PoolsReading>;
}

export type AppContext = ReturnType<typeof createAppContext>;

const SNAPSHOT_ONLY = 'this server shows a captured snapshot (serve --snapshot), and measuring would measure this machine instead';

export function createAppContext(deps: AppDeps, basePath: string) {
  const { store, secrets, services, logger, config } = deps;
  const remote = deps.remote ?? lazyRemoteClients();
  const hosts = createHostsRepo(store.db);
  const history = createHistoryRepo(store.db);
  const settings = createSettingsRepo(store.db);
  const reports = createReportsRepo(store.db);
  const evidence = createEvidenceRepo(store.db);
  const benchDir = config.benchDir ?? null;
  const localZfs = config.localZfs ?? !config.demo;

  /**
   * The local host on a machine without `zpool` (a container): the pools are the hosting
   * machine's, so its TrueNAS host's inventory is used when one is configured; otherwise (or when
   * it cannot be reached) a minimal inventory whose gaps say so. Never the demo data.
   */
  const localWithoutZfs = async (): Promise<LoadedInventory> => {
    const capturedAt = new Date().toISOString();
    const nas = hosts.list().find((h) => h.kind === 'truenas' && h.hasSecret);
    const secret = nas ? secrets.get(nas.id) : null;
    if (!nas || !secret) return { inventory: minimalLocalInventory({ capturedAt, benchDir }), raw: {} };
    try {
      const loaded = await remote.collect(nas, secret);
      loaded.inventory.gaps.unshift({
        artifact: 'Host', source: `TrueNAS host "${nas.id}"`, line: null, severity: 'info',
        message: `this container has no zpool: the inventory is the TrueNAS host "${nas.name}" read through its API`,
      });
      return loaded;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      logger.warn('local inventory through the TrueNAS host failed', { host: nas.id, error: why });
      return {
        inventory: minimalLocalInventory({
          capturedAt, benchDir,
          extraGaps: [{ artifact: 'Host', source: `TrueNAS host "${nas.id}"`, line: null, severity: 'warning', message: `the TrueNAS host "${nas.name}" could not be read: ${why}` }],
        }),
        raw: {},
      };
    }
  };

  /** How gather/load.ts reads this host (this machine, the demo, a snapshot), or null when it cannot. */
  const loadOptions = (host: HostRow): { demo?: boolean; snapshot?: string } | null => {
    if (host.kind === 'local' && config.snapshot) return { snapshot: config.snapshot };
    // This machine is read live or not at all: the demo is its own host, never this one's stand-in.
    if (host.kind === 'local') return localZfs ? {} : null;
    if (host.kind === 'demo') return { demo: true };
    return null;
  };

  const collect = async (host: HostRow): Promise<LoadedInventory> => {
    if (host.kind === 'local' && !localZfs && !config.snapshot) return localWithoutZfs();
    const load = loadOptions(host);
    if (load) {
      if (!services.loadInventory) throw new HttpError('unavailable', `collecting inventories is not available in this build (${services.missing.loadInventory ?? 'loadInventory() missing'})`);
      return services.loadInventory(load);
    }
    const secret = secrets.get(host.id);
    if (!secret) throw new HttpError('conflict', `host "${host.id}" has no stored credentials; set them with PATCH ${routes.updateHost.path}`);
    return remote.collect(host, secret);
  };

  const interrupted = evidence.interruptRunning(new Date().toISOString());
  if (interrupted > 0) logger.warn('evidence jobs interrupted by a restart', { count: interrupted });
  const observeJob = createObserveJob({ evidence, logger, observe: deps.observe });
  const sizesJob = createSizesJob({
    evidence, logger, inventoryOf: (id) => history.latestSnapshot(id)?.inventory ?? null,
    refusal: (path) => config.snapshot ? Promise.resolve(SNAPSHOT_ONLY) : sizeWalkRefusal(path, { benchDir, allow: config.sizesAllow ?? [], zfsMountpoints: config.zfsMountpoints ?? mountedZfsMountpoints }),
  });
  // Closing the loop (jobs/loop-outcome.ts): stored runs are this machine's, so only the local host has any.
  const loop = createLoopOutcomes({
    history, outcomes: createOutcomesRepo(store.db),
    runsOf: (hostId, pool) => (hosts.get(hostId)?.kind === 'local' && services.bench ? services.bench.history({ pool }) : []),
  });
  const job = createAssessmentJob({
    afterStore: (hostId) => {
      try { loop.recordIfMeasured(hostId); } catch (err) { logger.warn('closing the loop: the pair could not be recorded', { error: err instanceof Error ? err.message : String(err) }); }
    },
    history, services, collect, loadOptions, inThread: services.inThread ?? null, retention: () => settings.get().retention,
    onThreadFailure: (err) => logger.warn('assessment worker unavailable: assessing on the main thread', { error: err.message }),
    evidence: (host) => evidenceArtifacts(host, {
      evidence, bench: services.bench, observation: () => settings.get().observation, demo: config.demo,
      onError: (what, err) => logger.warn(`${what} unavailable for the assessment`, { error: err instanceof Error ? err.message : String(err) }),
    }),
  });
  // This machine's pools are watched for layout changes (jobs/freshness.ts) when they are read live.
  const freshness = createFreshness({
    history, job, logger,
    readPools: localZfs && !config.snapshot ? (deps.readLivePools ?? readLivePools) : null,
    notLive: config.snapshot ? 'a captured snapshot: nothing on it changes' : 'this machine is not read live (no zpool here, or the demo)',
  });
  const scheduler = createScheduler({
    hosts, history, job, intervalMinutes: () => settings.get().assessmentIntervalMinutes, logger,
    alsoOnTick: async () => {
      observeJob.scheduledTick(hosts.list(), settings.get().observation, { demo: config.demo });
      await freshness.tick(hosts.list());
    },
  });
  const benchCeilingValue = benchCeiling(config.benchCeiling);
  const benchRuns: BenchRuns | null = services.bench
    ? createBenchRuns({ bench: services.bench, logger, maxRuntimeSeconds: () => benchPolicy(settings.get().benchmark, benchCeilingValue).maxRuntimeSeconds })
    : null;
  const benchSuites = createBenchSuites({ db: store.db, logger, isHostBusy: (id) => benchRuns?.busy(id) ?? false });

  /** Run when the app closes (timers and monitors of routers). */
  const closers: (() => void)[] = [];

  const getHost = (id: string): HostRow => {
    const h = hosts.get(id);
    if (!h) throw notFound(`host "${id}"`);
    return h;
  };

  return {
    benchCeiling: benchCeilingValue,
    config, basePath, benchDir, localZfs, store, secrets, services, logger, remote,
    hosts, history, settings, reports, evidence, job, scheduler, freshness, loop, benchRuns, benchSuites, observeJob, sizesJob,
    reader: createReader({ logger }),
    onClose: (f: () => void) => { closers.push(f); },
    closeAll: () => { for (const f of closers.splice(0)) f(); },
    benchLimiter: createRateLimiter(config.benchStartsPerMinute ?? 6, 60_000),
    authLimiter: createRateLimiter(config.authFailuresPerMinute ?? 20, 60_000),
    /** All sources together: 10 × the per-address budget (gate.ts says why there is one). */
    authLimiterGlobal: createRateLimiter(10 * (config.authFailuresPerMinute ?? 20), 60_000),
    getHost,
    hostView: (h: HostRow): HostView => ({ ...h, lastAssessment: history.latestAssessmentSummary(h.id) }),
    requireBench: () => {
      if (config.snapshot) throw new HttpError('unavailable', `benchmarks are off: ${SNAPSHOT_ONLY}`);
      if (!services.bench || !benchRuns) throw new HttpError('unavailable', `benchmarks are not available in this build (${services.missing.bench ?? 'runner missing'})`);
      return { bench: services.bench, runs: benchRuns };
    },
    requireLocal: (h: HostRow) => {
      if (h.kind !== 'local') throw new HttpError('conflict', `benchmarks run only on the machine the server runs on; host "${h.id}" is ${h.kind}`);
    },
    /** Path targets only inside the operator's places (bench-confinement.ts); the request carries the checked path. */
    confine: (request: BenchRequest): BenchRequest => {
      const c = confineBenchRequest(request, config.benchAllow ?? [], benchDir);
      if (!c.ok) throw new HttpError(c.status === 403 ? 'forbidden' : 'bad-request', c.message);
      return c.request;
    },
    /** Stored benchmark runs, or none (logged) when the store cannot be read. */
    safeHistory: (bench: NonNullable<Services['bench']>) => {
      try { return bench.history({}); } catch (err) {
        logger.warn('benchmark history unavailable', { error: err instanceof Error ? err.message : String(err) });
        return [];
      }
    },
  };
}

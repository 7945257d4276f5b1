/**
 * What the API needs from the rest of the app, as explicit interfaces: collecting an inventory,
 * running the rules, the benchmark runner and the report renderer. `createApp()` receives them,
 * so tests can pass their own and nothing is global.
 *
 * `loadServices()` wires the real modules. They are loaded by path at run time and checked for
 * the expected exports, so the server still starts (and says what is missing with a 503) when a
 * part is absent from a build.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Assessment } from '../model/finding.ts';
import type { Inventory } from '../model/inventory.ts';
import type { Artifacts } from '../model/artifacts.ts';
import type { BenchmarkSummary } from '../model/workload.ts';
import type { SuiteView } from '../bench/suite-types.ts';
import type { Profile } from '../bench/profiles.ts';
import type { Database } from 'better-sqlite3';
import * as bench from '../bench/run.ts';
import { HttpError } from './errors.ts';
import { assessInThread } from '../jobs/assess-thread.ts';
import type { ThreadOutcome, ThreadRequest } from '../jobs/assess-thread-protocol.ts';
import type { BeforeAfterView, BenchRequest, DryRunView, ReportFormat } from './schemas.ts';
import type { ForumTarget } from '../report/forum-targets.ts';
import type { AssessOutcome, BenchStarter, LoadedInventory } from '../model/jobs.ts';

export type { LoadedInventory, AssessOutcome } from '../model/jobs.ts';

export interface BenchService extends BenchStarter {
  listProfiles(): readonly Profile[];
  dryRun(request: BenchRequest): Promise<DryRunView>;
  beforeAfter(pool: string, profile: string): BeforeAfterView;
  /** Cleans up after a run that crashed (called at server start). */
  recover(): Promise<void>;
}

export interface ReportInput {
  inventory: Inventory;
  raw: unknown;
  assessment: Assessment;
  optane: unknown;
  benchmarks: BenchmarkSummary[];
  /** The latest benchmark suite of this machine (bench/report-suite.ts), or null. */
  suite?: SuiteView | null;
  /** Stored "forecast (range), measured" pairs of the host (optane/outcome.ts). */
  outcomes?: readonly unknown[];
  appVersion: string;
  ruleCatalogVersion: string;
  generatedAt: string;
}

/** A forum post instead of the plain report (report/forum.ts ForumOptions). */
export interface ReportForumOptions {
  target: ForumTarget;
  links?: number | null;
  addresses?: boolean;
}

export interface RenderedReport {
  contentType: string;
  fileName: string;
  body: string | Buffer | Uint8Array;
}

export interface Services {
  /** Local host (or the demo when it has no ZFS / when asked). */
  loadInventory: ((opts: { demo?: boolean; snapshot?: string }) => Promise<LoadedInventory>) | null;
  assess: ((inventory: Inventory, extra?: Artifacts) => Promise<AssessOutcome> | AssessOutcome) | null;
  bench: BenchService | null;
  renderReport: ((input: ReportInput, opts: { format: ReportFormat; redact?: boolean | { poolNames?: boolean }; forum?: ReportForumOptions }) => Promise<RenderedReport>) | null;
  /**
   * Runs whole assessments (collect, rules, compression) in a worker thread, with the real
   * gather/assess modules; absent (tests' own services): they run on the server's thread.
   */
  inThread?: { run: (request: ThreadRequest) => Promise<ThreadOutcome> } | null;
  /** Why a service is null (said in the 503 and at startup). */
  missing: Record<string, string>;
}

/**
 * Imports one optional part. Each caller passes a literal `import('../x.ts')` so a bundler can see
 * (and include) the module; a part missing from this build still only costs its service.
 */
async function importOptional(rel: string, load: () => Promise<unknown>): Promise<{ mod: Record<string, unknown> } | { error: string }> {
  try {
    return { mod: (await load()) as Record<string, unknown> };
  } catch (err) {
    return { error: `${rel} could not be loaded: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
}

/** `true` when the module's source file is present (checked without loading it), otherwise why not. */
function moduleExists(rel: string): true | string {
  return existsSync(fileURLToPath(new URL(`../${rel}`, import.meta.url))) ? true : `${rel} could not be loaded: the file is missing from this build`;
}

function lazyRenderReport(): NonNullable<Services['renderReport']> {
  let loaded: Promise<NonNullable<Services['renderReport']>> | null = null;
  return async (input, opts) => {
    loaded ??= importOptional('report/render.ts', () => import('../report/render.ts')).then((r) => {
      const f = 'mod' in r ? fn(r.mod, 'renderReport') : null;
      if (!f) {
        loaded = null;
        throw new HttpError('unavailable', `reports are not available in this build (${'error' in r ? r.error : 'report/render.ts has no renderReport()'})`);
      }
      return f as unknown as NonNullable<Services['renderReport']>;
    });
    return (await loaded)(input, opts);
  };
}

type AnyFn = (...args: never[]) => unknown;
function fn(mod: Record<string, unknown>, name: string): AnyFn | null {
  const f = mod[name];
  return typeof f === 'function' ? (f as AnyFn) : null;
}

/**
 * Loads the real implementations. The bench runner keeps its runs, lock and journal in the same
 * database (its migration 0002).
 */
export async function loadServices(benchContext: { db: Database }): Promise<Services> {
  const missing: Record<string, string> = {};
  const services: Services = { loadInventory: null, assess: null, bench: null, renderReport: null, missing };

  const load = await importOptional('gather/load.ts', () => import('../gather/load.ts'));
  if ('mod' in load && fn(load.mod, 'loadInventory')) {
    const f = fn(load.mod, 'loadInventory') as unknown as (o: { demo?: boolean; snapshot?: string }) => Promise<LoadedInventory>;
    services.loadInventory = (o) => f(o);
  } else missing.loadInventory = 'error' in load ? load.error : 'gather/load.ts has no loadInventory()';

  const assess = await importOptional('assess/assess.ts', () => import('../assess/assess.ts'));
  if ('mod' in assess && fn(assess.mod, 'assess')) {
    const f = fn(assess.mod, 'assess') as unknown as (inv: Inventory, extra?: Artifacts) => Promise<AssessOutcome> | AssessOutcome;
    services.assess = (inv, extra) => f(inv, extra);
  } else missing.assess = 'error' in assess ? assess.error : 'assess/assess.ts has no assess()';

  // The report renderers (and pdfkit with its fonts) are loaded on the first report request: a
  // server that never exports a report should not carry them. The module's presence is still
  // checked here, so a build without it says so at start and in /api/info.
  const reportAvailable = moduleExists('report/render.ts');
  if (reportAvailable === true) services.renderReport = lazyRenderReport();
  else missing.renderReport = reportAvailable;

  services.bench = benchService(benchContext.db);
  if (services.loadInventory && services.assess) services.inThread = { run: assessInThread };

  return services;
}

/** The guarded benchmark runner (`server/src/bench/run.ts`) on the server's database. */
export function benchService(db: Database): BenchService {
  return {
    listProfiles: () => bench.listProfiles(),
    dryRun: (req) => bench.dryRun(req, { db }),
    start: async (req, hooks) => {
      const run = await bench.startBenchmark(req, { db, onProgress: hooks.onProgress, signal: hooks.signal });
      return { summary: run.summary, status: run.summary.status, message: run.message };
    },
    history: (filter) => bench.history(db, filter).map((r) => r.summary).filter((x): x is BenchmarkSummary => x !== null),
    beforeAfter: (pool, profile) => bench.beforeAfter(db, pool, profile),
    recover: async () => { await bench.recoverAbandoned(db); },
  };
}

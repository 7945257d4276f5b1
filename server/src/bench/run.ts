/**
 * The benchmark runner's public face, one code path for the CLI and the server:
 *
 *   dryRun(request)               → every command and every guard's verdict; writes nothing (context.ts)
 *   startBenchmark(request, deps) → one guarded run, stored (single-run.ts)
 *   planSuite / runSuite          → a batch of runs over a matrix, with pauses, a total cap and cancel (suite-runner.ts)
 *   recoverAbandoned(db)          → removes a crashed run's leftovers (recover.ts)
 *   listProfiles(), history(db, filter), beforeAfter(db, pool, profile) (history.ts)
 * The guards all of them apply live in guards.ts.
 */
export { recoverAbandoned } from './recover.ts';
export { listProfiles } from './profiles.ts';
export { dryRun, wallCapOf, defaultMaxLoad1, type DryRun } from './context.ts';
export { startBenchmark, WALL_MISMATCH_LIMIT, type RunDeps } from './single-run.ts';
export { history, beforeAfter, type BeforeAfter } from './history.ts';

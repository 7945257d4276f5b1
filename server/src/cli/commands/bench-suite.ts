/**
 * `zfs-advisor bench suite` — a batch of guarded runs (suites.ts, suite-runner.ts).
 *
 *   bench suite NAME|--profiles a,b,c [--matrix "sync=always,standard io=direct,buffered qd=1,16 bs=4k,1m"]
 *               (--pool P | --path DIR) [--zvol] [--volblocksize 16k] [--pause 10s] [--max-total 30m]
 *               [--runtime 10s] [--size 256M] [--max-load L] [--max-wall-ratio 1.5] [--dry-run] [--json] [--data-dir D]
 *   bench suite --history [--json]
 *   bench suite --show ID [--json | --csv]
 *   bench suite --compare BEFORE_ID AFTER_ID [--json | --csv]
 *
 * Matrix cells may also follow the suite name as words (`bench suite quick qd=1,16 --path /x`).
 * Human tables by default; JSON only with --json (`--dry-run --json` prints exactly the plan shape
 * {suite, runs: [{profile, sync, io, iodepth, bs, target, commands}], estimatedSeconds}).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, type CliIO, type Handler } from '../command.ts';
import type { options } from '../defs/bench-suite.ts';
import { inputError, usageError } from '../framework/errors.ts';
import { openStore, DB_FILE_NAME, type Store } from '../../store/db.ts';
import { parseMatrix, SuiteRequest, SUITES } from '../../bench/suites.ts';
import { planJson, planSuite, runSuite } from '../../bench/suite-runner.ts';
import { getSuiteRow, listSuites } from '../../bench/suite-store.ts';
import { comparisonCsv, compareSuites, suiteCsv, suiteExport } from '../../bench/compare.ts';
import { recoverAbandoned } from '../../bench/recover.ts';
import { liveProbe } from '../../bench/process-identity.ts';
import { defaultDataDir } from '../../data-dir.ts';
import { comparisonText, planText, progressLine, recoveredLine, seconds, suiteText, table } from './bench-format.ts';
import { guardSentence } from '../../bench/guards.ts';

async function withStore(dataDir: string, io: CliIO, fn: (s: Store) => Promise<number>): Promise<number> {
  const opened = await openStore(dataDir);
  if (!opened.ok) throw inputError(opened.error.message, 'check --data-dir (zfs-advisor info prints the default)');
  try {
    // Every invocation first cleans up after a killed run and closes a suite left running by a dead
    // process, and says so, as `bench` does.
    const probe = await liveProbe();
    for (const r of await recoverAbandoned(opened.store.db, probe)) io.stderr(recoveredLine(r));
    return await fn(opened.store);
  } finally { opened.store.close(); }
}

export const run: Handler<typeof options> = async ({ values: o, positionals }, io) => {
  const dataDir = o['data-dir'] ?? defaultDataDir();
  const json = o.json === true;

  if (o.history) {
    return withStore(dataDir, io, async (s) => {
      const rows = listSuites(s.db);
      if (json) io.stdout(`${JSON.stringify(rows.map(({ result, ...r }) => ({ ...r, runs: result?.runs.length ?? 0 })), null, 2)}\n`);
      else if (rows.length === 0) io.stdout('no suite has been run yet\n');
      else io.stdout(table(['id', 'suite', 'status', 'started', 'runs', 'wall', 'message'], rows.map((r) => [r.id, r.name, r.status, r.startedAt, r.result?.runs.length ?? null, seconds(r.result?.wallSeconds), r.message])));
      return EXIT.ok;
    });
  }
  if (o.show !== undefined || o.compare) {
    const ids = o.compare ? positionals : [o.show!];
    if (o.compare && ids.length !== 2) throw usageError('--compare needs two suite ids', 'give BEFORE AFTER ids from zfs-advisor bench suite --history');
    return withStore(dataDir, io, async (s) => {
      const found = ids.map((id) => getSuiteRow(s.db, id));
      const missing = ids.filter((_, i) => !found[i]?.result);
      if (missing.length) throw inputError(`no finished suite with id ${missing.join(', ')}`, 'see zfs-advisor bench suite --history');
      const [a, b] = found.map((r) => r!.result!);
      if (o.compare) {
        const c = compareSuites(a!, b!);
        io.stdout(o.csv ? comparisonCsv(c) : json ? `${JSON.stringify({ before: a!.id, after: b!.id, ...c }, null, 2)}\n` : comparisonText(a!, b!));
      } else {
        io.stdout(o.csv ? suiteCsv(a!) : json ? `${JSON.stringify(suiteExport(a!), null, 2)}\n` : suiteText(a!));
      }
      return EXIT.ok;
    });
  }

  // A new suite: the name and matrix words.
  const words = positionals;
  const names = words.filter((w) => !w.includes('='));
  const matrixWords = [...(o.matrix ?? []), ...words.filter((w) => w.includes('='))];
  if (names.length > 1) throw usageError(`give one suite name, not ${names.join(' ')}`, `one of ${SUITES.map((x) => x.id).join(', ')}`);
  const name = names[0];
  if (!name && !o.profiles) throw usageError('give a suite name or --profiles a,b,c', `built-in suites: ${SUITES.map((x) => x.id).join(', ')}; see zfs-advisor bench --list`);
  const m = parseMatrix(matrixWords);
  if (!m.ok) throw usageError(m.message, 'e.g. --matrix "sync=always,standard io=direct,buffered qd=1,16 bs=4k,1m"');
  if ((o.pool === undefined) === (o.path === undefined)) throw usageError('give exactly one of --pool, --path', 'e.g. --pool tank or --path /tank/bench');
  if (o.zvol && o.pool === undefined) throw usageError('--zvol needs --pool', 'zvols live in a pool: add --pool POOL');
  const input = {
    suite: name ?? 'custom',
    profiles: o.profiles?.split(',').map((x) => x.trim()).filter(Boolean),
    matrix: m.matrix,
    target: o.pool !== undefined ? { kind: 'dataset', pool: o.pool } : { kind: 'path', dir: o.path },
    zvol: o.zvol === true,
    volblocksize: o.volblocksize,
    runtimeS: o.runtime,
    sizeBytes: o.size,
    pauseS: o.pause,
    maxTotalS: o['max-total'],
    maxLoad1: o['max-load'],
    maxWallRatio: o['max-wall-ratio'],
  };
  const req = SuiteRequest.safeParse(input);
  if (!req.success) {
    const i = req.error.issues[0];
    const opt: Record<string, string> = { runtimeS: '--runtime', sizeBytes: '--size', volblocksize: '--volblocksize', profiles: '--profiles', suite: 'suite name' };
    const key = String(i?.path[0] ?? '');
    throw usageError(`invalid ${opt[key] ?? (i?.path.join('.') || 'request')}: ${i?.message ?? 'bad value'}`, key === 'profiles' ? 'give profiles from zfs-advisor bench --list' : 'see zfs-advisor bench suite --help');
  }

  if (o['dry-run']) {
    // Reads the lock if a store already exists, but never creates or writes one.
    let planned;
    if (existsSync(join(dataDir, DB_FILE_NAME))) {
      const opened = await openStore(dataDir);
      planned = await planSuite(req.data, { db: opened.ok ? opened.store.db : null });
      if (opened.ok) opened.store.close();
    } else planned = await planSuite(req.data);
    if (!planned.ok) throw usageError(planned.message, 'see zfs-advisor bench --list');
    if (json) {
      io.stdout(`${JSON.stringify(planJson(planned.plan), null, 2)}\n`);
      for (const s of planned.plan.skipped) io.stderr(`skipped ${s.label}: ${s.reason}\n`);
      for (const g of planned.plan.guards.filter((x) => !x.ok)) io.stderr(`${guardSentence(g)}\n`);
    } else io.stdout(planText(planned.plan));
    return EXIT.ok;
  }

  return withStore(dataDir, io, async (s) => {
    const planned = await planSuite(req.data, { db: s.db });
    if (!planned.ok) throw usageError(planned.message, 'see zfs-advisor bench --list');
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      if (!json) io.stderr(`suite ${planned.plan.suite}: ${planned.plan.runs.length} run(s), estimated ${seconds(planned.plan.estimatedSeconds)}\n`);
      const result = await runSuite(planned.plan, {
        db: s.db, signal: controller.signal,
        onStart: (id) => { if (json) io.stderr(`${JSON.stringify({ suiteId: id })}\n`); },
        onProgress: (p) => {
          if (json) io.stderr(`${JSON.stringify({ progress: p })}\n`);
          else if (io.isTTY) io.stderr(progressLine(p));
        },
      });
      if (io.isTTY && !json) io.stderr('\n');
      if (json) io.stdout(`${JSON.stringify({ ...planJson(planned.plan), id: result.id, status: result.status, stopReason: result.stopReason, runs: planned.plan.runs.map((r, i) => ({ ...planJson(planned.plan).runs[i]!, result: result.runs[i]?.result ?? null, message: result.runs[i]?.message ?? (i >= result.runs.length ? 'not started' : null) })), skipped: result.skipped, notes: result.notes }, null, 2)}\n`);
      else io.stdout(suiteText(result));
      return result.status === 'completed' ? EXIT.ok : EXIT.failure;
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    }
  });
};

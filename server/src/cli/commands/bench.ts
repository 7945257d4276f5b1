/**
 * `zfs-advisor bench` — guarded fio benchmarks (the same runner the server uses).
 *
 *   bench PROFILE (--pool P | --path DIR | --device DEV --confirm-serial S)
 *         [--size 1G] [--runtime 30] [--wall-cap S] [--max-load L] [--dry-run] [--json] [--data-dir D]
 *   bench --list                      (profiles and suites, as tables)
 *   bench suite …                     (a batch of runs: commands/bench-suite.ts)
 *   bench --history [--pool P] [--profile X] [--json]
 *   bench --before-after --pool P PROFILE
 *
 * --confirm-serial: the device's serial number; a device without one is confirmed by its WWN, or,
 * without a WWN either, by NAME:BYTES (kernel name and exact size in bytes); never by the name alone.
 *
 * Exit codes: 0 completed (or dry run / list / history), 1 refused, aborted or failed, 2 store
 * unreadable, 64 usage. A live progress bar is drawn on stderr when stderr is a terminal.
 */
import { EXIT, type CliIO, type Handler } from '../command.ts';
import type { options } from '../defs/bench.ts';
import { usageError } from '../framework/errors.ts';
import { join } from 'node:path';
import { DB_FILE_NAME, openStore, type Store } from '../../store/db.ts';
import { createHostsRepo } from '../../store/hosts-repo.ts';
import { localHostOf } from '../../store/cli-store.ts';
import { createOutcomesRepo } from '../../store/outcomes-repo.ts';
import { pairsText } from '../../optane/outcome.ts';
import { BenchRequest, type ProgressEvent } from '../../bench/types.ts';
import type { BenchmarkSummary } from '../../model/workload.ts';
import { beforeAfter, dryRun, history, listProfiles, recoverAbandoned, startBenchmark, type BeforeAfter } from '../../bench/run.ts';
import { recoverForInvocation } from '../../bench/recover.ts';
import { SUITES, sizeLabel } from '../../bench/suites.ts';
import { guardLines, recoveredLine, runText, seconds, table } from './bench-format.ts';
import { ABSENT, formatCount, formatLatencyNs, formatLatencyUs, formatTime, plural } from '../../text/format.ts';
import { runLatencyOf, type RunLatency } from '../../bench/sync-latency.ts';

export { defaultDataDir } from '../../data-dir.ts';
import { defaultDataDir } from '../../data-dir.ts';

function bar(e: ProgressEvent): string {
  const width = 30;
  const filled = Math.round((e.pct / 100) * width);
  const iops = e.iops !== null ? ` ${Math.round(e.iops)} IOPS` : '';
  const lat = e.latencyUs !== null ? ` ${formatLatencyUs(e.latencyUs)}` : '';
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${e.pct.toFixed(0).padStart(3)}% ${e.phase.padEnd(7)}${iops}${lat} ${e.elapsedS.toFixed(0)}s   `;
}

function renderBeforeAfter(ba: BeforeAfter): string {
  // The latency is the run's own (sync-latency.ts): for a sync profile the time until a write was durable, named.
  const latOf = (l: RunLatency | null) => (l ? `${l.label} p99 ${l.p99Ns === null ? `${ABSENT} (${l.missing ?? 'not reported'})` : formatLatencyNs(l.p99Ns)}` : `latency ${ABSENT}`);
  const line = (label: string, x: BenchmarkSummary | null, l: RunLatency | null) => (x
    ? `${label} ${formatTime(x.startedAt)}: write ${formatCount(x.writeIops)} IOPS, read ${formatCount(x.readIops)} IOPS, ${latOf(l)}\n`
    : `${label} none\n`);
  const pct = (r: number | null) => (r === null ? 'n/a' : `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(0)} %`);
  let out = `${ba.profile} on ${ba.pool}: ${plural(ba.groups.length, 'pool layout')} measured\n${line('before', ba.before, ba.latency.before)}${line('after ', ba.after, ba.latency.after)}`;
  if (ba.ratios) out += `change: write IOPS ${pct(ba.ratios.writeIops)}, read IOPS ${pct(ba.ratios.readIops)}, ${ba.latency.label ?? 'latency'} p99 ${pct(ba.ratios.latencyP99)}\n`;
  else out += 'no change to compare: the before/after needs completed runs on two different pool layouts\n';
  return out;
}

async function withStore(dataDir: string, io: CliIO, fn: (s: Store) => Promise<number>): Promise<number> {
  const opened = await openStore(dataDir);
  if (!opened.ok) {
    io.stderr(`zfs-advisor bench: ${opened.error.message}\n`);
    return EXIT.badInput;
  }
  try {
    return await fn(opened.store);
  } finally {
    opened.store.close();
  }
}

export const run: Handler<typeof options> = async ({ values: o, positionals }, io) => {
    // Human text by default; JSON only with --json.
    const json = o.json === true;
    const dataDir = o['data-dir'] ?? defaultDataDir();
    // Every invocation first cleans up after dead runs (orphaned fio, files) and stale host-wide locks.
    for (const r of await recoverForInvocation(join(dataDir, DB_FILE_NAME))) io.stderr(recoveredLine(r));

    if (o.list) {
      const profiles = listProfiles();
      if (json) io.stdout(`${JSON.stringify({ profiles, suites: SUITES }, null, 2)}\n`);
      else {
        io.stdout(`profiles (bench PROFILE …):\n${table(['profile', 'rw', 'bs', 'QD', 'sync', 'question'], profiles.map((p) => [p.id, p.rw, sizeLabel(p.blockSize), p.iodepth, p.sync ? 'yes' : 'no', p.question]))}\n`);
        io.stdout(`suites (bench suite NAME …):\n${table(['suite', 'runs', 'runtime', 'pause', 'cap', 'question'], SUITES.map((x) => [x.id, `${x.profiles.join(', ')} × ${Object.entries(x.matrix).map(([k, v]) => `${k}=${(v as (string | number)[]).map((n) => (k === 'bs' ? sizeLabel(Number(n)) : n)).join(',')}`).join(' ') || 'profile defaults'}`, seconds(x.runtimeS), seconds(x.pauseS), seconds(x.maxTotalS), x.question]))}`);
      }
      return EXIT.ok;
    }

    if (o.history) {
      return withStore(dataDir, io, async (s) => {
        await recoverAbandoned(s.db);
        const runs = history(s.db, { pool: o.pool, profile: o.profile });
        if (json) io.stdout(`${JSON.stringify(runs.map((r) => ({ ...r, latency: r.summary ? runLatencyOf(r.summary) : null })), null, 2)}\n`);
        else if (runs.length === 0) io.stdout('no benchmark has been run yet\n');
        else {
          io.stdout(table(['started', 'id', 'status', 'profile', 'target', 'write IOPS', 'read IOPS', 'p99 latency', 'latency of', 'wall', 'message'], runs.map((r) => {
            const l = r.summary ? runLatencyOf(r.summary) : null;
            // The run's own latency, named (sync-latency.ts): an fsync run's fsync p99, not fio's write().
            return [
              r.startedAt, r.id, r.status, r.profile, r.target, r.summary ? formatCount(r.summary.writeIops) : null, r.summary ? formatCount(r.summary.readIops) : null,
              l ? formatLatencyNs(l.p99Ns) : null, l?.label ?? null,
              r.summary ? `${seconds(r.summary.wallSeconds)}${r.summary.wallTimeMismatch ? ' (≠ fio)' : ''}` : null, r.message,
            ];
          })));
        }
        return EXIT.ok;
      });
    }

    const profile = positionals[0];
    if (!profile) throw usageError('PROFILE is missing', 'give one profile, e.g. zfs-advisor bench sync-write-4k-qd1 --pool tank (see zfs-advisor bench --list)');

    if (o['before-after']) {
      if (!o.pool) throw usageError('--before-after needs --pool', 'add --pool POOL, e.g. --pool tank');
      return withStore(dataDir, io, async (s) => {
        const ba = beforeAfter(s.db, o.pool!, profile);
        // The stored "forecast (range), measured" pairs of this pool (optane/outcome.ts), when the app closed the loop.
        const host = localHostOf(createHostsRepo(s.db).list());
        const outcomes = host ? createOutcomesRepo(s.db).list(host.id, { pool: o.pool! }).map(({ id, recordedAt, outcome }) => ({ id, recordedAt, outcome })) : [];
        io.stdout(json ? `${JSON.stringify({ ...ba, outcomes }, null, 2)}\n` : `${renderBeforeAfter(ba)}${pairsText(outcomes)}`);
        return EXIT.ok;
      });
    }

    const targets = [o.pool, o.path, o.device].filter((x) => x !== undefined).length;
    if (targets !== 1) throw usageError(targets === 0 ? 'the target is missing' : 'more than one target given', 'give exactly one of --pool POOL, --path DIR, --device DEV');
    if (o.device !== undefined && o['confirm-serial'] === undefined) {
      throw usageError('--device needs --confirm-serial', "type the device's serial number; for a device without one its WWN; without a WWN either its kernel name and exact size in bytes as NAME:BYTES (e.g. loop3:67108864)");
    }
    const input = {
      profile,
      target: o.pool !== undefined ? { kind: 'dataset', pool: o.pool }
        : o.path !== undefined ? { kind: 'path', dir: o.path }
          : { kind: 'device', device: o.device, confirmSerial: o['confirm-serial'] },
      sizeBytes: o.size,
      runtimeS: o.runtime,
      wallCapS: o['wall-cap'],
      maxLoad1: o['max-load'],
    };
    const req = BenchRequest.safeParse(input);
    if (!req.success) {
      const issue = req.error.issues[0];
      throw usageError(`invalid ${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'bad request'}`, issue?.path[0] === 'profile' ? 'give a profile from zfs-advisor bench --list' : 'see zfs-advisor bench --help');
    }

    if (o['dry-run']) {
      // Reads the lock if a store already exists, but never creates or writes one.
      const { existsSync } = await import('node:fs');
      let result;
      if (existsSync(join(dataDir, DB_FILE_NAME))) {
        const opened = await openStore(dataDir);
        result = await dryRun(req.data, { db: opened.ok ? opened.store.db : null });
        if (opened.ok) opened.store.close();
      } else {
        result = await dryRun(req.data);
      }
      if (json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else {
        io.stdout(`profile ${result.profile.id} (sync=${result.sync}, ${result.io} I/O, sync mode: ${result.syncMode})\n\nguards:\n`);
        for (const g of result.guards) io.stdout(`${guardLines(g).join('\n')}\n`);
        io.stdout('\ncommands:\n');
        for (const c of result.commands) io.stdout(`  ${c.join(' ')}\n`);
        for (const n of result.notes) io.stdout(`\nnote: ${n}\n`);
        io.stdout(`\n${result.wouldRun ? 'would run' : 'would be refused'}\n`);
      }
      return EXIT.ok;
    }

    return withStore(dataDir, io, async (s) => {
      const controller = new AbortController();
      const onSignal = () => controller.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        const run = await startBenchmark(req.data, {
          db: s.db,
          signal: controller.signal,
          onProgress: (e) => {
            if (io.isTTY && !o.json) io.stderr(bar(e));
            else if (o.json) io.stderr(`${JSON.stringify({ progress: e })}\n`);
          },
        });
        if (io.isTTY && !o.json) io.stderr('\n');
        // JSON carries the run's latency as every other surface names it (sync-latency.ts).
        if (json) io.stdout(`${JSON.stringify({ ...run, latency: runLatencyOf(run.summary) }, null, 2)}\n`);
        else io.stdout(runText(run.summary, run.message));
        return run.summary.status === 'completed' ? EXIT.ok : EXIT.failure;
      } finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      }
    });
};

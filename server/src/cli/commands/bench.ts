/**
 * `zfs-advisor bench` — guarded fio benchmarks (the same runner the server uses).
 *
 *   bench PROFILE (--pool P | --path DIR | --device DEV --confirm-serial S)
 *         [--size 1G] [--runtime 30] [--wall-cap S] [--max-load L] [--dry-run] [--json] [--data-dir D]
 *   bench --list                      (profiles and suites, as a table)
 *   bench suite …                     (a batch of runs; see bench-suite.ts)
 *   bench --history [--pool P] [--profile X] [--json]
 *   bench --before-after --pool P PROFILE
 *
 * --confirm-serial: the device's serial number; a device without one is confirmed by its WWN, or,
 * without a WWN either, by NAME:BYTES (kernel name and exact size in bytes); never by the name alone.
 *
 * Exit codes: 0 completed (or dry run / list / history), 1 refused, aborted or failed, 2 store
 * unreadable, 64 usage. A live progress bar is drawn on stderr when stderr is a terminal.
 */
import { parseArgs } from 'node:util';
import { EXIT, type CliCommand, type CliIO } from '../command.ts';
import { parseHumanNumber } from '../../parsers/common.ts';
import { openStore, type Store } from '../../store/db.ts';
import { BenchRequest, type ProgressEvent } from '../../bench/types.ts';
import { beforeAfter, dryRun, history, listProfiles, recoverAbandoned, startBenchmark } from '../../bench/run.ts';
import { SUITES, sizeLabel } from '../../bench/suites.ts';
import { runSuiteCommand, SUITE_USAGE } from './bench-suite.ts';
import { runText, seconds, table } from './bench-format.ts';

export { defaultDataDir } from '../../data-dir.ts';
import { defaultDataDir } from '../../data-dir.ts';

const USAGE = 'usage: zfs-advisor bench PROFILE (--pool P | --path DIR | --device DEV --confirm-serial S) [--size 1G] [--runtime 30] [--wall-cap S] [--max-load L] [--dry-run] [--json] [--data-dir D]\n'
  + '       zfs-advisor bench --list | --history [--pool P] [--profile X] | --before-after --pool P PROFILE\n' + SUITE_USAGE.replace(/^usage: /, '       ');

function bar(e: ProgressEvent): string {
  const width = 30;
  const filled = Math.round((e.pct / 100) * width);
  const iops = e.iops !== null ? ` ${Math.round(e.iops)} IOPS` : '';
  const lat = e.latencyUs !== null ? ` ${e.latencyUs.toFixed(0)} µs` : '';
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${e.pct.toFixed(0).padStart(3)}% ${e.phase.padEnd(7)}${iops}${lat} ${e.elapsedS.toFixed(0)}s   `;
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

const command: CliCommand = {
  summary: 'run a guarded fio benchmark or a suite of them (profiles, suites, dry run, history, before/after)',
  async run(args: string[], io: CliIO): Promise<number> {
    if (args[0] === 'suite') return runSuiteCommand(args.slice(1), io);
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        options: {
          pool: { type: 'string' }, path: { type: 'string' }, device: { type: 'string' },
          'confirm-serial': { type: 'string' }, size: { type: 'string' }, runtime: { type: 'string' },
          'wall-cap': { type: 'string' }, 'max-load': { type: 'string' }, 'dry-run': { type: 'boolean' },
          json: { type: 'boolean' }, 'data-dir': { type: 'string' }, list: { type: 'boolean' },
          history: { type: 'boolean' }, profile: { type: 'string' }, 'before-after': { type: 'boolean' },
        },
      });
    } catch (err) {
      io.stderr(`zfs-advisor bench: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
      return EXIT.usage;
    }
    const o = parsed.values;
    const json = o.json === true; // human tables unless asked, whatever stdout is
    const dataDir = o['data-dir'] ?? defaultDataDir();

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
        if (json) io.stdout(`${JSON.stringify(runs, null, 2)}\n`);
        else if (runs.length === 0) io.stdout('no benchmark has been run yet\n');
        else {
          io.stdout(table(['started', 'id', 'status', 'profile', 'target', 'write IOPS', 'read IOPS', 'wall', 'message'], runs.map((r) => [
            r.startedAt, r.id, r.status, r.profile, r.target, r.summary ? Math.round(r.summary.writeIops) : null, r.summary ? Math.round(r.summary.readIops) : null,
            r.summary ? `${seconds(r.summary.wallSeconds)}${r.summary.wallTimeMismatch ? ' (≠ fio)' : ''}` : null, r.message,
          ])));
        }
        return EXIT.ok;
      });
    }

    const profile = parsed.positionals[0];
    if (!profile || parsed.positionals.length > 1) {
      io.stderr(`zfs-advisor bench: give exactly one profile (see bench --list)\n${USAGE}`);
      return EXIT.usage;
    }

    if (o['before-after']) {
      if (!o.pool) { io.stderr(`zfs-advisor bench: --before-after needs --pool\n${USAGE}`); return EXIT.usage; }
      return withStore(dataDir, io, async (s) => {
        io.stdout(`${JSON.stringify(beforeAfter(s.db, o.pool!, profile), null, 2)}\n`);
        return EXIT.ok;
      });
    }

    const targets = [o.pool, o.path, o.device].filter((x) => x !== undefined).length;
    if (targets !== 1) { io.stderr(`zfs-advisor bench: give exactly one of --pool, --path, --device\n${USAGE}`); return EXIT.usage; }
    if (o.device !== undefined && o['confirm-serial'] === undefined) {
      io.stderr(`zfs-advisor bench: --device needs --confirm-serial, typed by you: the device's serial number; for a device without one its WWN; without a WWN either its kernel name and exact size in bytes as NAME:BYTES (e.g. loop3:67108864)\n${USAGE}`);
      return EXIT.usage;
    }
    const size = o.size !== undefined ? parseHumanNumber(o.size) : undefined;
    const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
    const input = {
      profile,
      target: o.pool !== undefined ? { kind: 'dataset', pool: o.pool }
        : o.path !== undefined ? { kind: 'path', dir: o.path }
          : { kind: 'device', device: o.device, confirmSerial: o['confirm-serial'] },
      sizeBytes: size === null ? Number.NaN : size,
      runtimeS: num(o.runtime),
      wallCapS: num(o['wall-cap']),
      maxLoad1: num(o['max-load']),
    };
    const req = BenchRequest.safeParse(input);
    if (!req.success) {
      const issue = req.error.issues[0];
      io.stderr(`zfs-advisor bench: invalid ${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'bad request'}\n${USAGE}`);
      return EXIT.usage;
    }

    if (o['dry-run']) {
      // Reads the lock if a store already exists, but never creates or writes one.
      const { existsSync } = await import('node:fs');
      const { join } = await import('node:path');
      const { DB_FILE_NAME } = await import('../../store/db.ts');
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
        for (const g of result.guards) io.stdout(`  ${g.ok ? 'ok     ' : 'REFUSED'} ${g.id.padEnd(14)} ${g.message}\n`);
        io.stdout('\ncommands:\n');
        for (const c of result.commands) io.stdout(`  ${c.join(' ')}\n`);
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
        if (json) io.stdout(`${JSON.stringify(run, null, 2)}\n`);
        else io.stdout(runText(run.summary, run.message));
        return run.summary.status === 'completed' ? EXIT.ok : EXIT.failure;
      } finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
      }
    });
  },
};

export default command;

/**
 * `zfs-advisor sizes PATH|DATASET [--recordsize R] [--ashift A] [--json] [--low-priority]
 *  [--zdb [--pool P] [--zfs-version V]] [--zdb-file FILE [--zfs-version V]] [--save [--data-dir D]]`:
 * file and block size histograms of a dataset and the special-class usage per candidate
 * special_small_blocks (issue 8). Ctrl-C cancels cleanly.
 *
 * `--zdb` (opt-in, root) also runs `zdb -Lbbbs POOL` at low priority and shows its histogram beside
 * the walk; `--save` stores the results in the server's evidence store for the rules and the UI.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT, type Handler } from '../command.ts';
import def, { type options } from '../defs/sizes.ts';
import { CliError, firstLine, inputError, refusal, usageError } from '../framework/errors.ts';
import { bindCommand } from '../framework/run.ts';
import { defaultDataDir } from '../../data-dir.ts';
import { runCommand } from '../../exec/runner.ts';
import type { SizeHistogram } from '../../model/workload.ts';
import { parseZdbBlockStats } from '../../parsers/zdb-block-stats.ts';
import { histogramFromZdb } from '../../sizing/from-zdb.ts';
import { measureSizes } from '../../sizing/measure.ts';
import { renderHistogram } from '../../sizing/render.ts';
import { datasetOfPath, lowerOwnPriority, resolveTarget } from '../../sizing/resolve-target.ts';
import { saveMeasurements, type MeasurementToSave } from '../../sizing/stored.ts';
import { measureWithZdb, type RecordedCommand } from '../../sizing/zdb-run.ts';

function checkedRecordsize(rs: number | undefined): number | null {
  if (rs !== undefined && (rs < 512 || (rs & (rs - 1)) !== 0)) {
    throw usageError(`--recordsize ${rs} bytes is not a power of two of at least 512 bytes`, 'give a ZFS record size, e.g. --recordsize 128K');
  }
  return rs ?? null;
}

export interface SizesDeps {
  /** The runner for zfs/zdb (tests inject recorded output). */
  run: typeof runCommand;
  isRoot: () => boolean;
  now: () => Date;
}

export function createSizesHandler(deps: SizesDeps): Handler<typeof options> {
  return async ({ values: o, positionals }, io) => {
      if (o['from-histogram'] !== undefined) {
        if (positionals.length > 0 || o.zdb || o['zdb-file'] || o.save || o['low-priority']) throw usageError('--from-histogram reads a table instead of walking a path', 'give --from-histogram FILE alone (with --recordsize, --ashift, --zfs-version, --json)');
        const { runFromHistogram } = await import('./sizes-from-histogram.ts');
        return runFromHistogram({ file: o['from-histogram'], recordsize: checkedRecordsize(o.recordsize) ?? 131072, ashift: o.ashift ?? 12, zfsVersion: o['zfs-version'] ?? null, json: Boolean(o.json), now: deps.now }, io);
      }
      if (positionals.length === 0) throw usageError('give one PATH or DATASET to walk', 'or --from-histogram FILE for a size table made elsewhere');
      if (o.zdb && o['zdb-file']) throw usageError('--zdb runs zdb and --zdb-file reads its saved output', 'give one of them');
      if (o.pool !== undefined && !o.zdb) throw usageError('--pool only names the pool for --zdb', 'add --zdb, or leave out --pool');
      if (o['data-dir'] !== undefined && !o.save) throw usageError('--data-dir only applies with --save', 'add --save, or leave out --data-dir');
      const rsArg = checkedRecordsize(o.recordsize);
      const ashift = o.ashift ?? 12;

      const target = await resolveTarget(positionals[0]!, { run: deps.run });
      if (!target.ok) throw inputError(target.message, 'give a directory, or a mounted dataset name such as tank/media');
      // A directory given by path: name its dataset when it is on ZFS, so a saved result reaches the
      // rules (they match histograms by dataset) and --zdb knows the pool.
      let { dataset, recordsize: datasetRecordsize } = target.value;
      if (!dataset && (o.save || (o.zdb && !o.pool))) {
        const of = await datasetOfPath(target.value.path, deps.run);
        if (of) { dataset = of.dataset; datasetRecordsize = of.recordsize; }
      }
      const pool = o.pool ?? (dataset ? dataset.split('/')[0]! : null);
      if (o.zdb && !pool) throw usageError(`--zdb needs the pool: ${target.value.path} is not on a dataset zfs knows`, 'add --pool POOL');
      const recordsize = rsArg ?? datasetRecordsize ?? 131072;
      const priorityNotes = o['low-priority'] ? await lowerOwnPriority() : [];

      const ac = new AbortController();
      const onSigint = () => ac.abort(new Error('cancelled (SIGINT)'));
      process.once('SIGINT', onSigint);
      const tty = Boolean(process.stderr.isTTY);
      try {
        const startedAt = deps.now().toISOString();
        const { histogram, stats } = await measureSizes(target.value.path, {
          recordsize, ashift, dataset, pool, signal: ac.signal, progressIntervalMs: 1000, now: deps.now,
          onProgress: tty ? (pr) => io.stderr(`\r${pr.files} files, ${pr.dirs} dirs, ${(pr.elapsedMs / 1000).toFixed(0)} s`) : undefined,
        });
        if (tty) io.stderr('\n');
        histogram.notes.push(...priorityNotes);
        const walkEndedAt = deps.now().toISOString();

        let zdb: SizeHistogram | null = null;
        let zdbCommands: RecordedCommand[] = [];
        if (o['zdb-file']) {
          const file = o['zdb-file'];
          let text: string;
          try { text = readFileSync(file, 'utf8'); } catch (err) { throw inputError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'give the file `zdb -Lbbbs POOL` output was saved to'); }
          const z = parseZdbBlockStats(text, { version: o['zfs-version'] ?? null });
          if (!z.ok) throw inputError(`${file}${z.error.line ? `:${z.error.line}` : ''}: ${z.error.message}`, 'give the saved output of `zdb -Lbbbs POOL`');
          zdb = histogramFromZdb(pool ?? 'pool', z.value, recordsize, ashift, histogram.capturedAt);
        } else if (o.zdb) {
          if (tty) io.stderr(`running zdb -Lbbbs ${pool} at low priority (it reads every block pointer of the pool; Ctrl-C cancels)\n`);
          const z = await measureWithZdb(pool!, {
            recordsize, ashift, version: o['zfs-version'] ?? null, signal: ac.signal, now: deps.now, run: deps.run, isRoot: deps.isRoot,
          });
          zdbCommands = z.commands;
          if (!z.ok) {
            if (ac.signal.aborted) return 130;
            // The root message carries its own advice after " — ".
            const [what, todo] = z.message.split(' — ');
            throw refusal(`--zdb: ${what}`, todo ?? 'leave out --zdb to measure by the walk alone');
          }
          zdb = z.histogram;
        }

        let saved: { ids: number[]; hostId: string; file: string } | null = null;
        if (o.save) {
          const path = resolve(target.value.path);
          const toSave: MeasurementToSave[] = [{ histogram, stats: { ...stats }, path, lowPriority: Boolean(o['low-priority']), startedAt, endedAt: walkEndedAt }];
          if (zdb) toSave.push({ histogram: zdb, stats: { commands: zdbCommands }, path: null, lowPriority: true, startedAt: walkEndedAt, endedAt: deps.now().toISOString() });
          const s = await saveMeasurements(o['data-dir'] ?? defaultDataDir(), toSave);
          if (!s.ok) throw refusal(`--save: ${s.message}`, 'give a writable --data-dir, or leave out --save');
          saved = { ids: s.ids, hostId: s.hostId, file: s.file };
        }

        if (o.json) {
          io.stdout(`${JSON.stringify({ histogram, stats, zdb, ...(o.zdb ? { zdbCommands } : {}), ...(saved ? { saved } : {}) }, null, 2)}\n`);
        } else {
          io.stdout(renderHistogram(histogram, zdb));
          for (const c of zdbCommands) io.stdout(`ran: ${c.command} (${c.error ?? `exit ${c.exitCode}`}, ${(c.durationMs / 1000).toFixed(1)} s)\n`);
          if (saved) io.stdout(`saved as measurement ${saved.ids.join(', ')} of host "${saved.hostId}" in ${saved.file}\n`);
        }
        return EXIT.ok;
      } catch (err) {
        if (ac.signal.aborted) { io.stderr('zfs-advisor sizes: cancelled (Ctrl-C) — nothing was saved\n'); return 130; }
        if (err instanceof CliError) throw err;
        throw refusal(`the walk of ${target.value.path} failed: ${firstLine(err)}`, 'check the path and its permissions');
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
  };
}

const realDeps: SizesDeps = { run: runCommand, isRoot: () => process.getuid?.() === 0, now: () => new Date() };
export const run = createSizesHandler(realDeps);

/** `sizes` with injected dependencies, parsed and checked by the framework as from the command line (tests). */
export const createSizesCommand = (deps: SizesDeps) => bindCommand(def, 'sizes', createSizesHandler(deps));

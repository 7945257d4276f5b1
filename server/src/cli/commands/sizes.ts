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
import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { defaultDataDir } from '../../data-dir.ts';
import { runCommand } from '../../exec/runner.ts';
import type { SizeHistogram } from '../../model/workload.ts';
import { parseHumanNumber } from '../../parsers/common.ts';
import { parseZdbBlockStats } from '../../parsers/zdb-block-stats.ts';
import { histogramFromZdb } from '../../sizing/from-zdb.ts';
import { measureSizes } from '../../sizing/measure.ts';
import { renderHistogram } from '../../sizing/render.ts';
import { datasetOfPath, lowerOwnPriority, resolveTarget } from '../../sizing/resolve-target.ts';
import { saveMeasurements, type MeasurementToSave } from '../../sizing/stored.ts';
import { measureWithZdb, type RecordedCommand } from '../../sizing/zdb-run.ts';

const USAGE = 'usage: zfs-advisor sizes PATH|DATASET [--recordsize 128K] [--ashift 12] [--json] [--low-priority] '
  + '[--zdb [--pool P] [--zfs-version 2.3.4]] [--zdb-file FILE [--zfs-version 2.3.4]] [--save [--data-dir D]]\n';

export interface SizesDeps {
  /** The runner for zfs/zdb (tests inject recorded output). */
  run: typeof runCommand;
  isRoot: () => boolean;
  now: () => Date;
}

export function createSizesCommand(deps: SizesDeps): CliCommand {
  return {
    summary: 'Size histograms of a dataset (files, blocks) and special-vdev usage per special_small_blocks.',
    async run(args, io) {
      let p;
      try {
        p = parseArgs({
          args, allowPositionals: true, strict: true,
          options: {
            recordsize: { type: 'string' }, ashift: { type: 'string' }, json: { type: 'boolean' },
            'low-priority': { type: 'boolean' }, 'zdb-file': { type: 'string' }, 'zfs-version': { type: 'string' },
            zdb: { type: 'boolean' }, pool: { type: 'string' }, save: { type: 'boolean' }, 'data-dir': { type: 'string' },
          },
        });
      } catch (err) {
        io.stderr(`zfs-advisor sizes: ${(err as Error).message}\n${USAGE}`);
        return EXIT.usage;
      }
      const o = p.values;
      if (p.positionals.length !== 1) { io.stderr(`zfs-advisor sizes: give one PATH or DATASET\n${USAGE}`); return EXIT.usage; }
      if (o.zdb && o['zdb-file']) { io.stderr(`zfs-advisor sizes: --zdb runs zdb, --zdb-file reads its saved output: give one\n${USAGE}`); return EXIT.usage; }
      if (o.pool !== undefined && !o.zdb) { io.stderr(`zfs-advisor sizes: --pool only names the pool for --zdb\n${USAGE}`); return EXIT.usage; }
      if (o['data-dir'] !== undefined && !o.save) { io.stderr(`zfs-advisor sizes: --data-dir only applies with --save\n${USAGE}`); return EXIT.usage; }
      const rsArg = o.recordsize !== undefined ? parseHumanNumber(o.recordsize) : null;
      if (o.recordsize !== undefined && (rsArg === null || rsArg < 512 || (rsArg & (rsArg - 1)) !== 0)) {
        io.stderr(`zfs-advisor sizes: --recordsize must be a power of two ≥ 512 (got ${o.recordsize})\n`);
        return EXIT.usage;
      }
      const ashift = o.ashift !== undefined ? Number(o.ashift) : 12;
      if (!Number.isInteger(ashift) || ashift < 9 || ashift > 16) { io.stderr('zfs-advisor sizes: --ashift must be 9…16\n'); return EXIT.usage; }

      const target = await resolveTarget(p.positionals[0]!, { run: deps.run });
      if (!target.ok) { io.stderr(`zfs-advisor sizes: ${target.message}\n`); return EXIT.badInput; }
      // A directory given by path: name its dataset when it is on ZFS, so a saved result reaches the
      // rules (they match histograms by dataset) and --zdb knows the pool.
      let { dataset, recordsize: datasetRecordsize } = target.value;
      if (!dataset && (o.save || (o.zdb && !o.pool))) {
        const of = await datasetOfPath(target.value.path, deps.run);
        if (of) { dataset = of.dataset; datasetRecordsize = of.recordsize; }
      }
      const pool = o.pool ?? (dataset ? dataset.split('/')[0]! : null);
      if (o.zdb && !pool) { io.stderr(`zfs-advisor sizes: --zdb needs the pool: ${target.value.path} is not on a dataset zfs knows; add --pool POOL\n`); return EXIT.usage; }
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
          try { text = readFileSync(file, 'utf8'); } catch (err) { io.stderr(`zfs-advisor sizes: ${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}\n`); return EXIT.badInput; }
          const z = parseZdbBlockStats(text, { version: o['zfs-version'] ?? null });
          if (!z.ok) { io.stderr(`zfs-advisor sizes: ${file}${z.error.line ? `:${z.error.line}` : ''}: ${z.error.message}\n`); return EXIT.badInput; }
          zdb = histogramFromZdb(pool ?? 'pool', z.value, recordsize, ashift, histogram.capturedAt);
        } else if (o.zdb) {
          if (tty) io.stderr(`running zdb -Lbbbs ${pool} at low priority (it reads every block pointer of the pool; Ctrl-C cancels)\n`);
          const z = await measureWithZdb(pool!, {
            recordsize, ashift, version: o['zfs-version'] ?? null, signal: ac.signal, now: deps.now, run: deps.run, isRoot: deps.isRoot,
          });
          zdbCommands = z.commands;
          if (!z.ok) {
            io.stderr(`zfs-advisor sizes: --zdb: ${z.message}\n`);
            return ac.signal.aborted ? 130 : EXIT.failure;
          }
          zdb = z.histogram;
        }

        let saved: { ids: number[]; hostId: string; file: string } | null = null;
        if (o.save) {
          const path = resolve(target.value.path);
          const toSave: MeasurementToSave[] = [{ histogram, stats: { ...stats }, path, lowPriority: Boolean(o['low-priority']), startedAt, endedAt: walkEndedAt }];
          if (zdb) toSave.push({ histogram: zdb, stats: { commands: zdbCommands }, path: null, lowPriority: true, startedAt: walkEndedAt, endedAt: deps.now().toISOString() });
          const s = await saveMeasurements(o['data-dir'] ?? defaultDataDir(), toSave);
          if (!s.ok) { io.stderr(`zfs-advisor sizes: --save: ${s.message}\n`); return EXIT.failure; }
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
        io.stderr(`zfs-advisor sizes: ${err instanceof Error ? err.message : String(err)}\n`);
        return ac.signal.aborted ? 130 : EXIT.failure;
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
    },
  };
}

const command: CliCommand = createSizesCommand({ run: runCommand, isRoot: () => process.getuid?.() === 0, now: () => new Date() });
export default command;

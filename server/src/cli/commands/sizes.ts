/**
 * `zfs-advisor sizes PATH|DATASET [--recordsize R] [--ashift A] [--json] [--low-priority]
 *  [--zdb-file FILE --zfs-version V]`: file and block size histograms of a dataset and the
 * special-class usage per candidate special_small_blocks (issue 8). Ctrl-C cancels cleanly.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { parseHumanNumber } from '../../parsers/common.ts';
import { parseZdbBlockStats } from '../../parsers/zdb-block-stats.ts';
import { histogramFromZdb } from '../../sizing/from-zdb.ts';
import { measureSizes } from '../../sizing/measure.ts';
import { renderHistogram } from '../../sizing/render.ts';
import { lowerOwnPriority, resolveTarget } from '../../sizing/resolve-target.ts';

const USAGE = 'usage: zfs-advisor sizes PATH|DATASET [--recordsize 128K] [--ashift 12] [--json] [--low-priority] [--zdb-file FILE [--zfs-version 2.3.4]]\n';

const command: CliCommand = {
  summary: 'Size histograms of a dataset (files, blocks) and special-vdev usage per special_small_blocks.',
  async run(args, io) {
    let p;
    try {
      p = parseArgs({
        args, allowPositionals: true, strict: true,
        options: {
          recordsize: { type: 'string' }, ashift: { type: 'string' }, json: { type: 'boolean' },
          'low-priority': { type: 'boolean' }, 'zdb-file': { type: 'string' }, 'zfs-version': { type: 'string' },
        },
      });
    } catch (err) {
      io.stderr(`zfs-advisor sizes: ${(err as Error).message}\n${USAGE}`);
      return EXIT.usage;
    }
    if (p.positionals.length !== 1) { io.stderr(`zfs-advisor sizes: give one PATH or DATASET\n${USAGE}`); return EXIT.usage; }
    const rsArg = p.values.recordsize !== undefined ? parseHumanNumber(p.values.recordsize) : null;
    if (p.values.recordsize !== undefined && (rsArg === null || rsArg < 512 || (rsArg & (rsArg - 1)) !== 0)) {
      io.stderr(`zfs-advisor sizes: --recordsize must be a power of two ≥ 512 (got ${p.values.recordsize})\n`);
      return EXIT.usage;
    }
    const ashift = p.values.ashift !== undefined ? Number(p.values.ashift) : 12;
    if (!Number.isInteger(ashift) || ashift < 9 || ashift > 16) { io.stderr('zfs-advisor sizes: --ashift must be 9…16\n'); return EXIT.usage; }

    const target = await resolveTarget(p.positionals[0]!);
    if (!target.ok) { io.stderr(`zfs-advisor sizes: ${target.message}\n`); return EXIT.badInput; }
    const recordsize = rsArg ?? target.value.recordsize ?? 131072;
    const priorityNotes = p.values['low-priority'] ? await lowerOwnPriority() : [];

    const ac = new AbortController();
    const onSigint = () => ac.abort(new Error('cancelled (SIGINT)'));
    process.once('SIGINT', onSigint);
    const tty = Boolean(process.stderr.isTTY);
    try {
      const { histogram, stats } = await measureSizes(target.value.path, {
        recordsize, ashift, dataset: target.value.dataset, signal: ac.signal, progressIntervalMs: 1000,
        onProgress: tty ? (pr) => io.stderr(`\r${pr.files} files, ${pr.dirs} dirs, ${(pr.elapsedMs / 1000).toFixed(0)} s`) : undefined,
      });
      if (tty) io.stderr('\n');
      histogram.notes.push(...priorityNotes);
      let zdb = null;
      if (p.values['zdb-file']) {
        const file = p.values['zdb-file'];
        let text: string;
        try { text = readFileSync(file, 'utf8'); } catch (err) { io.stderr(`zfs-advisor sizes: ${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}\n`); return EXIT.badInput; }
        const z = parseZdbBlockStats(text, { version: p.values['zfs-version'] ?? null });
        if (!z.ok) { io.stderr(`zfs-advisor sizes: ${file}${z.error.line ? `:${z.error.line}` : ''}: ${z.error.message}\n`); return EXIT.badInput; }
        zdb = histogramFromZdb(histogram.pool ?? 'pool', z.value, recordsize, ashift, histogram.capturedAt);
      }
      io.stdout(p.values.json ? `${JSON.stringify({ histogram, stats, zdb }, null, 2)}\n` : renderHistogram(histogram, zdb));
      return EXIT.ok;
    } catch (err) {
      io.stderr(`zfs-advisor sizes: ${err instanceof Error ? err.message : String(err)}\n`);
      return ac.signal.aborted ? 130 : EXIT.failure;
    } finally {
      process.removeListener('SIGINT', onSigint);
    }
  },
};
export default command;

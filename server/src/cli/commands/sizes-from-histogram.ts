/**
 * `zfs-advisor sizes --from-histogram FILE [--recordsize R] [--ashift A] [--zfs-version V] [--json]`
 * (issue 17 §6): the special-vdev projection from a size table made on another machine — the
 * `find … | awk` table of reference 000, a `size,count` CSV, or `zdb -bbb`/`-Lbbbs` text — with
 * the JSON shape of `sizes PATH --json`. `-` reads standard input.
 */
import { readFileSync, statSync } from 'node:fs';
import { EXIT, type CliIO } from '../command.ts';
import { inputError } from '../framework/errors.ts';
import { histogramFromText } from '../../sizing/from-table.ts';
import { renderHistogram } from '../../sizing/render.ts';

/** A size table is a few kilobytes; zdb output a few hundred. Anything larger is not one. */
export const MAX_HISTOGRAM_FILE_BYTES = 8 * 1024 * 1024;

export interface FromHistogramArgs {
  file: string;
  recordsize: number;
  ashift: number;
  zfsVersion: string | null;
  json: boolean;
  now: () => Date;
}

async function readTable(file: string, io: CliIO): Promise<string> {
  if (file === '-') {
    const text = await io.stdin();
    if (text.length > MAX_HISTOGRAM_FILE_BYTES) throw inputError(`standard input: ${text.length} characters is too large for a size table`, `give a table of at most ${MAX_HISTOGRAM_FILE_BYTES} bytes`);
    return text;
  }
  let size: number;
  try { size = statSync(file).size; } catch (err) {
    throw inputError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'give the file the size table was saved to');
  }
  if (size > MAX_HISTOGRAM_FILE_BYTES) throw inputError(`${file}: ${size} bytes is too large for a size table`, `give a table of at most ${MAX_HISTOGRAM_FILE_BYTES} bytes`);
  try { return readFileSync(file, 'utf8'); } catch (err) {
    throw inputError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'give the file the size table was saved to');
  }
}

export async function runFromHistogram(a: FromHistogramArgs, io: CliIO): Promise<number> {
  const text = await readTable(a.file, io);
  const r = histogramFromText(text, { recordsize: a.recordsize, ashift: a.ashift, source: a.file === '-' ? 'standard input' : a.file, capturedAt: a.now().toISOString(), zfsVersion: a.zfsVersion });
  if (!r.ok) throw inputError(`${a.file}${r.line ? `:${r.line}` : ''}: ${r.message}`, 'give the `find … | awk` size table, a "size,count" CSV, or `zdb -bbb` output');
  const source = { file: a.file, format: r.kind, skippedLines: r.skipped };
  if (a.json) {
    io.stdout(`${JSON.stringify({ histogram: r.histogram, stats: null, zdb: null, source }, null, 2)}\n`);
  } else {
    io.stdout(renderHistogram(r.histogram, null));
    for (const s of r.skipped) io.stdout(`skipped line ${s.line}: ${s.message}\n`);
  }
  return EXIT.ok;
}

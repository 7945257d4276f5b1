/**
 * `zfs-advisor report [--snapshot DIR | --demo] --format md|html|json|pdf [--redact] [--redact-names]
 *   [--benchmarks FILE] [--data-dir D] [--generated-at ISO] [-o FILE]`
 *
 * The recommendations report, through the same `renderReport` the API uses. Text formats go to
 * stdout unless `-o FILE`; PDF needs `-o FILE` (binary). With `-o`, stdout gets one JSON line
 * describing the file written. Benchmarks: `--benchmarks FILE` (what `bench --history --json`
 * prints), else, for this host only, the history in the data directory when it exists.
 * Raw command outputs stay out of the Markdown and PDF body (one forum post, a few pages):
 * `--appendix` writes them beside a Markdown report (`X.appendix.md`) or appends them to the PDF.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand, CliIO } from '../command.ts';
import { EXIT } from '../command.ts';
import { assess } from '../../assess/assess.ts';
import { defaultDataDir } from '../../data-dir.ts';
import { loadInventory } from '../../gather/load.ts';
import { reportBenchmarks } from '../../report/benchmarks.ts';
import { REPORT_FORMATS, renderAppendix, renderReport, type ReportFormat } from '../../report/render.ts';
import { APP_VERSION } from '../../version.ts';

const USAGE = 'usage: zfs-advisor report [--snapshot DIR | --demo] --format md|html|json|pdf [--redact] [--redact-names] [--benchmarks FILE] [--data-dir D] [--generated-at ISO] [-o FILE] [--appendix]\n';

type Loaded<T> = { ok: true; value: T } | { ok: false; message: string };

async function benchmarksFromFile(file: string): Promise<Loaded<unknown[]>> {
  let text: string;
  try { text = await readFile(file, 'utf8'); } catch (e) {
    return { ok: false, message: `${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    const json: unknown = JSON.parse(text);
    if (!Array.isArray(json)) return { ok: false, message: `${file}: expected a JSON array of benchmark results (bench --history --json)` };
    return { ok: true, value: json };
  } catch (e) {
    return { ok: false, message: `${file}: not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** This host's stored history, when a store exists (never creates one). */
async function benchmarksFromStore(dataDir: string): Promise<Loaded<unknown[]>> {
  const { DB_FILE_NAME, openStore } = await import('../../store/db.ts');
  if (!existsSync(join(dataDir, DB_FILE_NAME))) return { ok: true, value: [] };
  const opened = await openStore(dataDir);
  if (!opened.ok) return { ok: false, message: `${join(dataDir, DB_FILE_NAME)}: ${opened.error.message}` };
  try {
    const { history } = await import('../../bench/run.ts');
    return { ok: true, value: history(opened.store.db, {}) };
  } finally {
    opened.store.close();
  }
}

/** `report.md` → `report.appendix.md` (beside it). */
export function appendixPathFor(output: string): string {
  return /\.md$/i.test(output) ? output.replace(/\.md$/i, '.appendix.md') : `${output}.appendix.md`;
}

async function run(args: string[], io: CliIO): Promise<number> {
  let o;
  try {
    o = parseArgs({
      args,
      options: {
        snapshot: { type: 'string' }, demo: { type: 'boolean' }, format: { type: 'string' }, redact: { type: 'boolean' },
        'redact-names': { type: 'boolean' }, benchmarks: { type: 'string' }, 'data-dir': { type: 'string' },
        'generated-at': { type: 'string' }, output: { type: 'string', short: 'o' }, appendix: { type: 'boolean' },
      },
      allowPositionals: false,
    }).values;
  } catch (e) {
    io.stderr(`zfs-advisor report: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return EXIT.usage;
  }
  const format = o.format as ReportFormat | undefined;
  if (!format || !REPORT_FORMATS.includes(format)) { io.stderr(`zfs-advisor report: --format must be one of ${REPORT_FORMATS.join(', ')}\n${USAGE}`); return EXIT.usage; }
  if (o.snapshot && o.demo) { io.stderr(`zfs-advisor report: give --snapshot or --demo, not both\n${USAGE}`); return EXIT.usage; }
  if (o.appendix && format === 'md' && !o.output) { io.stderr(`zfs-advisor report: --appendix with --format md writes the raw outputs beside the report: add -o FILE\n${USAGE}`); return EXIT.usage; }
  if (format === 'pdf' && !o.output) { io.stderr(`zfs-advisor report: --format pdf writes a binary file: add -o FILE\n${USAGE}`); return EXIT.usage; }
  const generatedAt = o['generated-at'] ?? new Date().toISOString();
  if (Number.isNaN(Date.parse(generatedAt))) { io.stderr(`zfs-advisor report: --generated-at must be an ISO 8601 time\n${USAGE}`); return EXIT.usage; }

  let loaded;
  try {
    loaded = await loadInventory({ snapshot: o.snapshot, demo: o.demo });
  } catch (e) {
    const where = o.snapshot ?? (o.demo ? 'demo snapshot' : 'local host');
    const message = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    io.stderr(`zfs-advisor report: ${message.startsWith(where) ? message : `${where}: ${message}`}\n`);
    return EXIT.badInput;
  }

  const bench = o.benchmarks
    ? await benchmarksFromFile(o.benchmarks)
    : o.snapshot || o.demo ? { ok: true as const, value: [] } : await benchmarksFromStore(defaultDataDir(o['data-dir']));
  if (!bench.ok) { io.stderr(`zfs-advisor report: ${bench.message}\n`); return EXIT.badInput; }

  // The Optane verdict reads measured QD1 sync IOPS from the completed runs.
  const summaries = reportBenchmarks(bench.value).benchmarks.map((b) => b.summary);
  const { assessment, optane } = assess(loaded.inventory, { Benchmarks: summaries.length ? summaries : undefined }, new Date(generatedAt));
  const input = {
    inventory: loaded.inventory, raw: loaded.raw, assessment, optane, benchmarks: bench.value,
    appVersion: APP_VERSION, ruleCatalogVersion: assessment.ruleCatalogVersion, generatedAt,
  };
  const redact = o['redact-names'] ? { poolNames: true } : Boolean(o.redact);
  // Markdown stays one forum post: the raw outputs go to a file of their own beside it.
  const appendixFile = o.appendix && format === 'md' && o.output ? appendixPathFor(o.output) : null;
  const out = await renderReport(input, { format, redact, appendix: appendixFile ? { file: basename(appendixFile) } : Boolean(o.appendix) });
  if (appendixFile) {
    try {
      await writeFile(appendixFile, renderAppendix(input, redact));
    } catch (e) {
      io.stderr(`zfs-advisor report: ${appendixFile}: cannot write (${(e as NodeJS.ErrnoException).code ?? 'error'})\n`);
      return EXIT.failure;
    }
  }
  if (!o.output) {
    io.stdout(typeof out.body === 'string' ? out.body : out.body.toString('utf8'));
    return EXIT.ok;
  }
  try {
    await writeFile(o.output, out.body);
  } catch (e) {
    io.stderr(`zfs-advisor report: ${o.output}: cannot write (${(e as NodeJS.ErrnoException).code ?? 'error'})\n`);
    return EXIT.failure;
  }
  io.stdout(`${JSON.stringify({ file: o.output, format, contentType: out.contentType, bytes: Buffer.byteLength(out.body), suggestedName: out.fileName, ...(appendixFile ? { appendix: appendixFile } : {}) })}\n`);
  return EXIT.ok;
}

const command: CliCommand = {
  summary: 'The recommendations report (Markdown, HTML, JSON or PDF), optionally redacted.',
  run,
};
export default command;

/**
 * `zfs-advisor report [--snapshot DIR | --demo] [--format md|html|json|pdf] [--redact] [--redact-names]
 *   [--benchmarks FILE] [--data-dir D] [--generated-at ISO] [-o FILE]` (options: defs/report.ts)
 * `zfs-advisor report --for truenas-forum|proxmox-forum|reddit|github [--links N | --no-links] …`: the
 *   same report as a post within that place's rules (report/forum.ts); with -o the line says its
 *   length, its links and what was left out to fit.
 *
 * The recommendations report, through the same `renderReport` the API uses. Text formats go to
 * stdout unless `-o FILE`; PDF needs `-o FILE` (binary). With `-o`, stdout gets one line saying
 * what was written. Benchmarks: `--benchmarks FILE` (what `bench --history --json`
 * prints), else, for this host only, the history in the data directory when it exists.
 * Raw command outputs stay out of the Markdown and PDF body (one forum post, a few pages):
 * `--appendix` writes them beside a Markdown report (`X.appendix.md`) or appends them to the PDF.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/report.ts';
import { firstLine, inputError, refusal, usageError } from '../framework/errors.ts';
import { defaultDataDir } from '../../data-dir.ts';
import { assess } from '../../assess/assess.ts';
import { loadInventory } from '../../gather/load.ts';
import { reportBenchmarks } from '../../report/benchmarks.ts';
import { evidenceMachineOf } from '../../report/evidence-scope.ts';
import { benchmarksFromStore } from '../../assess/load-benchmarks.ts';
import type { Inventory } from '../../model/inventory.ts';
import { renderAppendix, renderReport, type ReportFormat } from '../../report/render.ts';
import { APP_VERSION } from '../../version.ts';

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

export { benchmarksFromStore } from '../../assess/load-benchmarks.ts';

/** The latest benchmark suite of this machine (bench/report-suite.ts), when the report is of this machine. */
async function suiteFromStore(dataDir: string, inventory: Pick<Inventory, 'source'>): Promise<import('../../bench/suite-types.ts').SuiteView | null> {
  if (!evidenceMachineOf(inventory)) return null;
  const { DB_FILE_NAME, openStore } = await import('../../store/db.ts');
  if (!existsSync(join(dataDir, DB_FILE_NAME))) return null;
  const opened = await openStore(dataDir);
  if (!opened.ok) return null;
  try {
    return (await import('../../bench/report-suite.ts')).latestSuiteView(opened.store.db);
  } finally { opened.store.close(); }
}

/** The stored "forecast (range), measured" pairs of this machine's host row (optane/outcome.ts), when the report is of this machine. */
async function outcomesFromStore(dataDir: string, inventory: Pick<Inventory, 'source'>): Promise<unknown[]> {
  if (!evidenceMachineOf(inventory)) return [];
  const { DB_FILE_NAME, openStore } = await import('../../store/db.ts');
  if (!existsSync(join(dataDir, DB_FILE_NAME))) return [];
  const opened = await openStore(dataDir);
  if (!opened.ok) return [];
  try {
    const { createHostsRepo } = await import('../../store/hosts-repo.ts');
    const { localHostOf } = await import('../../store/cli-store.ts');
    const host = localHostOf(createHostsRepo(opened.store.db).list());
    return host ? (await import('../../store/outcomes-repo.ts')).createOutcomesRepo(opened.store.db).list(host.id) : [];
  } finally { opened.store.close(); }
}

/** `report.md` → `report.appendix.md` (beside it). */
export function appendixPathFor(output: string): string {
  return /\.md$/i.test(output) ? output.replace(/\.md$/i, '.appendix.md') : `${output}.appendix.md`;
}

export const run: Handler<typeof options> = async ({ values: o }, io) => {
  const format: ReportFormat = o.format ?? 'md';
  const place = o.for;
  if (place !== undefined && format !== 'md') throw usageError(`--for ${place} writes a post from the Markdown report, not --format ${format}`, 'leave out --format');
  if (place === undefined && (o.links !== undefined || o['no-links'])) throw usageError(`${o.links !== undefined ? '--links' : '--no-links'} sets the links of a forum post`, 'add --for PLACE, e.g. --for truenas-forum');
  if (o.links !== undefined && o['no-links']) throw usageError('--links and --no-links exclude each other', 'give one');
  if (o.snapshot !== undefined && o.demo !== undefined) throw usageError('--snapshot and --demo exclude each other', 'give one');
  if (o.appendix && format === 'md' && !o.output) throw usageError('--appendix with --format md writes the raw outputs beside the report', 'add -o FILE, e.g. -o report.md');
  if (format === 'pdf' && !o.output) throw usageError('--format pdf writes a binary file', 'add -o FILE, e.g. -o report.pdf');
  const generatedAt = o['generated-at'] ?? new Date().toISOString();
  const demo = o.demo !== undefined;
  const demoName = typeof o.demo === 'string' ? o.demo : undefined;

  let loaded;
  try {
    loaded = await loadInventory({ snapshot: o.snapshot, demo, demoName });
  } catch (e) {
    const where = o.snapshot ?? (demo ? 'demo snapshot' : 'local host');
    const message = firstLine(e);
    throw inputError(message.startsWith(where) ? message : `${where}: ${message}`, o.snapshot ? 'give a directory written by `zfs-advisor capture`' : 'see zfs-advisor report --help');
  }

  const bench = o.benchmarks
    ? await benchmarksFromFile(o.benchmarks)
    : await benchmarksFromStore(defaultDataDir(o['data-dir']), loaded.inventory);
  if (!bench.ok) throw inputError(bench.message, o.benchmarks ? 'give the JSON that `zfs-advisor bench --history --json` prints' : 'check the data directory (--data-dir)');

  // The Optane verdict reads measured QD1 sync IOPS from the completed runs.
  const summaries = reportBenchmarks(bench.value).benchmarks.map((b) => b.summary);
  const { assessment, optane } = assess(loaded.inventory, { Benchmarks: summaries.length ? summaries : undefined }, new Date(generatedAt));
  const input = {
    inventory: loaded.inventory, raw: loaded.raw, assessment, optane, benchmarks: bench.value,
    suite: o.benchmarks ? null : await suiteFromStore(defaultDataDir(o['data-dir']), loaded.inventory),
    outcomes: o.benchmarks ? [] : await outcomesFromStore(defaultDataDir(o['data-dir']), loaded.inventory),
    appVersion: APP_VERSION, ruleCatalogVersion: assessment.ruleCatalogVersion, generatedAt,
  };
  const redact = o['redact-names'] ? { poolNames: true } : Boolean(o.redact);
  // Markdown stays one forum post: the raw outputs go to a file of their own beside it.
  const appendixFile = o.appendix && format === 'md' && o.output ? appendixPathFor(o.output) : null;
  const forum = place === undefined ? undefined : { target: place, links: o.links, addresses: !o['no-links'], appendixFile: appendixFile ? basename(appendixFile) : null };
  const out = await renderReport(input, { format, redact, appendix: appendixFile ? { file: basename(appendixFile) } : Boolean(o.appendix), forum });
  if (appendixFile) {
    try {
      await writeFile(appendixFile, renderAppendix(input, redact));
    } catch (e) {
      throw refusal(`${appendixFile}: cannot write (${(e as NodeJS.ErrnoException).code ?? 'error'})`, 'give a writable file name with -o');
    }
  }
  if (!o.output) {
    io.stdout(typeof out.body === 'string' ? out.body : out.body.toString('utf8'));
    return EXIT.ok;
  }
  try {
    await writeFile(o.output, out.body);
  } catch (e) {
    throw refusal(`${o.output}: cannot write (${(e as NodeJS.ErrnoException).code ?? 'error'})`, 'give a writable file name with -o');
  }
  // What was written, one line (the body went to the file).
  const what = out.forum
    ? `${place} post to ${o.output} (${out.forum.chars} characters, ${out.forum.links === 1 ? '1 link' : `${out.forum.links} links`}${out.forum.leftOut.length ? `; left out to fit: ${out.forum.leftOut.join(', ')}` : ''})`
    : `${format} report to ${o.output} (${Buffer.byteLength(out.body)} bytes, ${out.contentType})`;
  io.stdout(`Wrote ${what}${appendixFile ? ` and its raw outputs to ${appendixFile}` : ''}.\n`);
  return EXIT.ok;
};

/**
 * The exact method, run live (issue 8 §2): `zdb -Lbbbs POOL` through the runner, opt-in only.
 *
 * Why opt-in, root-only and low priority: zdb traverses every block pointer of the pool — minutes to
 * hours of random reads on a large pool — and needs to open the pool's devices (root). It runs under
 * `nice -n 19 ionice -c 3` (plain `nice` when ionice is missing) with a long timeout, and `-L` skips
 * leak detection, which would otherwise load every space map into memory.
 *
 * zdb's histogram binning changed in 2.4.0 (zfs-facts F5), so the OpenZFS version is needed to read
 * it: given by the caller, else asked with `zfs version`; unknown versions are read as ≤ 2.3.
 */
import { describeFailure, runCommand, type CommandResult } from '../exec/runner.ts';
import type { SizeHistogram } from '../model/workload.ts';
import { parseZdbBlockStats } from '../parsers/zdb-block-stats.ts';
import { poolNameProblem } from './dataset-name.ts';
import { histogramFromZdb } from './from-zdb.ts';

/** One program run, as recorded beside a result (what ran, how it ended). */
export interface RecordedCommand {
  command: string;
  exitCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface ZdbMeasureOptions {
  recordsize: number;
  ashift: number;
  /** OpenZFS version ("2.3.4"); null/undefined: asked with `zfs version`. */
  version?: string | null;
  /** Default 12 h: zdb walks the whole pool. */
  timeoutMs?: number;
  signal?: AbortSignal;
  now?: () => Date;
  /** Injected for tests: the runner and whether this process is root. */
  run?: typeof runCommand;
  isRoot?: () => boolean;
}

export type ZdbMeasureOutcome =
  | { ok: true; histogram: SizeHistogram; commands: RecordedCommand[]; version: string | null }
  | { ok: false; message: string; commands: RecordedCommand[] };

export const ZDB_DEFAULT_TIMEOUT_MS = 12 * 3600_000;
const ZDB_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

const recordOf = (r: CommandResult): RecordedCommand => ({
  command: [r.program, ...r.args].join(' '),
  exitCode: r.exitCode,
  durationMs: Math.round(r.durationMs),
  error: describeFailure(r),
});

/** The userland version from `zfs version` ("zfs-2.2.6-1" → "2.2.6"); zdb is userland code. */
export function versionFromZfsVersion(stdout: string): string | null {
  for (const line of stdout.split('\n')) {
    const m = /^zfs-(\d+\.\d+(?:\.\d+)?)/.exec(line.trim());
    if (m) return m[1]!;
  }
  return null;
}

export async function measureWithZdb(pool: string, opts: ZdbMeasureOptions): Promise<ZdbMeasureOutcome> {
  const run = opts.run ?? runCommand;
  const commands: RecordedCommand[] = [];
  const problem = poolNameProblem(pool);
  if (problem) return { ok: false, message: `${JSON.stringify(pool)} is not a valid pool name (${problem})`, commands };
  const isRoot = opts.isRoot ?? (() => process.getuid?.() === 0);
  if (!isRoot()) return { ok: false, message: 'zdb reads the pool\'s devices directly and must run as root — run again with sudo, or leave out --zdb', commands };

  let version = opts.version ?? null;
  if (!version) {
    const v = await run('zfs', ['version'], { timeoutMs: 15_000 });
    commands.push(recordOf(v));
    if (!v.error && v.exitCode === 0) version = versionFromZfsVersion(v.stdout);
  }

  const zdbArgs = ['zdb', '-Lbbbs', pool];
  const runOpts = { timeoutMs: opts.timeoutMs ?? ZDB_DEFAULT_TIMEOUT_MS, maxBytes: ZDB_MAX_OUTPUT_BYTES, signal: opts.signal };
  let r = await run('nice', ['-n', '19', 'ionice', '-c', '3', ...zdbArgs], runOpts);
  commands.push(recordOf(r));
  // nice exits 127 when it cannot find the program it should run: here ionice.
  if (r.exitCode === 127 && /ionice/.test(r.stderr)) {
    r = await run('nice', ['-n', '19', ...zdbArgs], runOpts);
    commands.push(recordOf(r));
  }
  const failure = describeFailure(r);
  if (failure) return { ok: false, message: failure, commands };

  const parsed = parseZdbBlockStats(r.stdout, { version });
  if (!parsed.ok) {
    return { ok: false, message: `zdb -Lbbbs ${pool}: output${parsed.error.line ? ` line ${parsed.error.line}` : ''}: ${parsed.error.message}`, commands };
  }
  const capturedAt = (opts.now?.() ?? new Date()).toISOString();
  const h = histogramFromZdb(pool, parsed.value, opts.recordsize, opts.ashift, capturedAt);
  const last = commands[commands.length - 1]!;
  h.notes.push(
    `measured by \`${last.command}\` in ${(last.durationMs / 1000).toFixed(1)} s (OpenZFS ${version ?? 'version unknown'})`,
    `zdb covers the whole pool ${pool} (every dataset, snapshots and metadata), the walk only the directory measured`,
  );
  return { ok: true, histogram: h, commands, version };
}

/**
 * Size measurements started through the API (issue 8 §3): walks a dataset or directory of this
 * machine in the background (`measureSizes`), one walk per host at a time, with progress and
 * cancel, and stores the SizeHistogram for the rules and the sizing view.
 *
 * Low-priority mode runs the walk as a child process under `nice -n 19 ionice -c 3` (the app's
 * own `sizes` command), because lowering the priority in-process would slow the whole server for
 * good. That child reports no file counts while it runs: progress is elapsed time only.
 */
import { closeSync, constants, existsSync, openSync, readlinkSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SizesProgress, SizesRecord, SizesRequest } from '../model/evidence.ts';
import { JobError, type Logger } from '../model/jobs.ts';
import { describeFailure, runCommand } from '../exec/runner.ts';
import type { Inventory } from '../model/inventory.ts';
import { SizeHistogram } from '../model/workload.ts';
import { measureSizes } from '../sizing/measure.ts';
import { fdPath } from '../sizing/parallel-find.ts';
import { resolveTarget } from '../sizing/resolve-target.ts';
import type { EvidenceRepo } from '../store/evidence-repo.ts';
import type { HostRow } from '../store/hosts-repo.ts';
import { createLiveTasks } from './live-tasks.ts';

const CLI = join(dirname(dirname(dirname(fileURLToPath(import.meta.url)))), 'bin', 'zfs-advisor.js');
const DEFAULT_RECORDSIZE = 131072;
const DEFAULT_ASHIFT = 12;
const WALK_WAY_FORWARD = 'Pick a dataset or a directory on a ZFS mount, or have whoever runs the server allow the place with `zfs-advisor serve --sizes-allow DIR` (a walk reads the metadata of every file there and may slow the disks while it runs).';

export interface SizesJobDeps {
  evidence: EvidenceRepo;
  logger: Logger;
  /** The host's newest inventory, to name the dataset of a path and default recordsize/ashift. */
  inventoryOf: (hostId: string) => Inventory | null;
  now?: () => number;
  keepPerHost?: number;
  /** Where a walk may go (api/sizes-confinement.ts): null = allowed, else why not (403). */
  refusal?: (path: string) => Promise<string | null>;
}

/** The dataset whose mountpoint is the longest prefix of `path` (the file system the walk stays on). */
export function datasetForPath(inv: Inventory | null, path: string): Inventory['datasets'][number] | null {
  let best: Inventory['datasets'][number] | null = null;
  for (const d of inv?.datasets ?? []) {
    const mp = d.mountpoint;
    if (!mp || !mp.startsWith('/') || d.type !== 'filesystem') continue;
    const inside = path === mp || path.startsWith(mp.endsWith('/') ? mp : `${mp}/`);
    if (inside && (!best || mp.length > (best.mountpoint?.length ?? 0))) best = d;
  }
  return best;
}

/** The data vdevs' ashift of a pool from the inventory (the common one; null when unknown or mixed). */
export function dataAshiftOf(inv: Inventory | null, pool: string | null): number | null {
  const p = inv?.pools.find((x) => x.name === pool);
  if (!p) return null;
  const values = new Set(p.vdevs.filter((v) => v.class === 'data').map((v) => v.ashift).filter((a): a is number => typeof a === 'number' && a > 0));
  if (values.size === 1) return [...values][0]!;
  return values.size === 0 && p.ashift && p.ashift > 0 ? p.ashift : null;
}

const errText = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0]! : String(err));

/** The walk as `nice -n 19 ionice -c 3 node zfs-advisor.js sizes … --json` (plain nice where ionice is missing). */
async function measureInChild(path: string, recordsize: number, ashift: number, signal: AbortSignal): Promise<{ histogram: SizeHistogram; stats: Record<string, unknown>; notes: string[] }> {
  const cli = [process.execPath, CLI, 'sizes', path, '--json', '--recordsize', String(recordsize), '--ashift', String(ashift)];
  const opts = { timeoutMs: 24 * 3600_000, signal, maxBytes: 16 * 1024 * 1024 };
  let r = await runCommand('nice', ['-n', '19', 'ionice', '-c', '3', ...cli], opts);
  const notes = ['walked in a separate process at nice 19 with the idle I/O class (ionice -c 3)'];
  if (r.exitCode === 127 && /ionice/.test(r.stderr)) {
    r = await runCommand('nice', ['-n', '19', ...cli], opts);
    notes[0] = 'walked in a separate process at nice 19 (ionice is not installed: I/O priority unchanged)';
  }
  const failure = describeFailure(r);
  if (failure) throw new Error(r.stderr.trim().split('\n').pop() || failure);
  const out = JSON.parse(r.stdout) as { histogram?: unknown; stats?: unknown };
  const histogram = SizeHistogram.parse(out.histogram);
  const stats = typeof out.stats === 'object' && out.stats !== null ? (out.stats as Record<string, unknown>) : {};
  return { histogram, stats, notes };
}

/**
 * Opens a place to walk (O_DIRECTORY|O_NOFOLLOW) and reads where the descriptor really is; null
 * where there is no /proc/self/fd (FreeBSD: the walk goes by name there), 'not-a-directory' when it
 * cannot be opened as one (a link as the last component included).
 */
function openPlace(path: string): { fd: number; real: string } | null | 'not-a-directory' {
  if (!existsSync('/proc/self/fd')) {
    try { return statSync(path).isDirectory() ? null : 'not-a-directory'; } catch { return 'not-a-directory'; }
  }
  let fd: number;
  try { fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW); } catch { return 'not-a-directory'; }
  try { return { fd, real: readlinkSync(`/proc/self/fd/${fd}`) }; } catch { closeSync(fd); return 'not-a-directory'; }
}

export function createSizesJob(deps: SizesJobDeps) {
  const now = deps.now ?? Date.now;
  const live = createLiveTasks<SizesProgress, SizesRecord>();

  const view = (id: number): SizesRecord | null => {
    const r = deps.evidence.getSizes(id);
    if (!r) return null;
    return live.isRunning(id) ? { ...r, progress: live.lastProgress(id) } : r;
  };

  return {
    view,
    /** Resolves the target (errors are 400s), stores the job as running and starts the walk. */
    async start(host: HostRow, request: SizesRequest): Promise<SizesRecord> {
      const holder = live.activeFor(host.id);
      if (holder !== undefined) throw new JobError('busy', `a size measurement is already running on host "${host.id}" (measurement ${holder})`, 'Wait for it to end or cancel it on the Sizing page, then start again.');
      const target = request.path ?? request.dataset!;
      // The places are checked on the literal path before anything resolves it: a "no such
      // directory" for a path outside them would tell whether it exists.
      const early = request.path ? await deps.refusal?.(resolve(request.path)) : null;
      if (early) throw new JobError('refused', `refused: ${early}`, WALK_WAY_FORWARD);
      const resolved = await resolveTarget(request.path ? resolve(request.path) : target, { kind: request.path ? 'path' : 'dataset' });
      if (!resolved.ok) throw new JobError('invalid', resolved.message, 'Give a dataset name as `zfs list` shows it, or an absolute directory path.');
      const inv = deps.inventoryOf(host.id);
      const path = resolved.value.path;
      const refused = await deps.refusal?.(path);
      if (refused) throw new JobError('refused', `refused: ${refused}`, WALK_WAY_FORWARD);
      const ds = resolved.value.dataset ? inv?.datasets.find((d) => d.name === resolved.value.dataset) ?? null : datasetForPath(inv, path);
      const dataset = resolved.value.dataset ?? ds?.name ?? null;
      const pool = dataset ? dataset.split('/')[0]! : null;
      const recordsize = request.recordsize ?? resolved.value.recordsize ?? ds?.recordsize ?? DEFAULT_RECORDSIZE;
      const ashift = request.ashift ?? dataAshiftOf(inv, pool) ?? DEFAULT_ASHIFT;
      if (live.activeFor(host.id) !== undefined) throw new JobError('busy', `a size measurement is already running on host "${host.id}"`, 'Wait for it to end or cancel it on the Sizing page, then start again.');
      // The walk goes from this descriptor, never by name again (issue 35): the place is opened once
      // (O_DIRECTORY|O_NOFOLLOW) and where it really is (the kernel's path of the descriptor) is
      // judged again, so a component swapped for a link after the check cannot lead the walk out.
      const anchor = openPlace(path);
      if (anchor === 'not-a-directory') throw new JobError('invalid', `${path} is not a directory on this machine`, 'Give an existing directory of the machine the server runs on.');
      const reopened = anchor && deps.refusal ? await deps.refusal(anchor.real) : null;
      if (anchor && reopened) { closeSync(anchor.fd); throw new JobError('refused', `refused: ${reopened}`, WALK_WAY_FORWARD); }
      const closeAnchor = () => { if (anchor) { try { closeSync(anchor.fd); } catch { /* closed */ } } };

      const startedMs = now();
      const id = deps.evidence.addSizes({
        hostId: host.id, target, path, dataset, pool, recordsize, ashift, lowPriority: request.lowPriority, startedAt: new Date(startedMs).toISOString(),
      });
      const controller = live.begin(id, host.id);
      const elapsedS = () => Math.round((now() - startedMs) / 100) / 10;
      live.progress(id, { files: 0, dirs: 0, bytes: 0, elapsedS: 0 });
      let ticker: NodeJS.Timeout | null = null;

      void (async () => {
        let status: 'completed' | 'failed' | 'canceled' = 'failed';
        let histogram: SizeHistogram | null = null;
        let stats: Record<string, unknown> | null = null;
        let message: string | null = null;
        try {
          if (request.lowPriority) {
            ticker = setInterval(() => live.progress(id, { files: null, dirs: null, bytes: null, elapsedS: elapsedS() }), 1000);
            ticker.unref();
            const r = await measureInChild(anchor ? fdPath(anchor.fd) : path, recordsize, ashift, controller.signal);
            // The child walked the descriptor's path: its words name the place instead.
            const named = <T>(v: T): T => (anchor ? JSON.parse(JSON.stringify(v).split(fdPath(anchor.fd)).join(path)) as T : v);
            histogram = named({ ...r.histogram, target, dataset, pool, notes: [...r.histogram.notes, ...r.notes] });
            stats = named(r.stats);
          } else {
            const r = await measureSizes(path, {
              recordsize, ashift, dataset, pool, signal: controller.signal, progressIntervalMs: 500, anchor: anchor ? { fd: anchor.fd, display: path } : undefined,
              onProgress: (p) => live.progress(id, { files: p.files, dirs: p.dirs, bytes: p.bytes, elapsedS: elapsedS() }),
            });
            histogram = { ...r.histogram, target };
            stats = { ...r.stats };
          }
          status = controller.signal.aborted ? 'canceled' : 'completed';
        } catch (err) {
          status = controller.signal.aborted ? 'canceled' : 'failed';
          message = controller.signal.aborted ? errText(controller.signal.reason) : `the size walk failed: ${errText(err)}`;
          if (!controller.signal.aborted) deps.logger.warn('size walk failed', { host: host.id, sizes: id, error: errText(err) });
        } finally {
          if (ticker) clearInterval(ticker);
          closeAnchor();
        }
        try {
          deps.evidence.finishSizes(id, { status, endedAt: new Date(now()).toISOString(), histogram: status === 'completed' ? histogram : null, stats, message });
          deps.evidence.prune(host.id, deps.keepPerHost ?? 500);
        } catch (err) {
          deps.logger.error('storing a size measurement failed', { host: host.id, sizes: id, error: errText(err) });
        }
        let record = null;
      try { record = deps.evidence.getSizes(id); } catch { /* store closed (shutdown): answer from memory */ }
        if (record) live.end(id, record);
        else live.end(id, { id, hostId: host.id, status, target, path, dataset, pool, recordsize, ashift, lowPriority: request.lowPriority, startedAt: new Date(startedMs).toISOString(), endedAt: null, progress: null, histogram: null, stats: null, message });
      })();

      return view(id)!;
    },
    cancel(id: number): SizesRecord | null {
      live.cancel(id, 'canceled by the user');
      return view(id);
    },
    subscribe: live.subscribe,
    isRunning: (id: number) => live.isRunning(id),
    settled: live.settled,
    abortAll: () => live.abortAll('server shutting down'),
  };
}
export type SizesJob = ReturnType<typeof createSizesJob>;

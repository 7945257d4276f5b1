/**
 * Benchmark suites: a batch of guarded runs over a matrix (profile × block size × queue depth ×
 * I/O mode × sync setting × dataset/zvol), the method of the zvol study (002) and of napp-it's
 * sync-vs-async page (003). This file is pure: the built-in suites, `--matrix` parsing, and the
 * expansion of a suite into single-run requests. Running them is suite-runner.ts.
 */
import { z } from 'zod';
import { getProfile, ProfileId } from './profiles.ts';
import { BenchRequest } from './types.ts';
import { parseHumanNumber } from '../parsers/common.ts';

export const SyncSetting = z.enum(['always', 'standard', 'disabled']);
export const IoMode = z.enum(['direct', 'buffered']);

export const Matrix = z.object({
  sync: z.array(SyncSetting).min(1).optional(),
  io: z.array(IoMode).min(1).optional(),
  qd: z.array(z.number().int().min(1).max(256)).min(1).optional(),
  bs: z.array(z.number().int().min(512).max(16 * 1024 * 1024)).min(1).optional(),
});
export type Matrix = z.infer<typeof Matrix>;

export interface SuiteDef {
  id: 'slog' | 'zvol-study' | 'sync-vs-async' | 'quick';
  title: string;
  question: string;
  reference: string;
  profiles: ProfileId[];
  matrix: Matrix;
  runtimeS: number;
  sizeBytes: number;
  pauseS: number;
  maxTotalS: number;
}

const MiB = 1024 * 1024;

export const SUITES: readonly SuiteDef[] = [
  {
    id: 'slog', title: 'SLOG: sync writes at QD1 and QD16, with the async ceiling',
    question: 'What does a sync write cost on this pool, and how far is that from the async ceiling a SLOG can approach?',
    reference: '[Intel Optane P1600X & P4800X as ZFS SLOG/ZIL](https://austinsnerdythings.com/tag/nvme): fio randwrite 4k posixaio at QD16 and QD1, sync=always vs sync=disabled on the same pool',
    profiles: ['sync-write-4k-qd1', 'sync-write-4k-qd16'], matrix: { sync: ['always', 'standard'] },
    runtimeS: 10, sizeBytes: 256 * MiB, pauseS: 10, maxTotalS: 15 * 60,
  },
  {
    id: 'zvol-study', title: 'zvol study: sync × buffered/direct × QD, datasets and zvols',
    question: 'How do sync mode, the page cache and queue depth change write speed, and does a zvol behave like a dataset?',
    reference: '[OpenZFS zvol performance issues](https://coda.io/@ff0/zvol-performance-issues): batch of fio runs compared by wall time vs fio runtime and system load (scaled down to minutes)',
    profiles: ['async-write-4k'], matrix: { sync: ['always', 'standard'], io: ['direct', 'buffered'], qd: [1, 16] },
    runtimeS: 10, sizeBytes: 256 * MiB, pauseS: 10, maxTotalS: 30 * 60,
  },
  {
    id: 'sync-vs-async', title: 'Sync vs async per block size (napp-it style)',
    question: 'How much does sync cost at each block size, side by side?',
    reference: '[napp-it allocation classes](https://www.napp-it.org/doc/downloads/special-vdev.pdf) (sync and async results next to each other) and [Intel Optane P1600X & P4800X as ZFS SLOG/ZIL](https://austinsnerdythings.com/tag/nvme)',
    profiles: ['sync-write-4k-qd1'], matrix: { sync: ['always', 'standard'], bs: [4096, 128 * 1024, MiB] },
    runtimeS: 10, sizeBytes: 256 * MiB, pauseS: 10, maxTotalS: 15 * 60,
  },
  {
    id: 'quick', title: 'Quick look (under 2 minutes)',
    question: 'A first impression: one sync write at a time, many at once, the async ceiling and streaming writes.',
    reference: '[Intel Optane P1600X & P4800X as ZFS SLOG/ZIL](https://austinsnerdythings.com/tag/nvme) (sync 4k) and [ZFS Raidz Performance, Capacity and Integrity](https://calomel.org/zfs_raid_speed_capacity.html) (sequential write per layout)',
    profiles: ['sync-write-4k-qd1', 'sync-write-4k-qd16', 'async-write-4k', 'seq-write-1m'], matrix: {},
    runtimeS: 5, sizeBytes: 64 * MiB, pauseS: 3, maxTotalS: 120,
  },
];

export function getSuite(id: string): SuiteDef | null {
  return SUITES.find((s) => s.id === id) ?? null;
}

/** A suite request from the CLI or the API: a built-in suite or a profile list, on a pool or a directory. */
export const SuiteRequest = z.object({
  suite: z.string().regex(/^[a-z0-9-]{1,40}$/).default('custom'),
  profiles: z.array(ProfileId).min(1).max(16).optional(),
  matrix: Matrix.default({}),
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('dataset'), pool: z.string() }),
    z.object({ kind: z.literal('path'), dir: z.string() }),
  ]),
  /** Also run every cell on a temporary zvol (pool targets, OpenZFS only). */
  zvol: z.boolean().default(false),
  volblocksize: z.number().int().min(512).max(128 * 1024).default(16 * 1024),
  runtimeS: z.number().int().min(1).max(600).optional(),
  sizeBytes: z.number().int().positive().optional(),
  pauseS: z.number().min(0).max(600).optional(),
  maxTotalS: z.number().int().min(10).max(24 * 3600).optional(),
  maxLoad1: z.number().nonnegative().max(1000).optional(),
  /** zvol + buffered async runs: stop the suite when wall time exceeds fio's runtime by this factor (002). */
  maxWallRatio: z.number().min(1).max(100).default(1.5),
  /** Where the limits came from, for a refusal's way forward (bench/way-forward.ts); absent: the CLI. */
  limitsFrom: z.enum(['cli', 'server']).optional(),
});
export type SuiteRequest = z.infer<typeof SuiteRequest>;
export type SuiteRequestInput = z.input<typeof SuiteRequest>;

/** `sync=always,standard io=direct qd=1,16 bs=4k,1m` (tokens may come as one string or many). */
export function parseMatrix(tokens: readonly string[]): { ok: true; matrix: Matrix } | { ok: false; message: string } {
  const out: Record<string, unknown[]> = {};
  for (const tok of tokens.flatMap((t) => t.split(/[\s;]+/)).filter(Boolean)) {
    const m = /^(sync|io|qd|bs)=(.+)$/.exec(tok);
    if (!m) return { ok: false, message: `matrix entry "${tok}" is not KEY=V1,V2 with KEY one of sync, io, qd, bs` };
    const key = m[1]!;
    if (out[key]) return { ok: false, message: `matrix key "${key}" is given twice` };
    const values: unknown[] = [];
    for (const v of m[2]!.split(',').filter(Boolean)) {
      if (key === 'sync' || key === 'io') values.push(v);
      else if (key === 'qd') values.push(/^\d+$/.test(v) ? Number(v) : Number.NaN);
      else {
        const n = parseHumanNumber(v);
        if (n === null) return { ok: false, message: `block size "${v}" is not a size like 4k or 1m` };
        values.push(n);
      }
    }
    out[key] = [...new Set(values)];
  }
  const r = Matrix.safeParse(out);
  if (!r.success) {
    const i = r.error.issues[0]!;
    return { ok: false, message: `matrix ${i.path.join('.')}: ${i.message}` };
  }
  return { ok: true, matrix: r.data };
}

/** One cell of a suite: the request a single run gets, and its coordinates for the comparison. */
export interface SuiteCell {
  request: BenchRequest;
  profile: ProfileId;
  sync: 'always' | 'standard' | 'disabled';
  io: 'direct' | 'buffered';
  iodepth: number;
  bs: number;
  targetKind: 'dataset' | 'zvol' | 'path';
}

/** The suite's settings once defaults are applied. */
export interface ResolvedSuite {
  suite: string;
  title: string;
  profiles: ProfileId[];
  matrix: Matrix;
  runtimeS: number;
  sizeBytes: number;
  pauseS: number;
  maxTotalS: number;
}

export function resolveSuite(req: SuiteRequest): { ok: true; suite: ResolvedSuite } | { ok: false; message: string } {
  const def = req.suite === 'custom' ? null : getSuite(req.suite);
  if (req.suite !== 'custom' && !def) return { ok: false, message: `unknown suite "${req.suite}" (built-in: ${SUITES.map((s) => s.id).join(', ')}; or give --profiles)` };
  const profiles = req.profiles ?? def?.profiles;
  if (!profiles) return { ok: false, message: 'give a suite name or --profiles a,b,c' };
  return {
    ok: true,
    suite: {
      suite: req.profiles && def ? `${def.id} (custom profiles)` : (def?.id ?? 'custom'),
      title: def?.title ?? `Custom: ${profiles.join(', ')}`,
      profiles,
      matrix: { ...(def?.matrix ?? {}), ...req.matrix },
      runtimeS: req.runtimeS ?? def?.runtimeS ?? 10,
      sizeBytes: req.sizeBytes ?? def?.sizeBytes ?? 256 * MiB,
      pauseS: req.pauseS ?? def?.pauseS ?? 10,
      maxTotalS: req.maxTotalS ?? def?.maxTotalS ?? 30 * 60,
    },
  };
}

/**
 * Every cell, in an order that keeps comparisons adjacent: target, profile, block size, queue
 * depth, I/O mode, then sync innermost (each sync run is followed by its async twin).
 */
export function expandCells(req: SuiteRequest, s: ResolvedSuite): SuiteCell[] {
  const cells: SuiteCell[] = [];
  const kinds: SuiteCell['targetKind'][] = req.target.kind === 'path' ? ['path'] : req.zvol ? ['dataset', 'zvol'] : ['dataset'];
  for (const kind of kinds) {
    for (const id of s.profiles) {
      const p = getProfile(id)!;
      for (const bs of s.matrix.bs ?? [p.blockSize]) {
        for (const qd of s.matrix.qd ?? [p.iodepth]) {
          for (const io of s.matrix.io ?? [kind === 'zvol' ? 'direct' as const : 'buffered' as const]) {
            const syncs = p.writes ? (s.matrix.sync ?? [p.sync ? 'always' as const : 'standard' as const]) : ['standard' as const];
            for (const sync of syncs) {
              const target = kind === 'path' && req.target.kind === 'path' ? { kind: 'path' as const, dir: req.target.dir }
                : kind === 'zvol' && req.target.kind === 'dataset' ? { kind: 'zvol' as const, pool: req.target.pool, volblocksize: req.volblocksize }
                  : { kind: 'dataset' as const, pool: (req.target as { pool: string }).pool };
              const request = BenchRequest.parse({
                profile: id, target, sizeBytes: s.sizeBytes, runtimeS: s.runtimeS, maxLoad1: req.maxLoad1, limitsFrom: req.limitsFrom,
                sync, io: s.matrix.io ? io : undefined, iodepth: qd, blockSize: bs,
              });
              cells.push({ request, profile: id, sync, io, iodepth: qd, bs, targetKind: kind });
            }
          }
        }
      }
    }
  }
  return cells;
}

/** Seconds a cell is expected to take: layout at a cautious 100 MiB/s, the run, setup and cleanup. */
export function cellSeconds(c: SuiteCell): number {
  const layout = c.targetKind === 'zvol' ? 0 : c.request.sizeBytes / (100 * MiB);
  return Math.ceil(c.request.runtimeS + layout + 3);
}

/** A short label for tables and progress lines: "sync-write-4k-qd1 · 4k · QD1 · buffered · sync=always · dataset". */
export function cellLabel(c: Pick<SuiteCell, 'profile' | 'bs' | 'iodepth' | 'io' | 'sync' | 'targetKind'>): string {
  return `${c.profile} · ${sizeLabel(c.bs)} · QD${c.iodepth} · ${c.io} · sync=${c.sync} · ${c.targetKind}`;
}

export function sizeLabel(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB}m`;
  if (bytes % 1024 === 0) return `${bytes / 1024}k`;
  return `${bytes}`;
}

/**
 * The calibration set: published ZFS sync-write measurements (tests/fixtures/forecast/calibration,
 * one JSON array per source, PROVENANCE.md beside them). The loader validates each record
 * (unknown fields are null) and turns a record into the model's inputs, or says why it cannot be
 * scored (device-level diskinfo, no block size, no figure).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CATALOG, classProfile, findEntry, profileForText, type DeviceProfile } from './catalog.ts';
import type { DataVdevs, DatasetSide, Layout, LogTarget, Workload } from './model.ts';
import { dirtyDataMax, slogTarget } from './pool-shape.ts';
import { classifyModelText } from './device-text.ts';

const s = z.string().nullable().optional().transform((x) => x ?? null);
const n = z.number().nullable().optional().transform((x) => x ?? null);

export const CalibrationRecord = z.object({
  id: z.string().min(1),
  source: z.object({ url: z.string().url(), title: s, quote: z.string().min(1), date: s, kind: s }),
  system: z.object({ os: s, openzfsVersion: s }).nullable().optional().transform((x) => x ?? { os: null, openzfsVersion: null }),
  pool: z.object({ layout: s, vdevs: n, width: n, media: s, diskModel: s }).nullable(),
  slog: z.object({ model: s, count: n, mirrored: z.boolean().nullable().optional() }).nullable(),
  special: z.object({ model: s }).nullable().optional().transform((x) => x ?? null),
  dataset: z.object({ sync: s, logbias: s, recordsize: n, volblocksize: n, target: s }).nullable().optional()
    .transform((x) => x ?? { sync: null, logbias: null, recordsize: null, volblocksize: null, target: null }),
  workload: z.object({ tool: s, rw: s, bs: n, iodepth: n, numjobs: n, syncMode: s, runtimeS: n, commandLine: s }),
  result: z.object({ iops: n, bandwidthMBps: n, latencyUs: n }),
  pairedWith: s,
  notes: s,
});
export type CalibrationRecord = z.infer<typeof CalibrationRecord>;

/** Every record of every *.json file in `dir`, validated; a bad file throws naming it. */
export function loadCalibration(dir: string): CalibrationRecord[] {
  const out: CalibrationRecord[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
    const parsed = z.array(CalibrationRecord).safeParse(JSON.parse(readFileSync(join(dir, f), 'utf8')));
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new Error(`${f}: ${i.path.join('.')}: ${i.message}`);
    }
    out.push(...parsed.data);
  }
  return out;
}

export type Group = 'now' | 'with' | 'async';

export interface Scorable {
  record: CalibrationRecord;
  group: Group;
  data: DataVdevs;
  log: LogTarget;
  ds: DatasetSide;
  w: Workload;
  measured: number;
  /** True when the IOPS figure is the published MB/s divided by the block size. */
  derivedIops: boolean;
}

/** A medium named only by kind: the span of the classes it could be (wide on purpose). */
function mediaProfile(media: string | null, diskModel: string | null): DeviceProfile {
  const e = findEntry(diskModel);
  if (e) return profileForText(diskModel!);
  // A model the catalog does not hold may still say what it is ("Pliant 406S SSD").
  const m = (media ?? (/\bssd\b/i.test(diskModel ?? '') ? 'ssd' : '')).toLowerCase();
  // A LUN or virtual disk is not a hard disk, whatever the kernel's rotational flag says (device-text.ts).
  const text = classifyModelText(diskModel);
  if (m === 'virtual' || m === 'lun' || m === 'iscsi' || text?.cls === 'virtual') return classProfile('virtual', text?.why ?? 'record names a virtual disk or LUN');
  if (m === 'hdd') return classProfile('hdd', 'record names hard disks');
  if (m === 'optane') return classProfile('optane-consumer', 'record names Optane');
  const span = (a: DeviceProfile, b: DeviceProfile, why: string): DeviceProfile => ({
    ...a, id: `class:${why}`, product: why, matched: 'class',
    lat4kUs: { ...a.lat4kUs, low: a.lat4kUs.low, high: b.lat4kUs.high, typical: Math.sqrt(a.lat4kUs.typical * b.lat4kUs.typical), kind: 'class-estimate', reasoning: why },
    mbps: { ...b.mbps, kind: 'class-estimate', reasoning: why }, basis: `class estimate: ${why}`,
  });
  if (m === 'nvme') return span(classProfile('plp-nvme', ''), classProfile('consumer-nvme', ''), 'NVMe of unknown model: PLP to consumer');
  if (m === 'sata-ssd' || m === 'ssd') return span(classProfile('plp-sata', ''), classProfile('consumer-sata', ''), 'SATA SSD of unknown model: PLP to consumer');
  return classProfile('unknown', 'record does not name the media');
}

function layoutOf(l: string | null): { layout: Layout; parity: number } {
  const x = (l ?? '').toLowerCase();
  if (x.startsWith('mirror')) return { layout: 'mirror', parity: 0 };
  if (x.startsWith('raidz')) return { layout: 'raidz', parity: Number(/\d/.exec(x.slice(5))?.[0] ?? 1) || 1 };
  if (x.startsWith('draid')) return { layout: 'draid', parity: Number(/\d/.exec(x.slice(5))?.[0] ?? 1) || 1 };
  return { layout: 'stripe', parity: 0 };
}

const version = (v: string | null): string | null => /(\d+\.\d+(\.\d+)?)/.exec(v ?? '')?.[1] ?? null;

const UNIT: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 };

/**
 * The bytes a published fio run wrote into: its size per job, times the jobs unless they share one
 * named file (fio gives each job its own file otherwise). Null when the command line does not say.
 */
export function workingSetOf(commandLine: string | null, numjobs: number): number | null {
  const m = /(?:^|[\s;])-{0,2}size[=\s]+(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\b/i.exec(commandLine ?? '');
  if (!m) return null;
  const perJob = Number(m[1]) * UNIT[m[2]!.toLowerCase()]!;
  const shared = /--filename[=\s]|(?:^|[\s;])filename=/.test(commandLine ?? '') && !/filename_format/.test(commandLine ?? '');
  return Math.round(shared ? perJob : perJob * Math.max(1, numjobs));
}

/** The host's RAM as the record's notes state it ("128 GB RAM", "64 GB of RAM"), bytes; null when they do not. */
export function memoryOf(notes: string | null): number | null {
  const m = /(\d+(?:\.\d+)?)\s*([GT])i?B\s+(?:of\s+)?(?:ECC\s+|DDR\d\s+)?RAM\b/i.exec(notes ?? '');
  return m ? Number(m[1]) * (m[2]!.toUpperCase() === 'T' ? 2 ** 40 : 2 ** 30) : null;
}

/** The model's inputs for a record, or why it cannot be scored. */
export function toScorable(r: CalibrationRecord, opts: { keepUnknownDisks?: boolean } = {}): Scorable | { skip: string } {
  if (r.workload.tool === 'diskinfo') return { skip: 'device-level diskinfo, not a pool result' };
  if (!r.pool) return { skip: 'no pool described' };
  const bs = r.workload.bs;
  if (!bs) return { skip: 'block size not published' };
  const derived = r.result.iops === null && r.result.bandwidthMBps !== null;
  const measured = r.result.iops ?? (r.result.bandwidthMBps !== null ? (r.result.bandwidthMBps * 1e6) / bs : null);
  if (!measured) return { skip: 'no IOPS or bandwidth figure' };
  const { layout, parity } = layoutOf(r.pool.layout);
  const width = r.pool.width ?? (layout === 'mirror' ? 2 : layout === 'stripe' ? 1 : parity + 4);
  const data: DataVdevs = { layout, vdevs: r.pool.vdevs ?? 1, width, parity, media: mediaProfile(r.pool.media, r.pool.diskModel) };
  // Every forecast rests on the data disks' class (the ZIL's home without a SLOG, the pool's
  // ceiling with one), and the app always reads it from the inventory (lsblk's rotational flag,
  // transport, model). A record naming neither media nor model tests a guess the app never makes.
  if (data.media.cls === 'unknown' && !opts.keepUnknownDisks) return { skip: 'data disks not published (neither media nor model), which the app always reads from the inventory' };
  const openzfs = version(r.system.openzfsVersion);
  const zvol = r.dataset.target === 'zvol';
  const mode = (r.workload.syncMode ?? '').toLowerCase();
  const async = r.dataset.sync === 'disabled' || /^none|sync=disabled|sync disabled/.test(mode);
  const ds: DatasetSide = {
    sync: r.dataset.sync === 'always' ? 'always' : r.dataset.sync === 'disabled' ? 'disabled' : 'standard',
    logbias: r.dataset.logbias === 'throughput' ? 'throughput' : 'latency',
    target: zvol ? 'zvol' : 'dataset',
    blockSize: zvol ? r.dataset.volblocksize ?? 8192 : r.dataset.recordsize ?? 131_072,
    openzfs,
    dirtyMaxBytes: dirtyDataMax(memoryOf(r.notes)),
  };
  const w: Workload = {
    rw: r.workload.rw === 'write' ? 'write' : 'randwrite', bs,
    iodepth: Math.max(1, r.workload.iodepth ?? 1), numjobs: Math.max(1, r.workload.numjobs ?? 1),
    sync: async ? 'none' : /fsync|fdatasync/.test(mode) ? 'fsync' : 'always',
    sizeBytes: workingSetOf(r.workload.commandLine, Math.max(1, r.workload.numjobs ?? 1)),
  };
  let log: LogTarget;
  let group: Group;
  if (r.slog) {
    const profile = r.slog.model ? profileForText(r.slog.model) : classProfile('unknown', 'SLOG model not published');
    log = { ...slogTarget(profile, r.slog.mirrored === true), vdevs: r.slog.mirrored ? 1 : Math.max(1, r.slog.count ?? 1) };
    group = async ? 'async' : 'with';
  } else {
    const special = r.special && openzfs && /^2\.(4|[5-9])|^[3-9]\./.test(openzfs);
    log = special
      ? { kind: 'special', device: profileForText(r.special!.model ?? 'unknown'), vdevs: 1, waitsFor: 2, streams: 1 }
      : { kind: 'data', device: data.media, vdevs: data.vdevs, waitsFor: layout === 'mirror' ? width : layout === 'stripe' ? 1 : Math.min(width, 1 + parity), streams: layout === 'mirror' || layout === 'stripe' ? 1 : Math.max(1, width - parity) };
    group = async ? 'async' : 'now';
  }
  return { record: r, group, data, log, ds, w, measured, derivedIops: derived };
}

/**
 * Which published system a record comes from: one source — a GitHub issue or pull request, a GitHub
 * repository (one author's logs), a web site (one author's posts) — and one kind of data disk in
 * it. Records of one system are one observation of how that system behaves, however many runs
 * it published (clemtibs: four pools of the same five disks, eight runs).
 */
export function systemOf(r: CalibrationRecord): string {
  const u = new URL(r.source.url);
  const [owner, repo, kind, num] = u.pathname.split('/').filter(Boolean);
  const source = u.hostname !== 'github.com' ? u.hostname : kind === 'issues' || kind === 'pull' ? `${owner}/${repo}#${num}` : `${owner}/${repo}`;
  return `${source} ${r.pool?.media ?? r.pool?.diskModel ?? ''}`;
}

/** The catalog's published SLOG measurements that come from this record (excluded when scoring it). */
export const anchorIdsOf = (r: CalibrationRecord): Set<string> =>
  new Set(CATALOG.entries.flatMap((e) => (e.slogMeasurements ?? []).map((m) => m.id)).filter((id) => id === r.id));

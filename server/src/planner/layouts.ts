/**
 * The layout planner (issue 11, 17): for N disks of one size, every data-vdev layout — mirrors,
 * raidz1–3 up to 24 wide, dRAID, and the stripe (no redundancy) — with its real capacity, padding
 * for the workload's block size, slop, fault tolerance, performance and resilver exposure, and the
 * findings the rule catalog raises about it once built (layout-findings.ts). Ranked for the
 * workload; a layout the rules warn about never ranks above a comparable one they do not warn
 * about without the plan saying why, and layouts that leave disks idle rank below those that use them.
 */
import { formatBytes, formatCount, formatGain, formatPct, formatRange, plural } from '../text/format.ts';
import { z } from 'zod';
import { blockFit, layoutSpace, type BlockFit, type LayoutSpace } from './capacity.ts';
import { disksUsed, layoutLabel, tolerancePerVdev, topLevelVdevs, type LayoutSpec } from './layout-spec.ts';
import { findingsFor, groupFindings, isWarningLevel, syntheticArtifacts, type GroupedFinding } from './layout-findings.ts';
import { forecastPool, WorkloadSpec } from '../forecast/forecast.ts';
import { DISK_RATES, defaultHostSeqCap, MediaKind, relativePerformance, resilverExposure, sequentialMBps, writeCeiling, type HostSeqCap, type RelativePerformance, type ResilverExposure } from './performance.ts';
import { factLinks } from '../../../rules/lib/citations.ts';

export const Workload = z.enum(['vm', 'files', 'media', 'db']);
export type Workload = z.infer<typeof Workload>;

/**
 * Most disks one plan takes. Each candidate layout runs the rule catalog on an inventory of that
 * many planned drives, and the rules' leaf → drive lookups are linear today, so time grows with the
 * square of the count (~0.4 s for 200 disks, ~12 s for 1000 on the dev machine): the API must not
 * block the server that long. 256 covers ten 24-bay shelves.
 */
export const MAX_PLAN_DISKS = 256;

/** Largest disk a plan takes: 2^60 bytes (1 EiB), far beyond any drive, small enough that sums of 256 stay exact-ish and finite. */
export const MAX_PLAN_DISK_BYTES = 2 ** 60;

export const PlanInput = z.object({
  disks: z.number().int().min(1).max(MAX_PLAN_DISKS),
  diskBytes: z.number().positive().max(MAX_PLAN_DISK_BYTES),
  media: z.enum(MediaKind).default('hdd'),
  workload: Workload.default('files'),
  /** Sector shift; 12 (4 KiB) is right for nearly every disk sold since 2011 (zfs-facts C21). */
  ashift: z.number().int().min(9).max(16).default(12),
  /** Typical block size of the workload; defaults per workload (see TYPICAL_BLOCK). */
  blockSize: z.number().int().positive().max(16 * 1024 * 1024).optional(),
  /**
   * Widest raidz vdev considered. 24, as wide as 001 measured; past 16 (OpenZFS: "do not put more
   * than ~16 disks in raidz", C10) the raidz-width rule warns, and the plan shows it.
   */
  maxRaidzWidth: z.number().int().min(3).max(32).default(24),
  /** Disks kept as hot spares (`spare` vdevs): layouts are planned on the others. */
  spares: z.number().int().min(0).max(100).default(0),
  /** OpenZFS version the pool will be created on (major.minor[.patch]); rules limited to versions use it. */
  openzfs: z.string().regex(/^\d{1,3}\.\d{1,3}(\.\d{1,3})?$/, 'an OpenZFS version such as 2.2.6').nullable().default(null),
  /**
   * The host's sequential ceiling for the whole pool (MB/s). Absent: 001's measured maximum for
   * HDDs, none for flash (see performance.ts). null: no ceiling.
   */
  hostSeqCapMBps: z.object({ read: z.number().positive().max(1e7), write: z.number().positive().max(1e7) }).nullable().optional(),
});
export type PlanInput = z.input<typeof PlanInput>;

/** Block size each workload mostly writes: zvol volblocksize default 16K (≥ 2.2), DB pages 8–16K, files 128K recordsize, media 1M. */
export const TYPICAL_BLOCK: Record<Workload, number> = { vm: 16384, db: 16384, files: 131072, media: 1048576 };

export interface LayoutCandidate {
  id: string;
  label: string;
  spec: LayoutSpec;
  disksUsed: number;
  /** Disks left idle: neither in a vdev nor a requested hot spare. */
  spareDisks: number;
  /** Hot spares the caller asked for (--spares). */
  hotSpares: number;
  /** Short flags shown with the label, e.g. "no redundancy". */
  flags: string[];
  /** What the rule catalog says about this layout once built, one entry per rule (vdevs counted). */
  findings: GroupedFinding[];
  /** Set when this layout draws a warning yet ranks above layouts that draw none: why. */
  rankNote: string | null;
  /** The ranking group in words (rankGroup): ranks run group by group, by score within one. */
  group: string;
  space: LayoutSpace;
  /**
   * 80 % of the workload's effective usable (`fit.effectiveUsableBytes`, i.e. after padding for its
   * block size), where OpenZFS and Oracle advise starting to watch (C24). Never above the effective capacity.
   */
  fillGuidanceBytes: number;
  fit: BlockFit;
  /** For reference: how a 128K block fits (C-T1 column 128K). */
  nominalEfficiency: number;
  faultTolerance: {
    perVdev: number;
    /** Fewest failures that can lose the pool (all in one vdev). */
    worstCaseLoss: number;
    /** Most failures the pool can survive if they are spread ideally across vdevs. */
    bestCaseSurvivable: number;
  };
  performance: RelativePerformance & {
    randomReadIops: number; randomWriteIops: number; seqReadMBps: number; seqWriteMBps: number; busLimited: boolean;
    /** 4K sync writes at queue depth 1 (sync=always), ZIL on the data vdevs (no SLOG): the sync-write forecast (server/src/forecast). */
    syncWrite4kQd1: { iops: number; low: number; high: number; basis: string[] };
  };
  resilver: ResilverExposure;
  score: number;
  rank: number;
  recommended: boolean;
  reasons: string[];
  /** The planner's own cautions (mirror resilver exposure, padding, dRAID minimum allocation). */
  warnings: string[];
}

export interface LayoutPlan {
  input: z.output<typeof PlanInput>;
  blockSize: number;
  candidates: LayoutCandidate[];
  assumptions: string[];
}

/** Every candidate layout for N disks: mirrors, raidz1–3 per width, dRAID where it fits, the stripe. */
export function enumerateLayouts(disks: number, maxRaidzWidth = 24): LayoutSpec[] {
  const out: LayoutSpec[] = [];
  for (const ways of [2, 3]) if (disks >= ways) out.push({ kind: 'mirror', ways, vdevs: Math.floor(disks / ways) });
  for (const parity of [1, 2, 3]) {
    // Width P+1 is legal but is a mirror with extra CPU (C9, G8); start at P+2.
    for (let width = parity + 2; width <= Math.min(disks, maxRaidzWidth); width++) {
      out.push({ kind: 'raidz', parity, width, vdevs: Math.floor(disks / width) });
    }
  }
  // dRAID pays off with many disks and one distributed spare; D=4 and D=8 as in table C-T3.
  if (disks >= 10) {
    for (const parity of [1, 2, 3]) {
      for (const data of [4, 8]) {
        const spares = 1;
        if (disks - spares >= data + parity) out.push({ kind: 'draid', parity, data, children: disks, spares });
      }
    }
  }
  // Offered so its numbers can be compared, flagged "no redundancy"; the no-redundancy rule warns.
  if (disks >= 1) out.push({ kind: 'stripe', disks });
  return out;
}

const WEIGHTS: Record<Workload, { capacity: number; random: number; seq: number; safety: number }> = {
  vm: { capacity: 0.2, random: 0.45, seq: 0.1, safety: 0.25 },
  db: { capacity: 0.15, random: 0.5, seq: 0.1, safety: 0.25 },
  files: { capacity: 0.4, random: 0.15, seq: 0.15, safety: 0.3 },
  media: { capacity: 0.45, random: 0.05, seq: 0.25, safety: 0.25 },
};

const fmtSize = (b: number) => (b >= 1048576 ? `${b / 1048576}M` : `${b / 1024}K`);

/** Large HDDs make single-parity rebuilds long and exposed (G9): at 8 TB and up we warn. */
const BIG_HDD_BYTES = 8e12;

/** The ceiling in force for this plan. */
function hostCap(input: z.output<typeof PlanInput>): HostSeqCap | null {
  if (input.hostSeqCapMBps === null) return null;
  if (input.hostSeqCapMBps) return { readMBps: input.hostSeqCapMBps.read, writeMBps: input.hostSeqCapMBps.write, basis: 'given by the caller' };
  return defaultHostSeqCap(input.media);
}

/** The sync-write column: fio's 4K randwrite, QD1, one job, sync=always — the forecast's default probe. */
const SYNC_PROBE = WorkloadSpec.parse({ rw: 'randwrite', bs: 4096, iodepth: 1, numjobs: 1, sync: 'always' });

type Described = Omit<LayoutCandidate, 'score' | 'rank' | 'recommended' | 'reasons' | 'rankNote' | 'group'>;

function describe(spec: LayoutSpec, input: z.output<typeof PlanInput>, blockSize: number, dataDisks: number, now: Date): Described {
  const space = layoutSpace(spec, input.diskBytes, { ashift: input.ashift });
  const fit = blockFit(spec, space, blockSize, input.ashift);
  const perVdev = tolerancePerVdev(spec);
  const rel = relativePerformance(spec);
  const rates = DISK_RATES[input.media];
  const seq = sequentialMBps(rel, { readMBps: rates.seqMBps, writeMBps: rates.seqMBps }, hostCap(input));
  const resilver = resilverExposure(spec, input.diskBytes, input.media);
  const artifacts = syntheticArtifacts(spec, {
    diskBytes: input.diskBytes, media: input.media, workload: input.workload, blockSize, ashift: input.ashift, openzfs: input.openzfs, hotSpares: input.spares,
  }, now);
  const sync = forecastPool(artifacts, artifacts.Pools![0]!, SYNC_PROBE, null).now;
  // raidz1 on large disks and over-wide raidz are the rules' to say (raidz1-large-disks, raidz-width).
  const warnings: string[] = [];
  if (spec.kind === 'stripe') warnings.push(`no redundancy: one failed disk of ${spec.disks} loses the whole pool`);
  if (spec.kind === 'mirror' && spec.ways === 2 && input.media === 'hdd' && input.diskBytes >= BIG_HDD_BYTES) {
    warnings.push('2-way mirrors: while one side resilvers, the vdev has no redundancy left (' + factLinks('C17', 'G9') + ')');
  }
  if (fit.chargeFactor > 1.05) {
    warnings.push(`${fmtSize(blockSize)} blocks cost ${fit.chargeFactor.toFixed(2)}× their size here (raidz/dRAID padding, ${factLinks('C-T2', 'C-T3')})`);
  }
  if (spec.kind === 'draid' && blockSize < spec.data * 2 ** input.ashift) {
    warnings.push(`dRAID allocates at least ${spec.data * 2 ** input.ashift / 1024}K per block: ${fmtSize(blockSize)} blocks waste space (${factLinks('B24', 'C6')})`);
  }
  return {
    id: layoutLabel(spec).replace(/[^a-z0-9:]+/gi, '-').replace(/-+$/, '').toLowerCase(),
    label: layoutLabel(spec),
    spec,
    disksUsed: disksUsed(spec),
    spareDisks: dataDisks - disksUsed(spec),
    hotSpares: input.spares,
    flags: perVdev === 0 ? ['no redundancy'] : [],
    findings: groupFindings(findingsFor(artifacts, now)),
    space,
    fillGuidanceBytes: Math.floor(fit.effectiveUsableBytes * 0.8),
    fit,
    nominalEfficiency: blockFit(spec, space, 131072, input.ashift).efficiency,
    faultTolerance: {
      perVdev,
      worstCaseLoss: perVdev + 1,
      bestCaseSurvivable: perVdev * topLevelVdevs(spec),
    },
    performance: {
      ...rel,
      randomReadIops: Math.round(rel.randomReadX * rates.randomIops),
      randomWriteIops: Math.round(rel.randomWriteX * rates.randomIops),
      ...seq,
      syncWrite4kQd1: { iops: sync.iops, low: sync.low, high: sync.high, basis: [sync.basis] },
    },
    resilver,
    warnings,
  };
}

/** Safety on a 0..1 scale: parity 2+ is the goal for big HDDs (C20, G9), 1 is acceptable for small/flash. */
function safetyScore(c: Described, input: z.output<typeof PlanInput>): number {
  const t = c.faultTolerance.perVdev;
  const risky = input.media === 'hdd' && input.diskBytes >= BIG_HDD_BYTES;
  const base = t >= 3 ? 1 : t === 2 ? 0.9 : t === 1 ? (risky ? 0.35 : 0.6) : 0;
  // More vdevs = more ways for a fatal combination; long rebuilds widen the window.
  const hours = c.resilver.hours?.[1] ?? 0;
  return Math.max(0, base - Math.min(0.15, hours / 2000));
}

const loud = (c: Pick<LayoutCandidate, 'findings'>): boolean => c.findings.some(isWarningLevel);

/**
 * Ranking order: redundant layouts before the stripe; among them those that use every disk (hot
 * spares counted as used) first, then within each group those the rules do not warn about, then by score. So a warned layout can rank above
 * an unwarned one only when the unwarned one leaves disks idle, and the plan says so (rankNote).
 */
function rankKey(c: Pick<LayoutCandidate, 'findings' | 'spareDisks' | 'faultTolerance'>): number[] {
  // A stripe is offered for comparison only: whatever its speed, it ranks last.
  return [c.faultTolerance.perVdev === 0 ? 1 : 0, c.spareDisks > 0 ? 1 : 0, loud(c) ? 1 : 0];
}

function rankNote(c: LayoutCandidate, below: readonly LayoutCandidate[]): string | null {
  if (!loud(c)) return null;
  const quieter = below.filter((o) => !loud(o));
  if (quieter.length === 0) return null;
  const names = quieter.slice(0, 3).map((o) => o.label).join(', ') + (quieter.length > 3 ? ` and ${quieter.length - 3} more` : '');
  const idle = Math.min(...quieter.map((o) => o.spareDisks));
  return `ranks above ${plural(quieter.length, 'layout')} without warnings (${names}) only because ${quieter.length === 1 ? 'it leaves' : 'they leave'} ${plural(idle, 'disk')}${idle > 1 ? '+' : ''} idle; ` +
    'count idle disks as hot spares to compare them evenly';
}

/**
 * The ranking group a layout falls in (rankKey in words): ranks run group by group, by score
 * within a group, so a table that shows the groups shows why a higher score can rank lower.
 */
export function rankGroup(c: Pick<LayoutCandidate, 'findings' | 'spareDisks' | 'faultTolerance'>): string {
  if (c.faultTolerance.perVdev === 0) return 'no redundancy (for comparison only)';
  return `${c.spareDisks > 0 ? 'leave disks idle' : 'use every disk'}, ${loud(c) ? 'the rules warn' : 'no rule warns'}`;
}

export function planLayouts(raw: PlanInput, now: Date = new Date()): LayoutPlan {
  const input = PlanInput.parse(raw);
  if (input.spares >= input.disks) throw new RangeError(`--spares ${input.spares} leaves no disks for data vdevs (${input.disks} disks)`);
  const blockSize = input.blockSize ?? TYPICAL_BLOCK[input.workload];
  const dataDisks = input.disks - input.spares;
  const described = enumerateLayouts(dataDisks, input.maxRaidzWidth).map((s) => describe(s, input, blockSize, dataDisks, now));
  const max = (f: (c: (typeof described)[number]) => number) => Math.max(1e-9, ...described.map(f));
  const maxCap = max((c) => c.fit.effectiveUsableBytes);
  const maxRand = max((c) => (c.performance.randomReadX + c.performance.randomWriteX) / 2);
  // Sequential in MB/s behind the host ceiling: past it more data disks do not go faster.
  const maxSeq = max((c) => (c.performance.seqReadMBps + c.performance.seqWriteMBps) / 2);
  const w = WEIGHTS[input.workload];
  const cap = hostCap(input);
  const scored = described.map((c) => {
    const capacity = c.fit.effectiveUsableBytes / maxCap;
    const rand = (c.performance.randomReadX + c.performance.randomWriteX) / 2 / maxRand;
    const seq = (c.performance.seqReadMBps + c.performance.seqWriteMBps) / 2 / maxSeq;
    const safety = safetyScore(c, input);
    const score = w.capacity * capacity + w.random * rand + w.seq * seq + w.safety * safety;
    const warned = c.findings.filter(isWarningLevel).map((f) => f.ruleId);
    const reasons = [
      `${formatBytes(c.fit.effectiveUsableBytes)} of ${fmtSize(blockSize)}-block data fits (${formatPct(c.fit.effectiveUsableBytes / c.space.rawBytes)} of raw), ${formatBytes(c.fillGuidanceBytes)} at the 80 % guidance`,
      c.faultTolerance.perVdev === 0 ? 'no redundancy: survives no disk failure'
        : `survives any ${c.faultTolerance.perVdev} disk failure${c.faultTolerance.perVdev === 1 ? '' : 's'}${topLevelVdevs(c.spec) > 1 ? ` (up to ${c.faultTolerance.bestCaseSurvivable} if spread over vdevs)` : ''}`,
      `random I/O ≈ ${formatCount(c.performance.randomReadIops)} / ${formatCount(c.performance.randomWriteIops)} IOPS (read/write; ${formatGain(c.performance.randomReadX)} / ${formatGain(c.performance.randomWriteX)} one disk), sequential ≈ ${formatCount(c.performance.seqReadMBps)} / ${formatCount(c.performance.seqWriteMBps)} MB/s${c.performance.busLimited ? ' (host ceiling reached)' : ''}`,
      c.resilver.hours ? `rebuilding one disk reads ${formatBytes(c.resilver.totalBytesRead)} in ≈ ${formatRange(Math.round(c.resilver.hours[0]), Math.round(c.resilver.hours[1]))} h at 80 % full` : 'a failed disk cannot be rebuilt',
      warned.length ? `the rules warn once built: ${[...new Set(warned)].join(', ')}` : 'no rule warns about it once built',
      ...(c.spareDisks > 0 ? [`leaves ${plural(c.spareDisks, 'disk')} idle: ranked below layouts that use every disk`] : []),
      ...(c.hotSpares > 0 ? [`plus ${plural(c.hotSpares, 'hot spare')}`] : []),
    ];
    return { ...c, score: Math.round(score * 1000) / 1000, reasons };
  });
  scored.sort((a, b) => {
    const [ka, kb] = [rankKey(a), rankKey(b)];
    return ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]! || b.score - a.score || b.fit.effectiveUsableBytes - a.fit.effectiveUsableBytes;
  });
  const ranked: LayoutCandidate[] = scored.map((c, i) => ({ ...c, rank: i + 1, recommended: i === 0, rankNote: null, group: rankGroup(c) }));
  const candidates = ranked.map((c, i) => ({ ...c, rankNote: rankNote(c, ranked.slice(i + 1)) }));
  return {
    input,
    blockSize,
    candidates,
    assumptions: [
      `disks: ${input.disks} × ${formatBytes(input.diskBytes)} (${input.media})${input.spares ? `, ${input.spares} kept as hot spares` : ''}, ashift ${input.ashift}, workload ${input.workload} with ${fmtSize(blockSize)} blocks, incompressible`,
      `findings: the rule catalog run on each layout as if built (an empty new pool of these disks, the workload's datasets with lz4, OpenZFS ${input.openzfs ?? 'version not given: version-limited rules run as for any version'})`,
      'ranking: redundant layouts before the stripe; layouts using every disk first, then those no rule warns about, then by score',
      'usable = AVAIL of the empty pool: labels (4.5 MiB/disk), metaslab rounding, 128K deflate ratio and slop (1/32, 128 MiB–128 GiB) removed (' + factLinks('C3', 'C23') + '); the embedded-log slop deduction is not modelled',
      'effective usable = usable ÷ the charge factor of the workload block size (' + factLinks('C-T2') + ')',
      'performance: per-vdev model in multiples of one disk (mirror reads scale with sides, raidz random I/O ≈ one disk per vdev: ' + factLinks('C11') + '); per-disk rates are [heuristic]',
      cap ? `sequential MB/s limited by the host: ${cap.readMBps} read / ${cap.writeMBps} write for the whole pool, parity layouts' writes by ${[1, 2, 3].map((p) => writeCeiling(cap, p)).map(Math.round).join('/')} MB/s (raidz1/2/3): ${cap.basis}` : 'sequential MB/s: no host ceiling applied (none measured for this media or none wanted; pass hostSeqCapMBps)',
      'sync writes: 4K sync=always at queue depth 1 with the ZIL on the data vdevs (no SLOG), from the sync-write forecast (server/src/forecast, the model of `zfs-advisor forecast`); planned disks of unknown model are forecast as their class; see `zfs-advisor forecast` for a SLOG',
      '80 % figure = 80 % of the effective usable for the workload block size (' + factLinks('C24') + ')',
      `resilver: at 80 % fill, ${DISK_RATES[input.media].resilverMBps.join('–')} MB/s per disk [heuristic] (${factLinks('C15')})`,
      `ranking weights for ${input.workload}: capacity ${w.capacity}, random I/O ${w.random}, sequential ${w.seq}, safety ${w.safety}`,
    ],
  };
}

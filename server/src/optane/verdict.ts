/**
 * "Should I add Optane?" — one verdict from the artifacts, the assessment and the sync-write
 * latency model. "yes" needs slow sync writes that actually happen; "no" when there are no sync
 * writes or the ZIL already lands on something as fast; "depends" whenever the deciding evidence
 * is missing, naming the probe that would decide it.
 */
import { z } from 'zod';
import type { Artifacts } from '../model/artifacts.ts';
import type { Assessment } from '../model/finding.ts';
import type { Drive, Pool } from '../model/inventory.ts';
import { isOptane, productName } from '../../../rules/lib/device-class.ts';
import { syncEvidence, type SyncEvidence } from '../../../rules/lib/slog-evidence.ts';
import { NEW_DEVICE, drivePath, slogCandidates, zilPath, type ZilPath } from '../../../rules/lib/slog-devices.ts';
import {
  IopsRange, RECOMMENDED_OPTANE, forecast, forecastTarget, impliedDeviceLatencyUs, latencyOfClass, measuredIops, predictSyncIops, type DeviceLatency, type ForecastTarget,
} from './latency-model.ts';
import { observedSyncLatency, type ObservedSyncLatency } from './observed-latency.ts';

/** Optane must beat the current ZIL path by at least this factor at QD1 to be worth buying [heuristic, cheat-sheet ~10×]. */
export const MIN_QD1_GAIN = 3;

export const OptaneVerdict = z.object({
  verdict: z.enum(['yes', 'no', 'depends']),
  headline: z.string(),
  /** The pool the verdict is about (the one with the most to gain), null when there is no pool. */
  pool: z.string().nullable(),
  reasons: z.array(z.string()),
  evidence: z.array(z.object({ label: z.string(), value: z.union([z.string(), z.number(), z.null()]) })),
  expected: z.object({
    qd1: z.object({ now: IopsRange, withOptane: IopsRange }),
    qd16: z.object({ now: IopsRange, withOptane: IopsRange }),
  }).nullable(),
  candidates: z.array(z.object({ device: z.string(), product: z.string(), role: z.string(), layout: z.string() })),
  purchase: z.array(z.object({ product: z.string(), capacityGb: z.number(), why: z.string() })),
  layout: z.object({ commands: z.array(z.string()), reversible: z.enum(['yes', 'no', 'partly']) }),
  unknowns: z.array(z.object({ what: z.string(), howToMeasure: z.string() })),
  /** Related findings from the assessment (rule id + title). */
  findings: z.array(z.object({ ruleId: z.string(), title: z.string(), severity: z.string() })),
  confidence: z.enum(['high', 'medium', 'low']),
});
export type OptaneVerdict = z.infer<typeof OptaneVerdict>;

/** What to buy when nothing suitable is in the box (optane-models.json; zfs-facts E5, E6). */
export const PURCHASE_P1600X = {
  ...RECOMMENDED_OPTANE,
  capacityGb: 118,
  why: 'M.2 2280 PCIe 3.0 x4, ~10 µs writes, 6 DWPD (1.3 PB), no volatile write cache; named by OpenZFS as a model that performs well as SLOG; [a published test](https://austinsnerdythings.com/tag/nvme) measured 13.7k sync IOPS at QD1 as SLOG.',
};
export const PURCHASE_P4801X = {
  product: 'Intel Optane SSD DC P4801X 100GB (SSDPEL1K100GA / SSDPE21K100GA)',
  capacityGb: 100,
  why: 'Data-centre Optane with power-loss protection, 60 DWPD; for U.2 or M.2 22110 slots ([napp-it\'s allocation-class benchmarks](https://www.napp-it.org/doc/downloads/special-vdev.pdf) name it as a small SLOG).',
};

const RELATED_RULES = new Set(['slog-benefit', 'slog-without-sync-writes', 'slog-device-suitability', 'slog-on-2.4-special', 'special-does-not-replace-slog', 'slog-single-device', 'slog-size']);

interface PoolView {
  pool: Pool;
  ev: SyncEvidence;
  path: ZilPath;
  now: DeviceLatency | null;
  /** Where "now" comes from: a benchmark, the observed sync-write latency, or the device class. */
  nowBasis: string;
  observed: ObservedSyncLatency | null;
  measuredQd1: number | null;
  gain: number | null;
}

function measuredQd1(a: Artifacts, pool: string): number | null {
  const b = (a.Benchmarks ?? [])
    .filter((x) => x.pool === pool && x.status === 'completed' && x.iodepth === 1 && x.syncMode !== 'async' && x.blockSize === 4096)
    .sort((x, y) => y.startedAt.localeCompare(x.startedAt))[0];
  return b ? b.writeIops : null;
}

function viewPool(pool: Pool, a: Artifacts, target: ForecastTarget): PoolView {
  const drives = a.Drives ?? [];
  const ev = syncEvidence(pool, { Datasets: a.Datasets, Workload: a.Workload, ZilStats: a.ZilStats, poolCount: a.Pools?.length ?? 1 });
  const path = zilPath(pool, drives, a.Host?.zfs.openzfs);
  const m = measuredQd1(a, pool.name);
  // Precedence: a QD1 benchmark measures the whole path; an observation measures the device part
  // under the real load; the device class is a model of what such devices usually do.
  const observed = m === null ? observedSyncLatency(a.Workload, pool.name, path.home) : null;
  const byClass = path.latency && path.latency.cls !== 'unknown' ? latencyOfClass(path.latency.cls) : null;
  const now: DeviceLatency | null = m !== null
    ? { typicalUs: impliedDeviceLatencyUs(m), lowUs: impliedDeviceLatencyUs(m * 1.1), highUs: impliedDeviceLatencyUs(m * 0.9) }
    : observed?.latency ?? byClass;
  const nowBasis = m !== null
    ? `benchmark: ${m} sync IOPS measured at QD1 (4 KiB) on ${pool.name}`
    : observed ? observed.basis
    : byClass ? `device class model: ${path.latency!.label}` : 'unknown';
  const gain = now ? predictSyncIops(target.latency, 1).iops / (m ?? predictSyncIops(now, 1).iops) : null;
  return { pool, ev, path, now, nowBasis, observed, measuredQd1: m, gain };
}

/** " (observed: 600/s, p99 8.4 ms)" for a headline, '' without an observed latency. */
function observedText(o: ObservedSyncLatency | null): string {
  if (!o) return '';
  const rate = o.syncWriteIops !== null ? `${o.syncWriteIops >= 100 ? Math.round(o.syncWriteIops) : o.syncWriteIops.toFixed(1)}/s, ` : '';
  return ` (observed: ${rate}p99 ${o.p99Ms ?? o.p50Ms} ms)`;
}

/** Rank pools: most to gain with real sync demand first. */
function score(v: PoolView): number {
  const demand = { observed: 4, counters: 3, configured: 2, unknown: 1, 'none-observed': 0 }[v.ev.level];
  return demand * 1e6 + (v.gain ?? 0);
}

export function buildOptaneVerdict(a: Artifacts, assessment: Assessment | null): OptaneVerdict {
  const pools = a.Pools ?? [];
  const drives = a.Drives ?? [];
  const related = (assessment?.findings ?? []).filter((f) => RELATED_RULES.has(f.ruleId)).map((f) => ({ ruleId: f.ruleId, title: f.title, severity: f.severity }));
  const unknowns: OptaneVerdict['unknowns'] = [];
  if (!a.Pools) unknowns.push({ what: 'Pool layout', howToMeasure: 'zfs-advisor capture DIR (needs zpool status / zpool list -v)' });
  if (!a.Drives) unknowns.push({ what: 'Device models (Optane? PLP?)', howToMeasure: 'smartctl -a -j per device (zfs-advisor capture DIR as root)' });
  if (pools.length === 0) {
    return {
      verdict: 'depends', headline: 'No pool found: nothing to decide yet.', pool: null, reasons: ['The inventory has no pools.'], evidence: [], expected: null,
      candidates: [], purchase: [], layout: { commands: [], reversible: 'yes' }, unknowns, findings: related, confidence: 'low',
    };
  }
  // Candidates already in the box.
  const cands = slogCandidates(pools, drives);
  const optaneCands = cands.filter(isOptane);
  const picked = (optaneCands.length > 0 ? optaneCands : cands).slice(0, 2);
  const target = forecastTarget(picked, PURCHASE_P1600X);
  const views = pools.map((p) => viewPool(p, a, target)).sort((x, y) => score(y) - score(x) || x.pool.name.localeCompare(y.pool.name));
  const v = views[0]!;
  const name = v.pool.name;
  const probe = `zfs-advisor bench sync-write-4k-qd1 --pool ${name}`;
  const reasons: string[] = [...v.ev.reasons];
  const evidence: OptaneVerdict['evidence'] = [
    { label: 'pool', value: name },
    { label: 'ZIL written to', value: v.path.home === 'log' ? 'log vdev (SLOG)' : v.path.home === 'special' ? 'special vdev (2.4 zil_special_is_slog)' : 'data vdevs' },
    { label: 'ZIL device class', value: v.path.latency?.label ?? 'unknown' },
    { label: 'sync-write evidence', value: v.ev.level },
    { label: 'ZIL commits/s', value: v.ev.commitsPerSec },
    { label: 'measured QD1 sync IOPS', value: v.measuredQd1 },
    ...(v.observed ? [
      { label: 'observed sync-write latency p50 (ms)', value: v.observed.p50Ms },
      { label: 'observed sync-write latency p99 (ms)', value: v.observed.p99Ms },
      { label: 'observed sync-write IOPS', value: v.observed.syncWriteIops === null ? null : Math.round(v.observed.syncWriteIops * 10) / 10 },
    ] : []),
    { label: '"now" based on', value: v.nowBasis },
    { label: 'forecast "with Optane" for', value: `${target.product} (${target.basis})` },
  ];
  const expected = v.now ? forecast(v.now, target.latency) : null;
  if (expected && v.measuredQd1 !== null) expected.qd1.now = measuredIops(v.measuredQd1);

  const candidates = picked.map((d: Drive) => ({
    device: drivePath(d, a.Host),
    product: productName(d),
    role: isOptane(d) ? 'SLOG (and, partitioned and mirrored, special vdev: see [device classes](docs/kb/device-classes.md#one-device-several-roles))' : 'SLOG',
    layout: picked.length >= 2 ? 'mirror with the other candidate' : 'single device (mirror it for business data: [one device or a mirror](docs/kb/slog.md#one-device-or-a-mirror))',
  }));
  const devs = picked.length >= 2 ? [drivePath(picked[0]!, a.Host), drivePath(picked[1]!, a.Host)] : picked.length === 1 ? [drivePath(picked[0]!, a.Host)] : [NEW_DEVICE(1, a.Host), NEW_DEVICE(2, a.Host)];
  const spec = devs.length === 2 ? `mirror ${devs.join(' ')}` : devs[0]!;
  const layout = { commands: [`zpool add -n ${name} log ${spec}`, `zpool add ${name} log ${spec}`], reversible: 'yes' as const };
  const purchase = picked.length > 0 ? [] : [PURCHASE_P1600X, { ...PURCHASE_P1600X, why: `Second unit to mirror the SLOG: ${'protects the last seconds of sync writes if the SLOG dies together with a crash.'}` }];

  const base = { pool: name, evidence, expected, candidates, purchase, layout, findings: related };
  const gainText = expected ? `~${expected.qd1.now.iops} → ~${expected.qd1.withOptane.iops} sync IOPS at QD1, ${expected.qd16.now.iops} → ${expected.qd16.withOptane.iops} at QD16` : '';

  // 1. Already Optane on the ZIL path.
  if (v.path.drives.length > 0 && v.path.drives.every(isOptane)) {
    return { ...base, verdict: 'no', headline: `${name} already writes its ZIL to Optane.`, reasons: [...reasons, `The ${v.path.home} vdev is ${v.path.drives.map(productName).join(', ')}: nothing faster to add.`], layout: { commands: [], reversible: 'yes' }, purchase: [], unknowns, confidence: 'high' };
  }
  // 2. Already fast (all-flash with low-latency devices): the gain is too small.
  if (v.gain !== null && v.gain < MIN_QD1_GAIN) {
    return {
      ...base, verdict: 'no', headline: `${name} already has low-latency sync writes; Optane would add little.`,
      reasons: [...reasons, `The ZIL lands on ${v.path.latency?.label ?? 'fast devices'}; an Optane SLOG would be only ~${v.gain.toFixed(1)}× faster at QD1 (threshold ${MIN_QD1_GAIN}×).`],
      layout: { commands: [], reversible: 'yes' }, purchase: [], unknowns, confidence: v.measuredQd1 !== null || v.observed !== null ? 'high' : 'medium',
    };
  }
  // 3. No sync writes observed.
  if (v.ev.level === 'none-observed') {
    return {
      ...base, verdict: 'no', headline: `No sync writes on ${name}: a SLOG would sit idle.`,
      reasons: [...reasons, 'Async writes never touch the ZIL; a SLOG is not a write cache ([what the ZIL does](docs/kb/slog.md#what-the-zil-does)).'],
      layout: { commands: [], reversible: 'yes' }, purchase: [], confidence: 'medium',
      unknowns: [...unknowns, { what: 'Was the observation window representative?', howToMeasure: 'zfs-advisor observe --duration 30m during VM/NFS/database activity' }],
    };
  }
  if (v.now === null) {
    unknowns.push({ what: `Sync-write latency of ${name}'s ZIL path (device classes unknown)`, howToMeasure: probe });
  }
  // 4. Observed sync demand on a slow ZIL path.
  if (v.ev.level === 'observed' && v.gain !== null) {
    return {
      ...base, verdict: 'yes', headline: `Yes: ${name} does sync writes on ${v.path.latency?.label ?? 'slow devices'}${observedText(v.observed)}; an Optane SLOG would make them ~${Math.round(v.gain)}× faster.`,
      reasons: [...reasons, `Expected: ${gainText} (latency model calibrated on 000; "now" from ${v.nowBasis}).`, ...(picked.length > 0 ? [`Already in the box and unused: ${picked.map(productName).join(', ')}.`] : [])],
      unknowns, confidence: v.measuredQd1 !== null || v.observed !== null ? 'high' : 'medium',
    };
  }
  // 5. Evidence missing: depends.
  if (v.ev.level !== 'observed') unknowns.push({ what: `Does ${name} receive sync writes, and how many per second?`, howToMeasure: 'zfs-advisor observe --duration 10m (during normal use)' });
  // One probe answers both "device classes unknown" and "current latency": list it once.
  if (v.measuredQd1 === null && !unknowns.some((u) => u.howToMeasure === probe)) unknowns.push({ what: `Current sync-write latency of ${name}`, howToMeasure: probe });
  const lean = v.ev.level === 'configured' || v.ev.level === 'counters' ? ' Sync writes are configured, so an Optane SLOG probably helps.' : '';
  return {
    ...base, verdict: 'depends',
    headline: `It depends on ${name}'s sync writes.${lean}${gainText ? ` If they happen, expect ${gainText}.` : ' Measure first.'}`,
    reasons: [...reasons, `Run \`${probe}\` (guarded, on a throw-away dataset) and \`zfs-advisor observe --duration 10m\` to decide.`],
    unknowns, confidence: 'low',
  };
}

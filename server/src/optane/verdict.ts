/**
 * "Should I add Optane?" — one verdict from the artifacts, the assessment and the sync-write
 * forecast (server/src/forecast/). It picks the best unused log candidate in the box (highest
 * forecast), else a purchase; "yes" when sync writes are configured (sync=always, zvols), counted
 * (ZIL commits since boot, averaged over the kstat window) or observed and the forecast gain is
 * large; "replace" when an existing SLOG is much slower than the candidate; "no" when there are no
 * sync writes or the ZIL already lands on something as fast; "depends" when the deciding evidence
 * is missing, naming the probe that would decide it.
 */
import { z } from 'zod';
import type { Artifacts } from '../model/artifacts.ts';
import type { Assessment } from '../model/finding.ts';
import type { Drive, Pool, VdevNode } from '../model/inventory.ts';
import { isHdd, isOptane, productName } from '../../../rules/lib/device-class.ts';
import { MIN_SYNC_COMMITS_PER_SEC, syncEvidence, type SyncEvidence } from '../../../rules/lib/slog-evidence.ts';
import { NEW_DEVICE, drivePath, unusedDrives, zilPath, type ZilPath } from '../../../rules/lib/slog-devices.ts';
import { commandPath, leaves, topLevel } from '../../../rules/lib/topology.ts';
import { CATALOG, currentPlpNvme, profileForEntry, type DeviceProfile } from '../forecast/catalog.ts';
import { forecastPool, hostCpuSentence, type ForecastResult } from '../forecast/forecast.ts';
import { QD1, QD16, chooseSlog, type SlogTarget } from '../forecast/slog-choice.ts';
import type { ForecastOptions } from '../forecast/forecast.ts';
import { factLink } from '../forecast/cite.ts';
import { currentLog } from '../forecast/pool-shape.ts';
import { forecastOptionsOf, measuredNow, probeCommand, type MeasuredNow } from '../forecast/measured-now.ts';
import { confidenceReason, forecastConfidence, withSourceOf } from '../forecast/confidence.ts';
import type { ObservedSyncLatency } from './observed-latency.ts';
import { deviceMeasurement, deviceProbeBytes, deviceProbeCommand, deviceProbeHint } from '../forecast/measured-device.ts';
import { formatCount } from '../text/format.ts';
import { decide, type Decision, type DecisionEvidence } from './decide.ts';

/** Thresholds of the decision (decide.ts): the candidate must beat the ZIL path by MIN_QD1_GAIN at QD1; an existing SLOG is replaced at REPLACE_GAIN [heuristic]. */
export { MIN_QD1_GAIN, REPLACE_GAIN } from './decide.ts';

export const IopsRange = z.object({ iops: z.number(), low: z.number(), high: z.number() });
export type IopsRange = z.infer<typeof IopsRange>;

export const DeviceProbeOffer = z.object({
  driveId: z.string(),
  /** The path the test writes to (by-id where known). */
  device: z.string(),
  product: z.string(),
  /** The test's size: 256 MiB, or the drive when smaller (measured-device.ts). */
  sizeBytes: z.number(),
  /** The newest blank-device test of this drive on this host, else null. */
  measured: z.object({ runId: z.string(), startedAt: z.string(), iops: z.number(), latencyUs: z.number() }).nullable(),
  /** The same test from the CLI (the serial stays for the user to type). */
  command: z.string(),
});
export type DeviceProbeOffer = z.infer<typeof DeviceProbeOffer>;

export const OptaneVerdict = z.object({
  verdict: z.enum(['yes', 'no', 'depends', 'replace']),
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
  purchase: z.array(z.object({ product: z.string(), capacityGb: z.number().nullable(), why: z.string() })),
  layout: z.object({ commands: z.array(z.string()), reversible: z.enum(['yes', 'no', 'partly']) }),
  unknowns: z.array(z.object({ what: z.string(), howToMeasure: z.string() })),
  /** Related findings from the assessment (rule id + title). */
  findings: z.array(z.object({ ruleId: z.string(), title: z.string(), severity: z.string() })),
  confidence: z.enum(['high', 'medium', 'low']),
  /** The one fact that decided the verdict, with its number (decide.ts). Empty in verdicts stored before it existed. */
  decisive: z.string().default(''),
  /**
   * Unused drives of the box the blank-device test can measure ("Measure this device"), log
   * candidates first: each with what a run measured, if one did, and the CLI command. Absent in
   * verdicts stored before it existed.
   */
  deviceProbes: z.array(DeviceProbeOffer).default([]),
});
export type OptaneVerdict = z.infer<typeof OptaneVerdict>;

const OPTANE_EOL = CATALOG.sources['optane-eol']!;

const RELATED_RULES = new Set(['slog-benefit', 'slog-without-sync-writes', 'slog-device-suitability', 'slog-on-2.4-special', 'special-does-not-replace-slog', 'slog-single-device', 'slog-size']);

interface PoolView {
  pool: Pool;
  ev: SyncEvidence;
  path: ZilPath;
  observed: ObservedSyncLatency | null;
  measuredQd1: number | null;
  now: MeasuredNow;
  target: SlogTarget;
  inBox: SlogTarget[];
  qd1: ForecastResult;
  qd16: ForecastResult;
  nowQd1: IopsRange;
  gain: number;
}

/** Evidence values are plain text: Markdown links keep their words (the reasons carry the links). */
const plain = (text: string): string => text.replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '$1');

const range = (x: { iops: number; low: number; high: number }): IopsRange => ({ iops: x.iops, low: x.low, high: x.high });

function viewPool(pool: Pool, a: Artifacts): PoolView {
  const drives = a.Drives ?? [];
  const ev = syncEvidence(pool, { Datasets: a.Datasets, Workload: a.Workload, ZilStats: a.ZilStats, poolCount: a.Pools?.length ?? 1 });
  const path = zilPath(pool, drives, a.Host?.zfs.openzfs);
  const now = measuredNow(a, pool);
  const m = now.measuredQd1;
  const c = chooseSlog(a, pool, forecastOptionsOf(now));
  const nowQd1 = m !== null ? { iops: Math.round(m), low: Math.round(m * 0.9), high: Math.round(m * 1.1) } : range(c.qd1.now);
  // The gain is the latency ratio at QD1: the pool's sustained ceiling caps throughput (QD16 shows
  // it) but not how long each sync write waits.
  const gain = m !== null ? c.qd1.with!.latencyIops / m : c.gain;
  return { pool, ev, path, observed: now.observed, measuredQd1: m, now, target: c.target, inBox: c.inBox, qd1: c.qd1, qd16: c.qd16, nowQd1, gain };
}

/** Sync writes happen (or are forced) on this pool: observed, counted at a real rate, or configured. */
function syncDemand(ev: SyncEvidence): boolean {
  if (ev.level === 'observed' || ev.level === 'configured') return true;
  if (ev.level === 'counters') return ev.commitsPerSec === null || ev.commitsPerSec >= MIN_SYNC_COMMITS_PER_SEC;
  return false;
}

/** Rank pools: most to gain with real sync demand first. */
function score(v: PoolView): number {
  const demand = { observed: 4, counters: 3, configured: 2, unknown: 1, 'none-observed': 0 }[v.ev.level];
  return demand * 1e6 + v.gain;
}

const fmt = (n: number) => formatCount(Math.round(n));
const observedText = (o: ObservedSyncLatency | null): string => {
  if (!o) return '';
  const rate = o.syncWriteIops !== null ? `${o.syncWriteIops >= 100 ? Math.round(o.syncWriteIops) : o.syncWriteIops.toFixed(1)}/s, ` : '';
  return ` (observed: ${rate}p99 ${o.p99Ms ?? o.p50Ms} ms)`;
};

/** How a log vdev is named in `zpool remove`: a mirror by its vdev name, a single device by its path. */
const removeName = (v: VdevNode, drives: readonly Drive[]): string => (v.children.length > 0 ? v.name : commandPath(leaves(v)[0] ?? v, drives));

/**
 * When every candidate reaches the same QD16 figure because the pool (or host) caps them all, say
 * so, and what still tells them apart: the QD1 wait per write, endurance, power-loss protection and
 * price class. Null when the candidates' QD16 forecasts differ.
 */
export function sameLimitReason(a: Artifacts, pool: Pool, cands: { label: string; profile: DeviceProfile }[], opts: ForecastOptions): string | null {
  if (cands.length < 2) return null;
  const fs = cands.map((c) => ({ c, q16: forecastPool(a, pool, QD16, { ...c, mirrored: false }, opts).with!, q1: forecastPool(a, pool, QD1, { ...c, mirrored: false }, opts).with! }));
  const cap = Math.max(...fs.map((f) => f.q16.iops));
  if (fs.some((f) => f.q16.iops < cap * 0.98 || f.q16.latencyIops <= f.q16.iops * 1.05)) return null;
  const entry = (id: string) => CATALOG.entries.find((e) => e.id === id);
  const detail = fs.map(({ c, q1 }) => {
    const e = entry(c.profile.id);
    const endurance = e?.endurance.dwpd != null ? `${e.endurance.dwpd} DWPD` : 'endurance unknown';
    const plp = c.profile.plp === 'capacitor' ? 'power-loss protection' : c.profile.plp === 'no-volatile-cache' ? 'no volatile cache to lose' : c.profile.plp === 'none' ? 'no power-loss protection' : 'power-loss protection unknown';
    const price = c.profile.cls.startsWith('optane') ? 'discontinued (new-old-stock or used)' : e?.status === 'in-production' ? 'in production' : 'price class unknown';
    return `${c.label}: ~${fmt(q1.latencyIops)} IOPS per writer at QD1 (${c.profile.lat4kUs.kind === 'class-estimate' ? 'class estimate' : c.profile.lat4kUs.kind}), ${endurance}, ${plp}, ${price}`;
  });
  return `At QD16 every candidate reaches the same ~${fmt(cap)} sync IOPS: ${pool.name}'s sustained ceiling binds, not the log device (${factLink('A17')}). What differs: ${detail.join('; ')}.`;
}

function purchaseList(a: Artifacts, pool: Pool, buy: SlogTarget, p1600xQd1: number, opts: ForecastOptions): OptaneVerdict['purchase'] {
  const alt = currentPlpNvme().map((e) => {
    const f = forecastPool(a, pool, QD1, { label: e.product, profile: profileForEntry(e), mirrored: false }, opts);
    return { e, iops: f.with!.iops };
  });
  return [
    {
      product: 'Intel Optane SSD P1600X 118GB (SSDPEK1A118GA)', capacityGb: 118,
      why: `Discontinued: [Intel wound down Optane in 2022](${OPTANE_EOL}); buy new-old-stock or used (eBay, server-parts resellers) and check SMART "Percentage Used". M.2 2280 PCIe 3.0 x4, 6 DWPD (1.3 PB), no volatile write cache; forecast on ${pool.name}: ~${fmt(p1600xQd1)} sync IOPS at QD1 (${buy.candidate.profile.basis}).`,
    },
    { product: 'Second Intel Optane SSD P1600X 118GB', capacityGb: 118, why: `To mirror the SLOG: protects the last seconds of sync writes if the SLOG dies together with a crash (${factLink('A25')}).` },
    ...alt.map(({ e, iops }) => ({
      product: `${e.product} (current alternative)`, capacityGb: null,
      why: `In production, power-loss protection, ${e.formFactor}; forecast ~${fmt(iops)} sync IOPS at QD1 (${e.syncWrite4kUs.kind === 'class-estimate' ? 'class estimate: PLP NVMe flushes in ~12–60 µs' : `${e.syncWrite4kUs.typical} µs per flushed 4 KiB write`}), below Optane's but far above hard disks; ${e.endurance.dwpd !== null ? `endurance ${e.endurance.dwpd} DWPD` : 'endurance not published in our catalog (unknown)'}.`,
    })),
  ];
}

/** Unused flash (or unidentified) drives the blank-device test can measure, log candidates first. */
function deviceProbeOffers(a: Artifacts, inBox: readonly SlogTarget[]): DeviceProbeOffer[] {
  const drives = a.Drives ?? [];
  const first = inBox.flatMap((t) => (t.drive ? [t.drive] : []));
  const rest = unusedDrives(a.Pools ?? [], drives).filter((d) => !first.includes(d) && !isHdd(d));
  return [...first, ...rest].map((d) => {
    const m = deviceMeasurement(a.Benchmarks, d);
    return {
      driveId: d.id, device: drivePath(d, a.Host), product: productName(d), sizeBytes: deviceProbeBytes(d),
      measured: m ? { runId: m.runId, startedAt: m.startedAt, iops: m.iops, latencyUs: m.latencyUs } : null, command: deviceProbeCommand(d, a.Host),
    };
  });
}

/** The decision's evidence for one pool, read from the pool's view (decide.ts). */
function decisionEvidence(v: PoolView, probe: string): DecisionEvidence {
  const lat = v.path.latency;
  return {
    pool: v.pool.name,
    demand: v.ev.level,
    commitsPerSec: v.ev.commitsPerSec,
    commitsMatter: v.ev.commitsPerSec === null || v.ev.commitsPerSec >= MIN_SYNC_COMMITS_PER_SEC,
    measuredQd1Iops: v.measuredQd1,
    observed: v.observed ? { p50Ms: v.observed.p50Ms, syncWriteIops: v.observed.syncWriteIops } : null,
    zilHome: v.path.home,
    zilClass: lat && v.path.unresolved === 0 ? { label: lat.label, known: lat.known, typicalUs: lat.typicalUs } : lat ? { label: lat.label, known: false, typicalUs: lat.typicalUs } : null,
    zilOnOptane: v.path.drives.length > 0 && v.path.drives.every(isOptane),
    candidate: { label: v.target.candidate.label, latencySource: v.target.candidate.measurement ? 'measured' : v.target.candidate.profile.matched === 'catalog' ? 'catalog' : 'class' },
    gain: v.gain,
    gainRange: v.qd1.gainRange ?? null,
    probe,
  };
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
      candidates: [], purchase: [], layout: { commands: [], reversible: 'yes' }, unknowns, findings: related, confidence: 'low', deviceProbes: [], decisive: 'no pool',
    };
  }
  const views = pools.map((p) => viewPool(p, a)).sort((x, y) => score(y) - score(x) || x.pool.name.localeCompare(y.pool.name));
  const v = views[0]!;
  const name = v.pool.name;
  const probe = probeCommand(name);
  const t = v.target;
  const picked = t.drive ? [t.drive, ...v.inBox.filter((x) => x.drive !== t.drive && x.drive && isOptane(x.drive) === isOptane(t.drive!)).map((x) => x.drive!)].slice(0, 2) : [];
  const nowBasis = v.now.basis;
  const withBasis = v.qd1.with!.measured ?? t.candidate.profile.basis;
  const reasons: string[] = [...v.ev.reasons];
  const evidence: OptaneVerdict['evidence'] = [
    { label: 'pool', value: name },
    { label: 'ZIL written to', value: v.path.home === 'log' ? 'log vdev (SLOG)' : v.path.home === 'special' ? 'special vdev (2.4 zil_special_is_slog)' : 'data vdevs' },
    { label: 'ZIL device class', value: v.path.latency?.label ?? 'unknown' },
    { label: 'sync-write evidence', value: v.ev.level },
    { label: 'ZIL commits/s', value: v.ev.commitsPerSec === null ? null : Math.round(v.ev.commitsPerSec * 100) / 100 },
    { label: 'measured QD1 sync IOPS', value: v.measuredQd1 },
    // The probe's CPU per write: host time no log device removes (forecast.ts HostCpu).
    ...(v.now.hostCpu ? [{ label: 'host CPU per sync write (µs)', value: Math.round(v.now.hostCpu.usPerWrite) }] : []),
    // What the data vdevs write back at txg sync: the ceiling of many small writes, log device or not (measured-bandwidth.ts).
    ...(v.now.bandwidth ? [{ label: 'measured write-back (MiB/s)', value: Math.round((v.now.bandwidth.bytesPerSec / 2 ** 20) * 10) / 10 }] : []),
    ...(v.observed ? [
      { label: 'observed sync-write latency p50 (ms)', value: v.observed.p50Ms },
      { label: 'observed sync-write latency p99 (ms)', value: v.observed.p99Ms },
      { label: 'observed sync-write IOPS', value: v.observed.syncWriteIops === null ? null : Math.round(v.observed.syncWriteIops * 10) / 10 },
    ] : []),
    { label: '"now" based on', value: plain(nowBasis) },
    { label: 'forecast "with" for', value: plain(`${t.candidate.label}: ${withBasis}`) },
  ];
  const expected = {
    qd1: { now: v.nowQd1, withOptane: range(v.qd1.with!) },
    qd16: { now: range(v.qd16.now), withOptane: range(v.qd16.with!) },
  };
  const candidates = picked.map((d) => ({
    device: drivePath(d, a.Host),
    product: productName(d),
    role: isOptane(d) ? 'SLOG (and, partitioned and mirrored, special vdev: see [device classes](docs/kb/device-classes.md#one-device-several-roles))' : 'SLOG',
    layout: picked.length >= 2 ? 'mirror with the other candidate' : 'single device (mirror it for business data: [one device or a mirror](docs/kb/slog.md#one-device-or-a-mirror))',
  }));
  const devs = picked.length >= 2 ? picked.map((d) => drivePath(d, a.Host)) : picked.length === 1 ? [drivePath(picked[0]!, a.Host)] : [NEW_DEVICE(1, a.Host), NEW_DEVICE(2, a.Host)];
  const spec = devs.length === 2 ? `mirror ${devs.join(' ')}` : devs[0]!;
  const fopts: ForecastOptions = forecastOptionsOf(v.now);
  const purchase = picked.length > 0 ? [] : purchaseList(a, v.pool, t, v.qd1.with!.iops, fopts);
  const compared = picked.length > 0
    ? v.inBox.map((x) => ({ label: x.candidate.label, profile: x.candidate.profile }))
    : [{ label: t.candidate.label.replace(' (to buy)', ''), profile: t.candidate.profile }, ...currentPlpNvme().map((e) => ({ label: e.product, profile: profileForEntry(e) }))];
  const limitReason = sameLimitReason(a, v.pool, compared, fopts);
  const gainText = `~${fmt(expected.qd1.now.iops)} → ~${fmt(expected.qd1.withOptane.iops)} sync IOPS at QD1, ${fmt(expected.qd16.now.iops)} → ${fmt(expected.qd16.withOptane.iops)} at QD16`;
  const capped = v.qd1.with!.latencyIops > v.qd1.with!.iops * 1.05;
  // A drive of the box forecast from its catalog or class figure: say how to measure it instead.
  const unmeasured = t.drive !== null && !t.candidate.measurement;
  const measureWith = unmeasured ? `; not measured on this host — measure it in one click: ${deviceProbeHint(t.drive!, a.Host)}` : '';
  const forecastReason = `Forecast (4 KiB sync writes; calibrated model): ${gainText}. Now: ${nowBasis.replace(/\.$/, '')}. With ${t.candidate.label}: ${withBasis.replace(/\.$/, '')}${measureWith}.` +
    (limitReason ? ` ${limitReason}` : '') +
    ((s) => (s ? ` ${s}` : ''))(hostCpuSentence(fopts.hostCpu)) +
    (capped ? ` Per write, the ZIL path allows ~${fmt(v.qd1.now.latencyIops)} → ~${fmt(v.qd1.with!.latencyIops)} IOPS; sustained, ${name}'s data vdevs cap both (4 KiB writes into ${v.qd1.workload.blockSize / 1024} KiB blocks; ${factLink('A17')}).` : '');
  const nowUnknown = v.measuredQd1 === null && v.observed === null && currentLog(v.pool, drives, a.Host).device.cls === 'unknown';
  const base = { pool: name, evidence, expected, candidates, purchase, findings: related, deviceProbes: deviceProbeOffers(a, v.inBox) };
  const none = { commands: [] as string[], reversible: 'yes' as const };
  const demand = syncDemand(v.ev);
  // One confidence for the verdict and the slog-benefit finding (forecast/confidence.ts).
  const withSource = withSourceOf(t.candidate.profile);
  const conf = forecastConfidence(v.now.source, v.ev.level, withSource);
  const confReason = `${confidenceReason(v.now.source, v.ev.level, withSource)}.`;
  const zilOnLog = v.path.home === 'log';
  const d: Decision = decide(decisionEvidence(v, probe));
  const decisive = d.fact;
  const factReason = `Decided by: ${d.fact}.`;
  if (v.now.source === 'model') unknowns.push({ what: `Current sync-write latency of ${name} (the "now" figures are a model estimate)`, howToMeasure: probe });
  if (unmeasured) unknowns.push({ what: `Sync-write latency of ${t.candidate.label} itself (the "with" figures are its ${t.candidate.profile.matched === 'catalog' ? 'catalog figure' : 'class estimate'}; the blank-device test destroys its contents)`, howToMeasure: deviceProbeCommand(t.drive!, a.Host) });

  // Words rendered from the decision (decide.ts); nothing is decided below.
  // 1. No sync writes: a SLOG would sit idle.
  if (d.kind === 'no-sync-writes') {
    return {
      ...base, verdict: 'no', decisive, headline: `No: no sync writes on ${name} (gain 1×); a SLOG would sit idle.`,
      reasons: [...reasons, factReason, confReason, 'Async writes never touch the ZIL; a SLOG is not a write cache ([what the ZIL does](docs/kb/slog.md#what-the-zil-does)).'],
      layout: none, purchase: [], confidence: conf,
      unknowns: [...unknowns, { what: 'Was the window representative?', howToMeasure: 'zfs-advisor observe --duration 30m during VM/NFS/database activity' }],
    };
  }
  const old = topLevel(v.pool, 'log').map((x) => removeName(x, drives));
  const replaceLayout = {
    commands: [...old.map((o) => `zpool remove -n ${name} ${o}`), `zpool add -n ${name} log ${spec}`, ...old.map((o) => `zpool remove ${name} ${o}`), `zpool add ${name} log ${spec}`],
    reversible: 'yes' as const,
  };
  // 2. An existing SLOG that the candidate beats clearly: replace it.
  if (d.kind === 'replace') {
    return {
      ...base, verdict: 'replace', decisive,
      headline: `${name}'s SLOG (${v.path.latency?.label ?? 'the current log device'}) is ~${Math.round(v.gain)}× slower for sync writes than ${t.candidate.label}${observedText(v.observed)}: remove it, then add the faster one.`,
      reasons: [...reasons, factReason, confReason, forecastReason, `Adding the new device beside the old one would stripe the ZIL across both and keep the slow one in the path; remove the old log vdev first (log vdevs can always be removed: ${factLink('A24')}).`],
      layout: replaceLayout, unknowns, confidence: conf,
    };
  }
  // 3. The ZIL already lands on something as fast as the candidate.
  if (d.verdict === 'no') {
    const headline = d.kind === 'already-optane' ? `${name} already writes its ZIL to Optane.`
      : d.kind === 'small-gain' ? `No: ${t.candidate.label} would be only ~${v.gain.toFixed(1)}× faster per sync write on ${name}.`
      : `${name} already has low-latency sync writes (${d.fact.replace(/: already fast$/, '')}); a SLOG would add little.`;
    return {
      ...base, verdict: 'no', decisive, headline,
      reasons: [...reasons, factReason, confReason, forecastReason],
      layout: none, purchase: [], unknowns, confidence: conf,
    };
  }
  const addLayout = zilOnLog ? replaceLayout : { commands: [`zpool add -n ${name} log ${spec}`, `zpool add ${name} log ${spec}`], reversible: 'yes' as const };
  const where = t.drive ? `${t.candidate.label}, already in the box and unused,` : `a ${t.candidate.label.replace(' (to buy)', '')} (to buy; Optane is discontinued, see below)`;
  // 4. Sync writes configured, counted or observed on a slow ZIL path: yes.
  if (d.verdict === 'yes') {
    const how = v.ev.level === 'observed' ? `does sync writes${observedText(v.observed)}`
      : v.ev.level === 'counters' ? `commits to its ZIL${v.ev.commitsPerSec !== null ? ` (${v.ev.commitsPerSec >= 10 ? Math.round(v.ev.commitsPerSec) : v.ev.commitsPerSec.toFixed(1)} commits/s since boot)` : ''}`
      : `forces sync writes (${[...v.ev.syncAlwaysDatasets.map((d) => `${d} sync=always`), ...v.ev.zvols.map((z) => `zvol ${z}`)].slice(0, 3).join(', ')})`;
    const headline = d.kind === 'measured-slow' && v.measuredQd1 !== null
      ? `Yes: ${name} ${d.fact}; a SLOG on ${where} would make them ~${Math.round(v.gain)}× faster.`
      : `${name} ${how} on ${v.path.latency?.label ?? 'slow devices'}; a SLOG on ${where} would make them ~${Math.round(v.gain)}× faster.`;
    return {
      ...base, verdict: 'yes', decisive, headline,
      reasons: [...reasons, factReason, confReason, forecastReason],
      layout: addLayout, unknowns, confidence: conf,
    };
  }
  // 5. Evidence missing: depends. Ask only for what the app does not hold yet (the newest probe and observation are read above).
  if (!demand) unknowns.push({ what: `Does ${name} receive sync writes, and how many per second?`, howToMeasure: 'zfs-advisor observe --duration 10m (during normal use)' });
  const toRun = [
    ...(v.measuredQd1 === null ? [`\`${probe}\` (guarded, on a throw-away dataset)`] : []),
    ...(a.Workload === undefined ? ['`zfs-advisor observe --duration 10m`'] : []),
  ];
  const headline = d.kind === 'measure-first' ? `Measure first: ${d.fact}.`
    : d.kind === 'slow-small-gain' ? `It depends: ${d.fact}.`
    : nowUnknown ? `It depends on ${name}'s sync writes. Measure first: its devices are not identified.` : `It depends on ${name}'s sync writes. If they happen, expect ${gainText}.`;
  return {
    ...base, verdict: 'depends', decisive, headline,
    reasons: [...reasons, factReason, confReason, forecastReason, ...(toRun.length > 0 ? [`Run ${toRun.join(' and ')} to decide.`] : [])],
    layout: addLayout, unknowns, confidence: conf,
  };
}

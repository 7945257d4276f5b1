/**
 * "Should I add Optane?" — one verdict from the artifacts, the assessment and the sync-write
 * forecast (server/src/forecast/). It picks the best unused log candidate in the box (highest
 * forecast), else a purchase; "yes" when sync writes are configured (sync=always, zvols), counted
 * (ZIL commits since boot, averaged over the kstat window) or observed and the forecast gain is
 * large; "replace" when an existing SLOG is much slower than the candidate; "no" when there are no
 * sync writes or the ZIL already lands on something as fast; "depends" when the deciding evidence
 * is missing, naming the probe that would decide it.
 *
 * What it knows about each pool's sync writes it reads from the pool's evidence record
 * (forecast/sync-evidence.ts), computed once per assessment and shared with the SLOG rules and
 * `forecast`; the decision is decide.ts's table; this file words the page.
 */
import { z } from 'zod';
import type { Artifacts } from '../model/artifacts.ts';
import type { Assessment } from '../model/finding.ts';
import type { Drive, Pool, VdevNode } from '../model/inventory.ts';
import { isHdd, isOptane, productName } from '../../../rules/lib/device-class.ts';
import { NEW_DEVICE, drivePath } from '../../../rules/lib/slog-devices.ts';
import { commandPath, leaves, topLevel } from '../../../rules/lib/topology.ts';
import { CATALOG, PRICE_BANDS, priceClassOf, siteLink, sourceUrl, type CatalogEntry, type DeviceProfile, type PriceSource } from '../forecast/catalog.ts';
import { forecastPool, gainSpread, hostCpuSentence, type ForecastResult } from '../forecast/forecast.ts';
import { QD1, QD16, measuredPair, type PurchaseOption } from '../forecast/slog-choice.ts';
import type { ForecastOptions } from '../forecast/forecast.ts';
import { factLink, mdLink } from '../forecast/cite.ts';
import { probeCommand } from '../forecast/measured-now.ts';
import { poolSyncEvidence, type PoolSyncEvidence } from '../forecast/sync-evidence.ts';
import { confidenceReason, forecastConfidence, withSourceOf } from '../forecast/confidence.ts';
import type { ObservedSyncLatency } from './observed-latency.ts';
import { deviceMeasurement, deviceProbeBytes, deviceProbeCommand, deviceProbeHint } from '../forecast/measured-device.ts';
import { formatCount, formatGain, formatLatencyUs } from '../text/format.ts';
import { decide, MIN_BUY_GAIN, rangeText, type Decision, type DecisionEvidence } from './decide.ts';

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

/**
 * The gain the headline states (issue 34 §3): measured where the app holds a measurement — this
 * pool's probe (the "with" side still a forecast) or a published before/after pair of the same
 * device on a pool of the same shape — otherwise the forecast's range. Never a point figure picked
 * as the largest ratio of the page.
 */
export const HeadlineGain = z.object({
  kind: z.enum(['measured-pair', 'probe', 'range']),
  /** A point figure only for a measured pair; null where the headline gives a range. */
  value: z.number().nullable(),
  low: z.number(),
  high: z.number(),
  /** Queue depth the figure is for. */
  iodepth: z.number(),
  /** The words, with the source where there is one. */
  text: z.string(),
});
export type HeadlineGain = z.infer<typeof HeadlineGain>;

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
  /** What is not known, and `howToMeasure`: one command that measures it, nothing else (reports put it in a shell block; `what` says when to run it). */
  unknowns: z.array(z.object({ what: z.string(), howToMeasure: z.string() })),
  /** Related findings from the assessment (rule id + title). */
  findings: z.array(z.object({ ruleId: z.string(), title: z.string(), severity: z.string() })),
  confidence: z.enum(['high', 'medium', 'low']),
  /** The one fact that decided the verdict, with its number (decide.ts). Empty in verdicts stored before it existed. */
  decisive: z.string().default(''),
  /** The gain the headline states and what it rests on; null where no device is proposed or in verdicts stored before it existed. */
  headlineGain: HeadlineGain.nullable().default(null),
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

/** What the verdict reads about a pool: its sync-write evidence, computed once per assessment (forecast/sync-evidence.ts). */
type PoolView = PoolSyncEvidence;

/** Evidence values are plain text: Markdown links keep their words (the reasons carry the links). */
const plain = (text: string): string => text.replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '$1');

const range = (x: { iops: number; low: number; high: number }): IopsRange => ({ iops: x.iops, low: x.low, high: x.high });

/** Rank pools: most to gain with real sync demand first. */
function score(v: PoolView): number {
  const demand = { observed: 4, counters: 3, configured: 2, unknown: 1, 'none-observed': 0 }[v.demand.level];
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
export function sameLimitReason(a: Artifacts, pool: Pool, cands: { label: string; profile: DeviceProfile; qd1?: ForecastResult; qd16?: ForecastResult }[], opts: ForecastOptions): string | null {
  if (cands.length < 2) return null;
  // A candidate's single-device forecasts where the pool's evidence already holds them (the devices to buy), else forecast here.
  const one = (c: { label: string; profile: DeviceProfile }, w: typeof QD1) => forecastPool(a, pool, w, { label: c.label, profile: c.profile, mirrored: false }, opts);
  const fs = cands.map((c) => ({ c, q16: (c.qd16 ?? one(c, QD16)).with!, q1: (c.qd1 ?? one(c, QD1)).with! }));
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

/** Whether the log should be a mirror, and why (rules/slog-single-device.ts, docs/kb/slog.md#one-device-or-a-mirror). */
interface MirrorAdvice {
  mirror: boolean;
  why: string;
  /** The same without the fact's web link, for the candidate line (the HTML report writes it as plain text). */
  short: string;
}

const MIRROR_KB = '[one device or a mirror](docs/kb/slog.md#one-device-or-a-mirror)';

/**
 * A mirrored log only where the rule asks for it: the last seconds of acknowledged sync writes
 * matter (VM storage, databases, business NFS). The evidence the app holds for that is zvols on
 * the pool (VM disks or iSCSI LUNs); otherwise one device, saying when to mirror it.
 */
function mirrorAdvice(v: PoolView): MirrorAdvice {
  const z = v.demand.zvols;
  if (v.mirrorLog) {
    const zvols = `${v.pool.name} holds zvols (${z.slice(0, 3).join(', ')}${z.length > 3 ? ', …' : ''}: VM disks or iSCSI LUNs), whose last seconds of acknowledged sync writes a lone SLOG dying together with a crash would lose`;
    return { mirror: true, why: `${zvols} (${factLink('A25')}; ${MIRROR_KB})`, short: `${zvols} (${MIRROR_KB})` };
  }
  const lone = 'if a lone SLOG fails, the ZIL falls back to the pool and nothing is lost; only a SLOG dying together with a crash loses the last seconds of sync writes';
  const when = `Mirror it when those seconds matter: databases, VM storage, business NFS (${MIRROR_KB})`;
  return { mirror: false, why: `${lone} (${factLink('A25')}). ${when}`, short: `${lone}. ${when}` };
}

const gainWords = (g: { gain: number; low: number; high: number }): string => `${formatGain(g.gain)} (${rangeText(g)})`;
const overlaps = (x: { low: number; high: number }, y: { low: number; high: number }): boolean => x.low <= y.high && y.low <= x.high;

/**
 * How a current PLP NVMe compares with Optane on this pool, from the two forecasts (per write at
 * QD1, sustained at QD16): equal (within 5 %), within each other's range, or below — only when
 * the ranges do not overlap.
 */
function versusOptane(o: PurchaseOption, optane: PurchaseOption): { asGood: boolean; text: string } {
  const a16 = o.qd16.with!; const b16 = optane.qd16.with!;
  const figures = `per write at QD1 ~${formatGain(o.gainQd1.gain)} vs Optane's ~${formatGain(optane.gainQd1.gain)}, at QD16 ~${fmt(a16.iops)} vs ~${fmt(b16.iops)} sync IOPS`;
  const same = (x: number, y: number) => Math.abs(x - y) <= 0.05 * Math.max(x, y);
  if (same(o.gainQd1.gain, optane.gainQd1.gain) && same(a16.iops, b16.iops)) return { asGood: true, text: `as fast as Optane on this pool (${figures})` };
  if (overlaps(o.gainQd1, optane.gainQd1) && overlaps(a16, b16)) {
    return { asGood: true, text: `within the forecast's range of Optane on this pool (${figures}; the ranges ${rangeText(o.gainQd1)} and ${rangeText(optane.gainQd1)} overlap)` };
  }
  return { asGood: false, text: `below Optane's on this pool (${figures}; the ranges ${rangeText(o.gainQd1)} and ${rangeText(optane.gainQd1)} do not overlap)` };
}

/** One device's forecast as the card words it: per write at QD1 (and the sustained figure when the pool caps it), sustained at QD16. */
function forecastWords(pool: Pool, o: PurchaseOption): string {
  const sustained = o.gainQd1.capped ? `, sustained ~${fmt(o.qd1.with!.iops)} sync IOPS (${pool.name}'s data vdevs cap it)` : `, ~${fmt(o.qd1.with!.iops)} sync IOPS`;
  return `forecast on ${pool.name}: at QD1 ${gainWords(o.gainQd1)} faster per write${sustained}; at QD16 ~${fmt(o.qd16.with!.iops)} sync IOPS, gain ${gainWords(o.gainQd16)}`;
}

const PRICE_KIND: Record<PriceSource['kind'], string> = { 'launch-rcp': 'launch price', retail: 'retail price', 'user-reported': 'price a buyer reported' };

/**
 * A device's price class and the published price it rests on (device-catalog.json `price`), or
 * null when the catalog has none (the card's reasons say that once, not on every line). A
 * discontinued part's price is its launch price: today it is bought used or new-old-stock at a
 * street price the catalog does not know.
 */
export function priceWords(e: CatalogEntry): string | null {
  const c = priceClassOf(e.price);
  if (!c || !e.price) return null;
  const p = e.price;
  const site = siteLink(p.url);
  const used = e.status === 'discontinued' ? '; discontinued, so bought used or new-old-stock today at a street price we do not know' : '';
  return `Price class ${c}: $${formatCount(p.usd)} for ${formatCount(p.capacityGb)} GB, ${PRICE_KIND[p.kind]} (${site}, ${p.date})${used}`;
}

/**
 * The devices to buy, ranked (slog-choice.ts purchaseOptions), each saying its forecast gain and
 * range at QD1 and QD16, power-loss protection, endurance, whether it is in production, and its
 * price class with the source where the catalog has one; those
 * whose best case gains less than MIN_BUY_GAIN are left out (named in `dropped`).
 */
function purchaseList(pool: Pool, options: PurchaseOption[], mirror: MirrorAdvice): { purchase: OptaneVerdict['purchase']; dropped: string[]; asGood: string | null; unpriced: boolean } {
  const worth = options.filter((o) => Math.max(o.gainQd1.high, o.gainQd16.high) >= MIN_BUY_GAIN);
  const dropped = options.filter((o) => !worth.includes(o)).map((o) => `${o.entry.product} (at most ${formatGain(Math.max(o.gainQd1.high, o.gainQd16.high))})`);
  const optane = options.find((o) => o.entry.class.startsWith('optane')) ?? null;
  let asGood: string | null = null;
  const purchase = worth.flatMap((o, i): OptaneVerdict['purchase'] => {
    const e = o.entry;
    const isOptaneEntry = e.class.startsWith('optane');
    const forecast = forecastWords(pool, o);
    const plp = e.plp === 'capacitor' ? 'power-loss protection' : e.plp === 'no-volatile-cache' ? 'no volatile write cache to lose' : 'no power-loss protection';
    const endurance = e.endurance.dwpd !== null ? `${e.endurance.dwpd} DWPD` : 'endurance not published in our catalog (unknown)';
    const latency = e.syncWrite4kUs.kind === 'class-estimate' ? 'class estimate: PLP NVMe flushes in ~12–60 µs' : `${formatLatencyUs(e.syncWrite4kUs.typical)} per flushed 4 KiB write`;
    const rank = `Rank ${i + 1} of ${worth.length}`;
    const priced = priceWords(e);
    const price = priced ? ` ${priced}.` : '';
    const head = isOptaneEntry
      ? { product: 'Intel Optane SSD P1600X 118GB (SSDPEK1A118GA)', capacityGb: 118, why: `${rank}: ${forecast}. Discontinued: [Intel wound down Optane in 2022](${OPTANE_EOL}); buy new-old-stock or used (eBay, server-parts resellers) and check SMART "Percentage Used". M.2 2280 PCIe 3.0 x4, ${endurance} (1.3 PB), ${plp} (${o.target.candidate.profile.basis}).${price}` }
      : (() => {
        const vs = optane ? versusOptane(o, optane) : null;
        if (vs?.asGood && asGood === null) asGood = `A current PLP NVMe does as well as Optane on ${pool.name}: ${e.product} is ${vs.text}; it is in production and sold new.`;
        return { product: `${e.product} (current alternative)`, capacityGb: null, why: `${rank}: ${forecast}${vs ? `; ${vs.text}` : ''}. In production, ${plp}, ${e.formFactor}, ${endurance} (${latency}).${price}` };
      })();
    return i === 0 && mirror.mirror
      ? [head, { product: `Second ${head.product}`, capacityGb: head.capacityGb, why: `To mirror the SLOG: ${mirror.why}.` }]
      : [head];
  });
  return { purchase, dropped, asGood, unpriced: worth.every((o) => priceClassOf(o.entry.price) === null) };
}

/**
 * The gain the headline states: measured where it can be, else the decision's range (per write at
 * QD1), never a point figure; where the pool's sustained ceiling holds the throughput down, it says
 * so beside the range (HeadlineGain).
 */
function headlineGainOf(a: Artifacts, v: PoolView): HeadlineGain {
  const w = v.qd1.with!;
  // The table's view (sustained IOPS over "now"): said beside the per-write range where the pool caps it.
  const now = v.nowQd1.iops;
  // Across "now"'s range too while it is the model's estimate, as the per-write range (forecast.ts gainSpread).
  const ends = v.qd1.now.deviceEnds;
  const table = now > 0 ? gainSpread(w.iops / now, w, ends ? { iops: now, fast: ends.fast, slow: ends.slow } : null) : null;
  const capped = w.latencyIops > w.iops * 1.05
    ? `; sustained, ${v.pool.name}'s data vdevs cap it at ~${fmt(w.iops)} sync IOPS${table ? `, ${rangeText(table)} over now` : ''}`
    : '';
  if (v.measured.measuredQd1 !== null) {
    return { kind: 'probe', value: null, ...v.gainRange, iodepth: 1, text: `${rangeText(v.gainRange)} faster per write at QD1 (forecast over the measured ${fmt(v.measured.measuredQd1)} sync writes/s${capped})` };
  }
  for (const f of [v.qd1, v.qd16]) {
    const p = measuredPair(v.zilTarget.kind, f, v.target);
    if (!p) continue;
    return {
      kind: 'measured-pair', value: p.gain, low: p.gain, high: p.gain, iodepth: f.workload.iodepth,
      text: `${formatGain(p.gain)} faster at QD${f.workload.iodepth}, measured before and after on a pool of the same shape (${fmt(p.before)} → ${fmt(p.after)} sync IOPS, ${mdLink('published test', sourceUrl(p.measurement.source))})`,
    };
  }
  const basis = v.measured.observed ? 'forecast range over the observed sync-write latency' : 'forecast range; "now" is a model estimate until measured';
  return { kind: 'range', value: null, ...v.gainRange, iodepth: 1, text: `${rangeText(v.gainRange)} faster per write at QD1 (${basis}${capped})` };
}

/** Unused flash (or unidentified) drives the blank-device test can measure, log candidates first (each with its newest test, as the candidates hold it). */
function deviceProbeOffers(a: Artifacts, v: PoolView): DeviceProbeOffer[] {
  const tested = new Map(v.inBox.flatMap((t) => (t.drive ? [[t.drive, t.candidate.measurement ?? null] as const] : [])));
  const rest = v.unused.filter((d) => !tested.has(d) && !isHdd(d));
  return [...tested.keys(), ...rest].map((d) => {
    const m = tested.has(d) ? tested.get(d)! : deviceMeasurement(a.Benchmarks, d);
    return {
      driveId: d.id, device: drivePath(d, a.Host), product: productName(d), sizeBytes: deviceProbeBytes(d),
      measured: m ? { runId: m.runId, startedAt: m.startedAt, iops: m.iops, latencyUs: m.latencyUs } : null, command: deviceProbeCommand(d, a.Host),
    };
  });
}

/** The decision's evidence for one pool (decide.ts), read from its sync-write evidence record. */
function decisionEvidence(v: PoolView, probe: string, host: Artifacts['Host']): DecisionEvidence {
  const lat = v.zil.latency;
  return {
    pool: v.pool.name,
    demand: v.demand.level,
    commitsPerSec: v.demand.commitsPerSec,
    commitsMatter: v.commitsMatter,
    measuredQd1Iops: v.measured.measuredQd1,
    observed: v.measured.observed ? { p50Ms: v.measured.observed.p50Ms, syncWriteIops: v.measured.observed.syncWriteIops } : null,
    zilHome: v.zil.home,
    zilClass: lat && v.zil.unresolved === 0 ? { label: lat.label, known: lat.known, typicalUs: lat.typicalUs, cls: lat.cls } : lat ? { label: lat.label, known: false, typicalUs: lat.typicalUs } : null,
    zilOnOptane: v.zil.drives.length > 0 && v.zil.drives.every(isOptane),
    candidate: {
      label: v.target.candidate.label, latencySource: v.targetLatency,
      // A drive of the box not measured yet: its blank-device test settles an uncertain gain.
      probe: v.target.drive && !v.target.candidate.measurement ? deviceProbeCommand(v.target.drive, host) : null,
    },
    gain: v.gain,
    gainRange: v.gainRange,
    // At QD1 one write waits 1000 / IOPS ms: "now"'s devices' range while it is the model's estimate (the range the gain carries).
    nowRange: v.qd1.now.deviceEnds ? { fastMs: 1000 / v.qd1.now.deviceEnds.latencyFast, slowMs: 1000 / v.qd1.now.deviceEnds.latencySlow } : null,
    probe,
  };
}

export function buildOptaneVerdict(a: Artifacts, assessment: Assessment | null): OptaneVerdict {
  const pools = a.Pools ?? [];
  const drives = a.Drives ?? [];
  const related = (assessment?.findings ?? []).filter((f) => RELATED_RULES.has(f.ruleId)).map((f) => ({ ruleId: f.ruleId, title: f.title, severity: f.severity }));
  const unknowns: OptaneVerdict['unknowns'] = [];
  if (!a.Pools) unknowns.push({ what: 'Pool layout (a capture with zpool status and zpool list -v)', howToMeasure: 'zfs-advisor capture ./zfs-capture' });
  if (!a.Drives) unknowns.push({ what: 'Device models (Optane? PLP?): smartctl -a -j per device, which a capture runs as root', howToMeasure: 'sudo zfs-advisor capture ./zfs-capture' });
  if (pools.length === 0) {
    return {
      verdict: 'depends', headline: 'No pool found: nothing to decide yet.', pool: null, reasons: ['The inventory has no pools.'], evidence: [], expected: null,
      candidates: [], purchase: [], layout: { commands: [], reversible: 'yes' }, unknowns, findings: related, confidence: 'low', deviceProbes: [], decisive: 'no pool', headlineGain: null,
    };
  }
  const views = pools.map((p) => poolSyncEvidence(a, p)).sort((x, y) => score(y) - score(x) || x.pool.name.localeCompare(y.pool.name));
  const v = views[0]!;
  const name = v.pool.name;
  const probe = probeCommand(name);
  const t = v.target;
  const mirror = mirrorAdvice(v);
  // A second drive of the box only where the rule asks for a mirror.
  const picked = v.logDrives;
  const nowBasis = v.measured.basis;
  const withBasis = v.qd1.with!.measured ?? t.candidate.profile.basis;
  const reasons: string[] = [...v.demand.reasons];
  const evidence: OptaneVerdict['evidence'] = [
    { label: 'pool', value: name },
    { label: 'ZIL written to', value: v.zil.home === 'log' ? 'log vdev (SLOG)' : v.zil.home === 'special' ? 'special vdev (2.4 zil_special_is_slog)' : 'data vdevs' },
    { label: 'ZIL device class', value: v.zil.latency?.label ?? 'unknown' },
    { label: 'sync-write evidence', value: v.demand.level },
    { label: 'ZIL commits/s', value: v.demand.commitsPerSec === null ? null : Math.round(v.demand.commitsPerSec * 100) / 100 },
    { label: 'measured QD1 sync IOPS', value: v.measured.measuredQd1 },
    // The probe's CPU per write: host time no log device removes (forecast.ts HostCpu).
    ...(v.measured.hostCpu ? [{ label: 'host CPU per sync write (µs)', value: Math.round(v.measured.hostCpu.usPerWrite) }] : []),
    // What the data vdevs write back at txg sync: the ceiling of many small writes, log device or not (measured-bandwidth.ts).
    ...(v.measured.bandwidth ? [{ label: 'measured write-back (MiB/s)', value: Math.round((v.measured.bandwidth.bytesPerSec / 2 ** 20) * 10) / 10 }] : []),
    ...(v.measured.observed ? [
      { label: 'observed sync-write latency p50 (ms)', value: v.measured.observed.p50Ms },
      { label: 'observed sync-write latency p99 (ms)', value: v.measured.observed.p99Ms },
      { label: 'observed sync-write IOPS', value: v.measured.observed.syncWriteIops === null ? null : Math.round(v.measured.observed.syncWriteIops * 10) / 10 },
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
    layout: picked.length >= 2 ? `mirror with the other candidate: ${mirror.short}` : mirror.mirror ? `single device, no second candidate in the box: buy a second one to attach as a mirror (${mirror.short})` : `single device: ${mirror.short}`,
  }));
  const devs = picked.length > 0 ? picked.map((d) => drivePath(d, a.Host)) : mirror.mirror ? [NEW_DEVICE(1, a.Host), NEW_DEVICE(2, a.Host)] : [NEW_DEVICE(1, a.Host)];
  const spec = devs.length === 2 ? `mirror ${devs.join(' ')}` : devs[0]!;
  const fopts: ForecastOptions = v.forecastOptions;
  // The devices to buy when the box has no candidate (picked is empty exactly then).
  const options = v.purchase ?? [];
  const bought = purchaseList(v.pool, options, mirror);
  const compared = picked.length > 0
    ? v.inBox.map((x) => ({ label: x.candidate.label, profile: x.candidate.profile }))
    : options.map((o) => ({ label: o.target.candidate.label.replace(' (to buy)', ''), profile: o.target.candidate.profile, qd1: o.qd1, qd16: o.qd16 }));
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
  const nowUnknown = v.measured.measuredQd1 === null && v.measured.observed === null && v.zilTarget.device.cls === 'unknown';
  const none = { commands: [] as string[], reversible: 'yes' as const };
  const demand = v.demanded;
  // One confidence for the verdict and the slog-benefit finding (forecast/confidence.ts).
  const withSource = withSourceOf(t.candidate.profile);
  const conf = forecastConfidence(v.measured.source, v.demand.level, withSource);
  const confReason = `${confidenceReason(v.measured.source, v.demand.level, withSource)}.`;
  const zilOnLog = v.zil.home === 'log';
  const d: Decision = decide(decisionEvidence(v, probe, a.Host));
  const decisive = d.fact;
  const factReason = `Decided by: ${d.fact}.`;
  // What the card proposes follows the decision: nothing when it says no device is worth it.
  const headlineGain = d.buy ? headlineGainOf(a, v) : null;
  const gainWordsHead = headlineGain?.text ?? `${rangeText(v.gainRange)} faster per write at QD1`;
  const purchase = d.buy ? bought.purchase : [];
  const buyReasons = !d.buy ? [] : [
    ...(purchase.length > 0 ? [`To buy, best first: ranked by forecast gain at QD1, then at QD16 (within 5 % counts as equal), then power-loss protection, endurance, in production before discontinued, then price class (one unit: low up to $${PRICE_BANDS.low}, mid up to $${PRICE_BANDS.mid}, high above; no published price last)${bought.unpriced ? '; none of these has a published price in our catalog, so price does not order them' : ''}.`] : []),
    ...(purchase.length > 0 && bought.asGood ? [bought.asGood] : []),
    ...(purchase.length > 0 && bought.dropped.length > 0 ? [`Not proposed, below ${MIN_BUY_GAIN}× even at the forecast's best: ${bought.dropped.join('; ')}.`] : []),
    // A drive of the box carries the same words in its own line (candidates[].layout).
    ...(picked.length === 0 ? [`Layout: ${mirror.mirror ? 'a mirror' : 'one device'}: ${mirror.why}.`] : []),
  ];
  const base = { pool: name, evidence, expected, candidates: d.buy ? candidates : [], purchase, findings: related, deviceProbes: deviceProbeOffers(a, v), headlineGain };
  if (v.measured.source === 'model') unknowns.push({ what: `Current sync-write latency of ${name} (the "now" figures are a model estimate)`, howToMeasure: probe });
  if (unmeasured) unknowns.push({ what: `Sync-write latency of ${t.candidate.label} itself (the "with" figures are its ${t.candidate.profile.matched === 'catalog' ? 'catalog figure' : 'class estimate'}; the blank-device test destroys its contents)`, howToMeasure: deviceProbeCommand(t.drive!, a.Host) });

  // Words rendered from the decision (decide.ts); nothing is decided below.
  // 1. No sync writes: a SLOG would sit idle.
  if (d.kind === 'no-sync-writes') {
    return {
      ...base, verdict: 'no', decisive, headline: `No: no sync writes on ${name} (gain 1×); a SLOG would sit idle.`,
      reasons: [...reasons, factReason, confReason, 'Async writes never touch the ZIL; a SLOG is not a write cache ([what the ZIL does](docs/kb/slog.md#what-the-zil-does)).'],
      layout: none, purchase: [], confidence: conf,
      unknowns: [...unknowns, { what: 'Was the window representative? Observe again during VM/NFS/database activity', howToMeasure: 'zfs-advisor observe --duration 30m' }],
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
      headline: `${name}'s SLOG (${v.zil.latency?.label ?? 'the current log device'})${observedText(v.measured.observed)} is slow for sync writes: ${t.candidate.label} would be ${gainWordsHead}. Remove the old log, then add the faster one.`,
      reasons: [...reasons, factReason, confReason, forecastReason, ...buyReasons, `Adding the new device beside the old one would stripe the ZIL across both and keep the slow one in the path; remove the old log vdev first (log vdevs can always be removed: ${factLink('A24')}).`],
      layout: replaceLayout, unknowns, confidence: conf,
    };
  }
  // 3. The ZIL already lands on something as fast as the candidate.
  if (d.verdict === 'no') {
    const headline = d.kind === 'already-optane' ? `${name} already writes its ZIL to Optane.`
      : d.kind === 'small-gain' ? `No: ${t.candidate.label} would be only ~${formatGain(v.gain)} faster per sync write on ${name}.`
      : d.kind === 'no-gain' ? `No: ${d.fact}; nothing on ${name} is worth buying for its ZIL.`
      : `${name} already has low-latency sync writes (${d.fact.replace(/: already fast$/, '')}); a SLOG would add little.`;
    return {
      ...base, verdict: 'no', decisive, headline,
      reasons: [...reasons, factReason, confReason, forecastReason],
      layout: none, purchase: [], unknowns, confidence: conf,
    };
  }
  const addLayout = !d.buy ? none : zilOnLog ? replaceLayout : { commands: [`zpool add -n ${name} log ${spec}`, `zpool add ${name} log ${spec}`], reversible: 'yes' as const };
  const buyWhat = t.candidate.label.replace(' (to buy)', '');
  const where = t.drive ? `${t.candidate.label}, already in the box and unused,` : t.candidate.profile.status === 'discontinued' ? `a ${buyWhat} (to buy; it is discontinued, see below)` : `a ${buyWhat} (to buy, see below)`;
  // 4. Sync writes configured, counted or observed on a slow ZIL path: yes.
  if (d.verdict === 'yes') {
    const how = v.demand.level === 'observed' ? `does sync writes${observedText(v.measured.observed)}`
      : v.demand.level === 'counters' ? `commits to its ZIL${v.demand.commitsPerSec !== null ? ` (${v.demand.commitsPerSec >= 10 ? Math.round(v.demand.commitsPerSec) : v.demand.commitsPerSec.toFixed(1)} commits/s since boot)` : ''}`
      : `forces sync writes (${[...v.demand.syncAlwaysDatasets.map((d) => `${d} sync=always`), ...v.demand.zvols.map((z) => `zvol ${z}`)].slice(0, 3).join(', ')})`;
    const headline = d.kind === 'measured-slow' && v.measured.measuredQd1 !== null
      ? `Yes: ${name} ${d.fact}; a SLOG on ${where} would make them ${gainWordsHead}.`
      : `${name} ${how} on ${v.zil.latency?.label ?? 'slow devices'}; a SLOG on ${where} would make them ${gainWordsHead}.`;
    return {
      ...base, verdict: 'yes', decisive, headline,
      reasons: [...reasons, factReason, confReason, forecastReason, ...buyReasons],
      layout: addLayout, unknowns, confidence: conf,
    };
  }
  // 5. Evidence missing: depends. Ask only for what the app does not hold yet (the newest probe and observation are read above).
  if (!demand) unknowns.push({ what: `Does ${name} receive sync writes, and how many per second? Observe during normal use`, howToMeasure: 'zfs-advisor observe --duration 10m' });
  const toRun = [
    ...(v.measured.measuredQd1 === null ? [`\`${probe}\` (guarded, on a throw-away dataset)`] : []),
    ...(a.Workload === undefined ? ['`zfs-advisor observe --duration 10m`'] : []),
  ];
  const headline = d.kind === 'measure-first' ? `Measure first: ${d.fact}.`
    : d.kind === 'slow-small-gain' || d.kind === 'gain-uncertain' ? `It depends: ${d.fact}.`
    : d.kind === 'no-gain' ? `It depends, but nothing is worth buying: ${d.fact}.`
    : nowUnknown ? `It depends on ${name}'s sync writes. Measure first: its devices are not identified.` : `It depends on ${name}'s sync writes. If they happen, expect ${gainWordsHead}: ${gainText}.`;
  const settle = d.measure && d.kind === 'gain-uncertain' && !toRun.some((x) => x.includes(d.measure!)) ? [`Run \`${d.measure}\` to settle it.`] : [];
  return {
    ...base, verdict: 'depends', decisive, headline,
    reasons: [...reasons, factReason, confReason, forecastReason, ...buyReasons, ...settle, ...(toRun.length > 0 ? [`Run ${toRun.join(' and ')} to decide.`] : [])],
    layout: addLayout, unknowns, confidence: conf,
  };
}

/**
 * The device catalog (device-catalog.json): what a log device or a data-vdev medium costs per
 * synchronous write, per product family, each figure with its source or labelled a class
 * estimate. Matching is by model text — a smartctl model string ("INTEL SSDPEK1A058GA") or what
 * a person types ("Samsung 980", "Micron 7450 PRO"). A text it does not know falls back to a
 * class (from the Drive's media/PLP classification when there is a Drive) with a wide range that
 * says it is an estimate.
 */
import { z } from 'zod';
import raw from './device-catalog.json' with { type: 'json' };
import type { Drive } from '../model/inventory.ts';
import { mdLink } from './cite.ts';
import { formatLatencyUs, formatRange } from '../text/format.ts';
import { isHdd, isNvme, isOptane, normaliseModel, qlcOrDramless, syncWriteLatency } from '../../../rules/lib/device-class.ts';
import { classifyModelText, virtualDrive } from './device-text.ts';

const Figure = z.object({
  typical: z.number().positive(),
  low: z.number().positive(),
  high: z.number().positive(),
  kind: z.enum(['measured', 'spec', 'secondary', 'class-estimate']),
  source: z.string().nullable().optional(),
  quote: z.string().optional(),
  reasoning: z.string().optional(),
}).refine((f) => f.low <= f.typical && f.typical <= f.high, 'low ≤ typical ≤ high')
  .refine((f) => f.kind === 'class-estimate' ? Boolean(f.reasoning) : Boolean(f.source && f.quote), 'a sourced figure needs source + quote; an estimate needs reasoning');
export type Figure = z.infer<typeof Figure>;

const PoolShapeKey = z.object({ layout: z.string(), vdevs: z.number(), width: z.number(), media: z.string() });
const SlogMeasurement = z.object({
  id: z.string(), bs: z.number(), iodepth: z.number(), numjobs: z.number(), iops: z.number().positive(),
  /** The same pool and workload measured by the same source without the log device, when published: a measured before/after pair. */
  before: z.object({ iops: z.number().positive(), quote: z.string() }).optional(),
  pool: PoolShapeKey, source: z.string(), quote: z.string(),
});
export type SlogMeasurement = z.infer<typeof SlogMeasurement>;

export const DEVICE_CLASSES = ['optane-dc', 'optane-consumer', 'plp-nvme', 'plp-sata', 'consumer-nvme', 'consumer-nvme-dramless', 'consumer-sata', 'qlc-sata', 'hdd', 'virtual', 'unknown'] as const;
export type DeviceClassId = (typeof DEVICE_CLASSES)[number];

const ClassInfo = z.object({
  label: z.string(),
  syncWrite4kUs: Figure,
  syncWriteMBps: Figure,
});

/**
 * A price the catalog rests a price class on: one published figure, never a guess. `kind`:
 * 'launch-rcp' (the vendor's launch or recommended customer price), 'retail' (a dated retailer
 * listing or review's price), 'user-reported' (a buyer's own figure in a public thread). Prices are
 * USD at `date` (not adjusted); `capacityGb` is the unit the price is for.
 */
export const PriceSource = z.object({
  usd: z.number().positive(),
  capacityGb: z.number().positive(),
  kind: z.enum(['launch-rcp', 'retail', 'user-reported']),
  date: z.string().regex(/^\d{4}-\d{2}(-\d{2})?$/, 'date as YYYY-MM or YYYY-MM-DD'),
  url: z.string().regex(/^https?:\/\/\S+$/, 'an address a reader can open'),
  quote: z.string().min(10, 'the words of the source that state the price'),
}).strict();
export type PriceSource = z.infer<typeof PriceSource>;

export const PRICE_CLASSES = ['low', 'mid', 'high'] as const;
export type PriceClass = (typeof PRICE_CLASSES)[number];

const PriceBands = z.object({
  /** A unit price up to `low` USD is "low", up to `mid` "mid", above it "high". */
  low: z.number().positive(),
  mid: z.number().positive(),
  reasoning: z.string().min(10),
}).refine((b) => b.low < b.mid, 'low < mid');

const Entry = z.object({
  id: z.string(),
  product: z.string(),
  vendor: z.string(),
  class: z.enum(DEVICE_CLASSES),
  match: z.array(z.string()).min(1),
  interface: z.string(),
  formFactor: z.string(),
  plp: z.enum(['capacitor', 'no-volatile-cache', 'none']),
  status: z.enum(['in-production', 'discontinued']),
  syncWrite4kUs: Figure,
  syncWriteMBps: Figure,
  endurance: z.object({ dwpd: z.number().nullable(), tbw: z.number().nullable(), source: z.string().nullable(), note: z.string() }),
  slogMeasurements: z.array(SlogMeasurement).optional(),
  /** The published price its price class rests on; null: no source found (the card then says nothing of its price, and its reasons say once that price did not order the list). */
  price: PriceSource.nullable().optional(),
  note: z.string(),
});
export type CatalogEntry = z.infer<typeof Entry>;

export const CatalogEntrySchema = Entry;

const Catalog = z.object({
  _meta: z.object({ priceBands: PriceBands }).passthrough(),
  sources: z.record(z.string(), z.string()),
  classes: z.record(z.enum(DEVICE_CLASSES), ClassInfo),
  entries: z.array(Entry),
});

export const CATALOG = Catalog.parse(raw);

/** The bands of device-catalog.json `_meta.priceBands`. */
export const PRICE_BANDS = CATALOG._meta.priceBands;

/** An entry's price class from its published price (`_meta.priceBands`), or null when no price is known. */
export function priceClassOf(price: PriceSource | null | undefined): PriceClass | null {
  if (!price) return null;
  return price.usd <= PRICE_BANDS.low ? 'low' : price.usd <= PRICE_BANDS.mid ? 'mid' : 'high';
}
const PATTERNS = CATALOG.entries.map((e) => ({ e, res: e.match.map((m) => new RegExp(m)) }));

/** A source key's public address (or the key itself when it names a project reference). */
export const sourceUrl = (key: string | null | undefined): string | null => (key ? CATALOG.sources[key] ?? key : null);

/** What the forecast knows about one device: its figures and where they come from. */
export interface DeviceProfile {
  /** Catalog entry id, or `class:<id>` for a class estimate. */
  id: string;
  product: string;
  cls: DeviceClassId;
  classLabel: string;
  /** 'measured': figures measured on this host (a benchmark or an observation), not catalog or class. */
  matched: 'catalog' | 'class' | 'measured';
  lat4kUs: Figure;
  mbps: Figure;
  status: CatalogEntry['status'] | null;
  plp: CatalogEntry['plp'] | null;
  slogMeasurements: SlogMeasurement[];
  /** One sentence: which entry and which source, or which class and why. */
  basis: string;
}

/** A source's web address as a link named by its site ("[example.org](https://www.example.org/…)"). */
export function siteLink(url: string): string {
  return mdLink(new URL(url).hostname.replace(/^www\./, ''), url);
}

/** A latency figure in µs as every view writes latencies: "12 ms (5–15 ms)". */
function figureText(f: Figure): string {
  const v = `${formatLatencyUs(f.typical)} (${formatRange(f.low, f.high, formatLatencyUs)})`;
  if (f.kind === 'class-estimate') return `${v}, class estimate: ${(f.reasoning ?? '').replace(/\.$/, '')}`;
  const url = sourceUrl(f.source);
  return `${v}, ${f.kind}: ${url && /^https?:/.test(url) ? siteLink(url) : url}`;
}

export function profileForEntry(e: CatalogEntry): DeviceProfile {
  const cls = CATALOG.classes[e.class];
  return {
    id: e.id, product: e.product, cls: e.class, classLabel: cls.label, matched: 'catalog', lat4kUs: e.syncWrite4kUs, mbps: e.syncWriteMBps,
    status: e.status, plp: e.plp, slogMeasurements: e.slogMeasurements ?? [],
    basis: `device catalog "${e.product}": 4 KiB sync write ${figureText(e.syncWrite4kUs)}`,
  };
}

export function classProfile(cls: DeviceClassId, why: string): DeviceProfile {
  const c = CATALOG.classes[cls];
  return {
    id: `class:${cls}`, product: c.label, cls, classLabel: c.label, matched: 'class', lat4kUs: c.syncWrite4kUs, mbps: c.syncWriteMBps,
    status: null, plp: null, slogMeasurements: [],
    basis: `class estimate "${c.label}" (${why}): 4 KiB sync write ${figureText(c.syncWrite4kUs)}`,
  };
}

/** The catalog entry a model text names, or null. */
export function findEntry(text: string | null | undefined): CatalogEntry | null {
  const m = normaliseModel(text);
  if (!m) return null;
  // A large host has hundreds of drives of a few models, each looked up per forecast.
  const hit = entryByModel.get(m);
  if (hit !== undefined) return hit;
  const e = PATTERNS.find((p) => p.res.some((r) => r.test(m)))?.e ?? null;
  if (entryByModel.size > 4096) entryByModel.clear();
  entryByModel.set(m, e);
  return e;
}
const entryByModel = new Map<string, CatalogEntry | null>();

/**
 * Free text with no catalog entry: the class its words name (device-text.ts: interface, PCIe
 * generation, families, virtual disks and LUNs), with a wide range; "unknown" when they name none.
 */
function classFromText(text: string): { cls: DeviceClassId; why: string } {
  const m = normaliseModel(text);
  if (/OPTANE/.test(m)) return { cls: 'optane-consumer', why: `"${text}" names Optane but no known model` };
  if (/ZEUSRAM|PERSISTENT MEMORY|PMEM|RAM ?DISK|NVDIMM/.test(m)) return { cls: 'optane-dc', why: `"${text}" is RAM- or persistent-memory-backed: assumed at least as fast as data-centre Optane` };
  const t = classifyModelText(text);
  if (t) return { cls: t.cls, why: t.why };
  if (/QLC|QVO/.test(m)) return { cls: 'qlc-sata', why: `"${text}" names QLC` };
  if (/SATA|SAS/.test(m) && /ENTERPRISE|\bPLP\b|POWER.LOSS/.test(m)) return { cls: 'plp-sata', why: `"${text}" names an enterprise SATA/SAS drive` };
  return { cls: 'unknown', why: `"${text}" is not in the device catalog` };
}

/** A device named by the user (`--slog-model "…"`). */
export function profileForText(text: string): DeviceProfile {
  const e = findEntry(text);
  if (e) return profileForEntry(e);
  const g = classFromText(text);
  return classProfile(g.cls, g.why);
}

/**
 * The class a Drive falls in when its model is not in the catalog (rules/lib/device-class.ts),
 * with why: a virtual disk or LUN first (Linux calls most of them rotational, device-text.ts),
 * then the drive's media and PLP classification, then the words of its model text.
 */
function classForDrive(d: Drive): { cls: DeviceClassId; why: string } {
  const v = virtualDrive(d);
  if (v) return { cls: 'virtual', why: v.why };
  const basis = syncWriteLatency(d).basis;
  const of = (cls: DeviceClassId) => ({ cls, why: basis });
  if (isHdd(d)) return of('hdd');
  if (isOptane(d)) return of(syncWriteLatency(d).cls === 'optane-dc' ? 'optane-dc' : 'optane-consumer');
  const cheap = qlcOrDramless(d);
  if (cheap) return of(isNvme(d) ? 'consumer-nvme-dramless' : 'qlc-sata');
  switch (syncWriteLatency(d).cls) {
    case 'plp-nvme': return of('plp-nvme');
    case 'plp-sata': return of('plp-sata');
    case 'consumer-flash': {
      // The model's words may say more than "an SSD without known PLP" (a DRAM-less family, an enterprise line).
      const t = classifyModelText(d.model);
      if (t && t.cls !== 'hdd' && t.cls !== 'virtual' && (t.interface === 'nvme') === isNvme(d)) return { cls: t.cls, why: t.why };
      return of(isNvme(d) ? 'consumer-nvme' : 'consumer-sata');
    }
    default: {
      const t = classifyModelText(d.model);
      return t ? { cls: t.cls, why: t.why } : of('unknown');
    }
  }
}

/** A drive of the inventory: its catalog entry by model, else its class. */
export function profileForDrive(d: Drive): DeviceProfile {
  const kept = profileByDrive.get(d);
  if (kept) return kept;
  const e = findEntry(d.model);
  const c = e ? null : classForDrive(d);
  const p = e ? profileForEntry(e) : classProfile(c!.cls, `${d.model ?? `${d.devPath ?? d.id} (no model reported)`}: not in the catalog; ${c!.why.replace(/\.$/, '')}`);
  profileByDrive.set(d, p);
  return p;
}
/** Per drive object of an inventory (a drive's profile does not change while it is read). */
const profileByDrive = new WeakMap<Drive, DeviceProfile>();

/** Catalog entries of current, in-production PLP NVMe drives: what to buy when Optane cannot be had. */
export const currentPlpNvme = (): CatalogEntry[] => CATALOG.entries.filter((e) => e.class === 'plp-nvme' && e.status === 'in-production');

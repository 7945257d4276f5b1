/**
 * Device classification for the rules: what kind of device a `Drive` is (HDD / SATA-SAS SSD /
 * NVMe / Optane / a virtual disk or LUN), whether it protects flushed data on power loss (PLP) and on what basis, whether
 * it is a known consumer QLC or DRAM-less model, and which sync-write latency class it belongs to.
 *
 * Why latency classes and not just "SSD": a SLOG's value is its flush latency (zfs-facts A19, E1,
 * E2). A consumer NAND SSD without PLP is an SSD and still a slow SLOG (ms flushes, E1, G3); a PLP
 * drive is safe but PLP alone does not make it fast (E3). So every rule that picks or judges a
 * device for a sync or metadata role goes through `syncWriteLatency()`.
 *
 * Virtual disks and LUNs (QEMU, virtio, VMware, Hyper-V, iSCSI/LIO, SAN arrays) are a class of
 * their own: Linux calls most of them rotational, but a flush to one goes through a hypervisor or a
 * network to storage this host cannot see, so they are neither "hard disk" nor "fast" here — their
 * latency is unknown until measured. What the model text says (virtual, NVMe/SATA/SAS, families) is
 * read by one classifier, server/src/forecast/device-text.ts, which the forecast's catalog reads too.
 *
 * Pure functions; everything is computed from the Drive the inventory built.
 */
import type { Drive } from '../../server/src/model/inventory.ts';
import { classifyModelText, virtualDrive, type TextClass } from '../../server/src/forecast/device-text.ts';

// ---------------------------------------------------------------------------------------------
// Media
// ---------------------------------------------------------------------------------------------

/** Strip vendor noise so patterns match smartctl, nvme-cli and lsblk spellings alike. */
export function normaliseModel(model: string | null | undefined): string {
  return (model ?? '').replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toUpperCase();
}

/**
 * A virtual disk or LUN, with what said so (device-text.ts: the model text, or a virtio/Xen block
 * device that reports itself rotational); null for a real drive or when nothing says so.
 */
export function virtualDisk(d: Drive): TextClass | null {
  if (virtualByDrive.has(d)) return virtualByDrive.get(d)!;
  const v = d.media === 'file' ? null : virtualDrive(d);
  virtualByDrive.set(d, v);
  return v;
}
/**
 * Per drive object (as the forecast's catalog keeps its profiles): every rule asks isHdd/isSsd/
 * syncWriteLatency of the same drives, each of which reads the model text, and a drive of an
 * inventory does not change while the rules read it.
 */
const virtualByDrive = new WeakMap<Drive, TextClass | null>();
const textByDrive = new WeakMap<Drive, TextClass | null>();

export const isVirtual = (d: Drive): boolean => virtualDisk(d) !== null;

/** What the model text alone says about a real drive (interface, PCIe generation, family); null for a virtual one or a text that names nothing. */
export function modelTextClass(d: Drive): TextClass | null {
  if (textByDrive.has(d)) return textByDrive.get(d)!;
  const c = classifyModelText(d.model);
  const t = c && c.cls !== 'virtual' ? c : null;
  textByDrive.set(d, t);
  return t;
}

/**
 * Spinning disk: media = hdd, or (media unknown) a model text that names a hard disk, else a
 * rotational flag or a known rpm. Never a virtual disk or LUN (Linux calls those rotational too).
 */
export function isHdd(d: Drive): boolean {
  if (isVirtual(d)) return false;
  if (d.media === 'hdd') return true;
  if (d.media !== 'unknown') return false; // ssd / nvme / file said so explicitly
  const t = modelTextClass(d);
  if (t) return t.cls === 'hdd';
  return d.rotational === true || (d.rpm !== null && d.rpm > 0);
}

/** NVMe transport or media, or (media unknown) a model text that names NVMe. A QEMU NVMe is NVMe here and virtual for its latency. */
export function isNvme(d: Drive): boolean {
  if (d.media === 'nvme' || d.transport === 'nvme') return true;
  return d.media === 'unknown' && modelTextClass(d)?.interface === 'nvme';
}

/** Any flash device (SATA/SAS SSD or NVMe, Optane included). A virtual disk is not known to be flash. */
export function isSsd(d: Drive): boolean {
  if (isVirtual(d) || isHdd(d)) return false;
  if (d.media === 'ssd' || isNvme(d)) return true;
  if (d.media === 'unknown' && modelTextClass(d)) return true; // a non-hdd text class is a flash class
  return d.rotational === false;
}

/** How to measure a device's sync-write latency: on its pool when it is in one, else the blank device itself (the guarded probe). */
export function measureCommand(d: Drive, pool?: string | null): string {
  return pool
    ? `zfs-advisor bench sync-write-4k-qd1 --pool ${pool}`
    : `zfs-advisor bench sync-write-4k-qd1 --device ${d.byIdPath ?? d.devPath ?? d.id} --confirm-serial ${d.serial ?? '<serial>'}`;
}

// ---------------------------------------------------------------------------------------------
// Optane
// ---------------------------------------------------------------------------------------------

/**
 * Intel Optane model-number families (zfs-facts E7; optane-models.json). Matched by prefix after
 * an optional "INTEL " because OEM suffixes vary. Used when the inventory did not already attach
 * `Drive.optane` (e.g. a model string the table lacks but whose family is known).
 */
export const OPTANE_FAMILIES: ReadonlyArray<{ prefix: string; family: string; datacenter: boolean }> = [
  { prefix: 'MEMPEK1W', family: 'Optane Memory', datacenter: false },
  { prefix: 'MEMPEK1J', family: 'Optane Memory M10', datacenter: false },
  { prefix: 'SSDPEK1W', family: 'Optane SSD 800P', datacenter: false },
  { prefix: 'SSDPEK1A', family: 'Optane SSD P1600X', datacenter: true },
  { prefix: 'SSDPED1D', family: 'Optane SSD 900P/905P (AIC)', datacenter: false },
  { prefix: 'SSDPE21D', family: 'Optane SSD 900P/905P (U.2)', datacenter: false },
  { prefix: 'SSDPEL1D', family: 'Optane SSD 905P (M.2 22110)', datacenter: false },
  { prefix: 'SSDPED1K', family: 'Optane SSD DC P4800X (AIC)', datacenter: true },
  { prefix: 'SSDPE21K', family: 'Optane SSD DC P4800X/P4801X (U.2)', datacenter: true },
  { prefix: 'SSDPEL1K', family: 'Optane SSD DC P4801X (M.2)', datacenter: true },
  { prefix: 'SSDPD21K', family: 'Optane SSD DC D4800X', datacenter: true },
  { prefix: 'SSDPF21Q', family: 'Optane SSD DC P5800X', datacenter: true },
];

/** H10 = a small Optane cache glued to a QLC drive: not an Optane device for our purposes (optane-models.json). */
const OPTANE_H10_PREFIX = 'HBRPEKNX';

export function optaneFamily(d: Drive): { family: string; datacenter: boolean } | null {
  const m = normaliseModel(d.model).replace(/^INTEL /, '');
  if (m.startsWith(OPTANE_H10_PREFIX)) return null;
  const f = OPTANE_FAMILIES.find((x) => m.startsWith(x.prefix));
  if (f) return { family: f.family, datacenter: f.datacenter };
  if (d.optane) return { family: d.optane.product, datacenter: d.optane.plp === true };
  return null;
}

/** True for Intel Optane / 3D XPoint devices (not the H10 hybrid). */
export function isOptane(d: Drive): boolean {
  if (d.optane && !normaliseModel(d.model).replace(/^INTEL /, '').startsWith(OPTANE_H10_PREFIX)) return true;
  return optaneFamily(d) !== null;
}

/** Product name for display: the table's product, else the family, else the model. */
export function productName(d: Drive): string {
  return d.optane?.product ?? optaneFamily(d)?.family ?? d.model ?? d.id;
}

// ---------------------------------------------------------------------------------------------
// Power-loss protection
// ---------------------------------------------------------------------------------------------

export type PlpKind =
  /** Capacitor-backed PLP of a data-centre drive: flushes complete at once. */
  | 'capacitor'
  /** No volatile write cache (3D XPoint writes in place): needs no PLP (zfs-facts E5). */
  | 'no-volatile-cache'
  /** Consumer firmware protects *flushed* data only; flush latency stays consumer-grade (E3, G3). */
  | 'firmware-flushed-only';

export interface PlpAssessment {
  plp: 'yes' | 'no' | 'unknown';
  kind: PlpKind | null;
  /** One sentence: why we believe it, naming the source. */
  basis: string;
}

/** One human value for "power-loss protection" that never contradicts the latency class. */
export function plpSummary(p: PlpAssessment): string {
  if (p.plp === 'yes') {
    if (p.kind === 'capacitor') return 'yes (capacitor-backed)';
    if (p.kind === 'no-volatile-cache') return 'not needed (no volatile write cache)';
    if (p.kind === 'firmware-flushed-only') return 'partial: firmware protects flushed data only';
    return 'yes';
  }
  return p.plp;
}

/**
 * OpenZFS's non-exhaustive PLP list (zfs-facts E10, docs "Performance and Tuning/Hardware"),
 * as model-string patterns. Each pattern names the product it stands for.
 */
export const PLP_MODELS: ReadonlyArray<{ pattern: RegExp; product: string; kind: PlpKind }> = [
  // NVMe
  { pattern: /^INTEL SSDPE2MW|^INTEL SSDPEDMW/, product: 'Intel 750', kind: 'capacitor' },
  { pattern: /^INTEL SSDPE2MX|^INTEL SSDPEDMX/, product: 'Intel DC P3500/P3520', kind: 'capacitor' },
  { pattern: /^INTEL SSDPE2ME|^INTEL SSDPEDME/, product: 'Intel DC P3600', kind: 'capacitor' },
  { pattern: /^INTEL SSDPECME/, product: 'Intel DC P3608', kind: 'capacitor' },
  { pattern: /^INTEL SSDPE2MD|^INTEL SSDPEDMD/, product: 'Intel DC P3700', kind: 'capacitor' },
  { pattern: /^INTEL SSDPE2KX|^INTEL SSDPE2KE|^INTEL SSDPE7KX/, product: 'Intel DC P4500/P4510/P4610', kind: 'capacitor' },
  { pattern: /^KINGSTON SEDC1000B/, product: 'Kingston DC1000B', kind: 'capacitor' },
  { pattern: /^MICRON 7300|^MICRON 7400|^MICRON 7450|^MTFDHBE|^MTFDHBG/, product: 'Micron 7300/7400/7450', kind: 'capacitor' },
  { pattern: /^MICRON 9300|^MICRON 9200|^MTFDHAL/, product: 'Micron 9200/9300 (data-centre NVMe)', kind: 'capacitor' },
  { pattern: /^SAMSUNG MZQLW|^SAMSUNG PM963/, product: 'Samsung PM963', kind: 'capacitor' },
  { pattern: /^SAMSUNG MZPLL|^SAMSUNG MZWLL|^SAMSUNG PM1725/, product: 'Samsung PM1725/PM1725a', kind: 'capacitor' },
  { pattern: /XS1715/, product: 'Samsung XS1715', kind: 'capacitor' },
  { pattern: /ZD6300/, product: 'Toshiba ZD6300', kind: 'capacitor' },
  { pattern: /NYTRO 5000|^XP1920LE/, product: 'Seagate Nytro 5000', kind: 'capacitor' },
  { pattern: /^HUSMR|^HUSPR/, product: 'HGST Ultrastar SN100/SN200', kind: 'capacitor' },
  // SAS
  { pattern: /PM1633|^SAMSUNG MZILS/, product: 'Samsung PM1633/PM1633a', kind: 'capacitor' },
  { pattern: /SM1625/, product: 'Samsung SM1625', kind: 'capacitor' },
  { pattern: /PM853T|^SAMSUNG MZ7GE/, product: 'Samsung PM853T', kind: 'capacitor' },
  { pattern: /^TOSHIBA PX0[45]/, product: 'Toshiba PX04/PX05', kind: 'capacitor' },
  // SATA
  { pattern: /^INTEL SSDSA2CW|^INTEL SSDSA1NW/, product: 'Intel 320', kind: 'capacitor' },
  { pattern: /^INTEL SSDSA2BZ/, product: 'Intel 710', kind: 'capacitor' },
  { pattern: /^INTEL SSDSC2BB|^INTEL SSDSC2BA|^INTEL SSDSC2BX|^INTEL SSDSC2KB|^INTEL SSDSC2KG/, product: 'Intel DC S3500/S3510/S3610/S3700/S3710/S4500/S4600', kind: 'capacitor' },
  { pattern: /^KINGSTON SEDC500/, product: 'Kingston DC500R/DC500M', kind: 'capacitor' },
  { pattern: /^MICRON 5210|^MICRON 5200|^MICRON 5300/, product: 'Micron 5200/5210/5300', kind: 'capacitor' },
  { pattern: /PM863|^SAMSUNG MZ7LM/, product: 'Samsung PM863/PM863a', kind: 'capacitor' },
  { pattern: /SM843T|SM863|^SAMSUNG MZ7KM/, product: 'Samsung SM843T/SM863/SM863a', kind: 'capacitor' },
  { pattern: /845DC/, product: 'Samsung 845DC EVO/PRO', kind: 'capacitor' },
  { pattern: /^TOSHIBA THNSN|^TOSHIBA HK[34]/, product: 'Toshiba HK3/HK4', kind: 'capacitor' },
  // Consumer drives OpenZFS lists, whose firmware protects flushed data only (E3; G3: not "PLP" for speed).
  { pattern: /^INTEL SSDSC2BP/, product: 'Intel 730', kind: 'firmware-flushed-only' },
  { pattern: /^(CRUCIAL )?CT\d+(MX100|MX200|MX300|M500|M550|M600)|^MICRON M600/, product: 'Crucial MX100/MX200/MX300/M500/M550/M600', kind: 'firmware-flushed-only' },
];

export function plpModel(d: Drive): (typeof PLP_MODELS)[number] | null {
  const m = normaliseModel(d.model);
  return PLP_MODELS.find((p) => p.pattern.test(m)) ?? null;
}

/** A classifier's reason as the start of a sentence: first letter up, no full stop. */
const sentence = (why: string): string => why.charAt(0).toUpperCase() + why.slice(1).replace(/\.$/, '');

/** PLP with its basis. Order: Optane table → inventory's own finding → OpenZFS PLP list → known consumer QLC/DRAM-less → unknown. */
export function powerLossProtection(d: Drive): PlpAssessment {
  const v = virtualDisk(d);
  if (v) return { plp: 'unknown', kind: null, basis: 'A virtual disk or LUN: whether a flushed write survives power loss is up to the storage behind it, which this host cannot see.' };
  if (isHdd(d)) {
    return { plp: 'unknown', kind: null, basis: 'Hard disk: PLP does not apply; its flush latency is set by rotation and seek ([FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683)).' };
  }
  if (isOptane(d)) {
    const dc = d.optane ? d.optane.plp === true : optaneFamily(d)?.datacenter === true;
    return dc
      ? { plp: 'yes', kind: 'capacitor', basis: `${productName(d)}: data-centre Optane with power-loss protection ([OpenZFS docs: Hardware](https://openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Hardware.html)).` }
      : { plp: 'yes', kind: 'no-volatile-cache', basis: `${productName(d)}: 3D XPoint has no volatile write cache; OpenZFS: Optane needs no PLP circuitry ([OpenZFS docs: Hardware](https://openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Hardware.html), the Optane model table: "near").` };
  }
  if (d.powerLossProtection === 'yes') {
    const listed = plpModel(d);
    return { plp: 'yes', kind: listed?.kind ?? 'capacitor', basis: `Reported by the inventory (${d.sources.join(', ') || 'collector'}).` };
  }
  if (d.powerLossProtection === 'no') {
    return { plp: 'no', kind: null, basis: `Reported by the inventory (${d.sources.join(', ') || 'collector'}).` };
  }
  const listed = plpModel(d);
  if (listed) {
    return listed.kind === 'firmware-flushed-only'
      ? { plp: 'yes', kind: listed.kind, basis: `${listed.product}: on OpenZFS's PLP list, but the firmware protects flushed data only; flush latency stays consumer-grade ([OpenZFS docs: Hardware](https://openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Hardware.html)).` }
      : { plp: 'yes', kind: listed.kind, basis: `${listed.product}: on OpenZFS's list of drives with power-loss protection ([OpenZFS docs: Hardware](https://openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Hardware.html)).` };
  }
  const cheap = qlcOrDramless(d);
  if (cheap) {
    return { plp: 'no', kind: null, basis: `${cheap.product}: consumer ${cheap.kind} drive; consumer drives of this class have no power-loss protection ([OpenZFS docs: Hardware](https://openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Hardware.html)).` };
  }
  // A family the model text names (device-text.ts): data-centre lines have capacitor PLP, the named consumer lines none.
  const t = modelTextClass(d);
  if (t?.family) {
    if (t.cls === 'plp-nvme' || t.cls === 'plp-sata') return { plp: 'yes', kind: 'capacitor', basis: `${sentence(t.why)} (model text; not on OpenZFS's list).` };
    if (t.cls === 'consumer-nvme' || t.cls === 'consumer-nvme-dramless') return { plp: 'no', kind: null, basis: `${sentence(t.why)} (model text).` };
  }
  return { plp: 'unknown', kind: null, basis: 'Model not in the OpenZFS PLP list or the Optane table; check the vendor datasheet for "power loss protection".' };
}

// ---------------------------------------------------------------------------------------------
// Consumer QLC / DRAM-less
// ---------------------------------------------------------------------------------------------

export interface CheapFlashMatch {
  product: string;
  kind: 'QLC' | 'DRAM-less' | 'QLC, DRAM-less';
  /** Where the fact comes from (review or datasheet URL, or a zfs-facts locator). */
  source: string;
}

/**
 * Known consumer QLC and DRAM-less models by model-string pattern (smartctl/nvme-cli spelling).
 * Why these matter: once the SLC cache is exhausted QLC writes fall to HDD-like speed with low
 * endurance (zfs-facts E8); DRAM-less drives keep their mapping table in flash or host memory and
 * collapse under small random writes — exactly the SLOG/special pattern. Bills of materials of
 * some budget lines change silently (Kingston NV1/NV2), so a match says "known to ship as".
 */
export const CHEAP_FLASH_MODELS: ReadonlyArray<{ pattern: RegExp } & CheapFlashMatch> = [
  { pattern: /^SAMSUNG SSD 860 QVO/, product: 'Samsung 860 QVO', kind: 'QLC', source: 'https://techreport.com/review/34266/crucial-p1-500-gb-qlc-nvme-ssd-reviewed (860 QVO named as the first QLC SATA SSD); AnandTech 870 QVO review (https://www.anandtech.com/show/15887)' },
  { pattern: /^SAMSUNG SSD 870 QVO/, product: 'Samsung 870 QVO', kind: 'QLC', source: 'https://www.techpowerup.com/review/samsung-870-qvo-1-tb/single-page.html (96-layer QLC V-NAND, has a DRAM cache)' },
  { pattern: /^(CRUCIAL[ _])?CT\d+P1SSD8/, product: 'Crucial P1', kind: 'QLC', source: 'https://techreport.com/review/34266/crucial-p1-500-gb-qlc-nvme-ssd-reviewed' },
  { pattern: /^(CRUCIAL[ _])?CT\d+P3P?SSD8/, product: 'Crucial P3 / P3 Plus', kind: 'QLC, DRAM-less', source: 'https://www.pgrid.app/au/ssds/crucial-p3-1000gb (Phison E21T, Micron 176L QLC, no DRAM, HMB)' },
  { pattern: /^(CRUCIAL[ _])?CT\d+BX500SSD1/, product: 'Crucial BX500', kind: 'DRAM-less', source: 'https://www.tomshardware.co.uk/crucial-bx500-ssd,review-34683.html (SM2258XT, no DRAM); later units ship with QLC (https://jweasytech.com/2021/04/16/crucial-bx500-sata-ssd-review/)' },
  { pattern: /^INTEL SSDPEKNW\d+T8/, product: 'Intel SSD 660p', kind: 'QLC', source: '[OpenZFS docs: Hardware](https://openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Hardware.html) (AnandTech 660p review: 1 TB rated 200 TBW)' },
  { pattern: /^INTEL SSDPEKNW\d+T9/, product: 'Intel SSD 665p', kind: 'QLC', source: 'https://www.anandtech.com/show/16503/the-intel-ssd-670p-review (665p: 96L QLC)' },
  { pattern: /^INTEL SSDPEKNU/, product: 'Intel SSD 670p', kind: 'QLC', source: 'https://www.anandtech.com/show/16503/the-intel-ssd-670p-review (third-generation QLC, reduced DRAM)' },
  { pattern: /^KINGSTON SA400/, product: 'Kingston A400', kind: 'DRAM-less', source: 'https://e-catalog.com/cmp/47198/sa2000m8-250g-vs-sa400m8-240g/ (controller Phison PS3111-S11, a DRAM-less SATA controller; DRAM-less inferred from the controller)' },
  { pattern: /^KINGSTON SNVS/, product: 'Kingston NV1', kind: 'QLC, DRAM-less', source: 'https://www.purepc.pl/kingston-kolejny-raz-miesza-w-specyfikacji-swoich-nosnikow-ssd-tym-razem-zmianie-ulegaja-zarowno-kosci-pamieci-jak-i-kontroler (no DRAM; QLC or TLC variants)' },
  { pattern: /^KINGSTON SNV2S/, product: 'Kingston NV2', kind: 'QLC, DRAM-less', source: 'https://techpowerup.com/review/kingston-nv2-1-tb-m-2-nvme-ssd/5.html (DRAM-less); QLC or TLC by batch (https://use.as/kingston-nv2-1tb-nvme-ssd)' },
  { pattern: /^KINGSTON SNV3S/, product: 'Kingston NV3', kind: 'QLC, DRAM-less', source: 'https://futuretechmarkets.com/markets/kingston-nv3-2230-2tb-ssd-review-the-budget-king-is-back-2 (SM2268XT2 DRAM-less controller, BiCS QLC)' },
];

export function qlcOrDramless(d: Drive): CheapFlashMatch | null {
  const m = normaliseModel(d.model);
  if (!m) return null;
  const hit = CHEAP_FLASH_MODELS.find((x) => x.pattern.test(m));
  return hit ? { product: hit.product, kind: hit.kind, source: hit.source } : null;
}

export const isQlcOrDramless = (d: Drive): boolean => qlcOrDramless(d) !== null;

// ---------------------------------------------------------------------------------------------
// Sync-write latency class
// ---------------------------------------------------------------------------------------------

/**
 * Ordered fastest → slowest. Latencies are 4 KiB sync writes at QD1 *including* the cache flush
 * ZFS issues after each log write (zfs-facts A19, table E1). `low/high` bound what the sources
 * show for the class; `typical` is what the latency model uses.
 */
export type LatencyClass = 'optane-dc' | 'optane-consumer' | 'plp-nvme' | 'plp-sata' | 'consumer-flash' | 'hdd' | 'virtual' | 'unknown';

export interface LatencyClassInfo {
  cls: LatencyClass;
  /** 0 = fastest; larger = slower. `virtual` and `unknown` rank after everything known. */
  rank: number;
  /**
   * False for `virtual` and `unknown`: the class does not know the device's latency (a rule may
   * neither call it slow nor fast, and compares no ranks with it; it asks for a measurement).
   */
  known: boolean;
  typicalUs: number;
  lowUs: number;
  highUs: number;
  label: string;
  citation: string;
}

export const LATENCY_CLASSES: Record<LatencyClass, LatencyClassInfo> = {
  // P4800X "typical <10 µs"; P1600X 10 µs write (E1). High end 30 µs: a P1600X in an x1-lane
  // M.2 slot measured roughly double its 13.3 µs (000_a5b8e6cc27024805.txt, diskinfo section).
  'optane-dc': { cls: 'optane-dc', rank: 0, known: true, typicalUs: 10, lowUs: 7, highUs: 30, label: 'Optane (data-centre)', citation: '[FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683) (P4800X, P1600X)' },
  // 900P p50 11.3 µs; M10 16 GB ~54 µs per fsync (E1).
  'optane-consumer': { cls: 'optane-consumer', rank: 1, known: true, typicalUs: 15, lowUs: 10, highUs: 60, label: 'Optane (consumer)', citation: '[FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683) (900P, M10)' },
  // ~12–58 µs fsync (smalldatum 2026, E1).
  'plp-nvme': { cls: 'plp-nvme', rank: 2, known: true, typicalUs: 30, lowUs: 12, highUs: 60, label: 'NVMe with power-loss protection', citation: '[FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683) (enterprise NVMe with PLP)' },
  // Intel 710: 158 µs (4 K) (E1).
  'plp-sata': { cls: 'plp-sata', rank: 3, known: true, typicalUs: 150, lowUs: 60, highUs: 250, label: 'SATA/SAS SSD with power-loss protection', citation: '[FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683) (Intel 710, FreeBSD r320683)' },
  // 950 PRO 2090 µs, 990 Pro ~891 µs (E1); consumer SATA same order [heuristic].
  'consumer-flash': { cls: 'consumer-flash', rank: 4, known: true, typicalUs: 1500, lowUs: 800, highUs: 2500, label: 'consumer-grade SSD (no capacitor PLP)', citation: '[FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683), [OpenZFS docs: Hardware](https://openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Hardware.html) (consumer NVMe ~0.9–2.1 ms; SATA [heuristic])' },
  // 7200 rpm: 4.17 ms rotation + ~8 ms seek ≈ 12 ms (E1); 000: "sync write latencies in the 13
  // millisecond range", "8-15 milliseconds". Low end 4 ms: rotation only, when the ZIL writes land near the head.
  hdd: { cls: 'hdd', rank: 5, known: true, typicalUs: 12000, lowUs: 4000, highUs: 15000, label: 'hard disk', citation: '[FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683); [Intel Optane P1600X & P4800X as ZFS SLOG/ZIL](https://austinsnerdythings.com/tag/nvme) ("8-15 milliseconds")' },
  // A virtual disk or LUN: from a host NVMe with PLP behind a hypervisor (tens of µs plus the
  // virtualisation path) to an array of hard disks without a write cache behind a network. The same
  // range as the forecast's catalog class "virtual" (server/src/forecast/device-catalog.json).
  virtual: { cls: 'virtual', rank: 6, known: false, typicalUs: 2000, lowUs: 50, highUs: 20000, label: 'virtual disk or LUN (latency unknown: measure it)', citation: '[FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683)' },
  unknown: { cls: 'unknown', rank: 6, known: false, typicalUs: 1500, lowUs: 12, highUs: 15000, label: 'unknown device', citation: '[FreeBSD r320683 (commit message)](https://svnweb.freebsd.org/base?view=revision&revision=320683)' },
};

export interface SyncLatencyAssessment extends LatencyClassInfo {
  basis: string;
}

/** Which sync-write latency class a drive falls in, and why. */
export function syncWriteLatency(d: Drive): SyncLatencyAssessment {
  const c = (cls: LatencyClass, basis: string): SyncLatencyAssessment => ({ ...LATENCY_CLASSES[cls], basis });
  if (d.media === 'file') return c('unknown', 'File-backed vdev: latency is that of the file system below it.');
  const v = virtualDisk(d);
  if (v) return c('virtual', `${sentence(v.why)}. Measure it with \`zfs-advisor bench sync-write-4k-qd1\` (on its pool, or on the device while it is blank).`);
  if (isHdd(d)) {
    const t = d.media === 'unknown' ? modelTextClass(d) : null;
    return c('hdd', t?.cls === 'hdd' ? `${sentence(t.why)}.` : `Rotational disk${d.rpm ? ` (${d.rpm} rpm)` : ''}.`);
  }
  if (isOptane(d)) {
    const fam = optaneFamily(d);
    return fam?.datacenter ? c('optane-dc', `${productName(d)} (data-centre Optane).`) : c('optane-consumer', `${productName(d)} (consumer Optane).`);
  }
  if (!isSsd(d)) return c('unknown', 'Media type unknown.');
  const plp = powerLossProtection(d);
  if (plp.plp === 'yes' && plp.kind !== 'firmware-flushed-only') {
    return isNvme(d) ? c('plp-nvme', plp.basis) : c('plp-sata', plp.basis);
  }
  if (plp.plp === 'no' || plp.kind === 'firmware-flushed-only') return c('consumer-flash', plp.basis);
  // The model text may name an enterprise line without a known family ("… U.2 …", "… with PLP …").
  const t = modelTextClass(d);
  if (t && (t.cls === 'plp-nvme' || t.cls === 'plp-sata') && (t.cls === 'plp-nvme') === isNvme(d)) return c(t.cls, `${sentence(t.why)}.`);
  if (t && t.cls !== 'hdd') return c('consumer-flash', `${sentence(t.why)}. Run \`zfs-advisor bench sync-write-4k-qd1\` to measure.`);
  return c('consumer-flash', 'SSD with unknown power-loss protection: assumed consumer-grade flush latency until shown otherwise ([OpenZFS docs: Hardware](https://openzfs.github.io/openzfs-docs/Performance%20and%20Tuning/Hardware.html)) — run `zfs-advisor bench sync-write-4k-qd1` to measure.');
}

// ---------------------------------------------------------------------------------------------
// One-stop classification
// ---------------------------------------------------------------------------------------------

export interface DeviceClass {
  driveId: string;
  product: string;
  hdd: boolean;
  ssd: boolean;
  nvme: boolean;
  optane: boolean;
  /** A virtual disk or LUN and what said so (then `hdd` and `ssd` are false and the latency class is `virtual`). */
  virtual: TextClass | null;
  plp: PlpAssessment;
  cheapFlash: CheapFlashMatch | null;
  latency: SyncLatencyAssessment;
}

export function classifyDrive(d: Drive): DeviceClass {
  return {
    driveId: d.id,
    product: productName(d),
    hdd: isHdd(d),
    ssd: isSsd(d),
    nvme: isNvme(d),
    optane: isOptane(d),
    virtual: virtualDisk(d),
    plp: powerLossProtection(d),
    cheapFlash: qlcOrDramless(d),
    latency: syncWriteLatency(d),
  };
}

/** The slowest latency class among drives (a vdev is as slow as its slowest member for a flush). */
export function slowestLatency(drives: readonly Drive[]): SyncLatencyAssessment | null {
  if (drives.length === 0) return null;
  return drives.map(syncWriteLatency).reduce((a, b) => (b.rank > a.rank ? b : a));
}

/** The fastest latency class among drives. */
export function fastestLatency(drives: readonly Drive[]): SyncLatencyAssessment | null {
  if (drives.length === 0) return null;
  return drives.map(syncWriteLatency).reduce((a, b) => (b.rank < a.rank ? b : a));
}

/**
 * The inventory model: the one picture of a ZFS host every other part reads.
 * zod schemas are the single source of truth; TypeScript types are inferred from them and the
 * API, the store and the UI use the same ones.
 *
 * Conventions: sizes in bytes, durations in seconds unless the name says otherwise, unknown
 * values are `null` (never a guessed default), and anything we could not read is a `Gap`.
 */
import { z } from 'zod';

export const VdevClass = z.enum(['data', 'log', 'special', 'dedup', 'cache', 'spare']);
export type VdevClass = z.infer<typeof VdevClass>;

export const VdevType = z.enum([
  'disk', 'file', 'mirror', 'raidz1', 'raidz2', 'raidz3', 'draid', 'replacing', 'spare', 'indirect', 'hole', 'missing',
]);
export type VdevType = z.infer<typeof VdevType>;

/** dRAID geometry decoded from a name such as `draid2:4d:84c:4s-0`. */
export const DraidConfig = z.object({
  parity: z.number().int().min(1).max(3),
  data: z.number().int().positive(),
  children: z.number().int().positive(),
  spares: z.number().int().nonnegative(),
});
export type DraidConfig = z.infer<typeof DraidConfig>;

/**
 * A node of a `zpool status` tree, exactly as the parse contract promises:
 * `{class, type, name, state, read, write, cksum, note, children}`.
 * `read/write/cksum` are counts (zpool prints 1.2K style suffixes; we expand them), null when
 * the column is absent (spares, some cache rows). `note` is any trailing text such as
 * `(resilvering)`, `was /dev/sdb1`, `cannot open`.
 */
export interface VdevNode {
  class: VdevClass;
  type: VdevType;
  name: string;
  state: string | null;
  read: number | null;
  write: number | null;
  cksum: number | null;
  note: string | null;
  children: VdevNode[];
  /** Enrichment filled by the inventory builder (absent straight out of the parser). */
  draid?: DraidConfig | null;
  /** For leaves: the `Drive.id` this device resolves to, when we could resolve it. */
  driveId?: string | null;
  ashift?: number | null;
  sizeBytes?: number | null;
  allocBytes?: number | null;
  /** Top-level vdev guid (from -j output or zdb), when known. */
  guid?: string | null;
}
export const VdevNode: z.ZodType<VdevNode> = z.lazy(() =>
  z.object({
    class: VdevClass,
    type: VdevType,
    name: z.string(),
    state: z.string().nullable(),
    read: z.number().nullable(),
    write: z.number().nullable(),
    cksum: z.number().nullable(),
    note: z.string().nullable(),
    children: z.array(VdevNode),
    draid: DraidConfig.nullable().optional(),
    driveId: z.string().nullable().optional(),
    ashift: z.number().int().nullable().optional(),
    sizeBytes: z.number().nullable().optional(),
    allocBytes: z.number().nullable().optional(),
    guid: z.string().nullable().optional(),
  }),
);

export const ScanKind = z.enum(['scrub', 'resilver', 'rebuild', 'removal', 'none', 'unknown']);
export const ScanState = z.enum(['in-progress', 'finished', 'canceled', 'paused', 'none', 'unknown']);

/** The `scan:` (or zfs-fuse's `scrub:`) block of `zpool status`, kept raw and decoded. */
export const ScanInfo = z.object({
  kind: ScanKind,
  state: ScanState,
  /** The text as printed (continuation lines joined with \n). */
  raw: z.string(),
  /** ISO 8601 when the text had a parseable date, else null. */
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  errors: z.number().nullable(),
  progressPct: z.number().nullable(),
});
export type ScanInfo = z.infer<typeof ScanInfo>;

/**
 * A raidz expansion (`zpool attach POOL raidzP-N DISK`, OpenZFS 2.3+): the `expand:` block of
 * `zpool status` or its `raidz_expand_stats` in `-j` (zfs@zfs-2.4.4:cmd/zpool/zpool_main.c
 * print_raidz_expand_status / raidz_expand_status_nvlist). Only one runs per pool at a time.
 */
export const RaidzExpansion = z.object({
  /** The raidz vdev being expanded, as `zpool status` names it: `raidz1-0`. */
  vdev: z.string(),
  /** DSS_SCANNING → in-progress, DSS_FINISHED → finished (zpool prints nothing for DSS_NONE). */
  state: z.enum(['in-progress', 'finished', 'canceled', 'unknown']),
  /** Bytes copied so far (`pres_reflowed`); the text prints them rounded (`1.20G`). */
  copiedBytes: z.number().nullable(),
  /** Bytes to copy in all (`pres_to_reflow`); the text of a finished expansion does not print it. */
  totalBytes: z.number().nullable(),
  progressPct: z.number().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** The copy waits for a resilver or `zpool clear` (a member failed); null when unknown. */
  waitingForResilver: z.boolean().nullable(),
  /** The text as printed (continuation line joined with \n) or the JSON object. */
  raw: z.string(),
});
export type RaidzExpansion = z.infer<typeof RaidzExpansion>;

/**
 * The dedup table summary of `zpool status -D` (` dedup: DDT entries N, size X on disk, Y in core`)
 * or `dedup_stats` of `zpool status -D -j` (zfs@zfs-2.4.4:cmd/zpool/zpool_main.c print_dedup_stats /
 * dedup_stats_nvlist). Since 2.3 the counts include the entries still in the fast-dedup log
 * (zfs@zfs-2.4.4:module/zfs/ddt_stats.c ddt_get_dedup_object_stats adds ddt_log_stats).
 */
export const DedupTableStats = z.object({
  /** Number of DDT entries (0: `no DDT entries`). */
  entries: z.number().nullable(),
  /** On-disk size of the DDT objects (`ddo_dspace`). */
  onDiskBytes: z.number().nullable(),
  /** In-core size: the DDT's data blocks if all were in memory (`ddo_mspace` = fill count × block size). */
  inCoreBytes: z.number().nullable(),
  raw: z.string(),
});
export type DedupTableStats = z.infer<typeof DedupTableStats>;

/** A pool's dedup table: the `-D` summary plus the pool properties and feature that govern it (2.3+). */
export const DedupTable = DedupTableStats.extend({
  /** `dedup_table_size` (2.3+), bytes; null when the property is absent (older OpenZFS) or unread. */
  tableSizeBytes: z.number().nullable(),
  /** `dedup_table_quota` (2.3+): `auto` (the default: the dedup/special class size), `none`, or bytes; null when absent. */
  quota: z.union([z.literal('auto'), z.literal('none'), z.number()]).nullable(),
  /** `feature@fast_dedup` (2.3+): active = a fast-dedup table is in use; null when the pool's OpenZFS has no such feature or the features were not read. */
  fastDedup: z.enum(['active', 'enabled', 'disabled']).nullable(),
  /**
   * Entries waiting in the fast-dedup log to be written back to the table (2.3+, Linux): the sum of
   * `log_active_entries` + `log_flushing_entries` over the pool's `/proc/spl/kstat/zfs/POOL/ddt_stats_*`
   * kstats (zfs@zfs-2.4.4:module/zfs/ddt.c ddt_kstats_template); null when not read.
   */
  logEntries: z.number().nullable(),
});
export type DedupTable = z.infer<typeof DedupTable>;

/** What `zfs-advisor parse zpool-status` prints per pool. */
export const ParsedPoolStatus = z.object({
  name: z.string(),
  state: z.string().nullable(),
  status: z.string().nullable(),
  action: z.string().nullable(),
  see: z.string().nullable(),
  scan: ScanInfo.nullable(),
  /** Additional scan lines (dRAID pools can print several, one per vdev). */
  extraScans: z.array(ScanInfo).default([]),
  errors: z.string().nullable(),
  /** Files listed under `errors: Permanent errors have been detected…` with -v. */
  errorFiles: z.array(z.string()).default([]),
  /** `remove:` block (device removal / evacuation), raw. */
  remove: z.string().nullable().default(null),
  vdevs: z.array(VdevNode),
  /** The output was cut before this pool's `errors:` line: the state line stands, the tree may lack vdevs. */
  partial: z.boolean().optional(),
  /** `expand:` block (raidz expansion, 2.3+); absent when zpool printed none. */
  expand: RaidzExpansion.optional(),
  /** ` dedup:` summary (only with `zpool status -D`); absent when not printed. */
  dedup: DedupTableStats.optional(),
});
export type ParsedPoolStatus = z.infer<typeof ParsedPoolStatus>;

export const PropertyValue = z.object({ value: z.string(), source: z.string().nullable() });
export type PropertyValue = z.infer<typeof PropertyValue>;

export const Pool = z.object({
  name: z.string(),
  guid: z.string().nullable(),
  state: z.string().nullable(),
  status: z.string().nullable(),
  action: z.string().nullable(),
  see: z.string().nullable(),
  scan: ScanInfo.nullable(),
  errors: z.string().nullable(),
  errorFiles: z.array(z.string()),
  vdevs: z.array(VdevNode),
  /** Read from a cut `zpool status`: the state is the one printed, the vdev tree may be incomplete. */
  partial: z.boolean().optional(),
  sizeBytes: z.number().nullable(),
  allocBytes: z.number().nullable(),
  freeBytes: z.number().nullable(),
  fragmentationPct: z.number().nullable(),
  capacityPct: z.number().nullable(),
  dedupRatio: z.number().nullable(),
  /** Pool-wide ashift property (0 = auto); per-vdev ashift lives on the vdev nodes. */
  ashift: z.number().int().nullable(),
  /** feature@… → enabled|active|disabled */
  features: z.record(z.string(), z.string()),
  /** Every `zpool get all` property as printed. */
  properties: z.record(z.string(), PropertyValue),
  /** TrueNAS's own id of the pool (pool.query `id`, an integer), when read through its API. */
  platformId: z.number().int().nullable().optional(),
  /** A raidz expansion in progress or the last one finished (2.3+); absent when zpool status printed none. */
  expansion: RaidzExpansion.optional(),
  /** The dedup table, when `zpool status -D` was read (absent otherwise: not guessed from dedupratio). */
  dedupTable: DedupTable.optional(),
});
export type Pool = z.infer<typeof Pool>;

export const MediaType = z.enum(['hdd', 'ssd', 'nvme', 'file', 'unknown']);
export type MediaType = z.infer<typeof MediaType>;
export const Transport = z.enum(['nvme', 'sata', 'sas', 'usb', 'scsi', 'virtual', 'unknown']);
export type Transport = z.infer<typeof Transport>;
export const TriState = z.enum(['yes', 'no', 'unknown']);

export const OptaneInfo = z.object({
  /** The model-table key that matched by prefix, e.g. SSDPEK1A058GA. */
  modelKey: z.string(),
  product: z.string(),
  capacityGb: z.number().nullable(),
  /** From optane-models.json: true | 'near' | false. */
  plp: z.union([z.boolean(), z.literal('near')]),
  enduranceTbw: z.number().nullable(),
});
export type OptaneInfo = z.infer<typeof OptaneInfo>;

/** A partition of a drive, from its partition table (lsblk on Linux, `gpart list` on FreeBSD). */
export const Partition = z.object({
  /** Kernel name: nvme0n1p2, sda1, nvd1p2, ada0p3. */
  name: z.string(),
  /** 1-based index in the partition table, when known. */
  index: z.number().int().nullable(),
  sizeBytes: z.number().nullable(),
  /** GPT partition name (lsblk PARTLABEL, gpart `label`). */
  label: z.string().nullable(),
  /** GPT partition UUID (lsblk PARTUUID, gpart `rawuuid`). */
  uuid: z.string().nullable(),
  /** Partition type as the tool prints it (freebsd-zfs, or lsblk's PARTTYPENAME/PARTTYPE). */
  type: z.string().nullable(),
  /** Every name a pool leaf may use for it: /dev/…, by-partuuid, gpt/<label>, gptid/<uuid>, by-id …-partN. */
  aliases: z.array(z.string()),
});
export type Partition = z.infer<typeof Partition>;

/** Something other than an imported pool that holds a drive (server/src/gather/drive-uses.ts). */
export const DriveUse = z.object({
  kind: z.enum(['mounted', 'swap', 'filesystem', 'holder', 'partitions', 'zfs-label']),
  /** The block device it was seen on (the disk or one of its partitions). */
  device: z.string(),
  detail: z.string(),
  /** mounted: where (`/`, `/boot/efi`); absent in inventories stored before it was kept. */
  mountpoint: z.string().optional(),
  /** filesystem: the signature's type (ext4, LVM2_member, linux_raid_member). */
  fstype: z.string().optional(),
  /** filesystem / zfs-label: the signature's label (a ZFS label's pool name). */
  label: z.string().optional(),
});
export type DriveUse = z.infer<typeof DriveUse>;

export const Drive = z.object({
  /** Stable across runs: built from WWN, else model+serial, else the device path. */
  id: z.string(),
  devPath: z.string().nullable(),
  /** Every name we saw for it: /dev/sdX, /dev/disk/by-id/…, partitions' parents, gptid/… */
  aliases: z.array(z.string()),
  /** The preferred stable path for commands we print, e.g. /dev/disk/by-id/nvme-… */
  byIdPath: z.string().nullable(),
  model: z.string().nullable(),
  serial: z.string().nullable(),
  wwn: z.string().nullable(),
  firmware: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  rotational: z.boolean().nullable(),
  rpm: z.number().nullable(),
  media: MediaType,
  transport: Transport,
  logicalSectorSize: z.number().nullable(),
  physicalSectorSize: z.number().nullable(),
  optane: OptaneInfo.nullable(),
  powerLossProtection: TriState,
  smartPassed: z.boolean().nullable(),
  /** NVMe percentage_used or the ATA wear-levelling equivalent (0 = new, 100 = rated life used). */
  wearPct: z.number().nullable(),
  temperatureC: z.number().nullable(),
  powerOnHours: z.number().nullable(),
  mediaErrors: z.number().nullable(),
  reallocatedSectors: z.number().nullable(),
  pendingSectors: z.number().nullable(),
  /** Where the facts came from: smartctl, nvme, lsblk, diskinfo, truenas, proxmox… */
  sources: z.array(z.string()),
  /** Its partition table (absent when it was not read; [] for a disk without partitions). */
  partitions: z.array(Partition).optional(),
  /** What else holds it: mounts, swap, signatures, holders, a partition table (absent when not read). */
  uses: z.array(DriveUse).optional(),
});
export type Drive = z.infer<typeof Drive>;

export const DatasetType = z.enum(['filesystem', 'volume', 'snapshot', 'bookmark']);

export const Dataset = z.object({
  name: z.string(),
  pool: z.string(),
  type: DatasetType,
  /** Typed copies of the properties the rules read; null when the platform lacks them. */
  sync: z.enum(['standard', 'always', 'disabled']).nullable(),
  recordsize: z.number().nullable(),
  volblocksize: z.number().nullable(),
  volsize: z.number().nullable(),
  compression: z.string().nullable(),
  compressratio: z.number().nullable(),
  specialSmallBlocks: z.number().nullable(),
  logbias: z.enum(['latency', 'throughput']).nullable(),
  primarycache: z.string().nullable(),
  dedup: z.string().nullable(),
  usedBytes: z.number().nullable(),
  availableBytes: z.number().nullable(),
  referencedBytes: z.number().nullable(),
  quotaBytes: z.number().nullable(),
  mountpoint: z.string().nullable(),
  /** Every property as printed (value + source), for the rules that need more. */
  properties: z.record(z.string(), PropertyValue),
});
export type Dataset = z.infer<typeof Dataset>;

/** `/proc/spl/kstat/zfs/zil` or `kstat.zfs.misc.zil`: counter name → value (uint64 as number). */
export const ZilStats = z.object({
  counters: z.record(z.string(), z.number()),
  /** Per-dataset ZIL counters (OpenZFS ≥ 2.2, /proc/spl/kstat/zfs/POOL/objset-*), keyed by dataset. */
  perDataset: z.record(z.string(), z.record(z.string(), z.number())),
  /**
   * Seconds the counters cover: the kstat header's snaptime − crtime (Linux; the zil kstat is
   * created when the module loads, so ≈ since boot). Null when unknown (FreeBSD sysctl has no header).
   */
  windowSeconds: z.number().nonnegative().nullable().optional(),
});
export type ZilStats = z.infer<typeof ZilStats>;

export const ArcStats = z.object({ counters: z.record(z.string(), z.number()) });
export type ArcStats = z.infer<typeof ArcStats>;

export const Platform = z.enum(['linux', 'freebsd', 'darwin', 'unknown']);
export const Distribution = z.enum(['truenas-scale', 'truenas-core', 'proxmox-ve', 'other', 'unknown']);

export const ZfsVersion = z.object({
  /** As printed, e.g. `zfs-2.1.6-1` / `zfs-kmod-v2023…` / `zfs-fuse 0.7.0`. */
  userland: z.string().nullable(),
  kernel: z.string().nullable(),
  /** Normalised `major.minor.patch` of OpenZFS (the kernel module when they differ), or null. */
  openzfs: z.string().nullable(),
  /** Implementation: OpenZFS (incl. ZoL ≥ 0.6 and FreeBSD ≥ 13), legacy FreeBSD/illumos ZFS, or zfs-fuse. */
  flavour: z.enum(['openzfs', 'zfs-fuse', 'legacy', 'unknown']),
});
export type ZfsVersion = z.infer<typeof ZfsVersion>;

export const Host = z.object({
  hostname: z.string().nullable(),
  platform: Platform,
  distribution: Distribution,
  distributionVersion: z.string().nullable(),
  kernel: z.string().nullable(),
  zfs: ZfsVersion,
  /** Physical memory in bytes when known (ARC sizing, dirty data max). */
  memoryBytes: z.number().nullable(),
});
export type Host = z.infer<typeof Host>;

/** Something we tried to read and could not: said plainly, never hidden. */
export const Gap = z.object({
  /** The artifact left incomplete (Pools, Drives, …). */
  artifact: z.string(),
  /** The file or command concerned, e.g. `zpool-status.txt` or `smartctl -a -j /dev/sda`. */
  source: z.string(),
  message: z.string(),
  /** Line number in the source when a parser rejected a line. */
  line: z.number().int().nullable().default(null),
  severity: z.enum(['info', 'warning', 'error']),
});
export type Gap = z.infer<typeof Gap>;

export const InventorySource = z.object({
  kind: z.enum(['local', 'snapshot', 'truenas', 'proxmox', 'demo']),
  /** Human label: a hostname, a snapshot directory, "Demo: 2×HDD mirror + Optane (000)". */
  label: z.string(),
  capturedAt: z.string(),
  /** True for the bundled demo data: every view that shows it must say so. */
  demo: z.boolean(),
  redacted: z.boolean(),
});

export const INVENTORY_SCHEMA_VERSION = 1;

export const Inventory = z.object({
  schemaVersion: z.literal(INVENTORY_SCHEMA_VERSION),
  source: InventorySource,
  host: Host,
  pools: z.array(Pool),
  drives: z.array(Drive),
  datasets: z.array(Dataset),
  zil: ZilStats.nullable(),
  arc: ArcStats.nullable(),
  gaps: z.array(Gap),
});
export type Inventory = z.infer<typeof Inventory>;

/**
 * TrueNAS API answers → the same `Inventory` the local collectors build. Pure.
 * Field names follow the TrueNAS 25.x models (see shared/guides/platform.md §2.3): pool.query
 * topology {data, log, cache, spare, special, dedup}; pool.dataset.query property objects
 * {parsed, rawvalue, value, source} with TrueNAS's renamed properties
 * (special_small_block_size, deduplication); disk.query; disk.temperatures; alert.list.
 * What the API cannot tell (OpenZFS version, ZIL/ARC counters, full SMART on 25.10+) becomes a Gap.
 */
import { z } from 'zod';
import { INVENTORY_SCHEMA_VERSION, type Dataset, type Drive, type Gap, type Inventory, type Pool, type ScanInfo, type VdevClass, type VdevNode, type VdevType } from '../model/inventory.ts';
import { matchOptane } from '../parsers/optane-match.ts';
import { driveIdOf } from '../parsers/smartctl.ts';
import { RemoteError } from './errors.ts';

export interface TrueNasAnswers {
  systemInfo: unknown;
  pools: unknown;
  datasets: unknown;
  disks: unknown;
  temperatures: unknown;
  alerts: unknown;
}

const Stats = z.looseObject({
  read_errors: z.number().nullish(), write_errors: z.number().nullish(), checksum_errors: z.number().nullish(),
  size: z.number().nullish(), allocated: z.number().nullish(), configured_ashift: z.number().nullish(),
});
interface TnVdev { name: string; type: string; path?: string | null; guid?: string | number | null; status?: string | null; stats?: z.infer<typeof Stats> | null; children: TnVdev[]; disk?: string | null; device?: string | null }
const TnVdev: z.ZodType<TnVdev> = z.lazy(() => z.looseObject({
  name: z.string(), type: z.string(), path: z.string().nullish(), guid: z.union([z.string(), z.number()]).nullish(), status: z.string().nullish(),
  stats: Stats.nullish(), children: z.array(TnVdev).default([]), disk: z.string().nullish(), device: z.string().nullish(),
})) as z.ZodType<TnVdev>;
const DateValue = z.union([z.looseObject({ $date: z.number() }), z.number(), z.string()]).nullish();
const TnPool = z.looseObject({
  id: z.number().int().nullish(), name: z.string(), guid: z.union([z.string(), z.number()]).nullish(), status: z.string().nullish(), status_detail: z.string().nullish(),
  size: z.number().nullish(), allocated: z.number().nullish(), free: z.number().nullish(), fragmentation: z.union([z.string(), z.number()]).nullish(),
  scan: z.looseObject({ function: z.string().nullish(), state: z.string().nullish(), start_time: DateValue, end_time: DateValue, percentage: z.number().nullish(), errors: z.number().nullish() }).nullish(),
  topology: z.looseObject({
    data: z.array(TnVdev).default([]), log: z.array(TnVdev).default([]), cache: z.array(TnVdev).default([]),
    spare: z.array(TnVdev).default([]), special: z.array(TnVdev).default([]), dedup: z.array(TnVdev).default([]),
  }).nullish(),
});
const Prop = z.looseObject({ parsed: z.unknown().optional(), rawvalue: z.string().nullish(), value: z.string().nullish(), source: z.string().nullish() });
const TnDataset = z.looseObject({ id: z.string(), name: z.string().optional(), pool: z.string().optional(), type: z.string(), mountpoint: z.string().nullish() }).catchall(z.unknown());
const TnDisk = z.looseObject({
  name: z.string(), devname: z.string().nullish(), serial: z.string().nullish(), lunid: z.string().nullish(), size: z.number().nullish(), model: z.string().nullish(),
  type: z.string().nullish(), rotationrate: z.number().nullish(), bus: z.string().nullish(), zfs_guid: z.string().nullish(), pool: z.string().nullish(),
});
const TnSystemInfo = z.looseObject({ version: z.string().nullish(), hostname: z.string().nullish(), physmem: z.number().nullish() });
const TnAlert = z.looseObject({ klass: z.string().nullish(), formatted: z.string().nullish(), args: z.unknown().optional(), dismissed: z.boolean().nullish() });

function parseOr<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new RemoteError('protocol', `TrueNAS answered ${what} in an unexpected shape (${i ? `${i.path.join('.') || 'top level'}: ${i.message}` : 'invalid'})`);
  }
  return r.data;
}

const TYPE: Record<string, VdevType> = { DISK: 'disk', FILE: 'file', MIRROR: 'mirror', RAIDZ1: 'raidz1', RAIDZ2: 'raidz2', RAIDZ3: 'raidz3', DRAID: 'draid', SPARE: 'spare', REPLACING: 'replacing' };

function isoOf(d: z.infer<typeof DateValue>): string | null {
  if (d === null || d === undefined) return null;
  const ms = typeof d === 'object' ? d.$date : typeof d === 'number' ? d : Date.parse(d);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

function vdevOf(v: TnVdev, cls: VdevClass, driveIdByDisk: Map<string, string>): VdevNode {
  const type = TYPE[v.type.toUpperCase()] ?? (v.type.toUpperCase().startsWith('DRAID') ? 'draid' : 'disk');
  const leaf = v.children.length === 0 && (type === 'disk' || type === 'file');
  return {
    class: cls,
    type,
    name: v.name,
    state: v.status ?? null,
    read: v.stats?.read_errors ?? null,
    write: v.stats?.write_errors ?? null,
    cksum: v.stats?.checksum_errors ?? null,
    note: null,
    children: v.children.map((c) => vdevOf(c, cls, driveIdByDisk)),
    driveId: leaf && v.disk ? driveIdByDisk.get(v.disk) ?? null : undefined,
    ashift: !leaf ? v.stats?.configured_ashift ?? null : undefined,
    sizeBytes: !leaf && v.stats?.size ? v.stats.size : undefined,
    allocBytes: !leaf && v.stats?.size ? v.stats.allocated ?? null : undefined,
    guid: v.guid === null || v.guid === undefined ? null : String(v.guid),
  };
}

function scanOf(s: z.infer<typeof TnPool>['scan']): ScanInfo | null {
  if (!s) return null;
  const fn = (s.function ?? '').toUpperCase();
  const st = (s.state ?? '').toUpperCase();
  return {
    kind: fn === 'SCRUB' ? 'scrub' : fn === 'RESILVER' ? 'resilver' : fn ? 'unknown' : 'none',
    state: st === 'FINISHED' ? 'finished' : st === 'SCANNING' ? 'in-progress' : st === 'CANCELED' ? 'canceled' : st ? 'unknown' : 'none',
    raw: `${fn.toLowerCase() || 'scan'} ${st.toLowerCase()} (TrueNAS API)`,
    startedAt: isoOf(s.start_time),
    endedAt: isoOf(s.end_time),
    errors: s.errors ?? null,
    progressPct: s.percentage ?? null,
  };
}

function propText(p: unknown): { value: string; source: string | null } | null {
  const r = Prop.safeParse(p);
  if (!r.success) return null;
  const value = r.data.rawvalue ?? r.data.value ?? null;
  return value === null ? null : { value, source: r.data.source ? r.data.source.toLowerCase() : null };
}

function propNumber(p: unknown): number | null {
  const r = Prop.safeParse(p);
  if (!r.success) return null;
  if (typeof r.data.parsed === 'number') return r.data.parsed;
  const n = Number(r.data.rawvalue);
  return r.data.rawvalue !== null && r.data.rawvalue !== undefined && r.data.rawvalue !== '' && Number.isFinite(n) ? n : null;
}

/** TrueNAS renamed a few ZFS properties; the inventory uses the ZFS names. */
const ZFS_NAME: Record<string, string> = { special_small_block_size: 'special_small_blocks', deduplication: 'dedup', encryption_root: 'encryptionroot', key_format: 'keyformat', encryption_algorithm: 'encryption' };

function datasetOf(d: z.infer<typeof TnDataset>): Dataset {
  const properties: Dataset['properties'] = {};
  for (const [k, v] of Object.entries(d)) {
    const t = propText(v);
    if (t && typeof v === 'object') properties[ZFS_NAME[k] ?? k] = t;
  }
  const lower = (k: string) => properties[k]?.value.toLowerCase() ?? null;
  const sync = lower('sync');
  const logbias = lower('logbias');
  return {
    name: d.name ?? d.id,
    pool: d.pool ?? d.id.split('/')[0]!,
    type: d.type.toUpperCase() === 'VOLUME' ? 'volume' : 'filesystem',
    sync: sync === 'standard' || sync === 'always' || sync === 'disabled' ? sync : null,
    recordsize: propNumber(d.recordsize),
    volblocksize: propNumber(d.volblocksize),
    volsize: propNumber(d.volsize),
    compression: lower('compression'),
    compressratio: propNumber(d.compressratio),
    specialSmallBlocks: propNumber(d.special_small_block_size),
    logbias: logbias === 'latency' || logbias === 'throughput' ? logbias : null,
    primarycache: lower('primarycache'),
    dedup: lower('dedup'),
    usedBytes: propNumber(d.used),
    availableBytes: propNumber(d.available),
    referencedBytes: propNumber(d.referenced),
    quotaBytes: propNumber(d.quota),
    mountpoint: d.mountpoint ?? null,
    properties,
  };
}

function driveOf(d: z.infer<typeof TnDisk>, temperatureC: number | null, smartFailed: boolean): Drive {
  const bus = (d.bus ?? '').toUpperCase();
  const type = (d.type ?? '').toUpperCase();
  const media = type === 'HDD' ? 'hdd' : type === 'SSD' ? (bus === 'NVME' || d.name.startsWith('nvme') ? 'nvme' : 'ssd') : 'unknown';
  const wwn = d.lunid ? (d.lunid.startsWith('0x') ? d.lunid : `0x${d.lunid}`) : null;
  const devPath = `/dev/${d.devname ?? d.name}`;
  return {
    id: driveIdOf({ wwn, model: d.model ?? null, serial: d.serial ?? null, devicePath: devPath }),
    devPath,
    aliases: [devPath],
    byIdPath: null,
    model: d.model ?? null,
    serial: d.serial ?? null,
    wwn,
    firmware: null,
    sizeBytes: d.size ?? null,
    rotational: type === 'HDD' ? true : type === 'SSD' ? false : null,
    rpm: d.rotationrate ?? null,
    media,
    transport: bus === 'NVME' ? 'nvme' : bus === 'ATA' ? 'sata' : bus === 'SCSI' ? 'scsi' : bus === 'USB' ? 'usb' : 'unknown',
    logicalSectorSize: null,
    physicalSectorSize: null,
    optane: matchOptane(d.model ?? null),
    powerLossProtection: 'unknown',
    smartPassed: smartFailed ? false : null,
    wearPct: null,
    temperatureC,
    powerOnHours: null,
    mediaErrors: null,
    reallocatedSectors: null,
    pendingSectors: null,
    sources: ['truenas'],
  };
}

function temperatureOf(t: unknown): number | null {
  if (typeof t === 'number') return t;
  if (Array.isArray(t) && typeof t[0] === 'number') return t[0];
  return null;
}

export function inventoryFromTrueNas(a: TrueNasAnswers, label: string, capturedAt: string): Inventory {
  const info = parseOr(TnSystemInfo, a.systemInfo, 'system.info');
  const pools = parseOr(z.array(TnPool), a.pools, 'pool.query');
  const datasets = parseOr(z.array(TnDataset), a.datasets, 'pool.dataset.query');
  const disks = parseOr(z.array(TnDisk), a.disks, 'disk.query');
  const temps = a.temperatures && typeof a.temperatures === 'object' && !Array.isArray(a.temperatures) ? (a.temperatures as Record<string, unknown>) : {};
  const alerts = Array.isArray(a.alerts) ? a.alerts.map((x) => TnAlert.safeParse(x)).flatMap((r) => (r.success ? [r.data] : [])) : [];

  // 25.10+: SMART health arrives only as alerts (SMART* classes) naming the disk.
  const smartAlerted = new Set<string>();
  for (const al of alerts) {
    if (!al.klass?.startsWith('SMART') || al.dismissed) continue;
    const text = `${al.formatted ?? ''} ${JSON.stringify(al.args ?? '')}`;
    for (const d of disks) if (new RegExp(`\\b${d.name}\\b`).test(text)) smartAlerted.add(d.name);
  }
  const drives = disks.map((d) => driveOf(d, temperatureOf(temps[d.name]), smartAlerted.has(d.name)));
  const driveIdByDisk = new Map(disks.map((d, i) => [d.name, drives[i]!.id]));

  const poolsOut: Pool[] = pools.map((p) => {
    const t = p.topology;
    const vdevs: VdevNode[] = t
      ? (['data', 'log', 'special', 'dedup', 'cache', 'spare'] as const).flatMap((cls) => (t[cls] ?? []).map((v) => vdevOf(v, cls, driveIdByDisk)))
      : [];
    const frag = p.fragmentation === null || p.fragmentation === undefined ? null : Number(p.fragmentation);
    return {
      name: p.name,
      guid: p.guid === null || p.guid === undefined ? null : String(p.guid),
      state: p.status ?? null,
      status: p.status_detail ?? null,
      action: null,
      see: null,
      scan: scanOf(p.scan),
      errors: null,
      errorFiles: [],
      vdevs,
      sizeBytes: p.size ?? null,
      allocBytes: p.allocated ?? null,
      freeBytes: p.free ?? null,
      fragmentationPct: frag !== null && Number.isFinite(frag) ? frag : null,
      capacityPct: p.size && p.allocated !== null && p.allocated !== undefined ? Math.round((p.allocated / p.size) * 100) : null,
      dedupRatio: null,
      ashift: null,
      features: {},
      properties: {},
      platformId: p.id ?? null,
    };
  });

  const version = info.version ?? null;
  const core = version !== null && /core|freenas/i.test(version);
  const gaps: Gap[] = [
    { artifact: 'Host', source: 'TrueNAS API system.info', message: 'the TrueNAS API does not report the OpenZFS version; version-dependent rules assume nothing', line: null, severity: 'warning' },
    { artifact: 'ZilStats', source: 'TrueNAS API', message: 'ZIL counters are not available through the TrueNAS API: sync-write evidence needs a workload observation on the host', line: null, severity: 'error' },
    { artifact: 'ArcStats', source: 'TrueNAS API', message: 'ARC counters are not available through the TrueNAS API', line: null, severity: 'error' },
    { artifact: 'Drives', source: 'TrueNAS API disk.query', message: 'SMART attributes are not in the TrueNAS API (removed in 25.10): wear, power-on hours and error counters are unknown; failed health is taken from SMART alerts', line: null, severity: 'warning' },
  ];

  return {
    schemaVersion: INVENTORY_SCHEMA_VERSION,
    source: { kind: 'truenas', label, capturedAt, demo: false, redacted: false },
    host: {
      hostname: info.hostname ?? null,
      platform: core ? 'freebsd' : 'linux',
      distribution: core ? 'truenas-core' : 'truenas-scale',
      distributionVersion: version,
      kernel: null,
      zfs: { userland: null, kernel: null, openzfs: null, flavour: 'openzfs' },
      memoryBytes: info.physmem ?? null,
    },
    pools: poolsOut,
    drives,
    datasets: datasets.map(datasetOf),
    zil: null,
    arc: null,
    gaps,
  };
}

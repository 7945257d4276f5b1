/**
 * Proxmox VE API answers → `Inventory`. Pure. Shapes per shared/guides/platform.md §3.2:
 * `/disks/zfs` (zpool list numbers), `/disks/zfs/{pool}` (zpool status parsed by PVE: children[0]
 * is the root vdev; `logs`/`cache`/`spares`/`special`/`dedup` headers are its siblings),
 * `/disks/list` (devpath, type, rpm, health, wearout as percent REMAINING, wwn, by_id_link).
 * The API has no dataset properties at all: that is recorded as an error Gap on Datasets, so
 * every rule that needs them reports needs-artifact instead of guessing.
 */
import { z } from 'zod';
import { INVENTORY_SCHEMA_VERSION, type Drive, type Gap, type Inventory, type Pool, type VdevClass, type VdevNode, type VdevType } from '../model/inventory.ts';
import { matchOptane } from '../parsers/optane-match.ts';
import { driveIdOf } from '../parsers/smartctl.ts';
import { RemoteError } from './errors.ts';

export interface ProxmoxAnswers {
  node: string;
  version: unknown;
  zfsList: unknown;
  /** pool name → /disks/zfs/{pool} answer */
  zfsDetail: Record<string, unknown>;
  /** pool name → why its /disks/zfs/{pool} was refused or not asked (a name PVE does not take as a storage id). */
  zfsDetailRefused?: Record<string, string>;
  disks: unknown;
}

interface PveNode { name: string; state?: string | null; read?: number | string | null; write?: number | string | null; cksum?: number | string | null; msg?: string | null; leaf?: number | null; children?: PveNode[] }
const PveNode: z.ZodType<PveNode> = z.lazy(() => z.looseObject({
  name: z.string(), state: z.string().nullish(), read: z.union([z.number(), z.string()]).nullish(), write: z.union([z.number(), z.string()]).nullish(),
  cksum: z.union([z.number(), z.string()]).nullish(), msg: z.string().nullish(), leaf: z.number().nullish(), children: z.array(PveNode).optional(),
})) as z.ZodType<PveNode>;
const PveDetail = z.looseObject({
  name: z.string(), state: z.string().nullish(), status: z.string().nullish(), action: z.string().nullish(), scan: z.string().nullish(),
  errors: z.string().nullish(), children: z.array(PveNode).default([]),
});
const PveZfs = z.looseObject({ name: z.string(), size: z.number().nullish(), alloc: z.number().nullish(), free: z.number().nullish(), frag: z.number().nullish(), dedup: z.number().nullish(), health: z.string().nullish() });
const PveDisk = z.looseObject({
  devpath: z.string(), size: z.number().nullish(), rpm: z.number().nullish(), type: z.string().nullish(), health: z.string().nullish(),
  wearout: z.union([z.number(), z.string()]).nullish(), vendor: z.string().nullish(), model: z.string().nullish(), serial: z.string().nullish(),
  wwn: z.string().nullish(), by_id_link: z.string().nullish(), used: z.string().nullish(),
});

function parseOr<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new RemoteError('protocol', `Proxmox answered ${what} in an unexpected shape (${i ? `${i.path.join('.') || 'top level'}: ${i.message}` : 'invalid'})`);
  }
  return r.data;
}

const SECTION: Record<string, VdevClass> = { logs: 'log', cache: 'cache', spares: 'spare', special: 'special', dedup: 'dedup' };

function vdevType(name: string, isLeaf: boolean): VdevType {
  if (/^mirror-\d+$/.test(name)) return 'mirror';
  const rz = /^raidz([123])?-\d+$/.exec(name);
  if (rz) return (`raidz${rz[1] ?? '1'}`) as VdevType;
  if (/^draid\d/.test(name)) return 'draid';
  if (/^spare-\d+$/.test(name)) return 'spare';
  if (/^replacing-\d+$/.test(name)) return 'replacing';
  if (isLeaf && name.startsWith('/') && !name.startsWith('/dev/')) return 'file';
  return 'disk';
}

function count(v: number | string | null | undefined): number | null {
  if (v === null || v === undefined || v === '') return null;
  // PVE numifies zpool's "1.2K" text to 1.2: keep the order of magnitude honest when a suffix survives.
  if (typeof v === 'string') {
    const m = /^([\d.]+)([KMGT]?)$/.exec(v.trim());
    if (!m) return null;
    return Math.round(Number(m[1]) * ({ '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12 } as Record<string, number>)[m[2]!]!);
  }
  return v;
}

function nodeOf(n: PveNode, cls: VdevClass, driveByAlias: Map<string, string>): VdevNode {
  const children = n.children ?? [];
  const isLeaf = n.leaf === 1 || children.length === 0;
  const base = n.name.replace(/-part\d+$/, '').replace(/(nvme\d+n\d+)p\d+$/, '$1').replace(/^(\/dev\/[a-z]+)\d+$/, '$1');
  return {
    class: cls,
    type: vdevType(n.name, isLeaf),
    name: n.name,
    state: n.state ?? null,
    read: count(n.read),
    write: count(n.write),
    cksum: count(n.cksum),
    note: n.msg ? n.msg : null,
    children: children.map((c) => nodeOf(c, cls, driveByAlias)),
    ...(isLeaf ? { driveId: driveByAlias.get(n.name) ?? driveByAlias.get(base) ?? null } : {}),
  };
}

/** Top-level vdevs of one pool from the PVE status tree. */
export function vdevsFromPveDetail(children: PveNode[], poolName: string, driveByAlias: Map<string, string>): VdevNode[] {
  const out: VdevNode[] = [];
  for (const c of children) {
    const cls = SECTION[c.name];
    if (cls) out.push(...(c.children ?? []).map((v) => nodeOf(v, cls, driveByAlias)));
    else if (c.name === poolName) out.push(...(c.children ?? []).map((v) => nodeOf(v, 'data', driveByAlias)));
    else out.push(nodeOf(c, 'data', driveByAlias));
  }
  return out;
}

function driveOf(d: z.infer<typeof PveDisk>): Drive {
  const type = (d.type ?? '').toLowerCase();
  const wwn = d.wwn && d.wwn !== 'unknown' && !/^0x0+$/.test(d.wwn) ? d.wwn : null;
  const serial = d.serial && !/^0+$/.test(d.serial) ? d.serial : null;
  const remaining = typeof d.wearout === 'number' ? d.wearout : d.wearout && /^\d+$/.test(d.wearout) ? Number(d.wearout) : null;
  const health = (d.health ?? '').toUpperCase();
  const rpm = d.rpm ?? null;
  return {
    id: driveIdOf({ wwn, model: d.model ?? null, serial, devicePath: d.devpath }),
    devPath: d.devpath,
    aliases: [d.devpath, ...(d.by_id_link ? [d.by_id_link] : [])],
    byIdPath: d.by_id_link ?? null,
    model: d.model ?? null,
    serial,
    wwn,
    firmware: null,
    sizeBytes: d.size ?? null,
    rotational: type === 'hdd' ? true : type === 'ssd' || type === 'nvme' ? false : null,
    rpm: rpm !== null && rpm > 0 ? rpm : null,
    media: type === 'hdd' ? 'hdd' : type === 'ssd' ? 'ssd' : type === 'nvme' ? 'nvme' : 'unknown',
    transport: type === 'nvme' ? 'nvme' : type === 'usb' ? 'usb' : 'unknown',
    logicalSectorSize: null,
    physicalSectorSize: null,
    optane: matchOptane(d.model ?? null),
    powerLossProtection: 'unknown',
    smartPassed: health === 'PASSED' || health === 'OK' ? true : health === 'FAILED' ? false : null,
    // PVE reports life REMAINING; the model counts life used.
    wearPct: remaining !== null ? 100 - remaining : null,
    temperatureC: null,
    powerOnHours: null,
    mediaErrors: null,
    reallocatedSectors: null,
    pendingSectors: null,
    sources: ['proxmox'],
  };
}

/** Which rules stay undecided without dataset properties (said in the gap; the engine enforces it). */
/** Why a pool's detail is not asked: PVE's API takes {name} as a pve-storage-id (remote/pve-ids.ts). */
export const PVE_STORAGE_ID_REFUSAL = 'the Proxmox VE API takes the pool name in /disks/zfs/{name} as a storage id (2 or more characters: a letter, then letters, digits, - _ ., ending in a letter or digit) and refuses this one with HTTP 400';

export const PROXMOX_DATASET_GAP =
  'the Proxmox VE API has no dataset or zvol properties (recordsize, volblocksize, sync, compression, special_small_blocks, logbias): every rule that needs the Datasets artifact stays undecided (needs-artifact) — e.g. zvol-buffered-async, sync-disabled, recordsize-too-small, compression-off, special-small-blocks-value, raidz-small-block-padding. Install ZFS Advisor on the node itself for those.';

export function inventoryFromProxmox(a: ProxmoxAnswers, label: string, capturedAt: string): Inventory {
  const list = parseOr(z.array(PveZfs), a.zfsList, `/nodes/${a.node}/disks/zfs`);
  const disks = parseOr(z.array(PveDisk), a.disks, `/nodes/${a.node}/disks/list`);
  const version = z.looseObject({ version: z.string().nullish(), release: z.string().nullish() }).safeParse(a.version);
  const drives = disks.map(driveOf);
  const driveByAlias = new Map<string, string>();
  for (const d of drives) for (const alias of d.aliases) driveByAlias.set(alias, d.id);

  const gaps: Gap[] = [
    { artifact: 'Datasets', source: 'Proxmox VE API', message: PROXMOX_DATASET_GAP, line: null, severity: 'error' },
    { artifact: 'ZilStats', source: 'Proxmox VE API', message: 'ZIL counters are not available through the Proxmox VE API', line: null, severity: 'error' },
    { artifact: 'ArcStats', source: 'Proxmox VE API', message: 'ARC counters are not available through the Proxmox VE API', line: null, severity: 'error' },
    { artifact: 'Host', source: 'Proxmox VE API', message: 'the Proxmox VE API does not report the OpenZFS version', line: null, severity: 'warning' },
  ];

  const pools: Pool[] = list.map((z0) => {
    const detailRaw = a.zfsDetail[z0.name];
    let vdevs: VdevNode[] = [];
    let detail: z.infer<typeof PveDetail> | null = null;
    if (detailRaw === undefined) {
      const refused = a.zfsDetailRefused?.[z0.name];
      gaps.push({
        artifact: 'Pools', source: `/nodes/${a.node}/disks/zfs/${z0.name}`, line: null, severity: 'warning',
        message: refused
          ? `no status tree for pool ${z0.name}: ${refused}; its size and health come from the pool list, its vdevs are unknown (install ZFS Advisor on the node to read them with zpool)`
          : `no status tree for pool ${z0.name}`,
      });
    } else {
      detail = parseOr(PveDetail, detailRaw, `/nodes/${a.node}/disks/zfs/${z0.name}`);
      vdevs = vdevsFromPveDetail(detail.children, z0.name, driveByAlias);
    }
    return {
      name: z0.name,
      guid: null,
      state: detail?.state ?? z0.health ?? null,
      status: detail?.status ?? null,
      action: detail?.action ?? null,
      see: null,
      scan: detail?.scan ? { kind: /resilver/.test(detail.scan) ? 'resilver' : /scrub/.test(detail.scan) ? 'scrub' : 'unknown', state: /in progress/.test(detail.scan) ? 'in-progress' : /repaired|resilvered/.test(detail.scan) ? 'finished' : /canceled/.test(detail.scan) ? 'canceled' : 'unknown', raw: detail.scan, startedAt: null, endedAt: null, errors: (() => { const m = /with (\d+) errors/.exec(detail.scan); return m ? Number(m[1]) : null; })(), progressPct: null } : null,
      errors: detail?.errors ?? null,
      errorFiles: [],
      vdevs,
      sizeBytes: z0.size ?? null,
      allocBytes: z0.alloc ?? null,
      freeBytes: z0.free ?? null,
      fragmentationPct: z0.frag ?? null,
      capacityPct: z0.size && z0.alloc !== null && z0.alloc !== undefined ? Math.round((z0.alloc / z0.size) * 100) : null,
      dedupRatio: z0.dedup ?? null,
      ashift: null,
      features: {},
      properties: {},
    };
  });

  return {
    schemaVersion: INVENTORY_SCHEMA_VERSION,
    source: { kind: 'proxmox', label, capturedAt, demo: false, redacted: false },
    host: {
      hostname: a.node,
      platform: 'linux',
      distribution: 'proxmox-ve',
      distributionVersion: version.success ? version.data.version ?? null : null,
      kernel: null,
      zfs: { userland: null, kernel: null, openzfs: null, flavour: 'openzfs' },
      memoryBytes: null,
    },
    pools,
    drives,
    datasets: [],
    zil: null,
    arc: null,
    gaps,
  };
}

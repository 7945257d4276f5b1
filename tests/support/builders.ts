/**
 * Small factories for rule tests: build inventory pieces with every field present and explicit
 * defaults, so a test states only what matters to it. Shapes come from the zod model.
 */
import type { Dataset, Drive, Host, Pool, VdevClass, VdevNode, VdevType } from '../../server/src/model/inventory.ts';

export function leaf(name: string, opts: Partial<VdevNode> = {}): VdevNode {
  return {
    class: 'data', type: name.startsWith('/') && !name.startsWith('/dev/') ? 'file' : 'disk', name,
    state: 'ONLINE', read: 0, write: 0, cksum: 0, note: null, children: [], ...opts,
  };
}

export function group(type: VdevType, name: string, children: VdevNode[], opts: Partial<VdevNode> = {}): VdevNode {
  const cls: VdevClass = opts.class ?? 'data';
  return {
    class: cls, type, name, state: 'ONLINE', read: 0, write: 0, cksum: 0, note: null,
    children: children.map((c) => ({ ...c, class: cls })), ...opts,
  };
}

/** Re-labels a vdev (and its children) into an allocation class. */
export function inClass(cls: VdevClass, node: VdevNode): VdevNode {
  return { ...node, class: cls, children: node.children.map((c) => inClass(cls, c)) };
}

export function pool(name: string, vdevs: VdevNode[], opts: Partial<Pool> = {}): Pool {
  return {
    name, guid: null, state: 'ONLINE', status: null, action: null, see: null,
    scan: { kind: 'scrub', state: 'finished', raw: 'scrub repaired 0B', startedAt: null, endedAt: new Date().toISOString(), errors: 0, progressPct: null },
    errors: 'No known data errors', errorFiles: [], vdevs,
    sizeBytes: 8e12, allocBytes: 2e12, freeBytes: 6e12, fragmentationPct: 5, capacityPct: 25, dedupRatio: 1,
    ashift: 12, features: {}, properties: {}, ...opts,
  };
}

export function drive(id: string, opts: Partial<Drive> = {}): Drive {
  return {
    id, devPath: null, aliases: [], byIdPath: `/dev/disk/by-id/${id}`, model: null, serial: null, wwn: null, firmware: null,
    sizeBytes: 4e12, rotational: true, rpm: 7200, media: 'hdd', transport: 'sata', logicalSectorSize: 512, physicalSectorSize: 4096,
    optane: null, powerLossProtection: 'unknown', smartPassed: true, wearPct: null, temperatureC: 35, powerOnHours: 10000,
    mediaErrors: 0, reallocatedSectors: 0, pendingSectors: 0, sources: ['test'], ...opts,
  };
}

export function dataset(name: string, opts: Partial<Dataset> = {}): Dataset {
  const type = opts.type ?? 'filesystem';
  return {
    name, pool: name.split('/')[0]!, type,
    sync: 'standard', recordsize: type === 'filesystem' ? 131072 : null, volblocksize: type === 'volume' ? 16384 : null,
    volsize: type === 'volume' ? 100e9 : null, compression: 'lz4', compressratio: 1.2, specialSmallBlocks: 0,
    logbias: 'latency', primarycache: 'all', dedup: 'off', usedBytes: 1e9, availableBytes: 1e12, referencedBytes: 1e9,
    quotaBytes: null, mountpoint: type === 'filesystem' ? `/${name}` : null, properties: {}, ...opts,
  };
}

export function host(openzfs: string | null = '2.2.6', opts: Partial<Host> = {}): Host {
  return {
    hostname: 'nas', platform: 'linux', distribution: 'other', distributionVersion: null, kernel: null,
    zfs: { userland: openzfs ? `zfs-${openzfs}-1` : null, kernel: openzfs ? `zfs-kmod-${openzfs}-1` : null, openzfs, flavour: openzfs ? 'openzfs' : 'unknown' },
    memoryBytes: 32 * 2 ** 30, ...opts,
  };
}

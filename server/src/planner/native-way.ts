/**
 * The platform's own way of changing a pool (issue 26 §3). TrueNAS keeps its own record of each
 * pool and its documentation tells users to change pools through the UI or the API, so a plan for
 * a TrueNAS host leads with the UI steps and the middleware request (`pool.update` with the
 * topology: {class: [{type, disks}]}), and marks the `zpool` commands as a fallback. Proxmox VE
 * documents the shell itself (its UI does not add vdevs to a pool): there the commands are the way.
 * Written here once for add-vdev plans and for the findings' actions (assess.ts).
 */
import type { Drive, Host } from '../model/inventory.ts';
import type { Citation, NativeWay, PlatformRequest } from '../model/finding.ts';

export type NativePlatform = NativeWay['platform'];
type Section = 'data' | 'log' | 'special' | 'dedup' | 'cache' | 'spare';
type VdevType = 'STRIPE' | 'MIRROR' | 'RAIDZ1' | 'RAIDZ2' | 'RAIDZ3';

/** One vdev to add, as TrueNAS's topology takes it: disks by their TrueNAS names (`nvd1`, `sdb`). */
export interface VdevAddition { section: Section; type: VdevType; disks: string[] }

const CORE_DOC: Citation = { source: 'TrueNAS CORE documentation: Managing Pools (Add Vdevs)', locator: null, url: 'https://github.com/truenas/documentation/blob/master/content/CORE/CORETutorials/Storage/Pools/ManagingPools.md' };
const SCALE_DOC: Citation = { source: 'TrueNAS SCALE documentation: Managing Pools (Manage Devices → Add VDEV)', locator: null, url: 'https://github.com/truenas/documentation/blob/master/content/SCALE/SCALETutorials/Storage/ManagePoolsScale.md' };
const API_DOC: Citation = { source: 'TrueNAS middleware: pool.update (PoolUpdateArgs: id, {topology})', locator: 'api/v25_04_0/pool.py', url: 'https://github.com/truenas/middleware/blob/master/src/middlewared/middlewared/api/v25_04_0/pool.py' };
const PVE_DOC: Citation = { source: 'Proxmox VE Administration Guide: ZFS on Linux', locator: 'Add cache and log to an existing pool', url: 'https://pve.proxmox.com/pve-docs/chapter-sysadmin.html#chapter_zfs' };

/** The platform whose own way applies, from the inventory's distribution; null for plain Linux/FreeBSD. */
export function nativePlatform(host: Host | null | undefined): NativePlatform | null {
  const d = host?.distribution;
  return d === 'truenas-core' || d === 'truenas-scale' || d === 'proxmox-ve' ? d : null;
}

const NAMES: Record<NativePlatform, string> = { 'truenas-core': 'TrueNAS CORE', 'truenas-scale': 'TrueNAS SCALE', 'proxmox-ve': 'Proxmox VE' };
const UI_CLASS: Record<Section, string> = { data: 'Data', log: 'Log', special: 'Metadata', dedup: 'Dedup', cache: 'Cache', spare: 'Spare' };
const UI_LAYOUT: Record<VdevType, string> = { STRIPE: 'Stripe', MIRROR: 'Mirror', RAIDZ1: 'RAIDZ1', RAIDZ2: 'RAIDZ2', RAIDZ3: 'RAIDZ3' };
const json = (v: unknown): string => JSON.stringify(v);
const shq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** TrueNAS names disks as disk.query does (`nvd1`, `da3`, `sdb`): the kernel name behind a path. */
export function truenasDiskName(path: string, drives: readonly Drive[] = []): string {
  const placeholder = /<[^>]+>/.exec(path);
  if (placeholder) return placeholder[0];
  const drive = drives.find((d) => d.byIdPath === path || d.devPath === path || d.aliases.includes(path));
  const kernel = drive?.devPath ?? (path.startsWith('/dev/disk/') ? null : path);
  return (kernel ?? path).slice((kernel ?? path).lastIndexOf('/') + 1);
}

function truenasRequests(pool: string, additions: readonly VdevAddition[]): PlatformRequest[] {
  const topology: Record<string, unknown> = {};
  for (const a of additions) {
    if (a.section === 'spare') topology.spares = [...((topology.spares as string[] | undefined) ?? []), ...a.disks];
    else topology[a.section] = [...((topology[a.section] as unknown[] | undefined) ?? []), { type: a.type, disks: a.disks }];
  }
  // The id is TrueNAS's own number for the pool, which only TrueNAS knows: the first request asks.
  const id = 'POOL_ID';
  const filter = [['name', '=', pool]];
  return [
    {
      purpose: `Ask TrueNAS for the pool ${pool}: its "id" goes where the next request says POOL_ID.`,
      method: 'pool.query', params: [filter, { get: true }],
      rest: { method: 'GET', path: `/api/v2.0/pool?name=${encodeURIComponent(pool)}`, body: null },
      midclt: `midclt call pool.query ${shq(json(filter))} ${shq(json({ get: true }))}`,
    },
    {
      purpose: `Add the vdev${additions.length > 1 ? 's' : ''} to ${pool} (a job), POOL_ID replaced by that id; TrueNAS prepares the disks and records the change itself.`,
      method: 'pool.update', params: [id, { topology }],
      rest: { method: 'PUT', path: `/api/v2.0/pool/id/${id}`, body: { topology } },
      midclt: `midclt call -job pool.update ${id} ${shq(json({ topology }))}`,
    },
  ];
}

function truenasUiSteps(platform: 'truenas-core' | 'truenas-scale', pool: string, additions: readonly VdevAddition[]): string[] {
  const open = platform === 'truenas-core'
    ? `Open Storage → Pools, click the gear of ${pool} and choose Add Vdevs (the Pool Manager opens).`
    : `Open Storage, find ${pool} and click Manage Devices, then Add VDEV.`;
  const each = additions.map((a) => `${platform === 'truenas-core' ? 'Click ADD VDEV, choose' : 'Choose'} ${UI_CLASS[a.section]}, give it the disk${a.disks.length > 1 ? 's' : ''} ${a.disks.join(', ')} and the layout ${UI_LAYOUT[a.type]}.`);
  const finish = platform === 'truenas-core' ? 'Click ADD VDEVS and confirm.' : 'Review the new layout, then confirm to update the pool.';
  return [open, ...each, finish];
}

/** For a plan that adds whole-device vdevs to `pool` (add-vdev.ts), or null off TrueNAS/Proxmox VE. */
export function nativeWayForAdd(host: Host | null | undefined, pool: string, additions: readonly VdevAddition[], opts: { partitioned?: boolean } = {}): NativeWay | null {
  const platform = nativePlatform(host);
  if (platform === null) return null;
  if (platform === 'proxmox-ve') return proxmoxWay();
  const doc = platform === 'truenas-core' ? CORE_DOC : SCALE_DOC;
  if (opts.partitioned) {
    return {
      platform, platformName: NAMES[platform], uiSteps: [], api: [], shell: 'only', citations: [doc, API_DOC],
      summary: 'TrueNAS\'s UI and API add whole disks only (TrueNAS partitions them itself): one device split into partitions for several roles has no TrueNAS way, only the shell below, which TrueNAS neither tracks nor supports — on TrueNAS prefer one whole device per role.',
      shellWhy: 'the only way to partition a device for several roles; TrueNAS does not know these partitions, so replace and remove them from the shell too',
    };
  }
  return {
    platform, platformName: NAMES[platform], uiSteps: truenasUiSteps(platform, pool, additions), api: truenasRequests(pool, additions), shell: 'fallback', citations: [doc, API_DOC],
    summary: 'On TrueNAS change pools through its UI or its API: TrueNAS keeps its own record of every pool and its documentation tells users not to change pools from the shell. The shell commands are a fallback.',
    shellWhy: 'zpool on the TrueNAS shell changes the pool behind TrueNAS\'s back (it neither prepares the disks nor records the change); use it only when the UI and the API cannot',
  };
}

function proxmoxWay(): NativeWay {
  return {
    platform: 'proxmox-ve', platformName: NAMES['proxmox-ve'], uiSteps: [], api: [], shell: 'native', citations: [PVE_DOC],
    summary: 'On Proxmox VE the shell is the native way: its documentation adds log, cache and special devices with zpool on the node\'s shell, and its web UI creates pools but does not add vdevs to one.',
    shellWhy: 'run them on the node (Datacenter → the node → Shell, or ssh as root)',
  };
}

const TYPES: Record<string, VdevType> = { mirror: 'MIRROR', raidz: 'RAIDZ1', raidz1: 'RAIDZ1', raidz2: 'RAIDZ2', raidz3: 'RAIDZ3' };
const SECTIONS = new Set(['log', 'special', 'dedup', 'cache', 'spare']);
const TOPOLOGY_VERBS = new Set(['add', 'attach', 'detach', 'remove', 'replace', 'split']);

/** `zpool add [-fgLnP] [-o p=v] POOL SPEC` → the pool and the vdevs; null when it is not one or a part is not written out (`<layout …>`). */
export function parseZpoolAdd(command: string, drives: readonly Drive[] = []): { pool: string; dryRun: boolean; additions: VdevAddition[] } | null {
  const t = command.match(/\S*<[^>]*>\S*|\S+/g) ?? [];
  if (t[0] !== 'zpool' || t[1] !== 'add') return null;
  let i = 2;
  let dryRun = false;
  for (; i < t.length && t[i]!.startsWith('-'); i++) {
    if (t[i] === '-o') i++;
    else if (t[i]!.includes('n')) dryRun = true;
  }
  const pool = t[i++];
  if (!pool || pool.includes('<')) return null;
  const additions: VdevAddition[] = [];
  let section: Section = 'data';
  // The vdev devices are being added to: a class keyword closes it, a type keyword opens one, and
  // bare devices outside one form a stripe (each its own one-disk vdev, as zpool makes them).
  let current: VdevAddition | null = null;
  for (; i < t.length; i++) {
    const w = t[i]!;
    if (SECTIONS.has(w)) { section = w as Section; current = null; continue; }
    if (/^draid/.test(w) || (w.includes('<') && w.includes(' '))) return null;
    const type = TYPES[w];
    if (type) { current = { section, type, disks: [] }; additions.push(current); continue; }
    if (!current) { current = { section, type: 'STRIPE', disks: [] }; additions.push(current); }
    current.disks.push(truenasDiskName(w, drives));
  }
  return additions.length && additions.every((a) => a.disks.length > 0) ? { pool, dryRun, additions } : null;
}

/** For a finding's commands: the platform's way when one of them changes a pool's vdevs; null otherwise. */
export function nativeWayForCommands(host: Host | null | undefined, commands: readonly string[], drives: readonly Drive[] = []): NativeWay | null {
  const platform = nativePlatform(host);
  if (platform === null) return null;
  const topology = commands.filter((c) => { const w = c.trim().split(/\s+/); return w[0] === 'zpool' && TOPOLOGY_VERBS.has(w[1] ?? ''); });
  if (topology.length === 0) return null;
  if (platform === 'proxmox-ve') return proxmoxWay();
  const isDryRun = (c: string) => /^zpool\s+add\s+(-\S+\s+)*-\S*n/.test(c.trim());
  const real = topology.filter((c) => !isDryRun(c));
  const adds = real.map((c) => parseZpoolAdd(c, drives));
  const pools = new Set(adds.map((a) => a?.pool));
  if (real.length > 0 && adds.every((a) => a !== null) && pools.size === 1) {
    return nativeWayForAdd(host, adds[0]!.pool, adds.flatMap((a) => a!.additions));
  }
  // Not all written out (a layout still to choose) or other changes (remove, replace): the UI is
  // still the way, and pool.update takes the vdevs once they are chosen.
  const pool = topology.map((c) => c.trim().split(/\s+/).slice(2).find((w) => !w.startsWith('-') && !w.includes('='))).find(Boolean) ?? 'the pool';
  const doc = platform === 'truenas-core' ? CORE_DOC : SCALE_DOC;
  return {
    platform, platformName: NAMES[platform], api: [], shell: 'fallback', citations: [doc, API_DOC],
    uiSteps: [platform === 'truenas-core'
      ? `Open Storage → Pools, click the gear of ${pool}: Add Vdevs adds vdevs; Status lists the devices with Remove, Replace, Detach.`
      : `Open Storage, find ${pool} and click Manage Devices: Add VDEV adds vdevs; a device's page has Remove, Replace, Detach.`],
    summary: 'On TrueNAS change pools through its UI or its API (pool.update with the topology once the disks are chosen; pool.remove, pool.replace, pool.detach): TrueNAS keeps its own record of every pool and its documentation tells users not to change pools from the shell. The shell commands are a fallback.',
    shellWhy: 'zpool on the TrueNAS shell changes the pool behind TrueNAS\'s back; use it only when the UI and the API cannot',
  };
}

/**
 * The platform's own way of changing a pool (issue 26 §3). TrueNAS keeps its own record of each
 * pool and its documentation tells users to change pools through the UI or the API, so a plan for
 * a TrueNAS host leads with the UI steps and the middleware request (`pool.update` with the
 * topology: {class: [{type, disks}]}), and marks the `zpool` commands as a fallback. Proxmox VE
 * documents the shell itself (its UI does not add vdevs to a pool): there the commands are the way.
 * Written here once for add-vdev plans and for the findings' actions (assess.ts).
 */
import type { Drive, Host, Pool } from '../model/inventory.ts';
import type { Citation, NativeWay, PlatformRequest } from '../model/finding.ts';
import {
  apiHeading, midcltJobFlag, poolUpdateCitation, REFUSAL_CITATION, refusesSingleSpecial, releaseName, SPECIAL_REFUSAL, transports, trueNasRelease, type TrueNasRelease,
} from './native-way-truenas.ts';

export type NativePlatform = NativeWay['platform'];
type Section = 'data' | 'log' | 'special' | 'dedup' | 'cache' | 'spare';
type VdevType = 'STRIPE' | 'MIRROR' | 'RAIDZ1' | 'RAIDZ2' | 'RAIDZ3';

/** One vdev to add, as TrueNAS's topology takes it: disks by their TrueNAS names (`nvd1`, `sdb`). */
export interface VdevAddition { section: Section; type: VdevType; disks: string[] }

const CORE_DOC: Citation = { source: 'TrueNAS CORE documentation: Managing Pools (Add Vdevs)', locator: null, url: 'https://github.com/truenas/documentation/blob/master/content/CORE/CORETutorials/Storage/Pools/ManagingPools.md' };
const SCALE_DOC: Citation = { source: 'TrueNAS SCALE documentation: Managing Pools (Manage Devices → Add VDEV)', locator: null, url: 'https://github.com/truenas/documentation/blob/master/content/SCALE/SCALETutorials/Storage/ManagePoolsScale.md' };
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

const hasParity = (t: string): boolean => /^(mirror|raidz|draid)/i.test(t);

/** TrueNAS's request for the additions: the pool's id when known, else asked first (never a string in the integer). */
function truenasRequests(pool: string, poolId: number | null, additions: readonly VdevAddition[], release: TrueNasRelease): PlatformRequest[] {
  const topology: Record<string, unknown> = {};
  for (const a of additions) {
    if (a.section === 'spare') topology.spares = [...((topology.spares as string[] | undefined) ?? []), ...a.disks];
    else topology[a.section] = [...((topology[a.section] as unknown[] | undefined) ?? []), { type: a.type, disks: a.disks }];
  }
  const t = transports(release);
  const job = midcltJobFlag(release);
  const body = shq(json({ topology }));
  const what = `Add the vdev${additions.length > 1 ? 's' : ''} to ${pool} (a job); TrueNAS prepares the disks and records the change itself.`;
  if (poolId !== null) {
    return [{
      purpose: `${what} ${pool} is pool id ${poolId} on this TrueNAS (pool.query).`,
      method: 'pool.update', params: [poolId, { topology }],
      rest: t.rest === false ? null : { method: 'PUT', path: `/api/v2.0/pool/id/${poolId}`, body: { topology } },
      midclt: `midclt call ${job} pool.update ${poolId} ${body}`,
    }];
  }
  // The id is TrueNAS's own integer for the pool: asked first; on the box the shell fills it in.
  const filter = [['name', '=', pool]];
  const query = `midclt call pool.query ${shq(json(filter))} ${shq(json({ get: true }))}`;
  return [
    {
      purpose: `Ask TrueNAS for the pool ${pool}: the "id" of its answer (an integer) is the first parameter of the next request.`,
      method: 'pool.query', params: [filter, { get: true }],
      rest: t.rest === false ? null : { method: 'GET', path: `/api/v2.0/pool?name=${encodeURIComponent(pool)}`, body: null },
      midclt: query,
    },
    {
      purpose: `${what} Put the id from the previous answer where the request says <id of ${pool}>, as a number; the shell line below fills it in itself (jq reads it).`,
      method: 'pool.update', params: [null, { topology }], poolIdFrom: 0,
      rest: t.rest === false ? null : { method: 'PUT', path: `/api/v2.0/pool/id/<id of ${pool}>`, body: { topology } },
      midclt: `midclt call ${job} pool.update "$(${query} | jq .id)" ${body}`,
    },
  ];
}

/** What this release refuses of the additions (TrueNAS 26+: a special vdev without redundancy under redundant data), or null. */
function truenasRefusal(release: TrueNasRelease, pool: Pool | null, additions: readonly VdevAddition[]): { refused: string; alternative: VdevAddition[] | null } | null {
  if (!refusesSingleSpecial(release) || !pool) return null;
  const dataRedundant = pool.vdevs.some((v) => v.class === 'data' && hasParity(v.type)) || additions.some((a) => a.section === 'data' && a.type !== 'STRIPE');
  if (!dataRedundant) return null;
  const quote = `"${SPECIAL_REFUSAL}"`;
  const existing = pool.vdevs.filter((v) => v.class === 'special' && !hasParity(v.type));
  if (existing.length) {
    return {
      refused: `${releaseName(release)} refuses every pool.update of ${pool} (${quote}): the pool's special vdev ${existing.map((v) => v.name).join(', ')} has no redundancy and its data vdevs have. First give it a mirror partner — in the UI, the device's Extend; through the API, pool.attach — then add.`,
      alternative: null,
    };
  }
  if (!additions.some((a) => a.section === 'special' && a.type === 'STRIPE')) return null;
  const alternative = additions.map((a) => (a.section === 'special' && a.type === 'STRIPE'
    ? { ...a, type: 'MIRROR' as const, disks: a.disks.length > 1 ? a.disks : [...a.disks, '<a second device of the same size>'] }
    : a));
  return {
    refused: `${releaseName(release)} refuses a special vdev of one device when the data vdevs are redundant (${quote}); losing it would lose the pool. The steps below add it as a mirror instead: give it a second device of at least the same size.`,
    alternative,
  };
}

function truenasUiSteps(platform: 'truenas-core' | 'truenas-scale', pool: string, additions: readonly VdevAddition[]): string[] {
  const open = platform === 'truenas-core'
    ? `Open Storage → Pools, click the gear of ${pool} and choose Add Vdevs (the Pool Manager opens).`
    : `Open Storage, find ${pool} and click Manage Devices, then Add VDEV.`;
  const each = additions.map((a) => `${platform === 'truenas-core' ? 'Click ADD VDEV, choose' : 'Choose'} ${UI_CLASS[a.section]}, give it the disk${a.disks.length > 1 ? 's' : ''} ${a.disks.join(', ')} and the layout ${UI_LAYOUT[a.type]}.`);
  const finish = platform === 'truenas-core' ? 'Click ADD VDEVS and confirm.' : 'Review the new layout, then confirm to update the pool.';
  return [open, ...each, finish];
}

/** The release a TrueNAS host runs, from the inventory (system.info over the API, /etc/version in a capture). */
function releaseOf(host: Host | null | undefined, platform: 'truenas-core' | 'truenas-scale'): TrueNasRelease {
  return trueNasRelease(platform, host?.distributionVersion);
}

/** The fields every TrueNAS way carries: the release it is written for and its transports. */
function releaseFields(release: TrueNasRelease): Pick<NativeWay, 'release' | 'apiHeading' | 'jsonRpc'> {
  return { release: releaseName(release), apiHeading: apiHeading(release), jsonRpc: transports(release).jsonRpc };
}

/**
 * For a plan that adds whole-device vdevs to `pool` (add-vdev.ts), or null off TrueNAS/Proxmox VE.
 * Give the pool itself (not only its name) where it is known: its TrueNAS id goes into the request
 * and its data vdevs decide what TrueNAS 26+ refuses.
 */
export function nativeWayForAdd(host: Host | null | undefined, pool: string | Pool, additions: readonly VdevAddition[], opts: { partitioned?: boolean } = {}): NativeWay | null {
  const platform = nativePlatform(host);
  if (platform === null) return null;
  if (platform === 'proxmox-ve') return proxmoxWay();
  const poolObj = typeof pool === 'string' ? null : pool;
  const name = typeof pool === 'string' ? pool : pool.name;
  const release = releaseOf(host, platform);
  const doc = platform === 'truenas-core' ? CORE_DOC : SCALE_DOC;
  const apiDoc = poolUpdateCitation(release);
  if (opts.partitioned) {
    return {
      platform, platformName: NAMES[platform], uiSteps: [], api: [], shell: 'only', citations: [doc, apiDoc], ...releaseFields(release), refused: null,
      summary: 'TrueNAS\'s UI and API add whole disks only (TrueNAS partitions them itself): one device split into partitions for several roles has no TrueNAS way, only the shell below, which TrueNAS neither tracks nor supports — on TrueNAS prefer one whole device per role.',
      shellWhy: 'the only way to partition a device for several roles; TrueNAS does not know these partitions, so replace and remove them from the shell too',
    };
  }
  const refusal = truenasRefusal(release, poolObj, additions);
  const unknownRelease = refusesSingleSpecial(release) === null && poolObj && additions.some((a) => a.section === 'special' && a.type === 'STRIPE')
    && poolObj.vdevs.some((v) => v.class === 'data' && hasParity(v.type));
  const summary = 'On TrueNAS change pools through its UI or its API: TrueNAS keeps its own record of every pool and its documentation tells users not to change pools from the shell. The shell commands are a fallback.'
    + (unknownRelease ? ` The TrueNAS version was not read: TrueNAS 26 and later refuse this special vdev of one device under redundant data vdevs ("${SPECIAL_REFUSAL}"); there add it as a mirror.` : '');
  const citations = [doc, apiDoc, ...(refusal || unknownRelease ? [REFUSAL_CITATION] : [])];
  if (refusal && refusal.alternative === null) {
    return { platform, platformName: NAMES[platform], uiSteps: [], api: [], shell: 'fallback', citations, ...releaseFields(release), refused: refusal.refused, summary, shellWhy: SHELL_WHY };
  }
  const steps = refusal?.alternative ?? additions;
  const poolId = typeof poolObj?.platformId === 'number' ? poolObj.platformId : null;
  return {
    platform, platformName: NAMES[platform], uiSteps: truenasUiSteps(platform, name, steps), api: truenasRequests(name, poolId, steps, release), shell: 'fallback', citations,
    ...releaseFields(release), refused: refusal?.refused ?? null, summary,
    shellWhy: refusal ? `${SHELL_WHY}; ${releaseName(release)} refuses this layout through its UI and API for a reason — do not force it from the shell` : SHELL_WHY,
  };
}

const SHELL_WHY = 'zpool on the TrueNAS shell changes the pool behind TrueNAS\'s back (it neither prepares the disks nor records the change); use it only when the UI and the API cannot';

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
export function nativeWayForCommands(host: Host | null | undefined, commands: readonly string[], drives: readonly Drive[] = [], pools: readonly Pool[] = []): NativeWay | null {
  const platform = nativePlatform(host);
  if (platform === null) return null;
  const topology = commands.filter((c) => { const w = c.trim().split(/\s+/); return w[0] === 'zpool' && TOPOLOGY_VERBS.has(w[1] ?? ''); });
  if (topology.length === 0) return null;
  if (platform === 'proxmox-ve') return proxmoxWay();
  const isDryRun = (c: string) => /^zpool\s+add\s+(-\S+\s+)*-\S*n/.test(c.trim());
  const real = topology.filter((c) => !isDryRun(c));
  const adds = real.map((c) => parseZpoolAdd(c, drives));
  const poolNames = new Set(adds.map((a) => a?.pool));
  if (real.length > 0 && adds.every((a) => a !== null) && poolNames.size === 1) {
    const name = adds[0]!.pool;
    return nativeWayForAdd(host, pools.find((p) => p.name === name) ?? name, adds.flatMap((a) => a!.additions));
  }
  // Not all written out (a layout still to choose) or other changes (remove, replace): the UI is
  // still the way, and pool.update takes the vdevs once they are chosen.
  const pool = topology.map((c) => c.trim().split(/\s+/).slice(2).find((w) => !w.startsWith('-') && !w.includes('='))).find(Boolean) ?? 'the pool';
  const doc = platform === 'truenas-core' ? CORE_DOC : SCALE_DOC;
  const release = releaseOf(host, platform);
  return {
    platform, platformName: NAMES[platform], api: [], shell: 'fallback', citations: [doc, poolUpdateCitation(release)], ...releaseFields(release), refused: null,
    uiSteps: [platform === 'truenas-core'
      ? `Open Storage → Pools, click the gear of ${pool}: Add Vdevs adds vdevs; Status lists the devices with Remove, Replace, Detach.`
      : `Open Storage, find ${pool} and click Manage Devices: Add VDEV adds vdevs; a device's page has Remove, Replace, Detach.`],
    summary: 'On TrueNAS change pools through its UI or its API (pool.update with the topology once the disks are chosen; pool.remove, pool.replace, pool.detach): TrueNAS keeps its own record of every pool and its documentation tells users not to change pools from the shell. The shell commands are a fallback.',
    shellWhy: 'zpool on the TrueNAS shell changes the pool behind TrueNAS\'s back; use it only when the UI and the API cannot',
  };
}

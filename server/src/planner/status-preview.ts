/**
 * Renders a pool's vdev tree the way `zpool status` prints its config section, from our own model
 * (issue 11: never from `zpool add -n`, which has mis-drawn log/special vdevs). Sections follow
 * OpenZFS's order: data, dedup, special, logs, cache, spares.
 */
import type { VdevClass, VdevNode } from '../model/inventory.ts';

const SECTION: Partial<Record<VdevClass, string>> = { dedup: 'dedup', special: 'special', log: 'logs', cache: 'cache', spare: 'spares' };
const ORDER: VdevClass[] = ['data', 'dedup', 'special', 'log', 'cache', 'spare'];

/** The name zpool prints for a device path: /dev/disk/by-*\/X → X, /dev/X → X, files keep their path. */
export function displayName(path: string): string {
  const byId = /^\/dev\/disk\/by-[^/]+\/(.+)$/.exec(path);
  if (byId) return byId[1]!;
  if (path.startsWith('/dev/')) return path.slice(5);
  return path;
}

export function renderStatusConfig(pool: string, vdevs: readonly VdevNode[]): string {
  const rows: { indent: number; name: string; state: string | null; counters: boolean }[] = [];
  rows.push({ indent: 0, name: pool, state: 'ONLINE', counters: true });
  const walk = (v: VdevNode, indent: number) => {
    const spare = v.class === 'spare';
    rows.push({ indent, name: v.name, state: spare ? 'AVAIL' : (v.state ?? 'ONLINE'), counters: !spare });
    for (const c of v.children) walk(c, indent + 2);
  };
  for (const cls of ORDER) {
    const vs = vdevs.filter((v) => v.class === cls);
    if (vs.length === 0) continue;
    if (cls !== 'data') rows.push({ indent: 0, name: SECTION[cls]!, state: null, counters: false });
    for (const v of vs) walk(v, 2);
  }
  const width = Math.max(4, ...rows.map((r) => r.indent + r.name.length)) + 2;
  const line = (r: (typeof rows)[number]) => {
    const name = `${' '.repeat(r.indent)}${r.name}`;
    if (r.state === null) return `\t${name}`;
    const base = `\t${name.padEnd(width)} ${r.state.padEnd(8)}`;
    return r.counters ? `${base} ${'0'.padStart(5)} ${'0'.padStart(5)} ${'0'.padStart(5)}` : base;
  };
  return [`\t${'NAME'.padEnd(width)} STATE     READ WRITE CKSUM`, ...rows.map(line)].join('\n');
}

/** A whole `zpool status` block (pool, state, config, errors) that our own parser reads back. */
export function renderStatus(pool: string, vdevs: readonly VdevNode[]): string {
  return [`  pool: ${pool}`, ' state: ONLINE', 'config:', '', renderStatusConfig(pool, vdevs), '', 'errors: No known data errors', ''].join('\n');
}

/**
 * A pool's vdev tree as plain text, the way people paste `zpool status` into a forum but
 * with explicit branches: data vdevs under the pool, then one group per class (logs, special,
 * dedup, cache, spares) as `zpool status` orders them.
 */
import type { VdevClass, VdevNode } from '../model/inventory.ts';

const GROUP_NAMES: Record<Exclude<VdevClass, 'data'>, string> = {
  log: 'logs', special: 'special', dedup: 'dedup', cache: 'cache', spare: 'spares',
};
const GROUP_ORDER: Exclude<VdevClass, 'data'>[] = ['log', 'dedup', 'special', 'cache', 'spare'];

function label(n: VdevNode): string {
  const parts = [n.name];
  // `mirror-0` already says mirror; a bare `draid2:4d:...` name says draid.
  if (n.type !== 'disk' && n.type !== 'file' && !n.name.startsWith(n.type)) parts.push(`[${n.type}]`);
  if (n.state) parts.push(n.state);
  const errs = [n.read, n.write, n.cksum];
  if (errs.some((e) => e !== null && e > 0)) parts.push(`errors r/w/c ${errs.map((e) => e ?? '-').join('/')}`);
  if (n.note) parts.push(n.note);
  return parts.join('  ');
}

interface TreeItem { text: string; children: TreeItem[] }

const itemOf = (n: VdevNode): TreeItem => ({ text: label(n), children: n.children.map(itemOf) });

function draw(items: TreeItem[], prefix: string, out: string[]): void {
  items.forEach((it, i) => {
    const last = i === items.length - 1;
    out.push(`${prefix}${last ? '└─ ' : '├─ '}${it.text}`);
    draw(it.children, `${prefix}${last ? '   ' : '│  '}`, out);
  });
}

/** `vdevTreeText('tank', 'ONLINE', vdevs)` → multi-line text without a trailing newline. */
export function vdevTreeText(pool: string, state: string | null, vdevs: VdevNode[]): string {
  const items: TreeItem[] = vdevs.filter((v) => v.class === 'data').map(itemOf);
  for (const cls of GROUP_ORDER) {
    const members = vdevs.filter((v) => v.class === cls);
    if (members.length > 0) items.push({ text: GROUP_NAMES[cls], children: members.map(itemOf) });
  }
  const out = [state ? `${pool}  ${state}` : pool];
  draw(items, '', out);
  return out.join('\n');
}

/**
 * Partition tables of the drives (issue 17 §4): a vdev built on partitions (one Optane for SLOG +
 * special + L2ARC, reference 004) is as large as its partition, not its disk. Linux: the `part`
 * children of each disk in `lsblk -J -O -b`; FreeBSD: `gpart list` (geom part list). Each
 * partition carries every name a pool leaf may use for it, so leaves resolve to it.
 */
import type { Partition } from '../model/inventory.ts';
import { flattenLsblk, type LsblkDevice } from '../parsers/lsblk.ts';
import type { GpartGeom } from '../parsers/gpart-list.ts';

/** The trailing number of a partition name (nvme0n1p2 → 2, sda1 → 1). */
const indexOf = (name: string): number | null => {
  const m = /(\d+)$/.exec(name);
  return m ? Number(m[1]) : null;
};

/** Partitions of one lsblk disk, with `by-id` links that point at them (link → target base name). */
/** by-id link names per target device, built once per links map (a large host has a thousand links). */
const linksByTarget = new WeakMap<ReadonlyMap<string, string>, Map<string, string[]>>();
function linksTo(links: ReadonlyMap<string, string>, target: string): string[] {
  let inverted = linksByTarget.get(links);
  if (!inverted) {
    inverted = new Map();
    for (const [link, t] of links) {
      const list = inverted.get(t);
      if (list) list.push(link); else inverted.set(t, [link]);
    }
    linksByTarget.set(links, inverted);
  }
  return inverted.get(target) ?? [];
}

export function partitionsFromLsblk(disk: LsblkDevice, links: ReadonlyMap<string, string>): Partition[] {
  return flattenLsblk(disk.children).filter((c) => c.type === 'part').map((c) => {
    const byId = linksTo(links, c.name).map((link) => `/dev/disk/by-id/${link}`).sort();
    const aliases = [c.path, `/dev/${c.name}`, ...(c.partuuid ? [`/dev/disk/by-partuuid/${c.partuuid}`, c.partuuid] : []), ...byId];
    return {
      name: c.name,
      index: indexOf(c.name),
      sizeBytes: c.sizeBytes,
      label: c.partlabel,
      uuid: c.partuuid,
      type: null,
      aliases: [...new Set(aliases)],
    };
  });
}

/** Partitions of one FreeBSD disk from `gpart list`: names nvd1p1 with gpt/<label> and gptid/<uuid> aliases. */
export function partitionsFromGpart(geom: GpartGeom): Partition[] {
  return geom.providers.map((p) => ({
    name: p.name,
    index: p.index ?? indexOf(p.name),
    sizeBytes: p.sizeBytes,
    label: p.label,
    uuid: p.rawuuid,
    type: p.type,
    aliases: [...new Set([`/dev/${p.name}`, ...(p.label ? [`/dev/gpt/${p.label}`, `gpt/${p.label}`] : []), ...(p.rawuuid ? [`/dev/gptid/${p.rawuuid}`, `gptid/${p.rawuuid}`] : [])])],
  }));
}

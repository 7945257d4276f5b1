/**
 * Current by itself (issue 38 §2): a pool's layout as a few comparable lines, and what changed
 * between two layouts in words. Pure. The layout is what an added or removed vdev, a new or
 * destroyed pool, or an attached or detached disk changes — not states, error counters, scans or
 * space, which change all the time without the assessment being out of date in its advice.
 * Leaves are compared by their last path component (a `zpool status -P` path and the name
 * `zpool status -j` or zfs-fuse print are the same device).
 */
import { z } from 'zod';
import type { VdevNode } from '../model/inventory.ts';
import { baseName } from '../gather/device-names.ts';

interface PoolLike { name: string; vdevs: readonly VdevNode[] }

/** A host's pools as read now (gather/live-pools.ts), or why they could not be read. */
export type PoolsReading = { ok: true; pools: { name: string; vdevs: VdevNode[] }[] } | { ok: false; reason: string };

/** One top-level vdev in words: "log mirror (nvme0n1, nvme1n1)", "data raidz2 (sda, sdb, sdc, sdd)", "cache sde". */
export function vdevWords(v: VdevNode): string {
  const kids = v.children.map((c) => (c.children.length ? `${c.type} (${c.children.map((g) => baseName(g.name)).join(', ')})` : baseName(c.name)));
  const what = v.children.length ? `${v.type} (${kids.join(', ')})` : baseName(v.name);
  return `${v.class} ${what}`;
}

/** pool name → its top-level vdevs in words, sorted (the order ZFS prints is not the change). */
export function layoutOf(pools: readonly PoolLike[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of [...pools].sort((a, b) => a.name.localeCompare(b.name))) out[p.name] = p.vdevs.map(vdevWords).sort();
  return out;
}

/** What changed from `before` to `now`, one sentence each; empty when the layouts are equal. */
export function layoutChanges(before: Record<string, string[]>, now: Record<string, string[]>): string[] {
  const out: string[] = [];
  for (const name of Object.keys(now)) if (!(name in before)) out.push(`pool ${name} appeared`);
  for (const name of Object.keys(before)) if (!(name in now)) out.push(`pool ${name} is gone`);
  for (const [name, vdevs] of Object.entries(now)) {
    const had = before[name];
    if (!had) continue;
    const was = new Set(had);
    const is = new Set(vdevs);
    for (const v of vdevs) if (!was.has(v)) out.push(`${name}: ${v} added`);
    for (const v of had) if (!is.has(v)) out.push(`${name}: ${v} removed`);
  }
  return out;
}

/** What the Overview shows about how current the stored assessment is (GET /api/hosts/:hostId/freshness). */
export const Freshness = z.object({
  /**
   * current: the pools are laid out as the newest assessment read them; changed: they are not (and
   * `refreshing` says whether the app is re-assessing); unknown: not checked (another host, no
   * assessment yet, or `zpool` could not be read — `reason` says which).
   */
  state: z.enum(['current', 'changed', 'unknown']),
  /** When the layout was last read on the host (ISO). */
  checkedAt: z.string().nullable(),
  /** The assessment compared against. */
  assessmentId: z.number().int().nullable(),
  /** What changed since that assessment, one sentence each ("tank: log mirror (nvme0n1, nvme1n1) added"). */
  changes: z.array(z.string()),
  /** A re-assessment the change started is running. */
  refreshing: z.boolean(),
  /** The last re-assessment a change started: when it ended, what it was for, and its id (or its error). */
  lastRefresh: z.object({ at: z.string(), changes: z.array(z.string()), assessmentId: z.number().int().nullable(), error: z.string().nullable() }).nullable(),
  /** Why the state is unknown. */
  reason: z.string().nullable(),
});
export type Freshness = z.infer<typeof Freshness>;

/**
 * dRAID vdev names as `zpool status` prints them: `draid<parity>:<data>d:<children>c:<spares>s-<index>`,
 * e.g. `draid2:4d:84c:4s-0`. Returns the geometry, or null for anything that is not a dRAID name
 * or is geometrically impossible (data + parity must fit in children − spares).
 */
import { DraidConfig } from '../model/inventory.ts';

const DRAID_NAME = /^draid([1-3]):(\d+)d:(\d+)c:(\d+)s(?:-\d+)?$/;

export function parseDraidName(name: string): DraidConfig | null {
  const m = DRAID_NAME.exec(name.trim());
  if (!m) return null;
  const [parity, data, children, spares] = [m[1], m[2], m[3], m[4]].map((s) => Number(s)) as [number, number, number, number];
  if (data < 1 || children < 1 || data + parity > children - spares) return null;
  const out = DraidConfig.safeParse({ parity, data, children, spares });
  return out.success ? out.data : null;
}

/**
 * Distributed-spare names of dRAID (`draid<parity>-<vdev>-<spare>`, e.g. `draid1-0-0`): virtual
 * devices with no drive behind them, listed under `spares` and inside `spare-N` groups.
 */
export const isDraidSpareName = (name: string): boolean => /^draid[1-3]-\d+-\d+$/.test(name);

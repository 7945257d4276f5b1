/**
 * A pool layout as the planner reasons about it: the shape of the data vdevs only
 * (log/special/cache are planned separately in add-vdev.ts).
 */
import { z } from 'zod';

export const LayoutSpec = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stripe'), disks: z.number().int().positive() }),
  z.object({ kind: z.literal('mirror'), ways: z.number().int().min(2), vdevs: z.number().int().positive() }),
  z.object({
    kind: z.literal('raidz'),
    parity: z.number().int().min(1).max(3),
    width: z.number().int().min(2),
    vdevs: z.number().int().positive(),
  }),
  z.object({
    kind: z.literal('draid'),
    parity: z.number().int().min(1).max(3),
    data: z.number().int().positive(),
    children: z.number().int().positive(),
    spares: z.number().int().nonnegative(),
  }),
]);
export type LayoutSpec = z.infer<typeof LayoutSpec>;

/** Disks the layout puts into vdevs (dRAID's distributed spares included: they are children). */
export function disksUsed(spec: LayoutSpec): number {
  switch (spec.kind) {
    case 'stripe': return spec.disks;
    case 'mirror': return spec.ways * spec.vdevs;
    case 'raidz': return spec.width * spec.vdevs;
    case 'draid': return spec.children;
  }
}

/** Number of top-level vdevs. */
export function topLevelVdevs(spec: LayoutSpec): number {
  switch (spec.kind) {
    case 'stripe': return spec.disks;
    case 'mirror': case 'raidz': return spec.vdevs;
    case 'draid': return 1;
  }
}

/** Disks that may fail in one top-level vdev without data loss. */
export function tolerancePerVdev(spec: LayoutSpec): number {
  switch (spec.kind) {
    case 'stripe': return 0;
    case 'mirror': return spec.ways - 1;
    case 'raidz': case 'draid': return spec.parity;
  }
}

/** A label people recognise: "3 × raidz2 (6 wide)", "12 × mirror (2-way)", "draid2:8d:24c:1s". */
export function layoutLabel(spec: LayoutSpec): string {
  switch (spec.kind) {
    case 'stripe': return `stripe of ${spec.disks}`;
    case 'mirror': return `${spec.vdevs} × mirror (${spec.ways}-way)`;
    case 'raidz': return `${spec.vdevs} × raidz${spec.parity} (${spec.width} wide)`;
    case 'draid': return `draid${spec.parity}:${spec.data}d:${spec.children}c:${spec.spares}s`;
  }
}

/** The vdev part of `zpool create POOL …` with placeholder disk names d1…dN. */
export function createVdevArgs(spec: LayoutSpec, disks: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  const take = (n: number) => { const s = disks.slice(i, i + n); i += n; return s; };
  switch (spec.kind) {
    case 'stripe': out.push(...take(spec.disks)); break;
    case 'mirror': for (let v = 0; v < spec.vdevs; v++) out.push('mirror', ...take(spec.ways)); break;
    case 'raidz': for (let v = 0; v < spec.vdevs; v++) out.push(`raidz${spec.parity}`, ...take(spec.width)); break;
    case 'draid': out.push(`draid${spec.parity}:${spec.data}d:${spec.children}c:${spec.spares}s`, ...take(spec.children)); break;
  }
  return out;
}

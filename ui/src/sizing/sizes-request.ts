/**
 * The sizing form: which datasets can be walked (mounted file systems from the inventory) and the
 * request body for `startSizes`, checked the way the server's schema checks it so the button is
 * disabled with a reason instead of answering 400.
 */
import type { BodyOf } from '../../../server/src/api/contract.ts';
import type { Dataset } from '../../../server/src/model/inventory.ts';

export type SizesBody = BodyOf<'startSizes'>;

export interface WalkTarget {
  name: string;
  label: string;
}

/** File systems with a real mountpoint (zvols and unmounted datasets cannot be walked). */
export function walkTargets(datasets: readonly Dataset[]): WalkTarget[] {
  return datasets
    .filter((d) => d.type === 'filesystem' && d.mountpoint !== null && d.mountpoint.startsWith('/'))
    .map((d) => ({ name: d.name, label: `${d.name} (${d.mountpoint})` }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** recordsize choices; 0 = let the server use the dataset's own. */
export const RECORDSIZE_CHOICES = [0, 16384, 65536, 131072, 262144, 1048576] as const;

export interface SizesForm {
  kind: 'dataset' | 'path';
  dataset: string;
  path: string;
  /** 0 = the dataset's / the pool's. */
  recordsize: number;
  ashift: number;
  lowPriority: boolean;
}

export function sizesRequest(f: SizesForm): { ok: true; value: SizesBody } | { ok: false; message: string } {
  const extra = {
    ...(f.recordsize > 0 ? { recordsize: f.recordsize } : {}),
    ...(f.ashift > 0 ? { ashift: f.ashift } : {}),
    lowPriority: f.lowPriority,
  };
  if (f.kind === 'dataset') {
    if (!f.dataset) return { ok: false, message: 'Choose a dataset.' };
    return { ok: true, value: { dataset: f.dataset, ...extra } };
  }
  const p = f.path.trim();
  if (!p.startsWith('/')) return { ok: false, message: 'The path must be absolute (start with /).' };
  if (p.split('/').includes('..')) return { ok: false, message: 'The path must not contain "..".' };
  return { ok: true, value: { path: p, ...extra } };
}

import type { HostRow } from '../store/hosts-repo.ts';
import { HttpError } from './errors.ts';

/** Measurements read this machine: only the local host, and not when it shows the demo. */
export function requireMeasurable(h: HostRow, demo: boolean, what: string): void {
  if (h.kind !== 'local') throw new HttpError('conflict', `${what} run only on the machine the server runs on; host "${h.id}" is ${h.kind}`);
  if (demo) throw new HttpError('conflict', `${what} need ZFS on this machine; it has none (the demo snapshot is shown)`);
}

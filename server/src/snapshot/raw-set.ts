/**
 * A RawSet: the raw outputs an inventory is built from, keyed by snapshot file name
 * (`zpool-status.txt`, `smartctl/sda.json`, …). It comes either from running commands on this
 * host or from reading a snapshot directory; the same pure builder turns either into an
 * Inventory, so `inventory --snapshot DIR` anywhere equals the inventory on the host.
 */
import { z } from 'zod';

export const RawOutput = z.object({
  /** stdout (or the file's content for files read directly, such as /etc/os-release). */
  text: z.string(),
  /** The command line that produced it (program first), or ['read', path] for a file read; null if unknown. */
  command: z.array(z.string()).nullable(),
  /** null when the command did not run to completion or the source did not record it. */
  exitCode: z.number().int().nullable(),
  stderr: z.string(),
  /** Why the command gave no usable output (not installed, permission, timeout), else null. */
  error: z.string().nullable(),
});
export type RawOutput = z.infer<typeof RawOutput>;

export type RawSet = Record<string, RawOutput>;

/** A RawOutput for text that came without any record of how it was made (a pasted file). */
export const rawText = (text: string, command: string[] | null = null): RawOutput => ({
  text, command, exitCode: command ? 0 : null, stderr: '', error: null,
});

/** Whether an output can be parsed: present, not a failed run. */
export function usable(r: RawOutput | undefined): r is RawOutput {
  if (!r || r.error !== null) return false;
  return r.exitCode === null || r.exitCode === 0 || r.text.trim() !== '';
}

/** The command line of an output, for gap messages. */
export const commandLine = (r: RawOutput | undefined, fallback: string): string =>
  r?.command ? (r.command[0] === 'read' ? r.command[1] ?? fallback : r.command.join(' ')) : fallback;

/** File names under a directory prefix (`smartctl/`), sorted for stable output. */
export const filesUnder = (raw: RawSet, dir: string): string[] =>
  Object.keys(raw).filter((k) => k.startsWith(`${dir}/`)).sort();

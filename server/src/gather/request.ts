/**
 * What a collector asks for: a snapshot file name and how to get it on a live host — commands
 * tried in order until one exits 0 (`zpool status -v -P`, then `zpool status -v` for zfs-fuse),
 * or a file read (/etc/os-release, /proc/spl/kstat/zfs/zil).
 */
import type { AllowedProgram } from '../exec/runner.ts';
import type { Gap } from '../model/inventory.ts';
import type { RawSet } from '../snapshot/raw-set.ts';

export interface CommandAlternative {
  program: AllowedProgram;
  args: string[];
}

export type RawRequest =
  | { file: string; commands: CommandAlternative[]; timeoutMs?: number }
  | { file: string; readPath: string };

export type GatherPlatform = 'linux' | 'freebsd' | 'unknown';

/** What the collectors know before asking (decided from uname.txt). */
export interface GatherContext {
  platform: GatherPlatform;
}

export interface CollectorOutput<T> {
  value: T | null;
  gaps: Gap[];
}

/**
 * One collector per artifact (Lighthouse gatherer style): `requests` says what raw outputs it
 * needs given what is already known (it is asked again after each round, so per-device requests
 * can follow the device list), `build` is pure and turns the RawSet into the artifact.
 */
export interface Collector<T> {
  artifact: string;
  requests(raw: RawSet, ctx: GatherContext): RawRequest[];
  build(raw: RawSet, ctx: GatherContext): CollectorOutput<T>;
}

export const cmd = (program: AllowedProgram, ...args: string[]): CommandAlternative => ({ program, args });

/** Platform from `uname -a` (or `uname -s`) text. */
export function platformFromUname(text: string | undefined): GatherPlatform {
  const first = text?.trim().split(/\s+/)[0]?.toLowerCase();
  if (first === 'linux') return 'linux';
  if (first === 'freebsd') return 'freebsd';
  return 'unknown';
}

/** Device names become file names: keep them to a safe alphabet (`sda`, `nvme0n1`, `ada0`, `da12`). */
export const deviceFileName = (dev: string): string => dev.replace(/^\/dev\//, '').replace(/[^A-Za-z0-9._-]/g, '_');

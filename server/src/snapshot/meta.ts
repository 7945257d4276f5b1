/**
 * `meta.json` of a snapshot directory: when and where it was captured, and for every raw file
 * the command that produced it, its exit code and stderr (so a snapshot replays exactly, gaps
 * included).
 */
import { z } from 'zod';

export const SNAPSHOT_FORMAT_VERSION = 1;

export const SnapshotFileMeta = z.object({
  command: z.array(z.string()).nullable(),
  exitCode: z.number().int().nullable(),
  stderr: z.string().default(''),
  error: z.string().nullable().default(null),
});
export type SnapshotFileMeta = z.infer<typeof SnapshotFileMeta>;

export const SnapshotMeta = z.object({
  format: z.number().int().default(SNAPSHOT_FORMAT_VERSION),
  capturedAt: z.string(),
  hostname: z.string().nullable(),
  platform: z.string().nullable(),
  versions: z.record(z.string(), z.string()).default({}),
  /** Bundled demo data: every view must say so. */
  demo: z.boolean().default(false),
  /** Human label, e.g. "Demo: 2×HDD mirror + unused Optane P1600X (reference 000)". */
  label: z.string().nullable().default(null),
  redaction: z.object({
    applied: z.boolean(),
    poolNames: z.boolean().default(false),
  }).default({ applied: false, poolNames: false }),
  files: z.record(z.string(), SnapshotFileMeta).default({}),
});
export type SnapshotMeta = z.infer<typeof SnapshotMeta>;

import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Removes the per-run data directory that vitest.config.ts points ZFS_ADVISOR_DATA_DIR at
 * (same main process, so the same pid names it).
 */
export default function setup(): () => void {
  return () => rmSync(join(tmpdir(), `zfs-advisor-test-data-${process.pid}`), { recursive: true, force: true });
}

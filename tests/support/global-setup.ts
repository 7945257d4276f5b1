import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SYSTEM_DATA_DIR } from '../../server/src/data-dir.ts';
import { stateChanges, systemDataDirState } from './system-data-dir.ts';

/**
 * Once per test run:
 * - builds the UI when ui/dist is missing or stale (a fresh CI clone has none; the end-to-end tests
 *   and the Debian package test serve it), through the same script `npm start` uses;
 * - at the end removes the per-run data directory vitest.config.ts points ZFS_ADVISOR_DATA_DIR at
 *   (same main process, so the same pid names it);
 * - fails the run when the system data directory (/var/lib/zfs-advisor, the installed service's)
 *   was created or changed while the tests ran: no test may write there.
 */
export default function setup(): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [join(root, 'scripts', 'ensure-ui.mjs')], { cwd: root, stdio: 'inherit' });
  const before = systemDataDirState();
  return () => {
    rmSync(join(tmpdir(), `zfs-advisor-test-data-${process.pid}`), { recursive: true, force: true });
    const changed = stateChanges(before, systemDataDirState());
    if (changed.length > 0) throw new Error(`the tests wrote to ${SYSTEM_DATA_DIR}, the service's data directory:\n${changed.slice(0, 20).join('\n')}`);
  };
}

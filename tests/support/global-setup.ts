import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Once per test run:
 * - builds the UI when ui/dist is missing or stale (a fresh CI clone has none; the end-to-end tests
 *   and the Debian package test serve it), through the same script `npm start` uses;
 * - at the end removes the per-run data directory vitest.config.ts points ZFS_ADVISOR_DATA_DIR at,
 *   and the running-files directory (same main process, so the same pid names them).
 * (The check that no test wrote to /var/lib/zfs-advisor is in summary-reporter.ts: a teardown
 * error does not change vitest's exit code.)
 */
export default function setup(): () => void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [join(root, 'scripts', 'ensure-ui.mjs')], { cwd: root, stdio: 'inherit' });
  return () => {
    rmSync(join(tmpdir(), `zfs-advisor-test-data-${process.pid}`), { recursive: true, force: true });
    rmSync(join(tmpdir(), `zfs-advisor-test-running-${process.pid}`), { recursive: true, force: true });
  };
}

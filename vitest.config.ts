import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import LabFirstSequencer from './tests/support/lab-sequencer.ts';

// One runner for the whole repo. The summary reporter prints "N passed, N failed, N skipped"
// as the very last line, which is what CI reads.
export default defineConfig({
  // Compiles the UI's .vue single-file components for tests/ui (no effect on other files).
  plugins: [vue()],
  test: {
    // No test may touch the machine's real data directory (/var/lib/zfs-advisor): commands that
    // fall back to the default data dir get a per-run temporary one instead.
    // Which files are running, for a measurement that must have the host to itself (tests/support/running-files.ts).
    env: { ZFS_ADVISOR_DATA_DIR: join(tmpdir(), `zfs-advisor-test-data-${process.pid}`), ZFS_ADVISOR_TEST_RUNNING_DIR: join(tmpdir(), `zfs-advisor-test-running-${process.pid}`) },
    include: ['tests/**/*.test.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Files run in parallel; the live zfs-fuse tests take turns through the harness's machine-wide
    // lock (tests/support/zfs-fuse.ts), so they never start two daemons. At least three workers, even
    // on two cores: the two real-OpenZFS line files (tests/lab/openzfs-2.4 and -2.3) each hold a worker
    // and a guest for most of the run, and the rest of the suite runs beside them on the third instead
    // of after them (a guest waits on emulated I/O and its agent much of the time, and an idle guest
    // costs a host core under 5 %: lab/guest/lab-agent). The sequencer puts the line files first and
    // the other lab files last (tests/support/lab-sequencer.ts).
    fileParallelism: true,
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: LabFirstSequencer },
    globalSetup: ['./tests/support/global-setup.ts'],
    // A host-wide benchmark lock directory per test file (tests/support/host-lock-dir.ts); each file
    // marked as running while it runs (tests/support/mark-running.ts).
    setupFiles: ['./tests/support/host-lock-dir.ts', './tests/support/mark-running.ts'],
    pool: 'forks',
  },
});

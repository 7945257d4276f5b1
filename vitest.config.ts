import { readdirSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import LabFirstSequencer from './tests/support/lab-sequencer.ts';

// One runner for the whole repo. The summary reporter prints "N passed, N failed, N skipped"
// as the very last line, which is what CI reads.
/** The real-OpenZFS lab's test files (tests/lab/*.test.ts). */
const LAB_FILES = readdirSync(join(import.meta.dirname, 'tests', 'lab')).filter((f) => f.endsWith('.test.ts')).length;

export default defineConfig({
  // Compiles the UI's .vue single-file components for tests/ui (no effect on other files).
  plugins: [vue()],
  test: {
    // No test may touch the machine's real data directory (/var/lib/zfs-advisor): commands that
    // fall back to the default data dir get a per-run temporary one instead.
    // Which files are running, for a measurement that must have the host to itself (tests/support/running-files.ts).
    // TZ: times are shown in the reader's zone (text/format.ts formatTime); tests that compare exact text read UTC on every machine.
    env: { TZ: 'UTC', ZFS_ADVISOR_DATA_DIR: join(tmpdir(), `zfs-advisor-test-data-${process.pid}`), ZFS_ADVISOR_TEST_RUNNING_DIR: join(tmpdir(), `zfs-advisor-test-running-${process.pid}`),
      // Each file's CPU seconds, for the timing table (tests/support/file-cpu.ts).
      ZFS_ADVISOR_TEST_CPU_LOG: join(tmpdir(), `zfs-advisor-test-cpu-${process.pid}`) },
    include: ['tests/**/*.test.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Files run in parallel; the live zfs-fuse tests take turns through the harness's machine-wide
    // lock (tests/support/zfs-fuse.ts), so they never start two daemons. One worker per real-OpenZFS
    // lab file and one more, even on two cores: a lab file holds its worker for most of the run but
    // mostly waits (for its image, for a guest slot, on its guest; an idle guest costs a host core
    // under 5 %: lab/guest/lab-agent), and the rest of the suite runs beside them from the start
    // instead of after them. The sequencer puts the lab files first (tests/support/lab-sequencer.ts);
    // lab/vm.ts runs at most three guests at a time.
    fileParallelism: true,
    maxWorkers: Math.max(LAB_FILES + 1, availableParallelism() - 1),
    sequence: { sequencer: LabFirstSequencer },
    globalSetup: ['./tests/support/global-setup.ts'],
    // A host-wide benchmark lock directory per test file (tests/support/host-lock-dir.ts); each file
    // marked as running while it runs (tests/support/mark-running.ts); its CPU seconds logged (file-cpu.ts).
    setupFiles: ['./tests/support/file-cpu.ts', './tests/support/host-lock-dir.ts', './tests/support/mark-running.ts'],
    pool: 'forks',
  },
});

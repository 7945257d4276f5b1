import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';

// One runner for the whole repo. The summary reporter prints "N passed, N failed, N skipped"
// as the very last line, which is what CI reads.
export default defineConfig({
  // Compiles the UI's .vue single-file components for tests/ui (no effect on other files).
  plugins: [vue()],
  test: {
    include: ['tests/**/*.test.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Live zfs-fuse / fio tests share one daemon and real devices: keep files sequential there.
    fileParallelism: true,
    pool: 'forks',
  },
});

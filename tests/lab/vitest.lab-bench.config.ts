/**
 * The lab's benchmarks (tests/lab/*.lab-bench.ts): the main config's setup, sequencer and reporters,
 * but only those files, which `npm test` never runs (they compare measured IOPS, which belongs in
 * benchmarks: brief, "never as timing assertions in tests"). scripts/bench/lab-advice-followed.ts runs it.
 */
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['tests/lab/*.lab-bench.ts'], maxWorkers: 1 },
});

import type { Reporter, TestModule } from 'vitest/node';
import { SYSTEM_DATA_DIR } from '../../server/src/data-dir.ts';
import { stateChanges, systemDataDirState } from './system-data-dir.ts';

/**
 * Prints the plain closing line CI reads: "tests: N passed, N failed, N skipped". It also fails the
 * run (one more failure, exit code 1) when the system data directory (/var/lib/zfs-advisor, the
 * installed service's) was created or changed while the tests ran: no test may write there. Here
 * and not in the global teardown, because vitest reports a teardown error but still exits 0.
 */
export default class SummaryReporter implements Reporter {
  private systemDir: string[] = [];

  onInit(): void {
    this.systemDir = systemDataDirState();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load, or whose hook failed before its tests ran (they read as
      // skipped), is a failure although none of its tests is.
      if (mod.state() === 'failed' && ![...mod.children.allTests()].some((t) => t.result().state === 'failed')) failed++;
    }
    const changed = stateChanges(this.systemDir, systemDataDirState());
    if (changed.length > 0) {
      failed++;
      process.exitCode = 1;
      setImmediate(() => process.stdout.write(`\nFAILED: the tests wrote to ${SYSTEM_DATA_DIR}, the service's data directory:\n${changed.slice(0, 20).join('\n')}\n`));
    }
    // Written after vitest's own summary so it is the last line.
    setImmediate(() => process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`));
  }
}

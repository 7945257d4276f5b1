import type { Reporter, TestModule } from 'vitest/node';

/** Prints the plain closing line CI reads: "tests: N passed, N failed, N skipped". */
export default class SummaryReporter implements Reporter {
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
      // A file that failed to load has no tests but is a failure.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    // Written after vitest's own summary so it is the last line.
    setImmediate(() => process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`));
  }
}

import type { Reporter, TestModule } from 'vitest/node';
import { SYSTEM_DATA_DIR } from '../../server/src/data-dir.ts';
import { stateChanges, systemDataDirState } from './system-data-dir.ts';
import { timingTable } from './timing-table.ts';

/**
 * Prints the plain closing line CI reads: "tests: N passed, N failed, N skipped". It also fails the
 * run (one more failure, exit code 1) when the system data directory (/var/lib/zfs-advisor, the
 * installed service's) was created or changed while the tests ran: no test may write there. Here
 * and not in the global teardown, because vitest reports a teardown error but still exits 0.
 */
export default class SummaryReporter implements Reporter {
  private systemDir: string[] = [];
  private t0 = Date.now();
  private readonly spans = new Map<string, { start: number; end?: number }>();

  onInit(): void {
    this.t0 = Date.now();
    this.systemDir = systemDataDirState();
  }

  onTestModuleStart(mod: TestModule): void {
    this.spans.set(mod.moduleId, { start: Date.now() });
  }

  onTestModuleEnd(mod: TestModule): void {
    const span = this.spans.get(mod.moduleId);
    if (span) span.end = Date.now();
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
    // Where the run's time went (the long files and the lab images), then the closing line: both
    // after vitest's own summary, so CI's tail shows them and the count is the last line.
    const table = timingTable({ t0: this.t0, now: Date.now(), spans: this.spans, root: process.cwd(), labCache: process.env.ZFS_ADVISOR_LAB_CACHE });
    setImmediate(() => process.stdout.write(`\n${table}\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`));
  }
}

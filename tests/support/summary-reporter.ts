import { existsSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { machineCpu } from '../../lab/proc-cpu.ts';
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

  /** The file-cpu.ts log, and the machine's and this process's CPU at the start (the CPU table). */
  private cpuLog: string | undefined;
  private cpu0 = { machine: 0, main: 0 };

  onInit(vitest: Vitest): void {
    this.t0 = Date.now();
    this.systemDir = systemDataDirState();
    this.cpuLog = vitest.config.env?.ZFS_ADVISOR_TEST_CPU_LOG;
    if (this.cpuLog) rmSync(this.cpuLog, { force: true });
    const u = process.cpuUsage();
    this.cpu0 = { machine: machineCpu().busy, main: (u.user + u.system) / 1e6 };
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
    const u = process.cpuUsage();
    const machineBusy = machineCpu().busy - this.cpu0.machine;
    const cpu = this.cpuLog && Number.isFinite(machineBusy)
      ? { machineBusy, cores: availableParallelism(), mainProcess: (u.user + u.system) / 1e6 - this.cpu0.main, fileLog: existsSync(this.cpuLog) ? readFileSync(this.cpuLog, 'utf8') : '' }
      : undefined;
    if (this.cpuLog) rmSync(this.cpuLog, { force: true });
    const table = timingTable({ t0: this.t0, now: Date.now(), spans: this.spans, root: process.cwd(), labCache: process.env.ZFS_ADVISOR_LAB_CACHE, cpu });
    setImmediate(() => process.stdout.write(`\n${table}\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`));
  }
}

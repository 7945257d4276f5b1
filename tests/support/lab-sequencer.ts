/**
 * Test order (vitest.config.ts). The real-OpenZFS line files go first, one worker each, while another
 * works through every other file beside them; the remaining lab files come
 * last, when that worker is free and a core with it (lab/vm.ts runs at most two guests at a time).
 * The lab's advice-followed measurement starts after every other file, so that once those still
 * running end it has the host to itself (tests/support/running-files.ts).
 * Within each part vitest's own order stays (failed and longer files first, when it has a record).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LAB = /\/tests\/lab\/[^/]+\.test\.ts$/;
const FIRST = /\/tests\/lab\/openzfs-[0-9.]+\.test\.ts$/;
const ALONE = /\/tests\/lab\/advice-followed\.test\.ts$/;

export default class LabFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // The lines' files first, 2.4 before 2.3 (CI builds the 2.4 image first).
    const first = sorted.filter((f) => FIRST.test(f.moduleId)).sort((a, b) => b.moduleId.localeCompare(a.moduleId));
    const alone = sorted.filter((f) => ALONE.test(f.moduleId));
    const lab = sorted.filter((f) => LAB.test(f.moduleId) && !FIRST.test(f.moduleId) && !ALONE.test(f.moduleId));
    const rest = sorted.filter((f) => !LAB.test(f.moduleId));
    return [...first, ...rest, ...lab, ...alone];
  }
}

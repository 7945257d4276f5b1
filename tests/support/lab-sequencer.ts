/**
 * Test order (vitest.config.ts). The real-OpenZFS line files go first (2.4 before 2.3: CI builds the
 * 2.4 image first; part a before part b), then the other lab files (they boot 2.4 guests, so they can
 * start as soon as that image is built instead of after the rest of the suite), then every other
 * file. Each lab file holds a worker that mostly waits — for its image, then for one of the lab's
 * guest slots (lab/vm.ts) — so the config gives the lab enough workers that the rest of the suite
 * always has one of its own from the start.
 * Within each part vitest's own order stays (failed and longer files first, when it has a record).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LAB = /\/tests\/lab\/[^/]+\.test\.ts$/;
const LINE = /\/tests\/lab\/openzfs-([0-9.]+)(-b)?\.test\.ts$/;

/** 2.4 before 2.3, part a before part b. */
function lineOrder(a: string, b: string): number {
  const [, va = '', pa = ''] = LINE.exec(a) ?? [];
  const [, vb = '', pb = ''] = LINE.exec(b) ?? [];
  return vb.localeCompare(va, 'en', { numeric: true }) || pa.localeCompare(pb);
}

export default class LabFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const lines = sorted.filter((f) => LINE.test(f.moduleId)).sort((a, b) => lineOrder(a.moduleId, b.moduleId));
    const lab = sorted.filter((f) => LAB.test(f.moduleId) && !LINE.test(f.moduleId));
    const rest = sorted.filter((f) => !LAB.test(f.moduleId));
    return [...lines, ...lab, ...rest];
  }
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guestRows, imageRows, timingTable } from '../support/timing-table.ts';

describe('the test run\'s timing table', () => {
  it('lists long files and the lab image builds by start, in seconds from the run\'s start; short files are left out', () => {
    const cache = mkdtempSync(join(tmpdir(), 'timing-'));
    try {
      const t0 = 1_800_000_000_000;
      // As lab/build-image.sh appends them: line, start, end (epoch s), DKMS s. The first began 120 s before the run.
      writeFileSync(join(cache, 'build-times'), `2.4 ${t0 / 1000 - 120} ${t0 / 1000 + 480} 400\n2.3 ${t0 / 1000 + 480} ${t0 / 1000 + 1000} 450\ngarbage\n`);
      // As lab/vm.ts appends them: label, line, start, end, QEMU's CPU seconds; the first from an earlier run (a kept cache).
      writeFileSync(join(cache, 'guest-times'), `old 2.4 ${t0 / 1000 - 9000} ${t0 / 1000 - 8000} 700\nOpenZFS_2.4_cases,_part_1_of_2 2.4 ${t0 / 1000 + 490} ${t0 / 1000 + 1490} 812\n`);
      const spans = new Map([
        ['/r/tests/lab/openzfs-2.4.test.ts', { start: t0 + 1000, end: t0 + 1_500_000 }],
        ['/r/tests/rules/small.test.ts', { start: t0 + 2000, end: t0 + 3000 }],
        ['/r/tests/lab/bench.test.ts', { start: t0 + 500_000 }],
      ]);
      const out = timingTable({ t0, now: t0 + 2_000_000, spans, root: '/r', labCache: cache });
      const lines = out.split('\n');
      expect(lines.slice(2).map((l) => l.slice(28))).toEqual([
        'lab image, OpenZFS 2.4 (DKMS 400 s)', 'tests/lab/openzfs-2.4.test.ts', 'lab image, OpenZFS 2.3 (DKMS 450 s)', 'lab guest, OpenZFS 2.4 cases, part 1 of 2 (OpenZFS 2.4): 812 s of CPU',
        'tests/lab/bench.test.ts', 'the whole test run',
      ]);
      expect(lines[2]).toMatch(/^\s+-120 s\s+480 s\s+600 s\s+lab image/);
      // A file still running when the run ended (a hook that hung) ends at the run's end.
      expect(lines[6]).toMatch(/^\s+500 s\s+2000 s\s+1500 s\s+tests\/lab\/bench\.test\.ts$/);
      expect(out).not.toContain('small.test.ts');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('says what a guest waited for and what its boot cost, where lab/vm.ts recorded it', () => {
    // label, line, start, end, CPU s, then: s waited for the image, for a slot, boot wall s, boot CPU s.
    const [row] = guestRows('installed-deb 2.4 1000 1600 358 980 150 62 48\n', 0);
    expect(row).toEqual({ what: 'lab guest, installed-deb (OpenZFS 2.4): 358 s of CPU; waited 980 s for its image, 150 s for a slot; booted in 62 s with 48 s of CPU', start: 1_000_000, end: 1_600_000 });
    expect(guestRows('installed-deb 2.4 1000 1600 358 980 150\n', 0)).toEqual([]);
  });

  it('reads no image rows from lines it does not understand', () => {
    expect(imageRows('2.4 1 2\n\nx y z w\n', 0)).toEqual([]);
    expect(guestRows('a 2.4 1 2\nwith space 2.4 1 2 3\n', 0)).toEqual([]);
  });
});

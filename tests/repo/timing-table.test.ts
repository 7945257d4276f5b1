import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileCpu, guestRows, imageRows, timingTable } from '../support/timing-table.ts';

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
    expect(row).toEqual({ what: 'lab guest, installed-deb (OpenZFS 2.4): 358 s of CPU; waited 980 s for its image, 150 s for a slot; booted in 62 s with 48 s of CPU', start: 1_000_000, end: 1_600_000, cpu: 358, bootCpu: 48 });
    expect(guestRows('installed-deb 2.4 1000 1600 358 980 150\n', 0)).toEqual([]);
  });

  it('says where the CPU went: guests once, image builds, the lab files\' own share, the other files (the costly ones by name), the rest', () => {
    const cache = mkdtempSync(join(tmpdir(), 'timing-'));
    try {
      const t0 = 1_800_000_000_000;
      const e = t0 / 1000;
      // Image lines with the build's CPU and DKMS's; one old line without them still reads.
      writeFileSync(join(cache, 'build-times'), `2.4 ${e - 60} ${e + 900} 700 1100 900\n2.3 ${e - 58} ${e + 950} 720 1000 880\n`);
      writeFileSync(join(cache, 'guest-times'), `bench 2.4 ${e + 900} ${e + 1700} 420 900 0 95 60\nOpenZFS_2.3_cases 2.3 ${e + 950} ${e + 1800} 600 950 0 90 55\n`);
      const log = ['1100.5\t/r/tests/lab/bench.test.ts', '700\t/r/tests/lab/openzfs-2.3.test.ts', '310.2\t/r/tests/packaging/container-image.test.ts',
        '12\t/r/tests/rules/small.test.ts', '8\t/r/tests/rules/small.test.ts', 'not a line'].join('\n');
      const out = timingTable({ t0, now: t0 + 2_000_000, spans: new Map(), root: '/r', labCache: cache,
        cpu: { machineBusy: 3800, cores: 2, mainProcess: 90, fileLog: log } });
      const section = out.slice(out.indexOf('where the CPU went'));
      expect(section.split('\n')).toEqual([
        'where the CPU went (core-seconds: 2 cores × 2000 s = 4,000; the machine was busy 3,800, 95 %):',
        '   CPU s  what',
        '   1,020  lab guests (QEMU): 2, of which booting 115',
        '   2,100  lab image builds, from their start: 2.4 1100 (DKMS 900), 2.3 1000 (DKMS 880)',
        '     781  the lab files beside their guests (captures read and assessed on the host, Chromium)',
        '     330  the other 2 test files, with what they started',
        '               310  tests/packaging/container-image.test.ts',
        '      90  vitest\'s main process (transforms, reporters)',
        '    -521  the rest of the machine\'s busy time (daemons, the system; negative: the builds started before the run)',
      ]);
      expect(fileCpu(log).get('/r/tests/rules/small.test.ts')).toBe(20);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('counts an image a lab file built itself once: under the image builds, not again in the lab files\' own share', () => {
    const cache = mkdtempSync(join(tmpdir(), 'timing-'));
    try {
      const t0 = 1_800_000_000_000;
      const e = t0 / 1000;
      writeFileSync(join(cache, 'build-times'), `2.4 ${e} ${e + 350} 300 560 517 test-file\n2.3 ${e} ${e + 400} 320 500 470 caller\n`);
      writeFileSync(join(cache, 'guest-times'), `deb 2.4 ${e + 370} ${e + 1000} 483 354 0 46 45\n`);
      const log = '1072\t/r/tests/lab/installed-deb.test.ts';
      const out = timingTable({ t0, now: t0 + 1_028_000, spans: new Map(), root: '/r', labCache: cache,
        cpu: { machineBusy: 1700, cores: 2, mainProcess: 1, fileLog: log } });
      expect(out).toContain('lab image, OpenZFS 2.4 (DKMS 300 s; 560 s of CPU, DKMS 517; built by a lab file)');
      expect(out).toContain('lab image, OpenZFS 2.3 (DKMS 320 s; 500 s of CPU, DKMS 470)');
      const section = out.slice(out.indexOf('where the CPU went')).split('\n');
      expect(section).toContain('   1,060  lab image builds, from their start: 2.4 560 (DKMS 517), 2.3 500 (DKMS 470)');
      // 1,072 of the file's, less its guest's 483 and the 560 of the build it waited for as its child.
      expect(section).toContain('      29  the lab files beside their guests (captures read and assessed on the host, Chromium)');
      expect(section).toContain('     127  the rest of the machine\'s busy time (daemons, the system; negative: the builds started before the run)');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('reads no image rows from lines it does not understand', () => {
    expect(imageRows('2.4 1 2\n\nx y z w\n2.4 1 2 3 4\n', 0)).toEqual([]);
    expect(guestRows('a 2.4 1 2\nwith space 2.4 1 2 3\n', 0)).toEqual([]);
  });
});

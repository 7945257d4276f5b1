import { expect } from 'vitest';
import rule from '../../rules/raidz1-large-disks.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { drive, group, leaf, pool } from '../support/builders.ts';
import { documentedHdds, statusPools } from '../fixtures/rules/layout-load.ts';

const FOUR_TB = 4e12;
// 001: "5x 4TB, raidz1 (raid5)" — its real `zpool status`, 4 TB hard disks per the document.
const raidz1 = statusPools('layout-001-5x4tb-raidz1-status.txt');
const raidz1Drives = documentedHdds(['da0', 'da1', 'da2', 'da3', 'da4'], FOUR_TB);
// 001: "12x 4TB, raidz2 (raid6)".
const raidz2 = statusPools('layout-001-12x4tb-raidz2-status.txt');

ruleTester(rule, {
  valid: [
    { name: '001 12-disk raidz2 has no raidz1 vdev', artifacts: { Pools: raidz2, Drives: documentedHdds(['da0'], FOUR_TB) }, status: 'not-applicable' },
    { name: '3-wide raidz1 of 2 TB disks (neither large nor wide)', artifacts: { Pools: raidz1.map((p) => ({ ...p, vdevs: [group('raidz1', 'raidz1-0', [leaf('da0'), leaf('da1'), leaf('da2')])] })), Drives: documentedHdds(['da0', 'da1', 'da2'], 2e12) } },
    { name: '5-wide raidz1 of 4 TB SSDs (flash resilvers fast)', artifacts: { Pools: raidz1, Drives: documentedHdds(['da0', 'da1', 'da2', 'da3', 'da4'], FOUR_TB, { media: 'ssd', rotational: false, rpm: null }) } },
    { name: 'zol file-backed raidz1 pools with unknown sizes, 3 wide: cannot judge, not "passed"', status: 'not-applicable', artifacts: { Pools: statusPools('layout-zol-two-pools-raidz1x2-raidz2x2-status.txt') } },
  ],
  invalid: [
    {
      name: '001 5-wide raidz1 on 4 TB HDDs: a warning (≥ 4 TB) with resilver and second-failure numbers',
      artifacts: { Pools: raidz1, Drives: raidz1Drives },
      findings: [{
        severity: 'warning', subjectId: 'storage/raidz1-0', reversible: 'partly',
        mentions: ['judgement call', 'about 11 h', 'disputed'],
        commandIncludes: ['zpool create -o ashift=12 NEWPOOL raidz2 da0 da1 da2 da3 da4', 'zpool scrub storage'],
        check: (f) => {
          // Whole 4 TB per disk at 100 MB/s = 11.1 h; 1−exp(−4·0.016·11.1/8766) = 0.008 %; exp(−8·1.6e13/1e14) = 27.8 %.
          expect(f.evidence.find((e) => e.label === 'estimated resilver time')?.value).toBe(11);
          expect(f.evidence.find((e) => e.label.startsWith('second whole-disk failure'))?.value).toBe(0.008);
          expect(f.evidence.find((e) => e.label.startsWith('naive chance'))?.value).toBe(27.8);
        },
      }],
    },
    {
      // The lab's case (tests/lab/lab-cases.ts): raidz1 of three 8 TiB sparse virtio disks. Large disks
      // of unknown media still warn; the media reads "virtual", no longer "hdd".
      name: 'raidz1 of three 8 TiB virtio disks (the lab): a warning, media "virtual"',
      artifacts: {
        Pools: [pool('tank', [group('raidz1', 'raidz1-0', ['vdb', 'vdc', 'vdd'].map((n) => leaf(n, { driveId: `virtio-BIG-${n}` })))])],
        Drives: ['vdb', 'vdc', 'vdd'].map((n) => drive(`virtio-BIG-${n}`, { devPath: `/dev/${n}`, model: null, media: 'hdd', transport: 'virtual', rotational: true, rpm: null, sizeBytes: 8 * 2 ** 40 })),
      },
      findings: [{ severity: 'warning', subjectId: 'tank/raidz1-0', check: (f) => expect(f.evidence.find((e) => e.label === 'media')?.value).toBe('virtual') }],
    },
    {
      name: '16 TB Exos-class disks: a warning',
      artifacts: { Pools: raidz1, Drives: documentedHdds(['da0', 'da1', 'da2', 'da3', 'da4'], 16e12) },
      findings: [{ severity: 'warning', mentions: ['16.0 TB'] }],
    },
    {
      name: '9-wide raidz1 of small disks (wide)',
      artifacts: { Pools: [pool('wide', [group('raidz1', 'raidz1-0', Array.from({ length: 9 }, (_, i) => leaf(`sd${i}`)))])], Drives: [drive('x', { sizeBytes: 1e12 })] },
      findings: [{ severity: 'warning', subjectId: 'wide/raidz1-0' }],
    },
  ],
});

import rule from '../../rules/special-redundancy.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, p1600x, testPool, testPoolDrivesAll } from '../fixtures/rules/slog-fixtures.ts';
import { drive, group, host, inClass, leaf, pool } from '../support/builders.ts';

const second = drive('nvme-INTEL_SSDPEK1A058GA_B', { model: 'INTEL SSDPEK1A058GA', media: 'nvme', rotational: false, rpm: null });
const mirroredSpecial = { ...testPool, vdevs: [...testPool.vdevs.filter((v) => v.class !== 'special'), inClass('special', group('mirror', 'mirror-2', [leaf('nvd1', { driveId: p1600x.id }), leaf('nvd2', { driveId: second.id })]))] };
const raidz2 = pool('tank', [
  group('raidz2', 'raidz2-0', ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => leaf(`sd${x}`))),
  inClass('special', group('mirror', 'mirror-1', [leaf('nvme0n1'), leaf('nvme1n1')])),
]);

ruleTester(rule, {
  valid: [
    { name: '000 test-pool with the special vdev mirrored', artifacts: { Pools: [mirroredSpecial], Drives: [...testPoolDrivesAll, second] } },
    { name: 'no special', status: 'not-applicable', artifacts: { Pools: [benchPool] } },
  ],
  invalid: [
    {
      name: '000 test-pool: single P1600X special on two HDD mirrors',
      artifacts: { Pools: [testPool], Drives: testPoolDrivesAll, Host: host() },
      findings: [{ severity: 'critical', subjectId: 'test-pool/nvd1', mentions: ['pool is lost', 'survives 0 failures', 'critical'], commandIncludes: ['zpool attach test-pool /dev/disk/by-id/nvme-INTEL_SSDPEK1A058GA_PHOC209200KC058A /dev/disk/by-id/<new-ssd-1>'], reversible: 'yes' }],
    },
    {
      // Still survives one failure: less robust than the raidz2, not fragile → warning (003 §13 "2/3-way mirror").
      name: '2-way mirror special on raidz2 needs one more side',
      artifacts: { Pools: [raidz2] },
      findings: [{ severity: 'warning', subjectId: 'tank/mirror-1', mentions: ['tolerate 2', 'rather than critical'], commandIncludes: ['zpool attach tank nvme0n1 <new-ssd-1>'] }],
    },
    {
      name: '003-av shape: 2-way special mirror beside 3-way data mirrors → warning',
      artifacts: { Pools: [pool('av', [
        group('mirror', 'mirror-0', [leaf('sda'), leaf('sdb'), leaf('sdc')]),
        inClass('special', group('mirror', 'mirror-6', [leaf('nvme0n1'), leaf('nvme1n1')])),
      ])] },
      findings: [{ severity: 'warning', subjectId: 'av/mirror-6', mentions: ['survives 1 failure'] }],
    },
    {
      name: 'single special beside raidz1 (raidz1-4tb-single-special shape) → critical',
      artifacts: { Pools: [pool('tank', [group('raidz1', 'raidz1-0', [leaf('sda'), leaf('sdb'), leaf('sdc')]), inClass('special', leaf('sdf'))])], Host: host() },
      findings: [{ severity: 'critical', subjectId: 'tank/sdf', commandIncludes: ['zpool attach tank sdf /dev/disk/by-id/<new-ssd-1>'] }],
    },
  ],
});

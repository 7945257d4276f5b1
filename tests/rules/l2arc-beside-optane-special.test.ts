import rule from '../../rules/l2arc-beside-optane-special.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { testPool, testPoolDrivesAll } from '../fixtures/rules/slog-fixtures.ts';
import { drive, inClass, leaf } from '../support/builders.ts';

const cacheSsd = drive('ata-Samsung_SSD_860_EVO_500GB', { model: 'Samsung SSD 860 EVO 500GB', media: 'ssd', rotational: false, rpm: null });
const withCache = { ...testPool, vdevs: [...testPool.vdevs, inClass('cache', leaf('ada4', { driveId: cacheSsd.id }))] };
const nandSpecial = drive('nvme-nand', { model: 'Samsung SSD 970 EVO 500GB', media: 'nvme', rotational: false, rpm: null });
const nandSpecialPool = { ...withCache, vdevs: withCache.vdevs.map((v) => (v.class === 'special' ? { ...v, driveId: nandSpecial.id } : v)) };

ruleTester(rule, {
  valid: [
    { name: '000 test-pool without cache', status: 'not-applicable', artifacts: { Pools: [testPool], Drives: testPoolDrivesAll } },
    { name: 'L2ARC beside a NAND special vdev', artifacts: { Pools: [nandSpecialPool], Drives: [...testPoolDrivesAll, cacheSsd, nandSpecial] } },
  ],
  invalid: [
    {
      name: '000 test-pool (P1600X special) plus an 860 EVO L2ARC',
      artifacts: { Pools: [withCache], Drives: [...testPoolDrivesAll, cacheSsd], ArcStats: { counters: { l2_hits: 1000, l2_misses: 9000 } } },
      findings: [{ severity: 'info', subjectId: 'test-pool', mentions: ['TrueNAS Optane resource', '10.0 %'], commandIncludes: ['zpool remove test-pool /dev/disk/by-id/ata-Samsung_SSD_860_EVO_500GB'], reversible: 'yes' }],
    },
  ],
});

import rule from '../../rules/no-redundancy.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { drive, host, leaf } from '../support/builders.ts';
import { statusPools } from '../fixtures/rules/layout-load.ts';

const raidz2 = statusPools('layout-001-12x4tb-raidz2-status.txt');
// The classic mistake: `zpool add` of one disk to the 001 raidz2 pool.
const mistake = raidz2.map((p) => ({ ...p, vdevs: [...p.vdevs, leaf('da12')] }));
const da12 = drive('ata-WDC_WD40EFRX-68N32N0_WD-XYZ', { aliases: ['da12'], byIdPath: '/dev/disk/by-id/ata-WDC_WD40EFRX-68N32N0_WD-XYZ' });

ruleTester(rule, {
  valid: [
    { name: '001 12-disk raidz2', artifacts: { Pools: raidz2 } },
    { name: 'real two-mirror pool (wwn ids)', artifacts: { Pools: statusPools('layout-jc-linux-wwn-mirrors-status.txt') } },
    { name: 'no pools', artifacts: { Pools: [] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'msgdoc 8A: two single disks striped',
      artifacts: { Pools: statusPools('health-msgdoc-8A-permanent-errors-file-status.txt'), Host: host() },
      findings: [
        { severity: 'warning', subjectId: 'test/sda', commandIncludes: ['zpool attach test sda /dev/disk/by-id/<new-disk>'], reversible: 'yes' },
        { severity: 'warning', subjectId: 'test/sdb' },
      ],
    },
    {
      name: 'single disk added to the 001 raidz2 pool: critical, attach by id',
      artifacts: { Pools: mistake, Drives: [da12] },
      findings: [{ severity: 'critical', subjectId: 'storage/da12', mentions: ['zpool attach', 'voids'], commandIncludes: ['zpool attach storage /dev/disk/by-id/ata-WDC_WD40EFRX-68N32N0_WD-XYZ'] }],
    },
  ],
});

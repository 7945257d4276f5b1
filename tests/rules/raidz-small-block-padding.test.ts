import { expect } from 'vitest';
import rule from '../../rules/raidz-small-block-padding.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { dataset } from '../support/builders.ts';
import { statusPools } from '../fixtures/rules/layout-load.ts';

// 001 12-wide raidz2; ashift 12 as zdb would report for 4K drives.
const raidz2x12 = statusPools('layout-001-12x4tb-raidz2-status.txt', { ashift: 12 });
const zol = statusPools('layout-zol-two-pools-raidz1x2-raidz2x2-status.txt', { ashift: 12 });
const ev = (label: string) => (f: { evidence: Array<{ label: string; value: unknown }> }) => f.evidence.find((e) => e.label === label)?.value;

ruleTester(rule, {
  valid: [
    { name: '128K recordsize on 12-wide raidz2 (76.2 % of 83.3 %)', artifacts: { Pools: raidz2x12, Datasets: [dataset('storage/files')] } },
    { name: '16K zvol on 6-wide raidz2 stores at nominal 66.7 %', artifacts: { Pools: zol, Datasets: [dataset('ztestpoolraidz2/vm', { type: 'volume', volblocksize: 16384 })] } },
    { name: 'mirror pool', artifacts: { Pools: statusPools('layout-jc-linux-wwn-mirrors-status.txt'), Datasets: [dataset('pool1/vm', { type: 'volume', volblocksize: 8192 })] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: '16K zvol on the 001 12-wide raidz2: 66.7 % instead of 83.3 % (C-T1)',
      artifacts: { Pools: raidz2x12, Datasets: [dataset('storage/vm-1', { type: 'volume', volblocksize: 16384, volsize: 100e9 })] },
      findings: [{
        severity: 'suggestion', subjectId: 'storage/vm-1', mentions: ['66.7 %', '83.3 %'], reversible: 'partly',
        commandIncludes: ['volblocksize=64K', 'oflag=direct'],
        check: (f) => {
          expect(ev('space efficiency for this block size')(f)).toBe(66.7);
          expect(ev('nominal efficiency of the layout')(f)).toBe(83.3);
          expect(ev('raw bytes allocated per logical byte')(f)).toBe(1.5);
          expect(f.confidence).toBe('high');
        },
      }],
    },
    {
      name: '8K zvol on 3-wide raidz1 (50 % vs 66.7 %) and a 4K-recordsize filesystem inherited by a child',
      artifacts: {
        Pools: zol,
        Datasets: [
          dataset('ztestpoolraidz1/vm', { type: 'volume', volblocksize: 8192 }),
          dataset('ztestpoolraidz1/db', { recordsize: 4096, properties: { recordsize: { value: '4096', source: 'local' } } }),
          dataset('ztestpoolraidz1/db/wal', { recordsize: 4096, properties: { recordsize: { value: '4096', source: 'inherited from ztestpoolraidz1/db' } } }),
        ],
      },
      findings: [
        // 50/66.7 = 0.75: a suggestion; 32K reaches 66.7 % = nominal on 3-wide raidz1, 16K already does.
        { severity: 'suggestion', subjectId: 'ztestpoolraidz1/vm', mentions: ['50.0 %', '66.7 %', 'volblocksize of 16K'] },
        { severity: 'suggestion', subjectId: 'ztestpoolraidz1/db', commandIncludes: ['zfs set recordsize=16K ztestpoolraidz1/db'], reversible: 'yes', check: (f) => expect(ev('also inherited by')(f)).toBe('ztestpoolraidz1/db/wal') },
      ],
    },
    {
      name: '8K zvol on 12-wide raidz2 with unknown ashift: 33.3 %, a warning, medium confidence',
      artifacts: { Pools: statusPools('layout-001-12x4tb-raidz2-status.txt'), Datasets: [dataset('storage/vm-2', { type: 'volume', volblocksize: 8192 })] },
      findings: [{ severity: 'warning', mentions: ['33.3 %', 'assumed'], check: (f) => expect(f.confidence).toBe('medium') }],
    },
  ],
});

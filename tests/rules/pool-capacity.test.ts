import rule from '../../rules/pool-capacity.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { statusPools } from '../fixtures/rules/layout-load.ts';

const TB = 1e12;
const mirrors = (capacityPct: number | null) => statusPools('layout-jc-linux-wwn-mirrors-status.txt', { capacityPct, sizeBytes: 10 * TB, allocBytes: capacityPct === null ? null : (capacityPct / 100) * 10 * TB });
const raidz2 = (capacityPct: number) => statusPools('layout-001-12x4tb-raidz2-status.txt', { capacityPct });

ruleTester(rule, {
  valid: [
    { name: '50 % full', artifacts: { Pools: mirrors(50) } },
    { name: 'exactly 80 % is not above 80 %', artifacts: { Pools: mirrors(80) } },
    { name: 'capacity unknown', artifacts: { Pools: statusPools('layout-jc-linux-wwn-mirrors-status.txt') }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: '85 % full mirror pool: warning; an added vdev could be removed again',
      artifacts: { Pools: mirrors(85) },
      findings: [{ severity: 'warning', subjectId: 'pool1', mentions: ['85 %'], commandIncludes: ['zfs list -t snapshot -o name,used -s used -r pool1'], reversible: 'partly', check: (f) => { if (!f.action!.reversibleWhy.includes('can be removed')) throw new Error(f.action!.reversibleWhy); } }],
    },
    {
      name: '93 % full 001 raidz2: critical; a vdev added to raidz is permanent',
      artifacts: { Pools: raidz2(93) },
      findings: [{ severity: 'critical', mentions: ['93 %', 'slop'], check: (f) => { if (!f.action!.reversibleWhy.includes('cannot be removed')) throw new Error(f.action!.reversibleWhy); } }],
    },
  ],
});

import { expect } from 'vitest';
import rule from '../../rules/raidz-width.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { group, leaf, pool } from '../support/builders.ts';
import { statusPools } from '../fixtures/rules/layout-load.ts';

const disks = (n: number, p = 'sd') => Array.from({ length: n }, (_, i) => leaf(`${p}${i}`));

ruleTester(rule, {
  valid: [
    { name: 'zol: two 3-wide raidz1 and two 6-wide raidz2 (uniform)', artifacts: { Pools: statusPools('layout-zol-two-pools-raidz1x2-raidz2x2-status.txt') } },
    { name: '001 5-wide raidz1', artifacts: { Pools: statusPools('layout-001-5x4tb-raidz1-status.txt') } },
    { name: 'mirrors only, one vdev', artifacts: { Pools: [pool('m', [group('mirror', 'mirror-0', disks(2))])] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: '001 12-wide raidz2: above the recommended 3–9',
      artifacts: { Pools: statusPools('layout-001-12x4tb-raidz2-status.txt') },
      findings: [{ severity: 'suggestion', subjectId: 'storage/raidz2-0', mentions: ['12 disks', '3–9'], reversible: 'no' }],
    },
    {
      name: '24-wide raidz2 (001 tested one): beyond ~16',
      artifacts: { Pools: [pool('storage', [group('raidz2', 'raidz2-0', disks(24, 'da'))])] },
      findings: [{ severity: 'warning', mentions: ['~16'], check: (f) => expect(f.evidence[0]!.value).toBe(24) }],
    },
    {
      name: 'raidz2 grown with a mirror: mixed layouts',
      artifacts: { Pools: [pool('tank', [group('raidz2', 'raidz2-0', disks(6)), group('mirror', 'mirror-1', disks(2, 'nv'))])] },
      findings: [{ severity: 'suggestion', subjectId: 'tank', mentions: ['6-wide raidz2', '2-way mirror'], commandIncludes: ['zpool add -n tank raidz2'] }],
    },
  ],
});

import rule from '../../rules/special-fill.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, testPool } from '../fixtures/rules/slog-fixtures.ts';

const G = 2 ** 30;
const withAlloc = (alloc: number) => ({ ...testPool, vdevs: testPool.vdevs.map((v) => (v.class === 'special' ? { ...v, allocBytes: alloc } : v)) });

ruleTester(rule, {
  valid: [
    { name: '000 test-pool: special 11.9G of 54.9G (21.8 %)', artifacts: { Pools: [testPool] } },
    { name: 'no special', status: 'not-applicable', artifacts: { Pools: [benchPool] } },
  ],
  invalid: [
    { name: '000 test-pool grown to 44 GiB on special (80 %)', artifacts: { Pools: [withAlloc(44 * G)] }, findings: [{ severity: 'warning', subjectId: 'test-pool', mentions: ['80.1 % full', 'stay there'] }] },
    { name: 'early warning at 37 GiB (67 %)', artifacts: { Pools: [withAlloc(37 * G)] }, findings: [{ severity: 'suggestion', mentions: ['75 %'], reversible: 'partly' }] },
  ],
});

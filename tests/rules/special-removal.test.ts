import { expect } from 'vitest';
import rule from '../../rules/special-removal.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, testPool } from '../fixtures/rules/slog-fixtures.ts';
import { group, inClass, leaf, pool } from '../support/builders.ts';

const raidz = pool('tank', [group('raidz2', 'raidz2-0', ['a', 'b', 'c', 'd'].map((x) => leaf(`sd${x}`))), inClass('special', group('mirror', 'mirror-1', [leaf('nvme0n1'), leaf('nvme1n1'), leaf('nvme2n1')]))]);
const mixedAshift = { ...testPool, vdevs: testPool.vdevs.map((v) => ({ ...v, ashift: v.class === 'special' ? 9 : 12 })) };

ruleTester(rule, {
  valid: [
    { name: '000 test-pool: mirrors only, one ashift (removable, as 000 says)', artifacts: { Pools: [{ ...testPool, vdevs: testPool.vdevs.map((v) => ({ ...v, ashift: 12 })) }] } },
    { name: 'no special', status: 'not-applicable', artifacts: { Pools: [benchPool] } },
    { name: '000 test-pool, mirrors only but ashift unknown: cannot judge, not "passed"', status: 'not-applicable', artifacts: { Pools: [testPool] } },
  ],
  invalid: [
    { name: 'special mirror on a raidz2 pool', artifacts: { Pools: [raidz] }, findings: [{
      subjectId: 'tank', mentions: ['raidz2-0', 'life of the pool'], reversible: 'no', commandIncludes: ['zpool list -v tank'],
      // The pool already has its special vdev: no `zpool add … special` proposal, only what is already permanent.
      check: (f) => { expect(f.action?.commands.join('\n')).not.toContain('zpool add'); expect(f.action?.summary).toContain('already permanent'); },
    }] },
    { name: '000 test-pool with an ashift=9 special (003: crash on removal)', artifacts: { Pools: [mixedAshift] }, findings: [{ subjectId: 'test-pool', mentions: ['different ashift', '9, 12'], reversible: 'no' }] },
  ],
});

import rule from '../../rules/slog-on-2.4-special.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, da1, da3, testPool, testPoolDrivesAll } from '../fixtures/rules/slog-fixtures.ts';
import { host } from '../support/builders.ts';

ruleTester(rule, {
  valid: [
    { name: '000 test-pool on OpenZFS 2.1.6 (engine gate)', status: 'not-applicable', artifacts: { Pools: [testPool], Host: host('2.1.6'), Drives: testPoolDrivesAll } },
    { name: 'no special vdev on 2.4', status: 'not-applicable', artifacts: { Pools: [benchPool], Host: host('2.4.0'), Drives: [da1, da3] } },
  ],
  invalid: [
    {
      name: '000 test-pool (P1600X special, no log) on OpenZFS 2.4.0',
      artifacts: { Pools: [testPool], Host: host('2.4.0'), Drives: testPoolDrivesAll },
      findings: [{ severity: 'info', subjectId: 'test-pool', mentions: ['zil_special_is_slog', 'P1600X'] }],
    },
  ],
});

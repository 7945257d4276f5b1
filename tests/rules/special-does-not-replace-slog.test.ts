import rule from '../../rules/special-does-not-replace-slog.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { testPool, testPoolDrivesAll, workload } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, host } from '../support/builders.ts';

ruleTester(rule, {
  valid: [
    { name: '000 test-pool on 2.4 (engine gate)', status: 'not-applicable', artifacts: { Pools: [testPool], Host: host('2.4.1'), Datasets: [dataset('test-pool', { sync: 'always' })] } },
    { name: '000 test-pool, 2.1.6, observed no sync writes (constructed)', artifacts: { Pools: [testPool], Host: host('2.1.6'), Workload: workload('test-pool', 0) } },
  ],
  invalid: [
    {
      // maxVersion '2.3' is the 2.3 line: every 2.3 release (the lab's 2.3.9 guest found it silent there).
      name: '000 test-pool on 2.3.9 (the last of the 2.3 line) with a sync=always dataset',
      artifacts: { Pools: [testPool], Host: host('2.3.9'), Drives: testPoolDrivesAll, Datasets: [dataset('test-pool/share-data', { sync: 'always' })] },
      findings: [{ severity: 'info', subjectId: 'test-pool', mentions: ['never to special'] }],
    },
    {
      name: '000 test-pool on 2.1.6 with an NFS share set sync=always',
      artifacts: { Pools: [testPool], Host: host('2.1.6'), Drives: testPoolDrivesAll, Datasets: [dataset('test-pool/share-data', { sync: 'always' })] },
      findings: [{ severity: 'info', subjectId: 'test-pool', mentions: ['never to special', '10–20×', 'Needs a workload observation'], commandIncludes: ['zpool add -n test-pool log mirror'] }],
    },
  ],
});

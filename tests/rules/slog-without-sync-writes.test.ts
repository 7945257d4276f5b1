import rule from '../../rules/slog-without-sync-writes.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, benchPoolOptaneLog, workload } from '../fixtures/rules/slog-fixtures.ts';
import { dataset } from '../support/builders.ts';

ruleTester(rule, {
  valid: [
    { name: 'SLOG pool with observed sync commits (constructed)', artifacts: { Pools: [benchPoolOptaneLog], Workload: workload('bench-pool', 120) } },
    { name: 'no log vdev', status: 'not-applicable', artifacts: { Pools: [benchPool], Workload: workload('bench-pool', 0) } },
  ],
  invalid: [
    {
      name: '000 bench-pool with P1600X log, observation (constructed) shows no sync writes',
      artifacts: { Pools: [benchPoolOptaneLog], Workload: workload('bench-pool', 0), Datasets: [dataset('bench-pool', { sync: 'disabled' })] },
      findings: [{ severity: 'info', subjectId: 'bench-pool', mentions: ['no synchronous writes', 'sync=disabled'], commandIncludes: ['zpool remove bench-pool nvd1'], reversible: 'yes' }],
    },
  ],
});

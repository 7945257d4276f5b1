import { expect } from 'vitest';
import rule from '../../rules/sync-disabled.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { dataset } from '../support/builders.ts';

const local = { sync: { value: 'disabled', source: 'local' } };

ruleTester(rule, {
  valid: [
    { name: 'standard and always', artifacts: { Datasets: [dataset('tank/a'), dataset('tank/b', { sync: 'always' })] } },
  ],
  invalid: [
    {
      name: 'NFS export with sync=disabled, inherited by a child: one warning on the parent',
      artifacts: {
        Datasets: [
          dataset('tank/nfs', { sync: 'disabled', properties: { ...local, sharenfs: { value: 'rw=@10.0.0.0/24', source: 'local' } } }),
          dataset('tank/nfs/home', { sync: 'disabled', properties: { sync: { value: 'disabled', source: 'inherited from tank/nfs' } } }),
        ],
      },
      findings: [{
        severity: 'warning', subjectId: 'tank/nfs', mentions: ['and 1 inheriting', 'at least 5 s', 'ZIL counters'],
        commandIncludes: ['zfs set sync=standard tank/nfs'], reversible: 'yes',
        check: (f) => expect(f.evidence.find((e) => e.label === 'inherited by')?.value).toBe('tank/nfs/home'),
      }],
    },
    {
      name: 'scratch filesystem: suggestion',
      artifacts: { Datasets: [dataset('tank/scratch', { sync: 'disabled', properties: local })] },
      findings: [{ severity: 'suggestion', mentions: ['scratch data'] }],
    },
  ],
});

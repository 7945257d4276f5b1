import rule from '../../rules/recordsize-too-small.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { dataset } from '../support/builders.ts';

const rs = (n: number, source = 'local') => ({ recordsize: n, properties: { recordsize: { value: String(n), source } } });

ruleTester(rule, {
  valid: [
    { name: 'default 128K and 1M', artifacts: { Datasets: [dataset('tank/a'), dataset('tank/media', rs(1048576))] } },
    { name: '16K for InnoDB is not ≤ 8K', artifacts: { Datasets: [dataset('tank/mysql', rs(16384))] } },
    { name: 'only zvols', artifacts: { Datasets: [dataset('tank/vm', { type: 'volume' })] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'general dataset with recordsize=4K (002: default 6.4× faster)',
      artifacts: { Datasets: [dataset('tank/share', rs(4096)), dataset('tank/share/sub', rs(4096, 'inherited from tank/share'))] },
      findings: [{ severity: 'suggestion', subjectId: 'tank/share', mentions: ['6.4×', 'recordsize=4K'], commandIncludes: ['zfs inherit recordsize tank/share'], reversible: 'yes' }],
    },
    {
      name: 'PostgreSQL dataset at 8K: info, low confidence',
      artifacts: { Datasets: [dataset('tank/postgres', rs(8192))] },
      findings: [{ severity: 'info', mentions: ['page size'], check: (f) => { if (f.confidence !== 'low') throw new Error('confidence'); } }],
    },
  ],
});

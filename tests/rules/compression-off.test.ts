import rule from '../../rules/compression-off.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { dataset, pool } from '../support/builders.ts';

const off = { compression: 'off', properties: { compression: { value: 'off', source: 'local' } } };

ruleTester(rule, {
  valid: [
    { name: 'lz4 and zstd', artifacts: { Datasets: [dataset('tank/a'), dataset('tank/b', { compression: 'zstd' })] } },
    { name: 'compression unknown', artifacts: { Datasets: [dataset('tank/a', { compression: null })] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'compression=off on a 128K filesystem, ashift 12',
      artifacts: { Datasets: [dataset('tank/data', off), dataset('tank/data/x', { compression: 'off', properties: { compression: { value: 'off', source: 'inherited from tank/data' } } })], Pools: [pool('tank', [])] },
      findings: [{ severity: 'suggestion', subjectId: 'tank/data', mentions: ['Always use LZ4', '124K or less'], commandIncludes: ['zfs set compression=lz4 tank/data'], reversible: 'yes' }],
    },
    {
      name: 'five datasets of a pool, each set locally: one finding each',
      artifacts: { Datasets: [1, 2, 3, 4, 5].map((i) => dataset(`tank/d${i}`, off)), Pools: [pool('tank', [])] },
      findings: [1, 2, 3, 4, 5].map((i) => ({ subjectId: `tank/d${i}`, commandIncludes: [`zfs set compression=lz4 tank/d${i}`] })),
    },
    {
      name: 'more than five in one pool: one finding for that pool naming each (other pools stay apart)',
      artifacts: {
        Datasets: [...Array.from({ length: 30 }, (_, i) => dataset(`tank/d${i}`, off)), dataset('other/x', off)],
        Pools: [pool('tank', []), pool('other', [])],
      },
      findings: [
        { severity: 'suggestion', subjectId: 'tank', mentions: ['30 datasets', 'each needs its own'], commandIncludes: ['zfs set compression=lz4 tank/d0\nzfs set compression=lz4 tank/d1\n', 'zfs set compression=lz4 tank/d29'], reversible: 'yes' },
        { subjectId: 'other/x' },
      ],
    },
    {
      name: '4K zvol on ashift 12: compression cannot save anything (C26) — info',
      artifacts: { Datasets: [dataset('tank/swap', { ...off, type: 'volume', volblocksize: 4096 })], Pools: [pool('tank', [])] },
      findings: [{ severity: 'info', mentions: ['can never shrink'] }],
    },
  ],
});

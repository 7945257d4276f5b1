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
      name: '4K zvol on ashift 12: compression cannot save anything (C26) — info',
      artifacts: { Datasets: [dataset('tank/swap', { ...off, type: 'volume', volblocksize: 4096 })], Pools: [pool('tank', [])] },
      findings: [{ severity: 'info', mentions: ['can never shrink'] }],
    },
  ],
});

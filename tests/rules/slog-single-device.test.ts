import rule from '../../rules/slog-single-device.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, benchPoolOptaneLog, da1, da3, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { drive, group, inClass, leaf } from '../support/builders.ts';

const second = drive('nvme-INTEL_SSDPEK1A058GA_B', { model: 'INTEL SSDPEK1A058GA', media: 'nvme', transport: 'nvme', rotational: false, rpm: null });
const mirrored = { ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', group('mirror', 'mirror-1', [leaf('nvd1', { driveId: p1600x.id }), leaf('nvd2', { driveId: second.id })]))] };

ruleTester(rule, {
  valid: [
    { name: 'mirrored P1600X log', artifacts: { Pools: [mirrored], Drives: [da1, da3, p1600x, second] } },
    { name: 'no log', status: 'not-applicable', artifacts: { Pools: [benchPool] } },
  ],
  invalid: [
    {
      name: '000: single P1600X log on bench-pool',
      artifacts: { Pools: [benchPoolOptaneLog], Drives: [da1, da3, p1600x] },
      findings: [{ severity: 'info', subjectId: 'bench-pool/nvd1', mentions: ['P1600X', 'zpool import -m', 'pool itself survives'], commandIncludes: ['zpool attach bench-pool /dev/disk/by-id/nvme-INTEL_SSDPEK1A058GA_PHOC209200KC058A'], reversible: 'yes' }],
    },
  ],
});

import rule from '../../rules/slog-device-suitability.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, benchPoolEvoLog, benchPoolOptaneLog, da1, da3, evo850, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { drive, inClass, leaf } from '../support/builders.ts';

const a400 = drive('ata-KINGSTON_SA400S37240G', { model: 'KINGSTON SA400S37240G', media: 'ssd', rotational: false, rpm: null });
const s3500 = drive('ata-INTEL_SSDSC2BB480G4', { model: 'INTEL SSDSC2BB480G4', media: 'ssd', rotational: false, rpm: null });
const withLog = (d: typeof a400) => ({ ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', leaf('da9', { driveId: d.id }))] });

ruleTester(rule, {
  valid: [
    { name: '000: P1600X as SLOG on the HDD mirror', artifacts: { Pools: [benchPoolOptaneLog], Drives: [da1, da3, p1600x] } },
    { name: '000: Intel DC S3500 (PLP SATA) as SLOG on the HDD mirror', artifacts: { Pools: [withLog(s3500)], Drives: [da1, da3, s3500] } },
    { name: 'no log vdev', status: 'not-applicable', artifacts: { Pools: [benchPool], Drives: [da1, da3] } },
  ],
  invalid: [
    {
      name: '000: Samsung 850 EVO as SLOG (PLP unknown → assumed consumer flush latency)',
      artifacts: { Pools: [benchPoolEvoLog], Drives: [da1, da3, evo850] },
      findings: [{ severity: 'suggestion', subjectId: evo850.id, mentions: ['850 EVO', 'unknown'], commandIncludes: ['zpool replace bench-pool /dev/disk/by-id/ata-Samsung_SSD_850_EVO_500GB'], check: (f) => { if (f.confidence !== 'low') throw new Error('expected low confidence'); } }],
    },
    {
      name: 'Kingston A400 (DRAM-less, real smartctl model string) as SLOG',
      artifacts: { Pools: [withLog(a400)], Drives: [da1, da3, a400] },
      findings: [{ severity: 'warning', subjectId: a400.id, mentions: ['Kingston A400', 'DRAM-less'] }],
    },
  ],
});

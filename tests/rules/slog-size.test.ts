import rule, { dirtyDataMax, slogBytesNeeded } from '../../rules/slog-size.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, benchPoolOptaneLog, da1, da3, evo850, host000, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { drive, inClass, leaf } from '../support/builders.ts';
import { describe, expect, it } from 'vitest';

const G = 2 ** 30;
const pm1725 = drive('nvme-SAMSUNG_MZWLL3T2HAJQ', { model: 'SAMSUNG MZWLL3T2HAJQ-00005', media: 'nvme', transport: 'nvme', rotational: false, rpm: null, sizeBytes: 3.2e12 });
const bigLog = { ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', leaf('nvme0n1', { driveId: pm1725.id }))] };
const partLog = { ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', leaf('nvme0n1p1', { driveId: pm1725.id, sizeBytes: 16 * G }))] };

describe('slog-size formulas (zfs-facts A13, A16)', () => {
  it('dirty_data_max = 10 % of RAM capped at min(RAM/4, 4 GiB)', () => {
    expect(dirtyDataMax(16 * G)).toBeCloseTo(1.6 * G);
    expect(dirtyDataMax(128 * G)).toBe(4 * G);
    expect(dirtyDataMax(null)).toBe(4 * G);
  });
  it('needed = min(ddm, ingest × 10 s) × 1.5', () => {
    expect(slogBytesNeeded(128 * G, null)).toBe(6 * G);
    expect(slogBytesNeeded(128 * G, 100 * 2 ** 20)).toBeCloseTo(1000 * 2 ** 20 * 1.5);
  });
});

ruleTester(rule, {
  valid: [
    { name: '000: 58 GB P1600X log is within 4× of the 16 GiB recommendation', artifacts: { Pools: [benchPoolOptaneLog], Drives: [da1, da3, p1600x], Host: host000 } },
    { name: '16 GiB partition of a large PLP NVMe', artifacts: { Pools: [partLog], Drives: [da1, da3, pm1725], Host: host000 } },
    { name: 'no log', status: 'not-applicable', artifacts: { Pools: [benchPool], Drives: [da1, da3, evo850] } },
  ],
  invalid: [
    {
      name: 'whole 3.2 TB PM1725a (real smartctl model) as log on the 000 HDD mirror',
      artifacts: { Pools: [bigLog], Drives: [da1, da3, pm1725], Host: host000 },
      findings: [{ subjectId: 'bench-pool/nvme0n1', mentions: ['over-provisioning', '6.0 GiB'], commandIncludes: ['sgdisk -n1:0:+16G', 'zpool add bench-pool log'], reversible: 'yes' }],
    },
  ],
});

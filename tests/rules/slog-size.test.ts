import rule, { dirtyDataMax, slogBytesNeeded } from '../../rules/slog-size.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, benchPoolOptaneLog, da1, da3, evo850, host000, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { drive, host, inClass, leaf } from '../support/builders.ts';
import { describe, expect, it } from 'vitest';

const G = 2 ** 30;
const pm1725 = drive('nvme-SAMSUNG_MZWLL3T2HAJQ', { model: 'SAMSUNG MZWLL3T2HAJQ-00005', media: 'nvme', transport: 'nvme', rotational: false, rpm: null, sizeBytes: 3.2e12 });
const bigLog = { ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', leaf('nvme0n1', { driveId: pm1725.id }))] };
const pm1725Bsd = { ...pm1725, devPath: '/dev/nvd0', aliases: ['/dev/nvd0'], byIdPath: null };
const bigLogBsd = { ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', leaf('nvd0', { driveId: pm1725Bsd.id }))] };
// A partition leaf whose own size zpool list did not report: the size of the whole drive says nothing about it.
const unsizedPartLog = { ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', leaf('nvme0n1p1', { driveId: pm1725.id }))] };
const illumos = host(null, { platform: 'unknown', hostname: 'omniosce' });
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
    { name: 'log partition of unknown size: cannot judge, not "passed"', status: 'not-applicable', artifacts: { Pools: [unsizedPartLog], Drives: [da1, da3, pm1725], Host: host() } },
  ],
  invalid: [
    {
      name: 'Linux: whole 3.2 TB PM1725a (real smartctl model) as log on an HDD mirror → sgdisk on its by-id path',
      artifacts: { Pools: [bigLog], Drives: [da1, da3, pm1725], Host: host() },
      findings: [{
        subjectId: 'bench-pool/nvme0n1', mentions: ['over-provisioning', '4.8 GiB'], reversible: 'yes',
        commandIncludes: ['zpool remove bench-pool nvme0n1', `sgdisk -n1:0:+16G -t1:BF01 ${pm1725.byIdPath}`, `zpool add bench-pool log ${pm1725.byIdPath}-part1`],
      }],
    },
    {
      name: 'FreeBSD (TrueNAS CORE, 000 host): gpart, never sgdisk or /dev/disk/by-id',
      artifacts: { Pools: [bigLogBsd], Drives: [da1, da3, pm1725Bsd], Host: host000 },
      findings: [{
        subjectId: 'bench-pool/nvd0', mentions: ['6.0 GiB'],
        commandIncludes: ['zpool remove bench-pool nvd0', 'gpart create -s gpt nvd0', 'gpart add -t freebsd-zfs -a 1m -s 16G nvd0', 'zpool add bench-pool log /dev/nvd0p1'],
        check: (f) => expect((f.action?.commands ?? []).join('\n')).not.toMatch(/sgdisk|by-id/),
      }],
    },
    {
      name: 'illumos/unknown host: no scripted partitioning, the device\'s own name',
      artifacts: { Pools: [bigLog], Drives: [da1, da3, { ...pm1725, byIdPath: null, devPath: '/dev/c3t0d0', aliases: ['/dev/c3t0d0'] }], Host: illumos },
      findings: [{
        subjectId: 'bench-pool/nvme0n1', commandIncludes: ['zpool remove bench-pool nvme0n1'],
        check: (f) => {
          expect(f.action?.commands).toEqual(['zpool remove bench-pool nvme0n1']);
          expect(f.action?.summary).toContain("platform's own tool");
        },
      }],
    },
  ],
});

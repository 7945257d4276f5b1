/**
 * Real counter pairs recorded in the lab guest (tests/lab/openzfs.test.ts "observe: …"): OpenZFS 2.3
 * and 2.1 kstats and `zpool iostat -w`/`-r` read before and after 15 s of 4 KiB writes at QD1 on a
 * sync=always dataset, with fio's own JSON beside them (tests/fixtures/lab/<line>/observe-sync4k-qd1).
 * Unlike the derived pairs of fingerprint-recorded.test.ts, both readings here are real.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkloadFingerprint } from '../../server/src/model/workload.ts';
import { recordedFingerprint } from './lab-recorded.ts';

const dirOf = (line: string) => join(import.meta.dirname, '../fixtures/lab', line, 'observe-sync4k-qd1');
// 2.3's pair is committed; 2.1's and 2.4's are read too once the lab has recorded them.
const LINES = ['2.3', ...['2.1', '2.4'].filter((l) => existsSync(dirOf(l)))];

it('the OpenZFS 2.3 pair is there', () => expect(existsSync(join(dirOf('2.3'), 'fio.json'))).toBe(true));

describe.each(LINES)('a real counter pair from OpenZFS %s', (line) => {
  const dir = dirOf(line);
  const fp = recordedFingerprint(dir);
  const fio = JSON.parse(readFileSync(join(dir, 'fio.json'), 'utf8')).jobs[0].write as { total_ios: number; iops: number; clat_ns: { percentile: Record<string, number> } };
  const pool = fp.pools.find((p) => p.pool === 'tank')!;

  it('is a valid fingerprint over the recorded window', () => {
    expect(WorkloadFingerprint.parse(fp)).toEqual(fp);
    expect(fp.windowSeconds).toBeGreaterThan(14);
  });

  it('counts every fio write as a ZIL commit (sync=always): commits ≥ fio writes', () => {
    const commits = fp.zil!.commitsPerSec * fp.windowSeconds;
    expect(commits).toBeGreaterThanOrEqual(fio.total_ios * 0.95);
    expect(commits).toBeLessThanOrEqual(fio.total_ios * 1.5 + 50);
  });

  it('sees the load as sync writes, at a latency of fio\'s order', () => {
    expect(pool.syncWriteShare).not.toBeNull();
    expect(pool.syncWriteShare!).toBeGreaterThan(0.3);
    const p50 = pool.syncWriteLatencyMs.data?.p50;
    expect(p50).toBeTypeOf('number');
    // zpool iostat -w times each disk write; fio times the whole sync write (ZIL commit + flush):
    // the disk's p50 cannot exceed fio's p99.
    expect(p50!).toBeLessThanOrEqual(fio.clat_ns.percentile['99.000000']! / 1e6);
  });
});

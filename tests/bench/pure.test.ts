/**
 * The pure parts of the benchmark runner, on real captured outputs (tests/fixtures/bench,
 * sources in PROVENANCE.md): fio stream splitting and results, pool status facts, the guards'
 * verdicts, names, profiles and fio arguments.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFioStreamSplitter, intervalIops, snapshotOf, type FioSnapshot } from '../../server/src/bench/fio-stream.ts';
import { fioResultFromText, fioResultOf, totals } from '../../server/src/bench/fio-result.ts';
import { scanInProgress, stateOf, topologyFingerprint, parsePoolListLine } from '../../server/src/bench/pool-facts.ts';
import { evaluateGuards, refusals, type GuardFacts } from '../../server/src/bench/guards.ts';
import { checkPath, checkPoolName, checkDevicePath, isBenchDatasetName, benchDatasetName } from '../../server/src/bench/names.ts';
import { PROFILES, getProfile, recordsizeFor } from '../../server/src/bench/profiles.ts';
import { chooseSyncMode, layoutArgs, runArgs } from '../../server/src/bench/fio-args.ts';
import { benchQuotaText, datasetCreateArgs } from '../../server/src/bench/targets.ts';
import { parseIostatLatencyLine } from '../../server/src/bench/pool-latency.ts';
import { busyPct, cpuUsPerIo, parseProcStatCpu } from '../../server/src/bench/kpi.ts';
import { runText } from '../../server/src/cli/commands/bench-format.ts';
import { confirmationFor, signaturesFromBlkid } from '../../server/src/bench/device-facts.ts';
import type { PoolFacts } from '../../server/src/bench/pool-facts.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'bench');
const fixture = (name: string) => readFileSync(join(FIX, name), 'utf8');

describe('fio status-interval stream', () => {
  it('splits six back-to-back documents line by line and derives live progress', () => {
    const split = createFioStreamSplitter();
    const snaps: FioSnapshot[] = [];
    for (const line of fixture('fio-rootfs-status-interval-1.json').split('\n')) {
      const doc = split.push(line);
      if (doc) snaps.push(snapshotOf(doc));
    }
    expect(snaps).toHaveLength(6);
    expect(split.rejected()).toEqual([]);
    expect(snaps.map((s) => s.elapsedS)).toEqual([1, 2, 3, 4, 5, 6]);
    // write.total_ios per report, read by eye from the fixture: 2345, 5041, ..., 12390
    expect(snaps.map((s) => s.totalIos)).toEqual([2345, 5041, 7804, 10419, 11963, 12390]);
    expect(intervalIops(null, snaps[0]!)).toBe(2345);
    expect(intervalIops(snaps[0]!, snaps[1]!)).toBe(2696); // (5041-2345) ios in 1000 ms
    // fsync=1: the live latency is the time until the write is durable, fio's sync section
    // (jobs[0].sync.lat_ns.mean of the last report, 387.37 µs), not the write() call's 14.22 µs.
    expect(snaps[5]!.meanLatencyUs).toBeCloseTo(387.370738, 5);
    expect(snaps[0]!.meanLatencyUs).toBeCloseTo(359.286587, 5);
  });

  it('keeps stray text out of the documents', () => {
    const split = createFioStreamSplitter();
    expect(split.push('fio: some warning')).toBeNull();
    expect(split.push('{')).toBeNull();
    expect(split.push('  "jobs" : []')).toBeNull();
    expect(split.push('}')).toEqual({ jobs: [] });
    expect(split.rejected()).toEqual(['fio: some warning']);
  });
});

describe('fio final result', () => {
  it('takes the last document of a stream through the project fio parser, with CPU and fsync p99.9', () => {
    const r = fioResultFromText(fixture('fio-rootfs-status-interval-1.json'))!;
    expect(r.fioVersion).toBe('fio-3.33');
    expect(r.jobs).toHaveLength(1);
    const j = r.jobs[0]!;
    expect(j.write.iops).toBeCloseTo(2477.504499, 5);
    expect(j.write.bytesPerSec).toBe(10147858);
    expect(j.write.latency).toEqual({ meanNs: 14224.723002, p50Ns: 9152, p99Ns: 68096, p999Ns: 378880 });
    expect(j.read.latency).toBeNull();
    expect(j.runtimeMs).toBe(5000);
    expect(j.usrCpuPct).toBe(0.9);
    expect(j.sysCpuPct).toBe(27.26);
    expect(j.sync?.totalIos).toBe(12390);
    expect(j.sync?.p999Ns).toBe(5865472);
    expect(totals(r)).toMatchObject({ writeIops: j.write.iops, readIops: 0, runtimeS: 5 });
  });

  it('reads fsync latency of a zfs-fuse run (the fallback when sync cannot be set)', () => {
    const doc = JSON.parse(fixture('fio-zfsfuse-latency-fsync1.json')) as Record<string, unknown>;
    const j = fioResultOf(doc)!.jobs[0]!;
    expect(j.write.iops).toBeCloseTo(1340.131974, 5);
    expect(j.write.latency?.p50Ns).toBe(46848);
    expect(j.write.latency?.p999Ns).toBe(66846720);
    expect(j.sync).toEqual({ totalIos: 6702, meanNs: 564275.613697, p50Ns: 552960, p99Ns: 962560, p999Ns: 2867200 });
    expect(j.runtimeMs).toBe(5000);
  });

  it('takes the wall clock of four threads reported as one group, not the sum of their runtimes', () => {
    const doc = JSON.parse(fixture('fio-rootfs-randwrite-4jobs-group-reporting.json')) as Record<string, unknown>;
    const r = fioResultOf(doc)!;
    expect(r.jobs).toHaveLength(1);
    expect(r.jobs[0]!.runtimeMs).toBe(2004); // job_runtime in the same document: 8007
    expect(totals(r).runtimeS).toBe(2.004);
    expect(fioResultFromText(fixture('fio-rootfs-randwrite-4jobs-group-reporting.json'))!.jobs[0]!.runtimeMs).toBe(2004);
    // The same options in a job file's [global] section (how users' own fio files often set them).
    const jobs = doc.jobs as { 'job options': Record<string, string> }[];
    const { numjobs, group_reporting: gr, ...own } = jobs[0]!['job options'];
    const asGlobal = { ...doc, 'global options': { numjobs, group_reporting: gr }, jobs: [{ ...jobs[0], 'job options': own }] };
    expect(fioResultOf(asGlobal)!.jobs[0]!.runtimeMs).toBe(2004);
  });

  it('CPU per I/O of a grouped job: fio\'s usr/sys shares are per thread, so the run\'s CPU time is share × threads × wall', () => {
    const doc = JSON.parse(fixture('fio-rootfs-randwrite-4jobs-group-reporting.json')) as { jobs: Record<string, unknown>[] };
    const raw = doc.jobs[0]! as { usr_cpu: number; sys_cpu: number; job_runtime: number; write: { total_ios: number } };
    const r = fioResultOf(doc as unknown as Record<string, unknown>)!;
    const t = totals(r);
    // The same quantity from fio's own sums: (usr + sys) share of the threads' summed runtime, per I/O.
    const fromSums = ((raw.usr_cpu + raw.sys_cpu) / 100) * raw.job_runtime * 1000 / raw.write.total_ios;
    const got = cpuUsPerIo(r.jobs[0]!, 4, t.writeIops)!;
    expect(Math.abs(got - fromSums) / fromSums).toBeLessThan(0.01);
    expect(cpuUsPerIo({ usrCpuPct: null, sysCpuPct: 3 }, 1, 100)).toBeNull();
    expect(cpuUsPerIo({ usrCpuPct: 1, sysCpuPct: 16 }, 1, 141)).toBe(1205.7); // the lab's QD1 probe without a log device
  });

  it('the CLI prints the CPUs\' busy share and the CPU per I/O beside load and iowait, and nothing where they were not recorded', () => {
    const base = {
      id: 'b1', profile: 'sync-write-4k-qd1', pool: 'tank', target: 'tank/zfs-advisor-bench-b1', startedAt: '2026-11-26T01:00:00Z', status: 'completed' as const,
      syncMode: 'property' as const, iodepth: 1, writers: 1, blockSize: 4096, readIops: 0, writeIops: 139, readBytesPerSec: 0, writeBytesPerSec: 139 * 4096,
      writeLatency: null, readLatency: null, wallSeconds: 6, fioRuntimeSeconds: 5, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
    };
    const text = runText({ ...base, cpuUsPerIo: 1173.2, system: { load1Max: 1.6, load1Mean: 1.5, iowaitPctMean: 5.8, arcHitPct: null, cpuBusyPctMean: 30.4, cpus: 2 } }, null);
    expect(text).toMatch(/load1 peak .*, iowait 5\.8 ?%, CPUs 30\.4 ?% busy/);
    expect(text).toContain("CPU per I/O in fio's threads: 1.17 ms");
    const old = runText({ ...base, system: { load1Max: 1.6, load1Mean: 1.5, iowaitPctMean: 5.8, arcHitPct: null } }, null);
    expect(old).not.toContain('busy');
    expect(old).not.toContain('CPU per I/O');
  });

  it('the CPUs\' busy share from two /proc/stat readings: neither idle nor in I/O wait', () => {
    const a = parseProcStatCpu('cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3 4 5')!;
    const b = parseProcStatCpu('cpu  400 0 300 800 200 0 0 0 0 0\n')!;
    expect(busyPct(a, b)).toBe(100 * 500 / 700);
    expect(busyPct(a, a)).toBeNull();
  });
});

describe('pool status facts', () => {
  it('sees a scrub (zfs-fuse `scrub:` line) and a resilver (OpenZFS `scan:` line) in progress', () => {
    expect(scanInProgress(fixture('zpool_status_fbig_scrub_in_progress.txt'))).toBe('scrub');
    expect(scanInProgress(fixture('zpool_status_fmirror_after_online.txt'))).toBe('resilver');
    expect(scanInProgress(fixture('fbsd-zroot-resilvering-online.txt'))).toBe('resilver');
    expect(scanInProgress(fixture('zpool_status_fcomplex_after_detach.txt'))).toBeNull(); // "resilver completed"
  });

  it('reads the pool state', () => {
    expect(stateOf(fixture('zpool_status_DEGRADED_fmirror.txt'))).toBe('DEGRADED');
    expect(stateOf(fixture('zpool_status_fmirror_after_online.txt'))).toBe('ONLINE');
  });

  it('fingerprints the vdev tree, not its states', () => {
    const degraded = topologyFingerprint(fixture('zpool_status_DEGRADED_fmirror.txt'));
    const online = topologyFingerprint(fixture('zpool_status_fmirror_after_online.txt'));
    const complex = topologyFingerprint(fixture('zpool_status_fcomplex_after_detach.txt'));
    expect(degraded).toMatch(/^[0-9a-f]{16}$/);
    expect(online).toBe(degraded);
    expect(complex).not.toBe(degraded);
    expect(topologyFingerprint('no config here')).toBeNull();
  });

  it('reads a zpool list line in bytes and in zfs-fuse human units', () => {
    expect(parsePoolListLine('tank\t1000204886016\t1234\t999\tONLINE')).toEqual({ name: 'tank', size: 1000204886016, alloc: 1234, health: 'ONLINE' });
    expect(parsePoolListLine('fmirror\t123M\t18.9M\t104M\tONLINE')).toMatchObject({ size: 123 * 1024 ** 2, health: 'ONLINE' });
    expect(parsePoolListLine('garbage')).toBeNull();
  });

  it('reads zpool iostat -l -H -p lines (waits in ns; "-" is no data)', () => {
    const line = 'tank\t1000\t2000\t5\t7\t100\t200\t1500\t2500000\t1200\t2000000\t-\t10\t-\t20\t-\t-\t-';
    expect(parseIostatLatencyLine(line, 'tank', 1)).toEqual({ tS: 1, readWaitNs: 1500, writeWaitNs: 2500000, diskReadWaitNs: 1200, diskWriteWaitNs: 2000000 });
    expect(parseIostatLatencyLine(line, 'other', 1)).toBeNull();
  });

  it('lists signatures from blkid -p -o export', () => {
    expect(signaturesFromBlkid('DEVNAME=/dev/loop3\nVERSION=1\nTYPE=swap\nUSAGE=other\n')).toEqual(['TYPE=swap']);
    expect(signaturesFromBlkid('DEVNAME=/dev/loop4\nPTUUID=0x1\nPTTYPE=dos\n')).toEqual(['PTTYPE=dos']);
  });
});

const GiB = 1024 ** 3;
const pool = (over: Partial<PoolFacts> = {}): PoolFacts => ({
  name: 'tank', health: 'ONLINE', sizeBytes: 100 * GiB, allocBytes: 10 * GiB, availableBytes: 80 * GiB,
  scan: null, syncProperty: true, zvols: true, topologyFingerprint: 'abc', ...over,
});
const facts = (over: Partial<GuardFacts> = {}): GuardFacts => ({
  nameProblems: [], sizeBytes: GiB, runtimeS: 30, wallCapS: 150, load1: 0.5, maxLoad1: 8, lock: null,
  pool: pool(), poolError: null, path: null, device: null, deviceError: null, confirmSerial: null, ...over,
});
const refusedIds = (f: GuardFacts) => refusals(evaluateGuards(f)).map((g) => g.id);

describe('guards', () => {
  it('let a healthy request through and report every guard', () => {
    const v = evaluateGuards(facts());
    expect(refusals(v)).toEqual([]);
    expect(v.map((g) => g.id)).toEqual(['names', 'lock', 'load', 'wall-cap', 'pool-health', 'pool-scan', 'free-space', 'pool-fill']);
  });

  it('refuse a nearly full pool: free space below 3× the size, and fill at or above 80 %', () => {
    expect(refusedIds(facts({ pool: pool({ availableBytes: 2.9 * GiB }) }))).toEqual(['free-space']);
    const v = evaluateGuards(facts({ pool: pool({ allocBytes: 79.5 * GiB }) }));
    expect(refusals(v).map((g) => g.id)).toEqual(['pool-fill']);
    expect(refusals(v)[0]!.message).toMatch(/80\.5 % full .* below 80 %/);
  });

  it('refuse a degraded pool and a pool being scrubbed or resilvered', () => {
    expect(refusedIds(facts({ pool: pool({ health: stateOf(fixture('zpool_status_DEGRADED_fmirror.txt'))! }) }))).toEqual(['pool-health']);
    const scrubbing = pool({ scan: scanInProgress(fixture('zpool_status_fbig_scrub_in_progress.txt')) });
    const v = evaluateGuards(facts({ pool: scrubbing }));
    expect(refusals(v).map((g) => g.id)).toEqual(['pool-scan']);
    expect(refusals(v)[0]!.message).toMatch(/a scrub is running on tank/);
  });

  it('tell a second request who holds the lock', () => {
    const lock = { runId: 'abcdef012345', pid: 4242, host: 'nas1', profile: 'rand-read-4k', target: 'tank/x', acquiredAt: '2026-01-01T00:00:00Z', bootId: null, procStart: null };
    const v = refusals(evaluateGuards(facts({ lock })));
    expect(v.map((g) => g.id)).toEqual(['lock']);
    expect(v[0]!.message).toContain('run abcdef012345, rand-read-4k on tank/x, pid 4242 on nas1');
  });

  it('refuse on load and when the runtime cannot fit the wall-clock cap', () => {
    expect(refusedIds(facts({ load1: 9, maxLoad1: 8 }))).toEqual(['load']);
    expect(refusedIds(facts({ runtimeS: 30, wallCapS: 20 }))).toEqual(['wall-cap']);
  });

  it('refuse a path reached through a symlink', () => {
    const v = refusals(evaluateGuards(facts({ pool: null, path: { requested: '/mnt/bench', realPath: '/etc', isDirectory: true, freeBytes: 100 * GiB } })));
    expect(v.map((g) => g.id)).toEqual(['path-symlink']);
    expect(v[0]!.message).toContain('leads to /etc through a symlink');
  });

  it('refuse a non-blank device and a wrong serial', () => {
    const device = { path: '/dev/sdz', realPath: '/dev/sdz', isBlockDevice: true, sizeBytes: 100 * GiB, serial: 'S3Z1NB0K', inUse: ['carries a signature (blkid): TYPE=zfs_member'] };
    expect(refusedIds(facts({ pool: null, device, confirmSerial: 'S3Z1NB0K' }))).toEqual(['device-blank']);
    expect(refusedIds(facts({ pool: null, device: { ...device, inUse: [] }, confirmSerial: 's3z1nb0k' }))).toEqual(['device-serial']);
    expect(refusedIds(facts({ pool: null, device: { ...device, inUse: [] }, confirmSerial: 'S3Z1NB0K' }))).toEqual([]);
  });

  it('confirm a serial-less device by its WWN, else by NAME:BYTES, never by the kernel name alone', () => {
    const noSerial = { path: '/dev/sdq', realPath: '/dev/sdq', isBlockDevice: true, sizeBytes: 500107862016, serial: null, inUse: [] };
    // WWN present: it is what must be typed (hex, so case does not matter); the name is refused.
    const withWwn = { ...noSerial, wwn: '0x5000c500a1b2c3d4' };
    expect(confirmationFor(withWwn)).toMatchObject({ kind: 'wwn', expected: '0x5000c500a1b2c3d4' });
    expect(refusedIds(facts({ pool: null, device: withWwn, confirmSerial: '0x5000C500A1B2C3D4' }))).toEqual([]);
    const byName = refusals(evaluateGuards(facts({ pool: null, device: withWwn, confirmSerial: 'sdq' })));
    expect(byName.map((g) => g.id)).toEqual(['device-serial']);
    expect(byName[0]!.message).toBe('refused: the confirmation "sdq" does not match /dev/sdq\'s WWN: it reports no serial number, so type its WWN instead (lsblk -d -o NAME,WWN /dev/sdq), to confirm you mean this device');
    // Neither serial nor WWN: kernel name and exact size in bytes.
    expect(confirmationFor(noSerial)).toMatchObject({ kind: 'name-and-size', expected: 'sdq:500107862016' });
    expect(refusedIds(facts({ pool: null, device: noSerial, confirmSerial: 'sdq:500107862016' }))).toEqual([]);
    for (const typed of ['sdq', '500107862016', 'sdq:500107862015', '/dev/sdq:500107862016']) {
      const v = refusals(evaluateGuards(facts({ pool: null, device: noSerial, confirmSerial: typed })));
      expect(v.map((g) => g.id), typed).toEqual(['device-serial']);
      expect(v[0]!.message).toMatch(/reports neither a serial number nor a WWN, so type its kernel name and exact size in bytes as NAME:BYTES \(lsblk -b -d -o NAME,SIZE \/dev\/sdq\); the name alone is not accepted/);
      expect(v[0]!.message.replace(`"${typed}"`, '')).not.toContain('sdq:500107862016'); // the refusal never prints the answer
    }
    // Nothing to confirm with at all: refused whatever is typed.
    const anonymous = { ...noSerial, sizeBytes: null };
    expect(confirmationFor(anonymous)).toBeNull();
    expect(refusals(evaluateGuards(facts({ pool: null, device: anonymous, confirmSerial: 'sdq' })))[0]!.message).toMatch(/cannot be confirmed beyond its name/);
  });
});

describe('names', () => {
  it('reject option injection, control characters and ..', () => {
    expect(checkPoolName('-f')).toMatch(/starts with "-"/);
    expect(checkPoolName('tank\nrm')).toMatch(/control character/);
    expect(checkPoolName('tank/../x')).not.toBeNull();
    expect(checkPoolName('tank')).toBeNull();
    expect(checkPath('path', '/srv/../etc')).toMatch(/contains "\.\."/);
    expect(checkPath('path', 'relative/dir')).toMatch(/absolute/);
    expect(checkPath('path', '/srv/a\u0007b')).toMatch(/control/);
    expect(checkDevicePath('/dev/sda;reboot')).toMatch(/not a \/dev node/);
    expect(checkDevicePath('/dev/disk/by-id/nvme-INTEL_SSDPEK1A118GA_PHOC1234')).toBeNull();
  });

  it('only ever destroy datasets of the exact benchmark shape', () => {
    expect(isBenchDatasetName(benchDatasetName('tank', 'a1b2c3d4e5f6'))).toBe(true);
    expect(isBenchDatasetName('tank')).toBe(false);
    expect(isBenchDatasetName('tank/data')).toBe(false);
    expect(isBenchDatasetName('tank/zfs-advisor-bench-a1b2c3d4e5f6/child')).toBe(false);
    expect(isBenchDatasetName('tank/zfs-advisor-bench-../x')).toBe(false);
  });
});

describe('profiles and fio arguments', () => {
  it('gives each profile a temporary dataset shaped for what it measures: caching off only for reads, one-write records for random writes', () => {
    const shape = (id: string) => {
      const a = datasetCreateArgs('tank', 'r1', 64 * 1024 * 1024, 'always', getProfile(id)!);
      return [a.find((x) => x.startsWith('recordsize=')), a.find((x) => x.startsWith('primarycache='))];
    };
    expect(Object.fromEntries(PROFILES.map((p) => [p.id, shape(p.id).join(' ')]))).toEqual({
      'sync-write-4k-qd1': 'recordsize=4K primarycache=all',
      'sync-write-4k-qd16': 'recordsize=4K primarycache=all',
      'async-write-4k': 'recordsize=4K primarycache=all',
      'seq-write-1m': 'recordsize=128K primarycache=all',
      'seq-read-1m': 'recordsize=128K primarycache=metadata',
      'rand-read-4k': 'recordsize=128K primarycache=metadata',
      'mixed-70-30-4k': 'recordsize=128K primarycache=metadata',
    });
    // Any write size a suite may ask for gets records ZFS accepts: a power of two that divides it, at most 128K.
    expect([512, 4096, 12288, 65536, 1048576, 5000].map((bs) => recordsizeFor({ rw: 'randwrite', blockSize: bs }))).toEqual([512, 4096, 4096, 65536, 131072, 512]);
  });

  it('gives the temporary dataset a quota that bounds it without throttling it: twice the file plus 24 × 4 GiB for writes still in RAM', () => {
    const quotaOf = (size: number) => Number(datasetCreateArgs('tank', 'r1', size, null, getProfile('seq-write-1m')!).find((x) => x.startsWith('quota='))!.slice('quota='.length));
    // ZFS counts dirty data against a quota at spa_asize_inflation (24) times its size: a quota of
    // twice the 1 GiB file forced a txg sync every ~64 MiB in the lab and cost a third of the bandwidth.
    expect(quotaOf(2 ** 30)).toBe(2 * 2 ** 30 + 24 * 4 * 2 ** 30);
    expect(quotaOf(4096)).toBe(64 * 2 ** 20 + 24 * 4 * 2 ** 30);
    expect(quotaOf(2 ** 30) - 2 ** 30).toBeGreaterThanOrEqual(24 * 4 * 2 ** 30);
  });

  // Issue 38 §4: the dry run printed `quota=103213432832` (96 GiB on a 5.7 GiB pool) with no word of why.
  it('says in words what the quota is: headroom for ZFS\'s in-memory estimate, sizes through the formatter', () => {
    const text = benchQuotaText(64 * 2 ** 20, 5.7 * 2 ** 30);
    expect(text).toMatch(/^quota=103213432832 on the temporary dataset is 96\.1 GiB of headroom, not space the run takes: the test file is 64 MiB/);
    expect(text).toContain('24× their size (its in-memory estimate, spa_asize_inflation)');
    expect(text).toContain('larger than the pool (5.7 GiB) on purpose');
    expect(text).not.toMatch(/\b\d{7,}\b(?!\son the temporary)/); // the one raw figure is the argv's own
    expect(benchQuotaText(64 * 2 ** 20, 4 * 2 ** 40)).not.toContain('larger than the pool');
    expect(benchQuotaText(64 * 2 ** 20, null)).not.toContain('larger than the pool');
  });

  it('has the seven profiles, each with a question and a reference', () => {
    expect(PROFILES.map((p) => p.id)).toEqual(['sync-write-4k-qd1', 'sync-write-4k-qd16', 'async-write-4k', 'seq-write-1m', 'seq-read-1m', 'rand-read-4k', 'mixed-70-30-4k']);
    for (const p of PROFILES) {
      expect(p.question.length).toBeGreaterThan(20);
      expect(p.reference).toMatch(/\]\(https:\/\/[^)]+\)/); // a reference document by its public address
    }
  });

  it('writes incompressible data, streams JSON progress, and falls back to fio sync where the property is missing', () => {
    const qd1 = getProfile('sync-write-4k-qd1')!;
    const plan = { filename: '/p/f.dat', sizeBytes: 1 << 24, runtimeS: 5, rawDevice: false };
    expect(chooseSyncMode(qd1, true)).toBe('property');
    expect(chooseSyncMode(qd1, false)).toBe('fio-fsync');
    expect(chooseSyncMode(getProfile('sync-write-4k-qd16')!, false)).toBe('fio-sync');
    expect(chooseSyncMode(getProfile('seq-read-1m')!, true)).toBe('async');
    const withProp = runArgs(qd1, { ...plan, syncMode: 'property' });
    expect(withProp).toEqual(expect.arrayContaining(['--refill_buffers=1', '--zero_buffers=0', '--output-format=json', '--status-interval=1', '--iodepth=1', '--bs=4096', '--runtime=5', '--time_based=1']));
    expect(withProp.some((a) => a.startsWith('--fsync') || a.startsWith('--sync'))).toBe(false);
    expect(runArgs(qd1, { ...plan, syncMode: 'fio-fsync' })).toContain('--fsync=1');
    expect(layoutArgs(qd1, { ...plan, syncMode: 'property' })).toContain('--create_only=1');
    const raw = runArgs(qd1, { ...plan, filename: '/dev/loop9', rawDevice: true, syncMode: 'fio-fsync' });
    expect(raw).toEqual(expect.arrayContaining(['--direct=1', '--allow_mounted_write=0']));
    expect(layoutArgs(qd1, { ...plan, rawDevice: true, syncMode: 'async' })).toBeNull();
    expect(runArgs(getProfile('mixed-70-30-4k')!, { ...plan, syncMode: 'async' })).toEqual(expect.arrayContaining(['--rw=randrw', '--rwmixread=70', '--end_fsync=1']));
  });
});

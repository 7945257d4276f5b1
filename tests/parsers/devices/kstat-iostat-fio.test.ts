import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isWrappedCounter, parseFio, parseIostatTime, parseKstat, parseZpoolIostat, toFioContract } from '../../../server/src/parsers/devices.ts';

const OBS = join(import.meta.dirname, '../../fixtures/observe');
const DEV = join(import.meta.dirname, '../../fixtures/devices');
const obs = (f: string) => readFileSync(join(OBS, f), 'utf8');
const fio = (f: string) => readFileSync(join(DEV, 'fio', f), 'utf8');
function ok<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('parseKstat (Linux SPL text)', () => {
  it('OpenZFS 2.3 zil kstat (real, no SLOG)', () => {
    const k = ok(parseKstat(obs('zil-openzfs23-real-no-slog.txt')));
    expect(k.format).toBe('linux');
    expect(Object.keys(k.counters)).toHaveLength(20);
    expect(k.counters.zil_commit_count).toBe(52922839);
    expect(k.counters.zil_itx_indirect_bytes).toBe(350565432115);
    expect(k.counters.zil_itx_metaslab_normal_alloc).toBe(743618220032);
    expect(k.counters.zil_itx_metaslab_slog_count).toBe(0);
    expect(k.snaptimeNs).toBe(1351144218241567);
    expect(k.wrapped).toEqual([]);
  });
  it('keeps the real underflowed zil_itx_needcopy_bytes = 18446744073709537686 recognisable', () => {
    const r = parseKstat(obs('zil-zol07-underflowed-needcopy-bytes.txt'));
    const k = ok(r);
    expect(k.raw.zil_itx_needcopy_bytes).toBe('18446744073709537686');
    expect(k.counters.zil_itx_needcopy_bytes).toBeGreaterThan(2 ** 63);
    expect(k.wrapped).toEqual(['zil_itx_needcopy_bytes']);
    expect(r.issues.some((i) => /zil_itx_needcopy_bytes.*wrapped/.test(i.message))).toBe(true);
    expect(k.counters.zil_commit_count).toBe(10);
    expect(isWrappedCounter('18446744073709537686')).toBe(true);
    expect(isWrappedCounter('9223372036854775807')).toBe(false);
  });
  it('OpenZFS 2.3 arcstats (147 rows) and the node_exporter fixture whose header miscounts rows', () => {
    const a = ok(parseKstat(obs('arcstats-openzfs23-real-147rows.txt')));
    expect(Object.keys(a.counters)).toHaveLength(147);
    expect(a.counters.demand_metadata_hits).toBe(27412286726);
    expect(a.counters.demand_metadata_misses).toBe(4959691);
    const r = parseKstat(obs('arcstats-zol07-node-exporter-fixture.txt'));
    expect(ok(r).counters.hits).toBe(8772612);
    expect(r.issues).toEqual([{ line: 1, message: 'header says 91 rows, found 92' }]);
  });
  it('FreeBSD sysctl text (DERIVED: the real 2.3 zil values rewritten as `sysctl kstat.zfs.misc.zil` lines)', () => {
    const linux = ok(parseKstat(obs('zil-openzfs23-real-no-slog.txt')));
    const bsd = Object.entries(linux.raw).map(([k, v]) => `kstat.zfs.misc.zil.${k}: ${v}`).join('\n');
    const k = ok(parseKstat(`${bsd}\nkstat.zfs.misc.arcstats.hits: 5\n`, 'zil'));
    expect(k.format).toBe('freebsd');
    expect(k.raw).toEqual(linux.raw);
    expect(k.counters.hits).toBeUndefined();
  });
  it('objset kstat with a string-typed dataset_name (2.2+ per-dataset format)', () => {
    const text = '37 1 0x01 3 2160 1000 2000\nname                            type data\ndataset_name                    7    tank/vm\nwrites                          4    12\nzil_commit_count                4    7\n';
    const k = ok(parseKstat(text));
    expect(k.strings.dataset_name).toBe('tank/vm');
    expect(k.counters).toEqual({ writes: 12, zil_commit_count: 7 });
  });
  it('never throws on truncated or garbled kstat text', () => {
    const t = obs('zil-openzfs23-real-no-slog.txt');
    fc.assert(fc.property(fc.integer({ min: 0, max: t.length }), fc.string(), (n, junk) => typeof parseKstat(t.slice(0, n) + junk).ok === 'boolean'), { numRuns: 150 });
    expect(parseKstat('').ok).toBe(false);
  });
});

describe('parseZpoolIostat', () => {
  it('-v of a raidz2 pool with special mirror and SLOG partition (real)', () => {
    const v = ok(parseZpoolIostat(obs('iostat-v-raidz2-special-slog.txt')));
    expect(v.tables).toHaveLength(1);
    const rows = v.tables[0]!.rows;
    expect(rows.map((r) => [r.name, r.depth, r.class, r.kind])).toEqual([
      ['tank_raidz2_special_slog', 0, 'data', 'pool'], ['raidz2-0', 1, 'data', 'vdev'],
      ['sdd', 2, 'data', 'vdev'], ['sde', 2, 'data', 'vdev'], ['sdf', 2, 'data', 'vdev'], ['sdg', 2, 'data', 'vdev'], ['sdh', 2, 'data', 'vdev'],
      ['mirror-1', 1, 'special', 'vdev'], ['sdb', 2, 'special', 'vdev'], ['sdc', 2, 'special', 'vdev'], ['nvme0n1p2', 1, 'log', 'vdev'],
    ]);
    // "3.17K" ops and "594M" bytes/s are 1024-based.
    expect(rows[0]!.values).toEqual({ alloc: 109 * 2 ** 30, free: Math.round(54.9 * 2 ** 40), ops_read: 1, ops_write: Math.round(3.17 * 1024), bw_read: 111 * 1024, bw_write: 594 * 2 ** 20 });
    expect(rows[10]!.values).toMatchObject({ ops_write: 175, bw_write: Math.round(22.0 * 2 ** 20), alloc: Math.round(11.2 * 2 ** 20) });
  });
  it('a 60-interval stream gives 60 samples in order (real)', () => {
    const v = ok(parseZpoolIostat(obs('iostat-v-draid2-special-slog-STREAM-60-intervals.txt')));
    expect(v.tables).toHaveLength(60);
    expect(v.tables[1]!.rows[0]!.values.ops_write).toBe(Math.round(2.04 * 1024));
    expect(v.tables[1]!.rows.find((r) => r.class === 'log')!.values.ops_write).toBe(0);
    expect(v.tables[1]!.rows[1]!.name).toBe('draid2:3d:5c:0s-0');
  });
  it('three pools without -v (macOS jc fixture) and zfs-fuse interval output', () => {
    const mac = ok(parseZpoolIostat(obs('jc-macos-iostat-v-3pools.txt')));
    expect(mac.tables[0]!.rows.filter((r) => r.kind === 'pool').map((r) => r.name)).toEqual(['zhgstera6', 'zint500', 'zsam53']);
    const fuse = ok(parseZpoolIostat(obs('zpool_iostat_-v_fcomplex_1_2.txt')));
    expect(fuse.tables).toHaveLength(2);
    // zfs-fuse prints log vdevs without a `logs` header: they stay class data (nothing to go on).
    expect(fuse.tables[0]!.rows.map((r) => [r.name, r.class])).toEqual([
      ['fcomplex', 'data'], ['mirror', 'data'], ['/var/lab/vdevs/d1.img', 'data'], ['/var/lab/vdevs/d2.img', 'data'],
      ['mirror', 'data'], ['/var/lab/vdevs/l1.img', 'data'], ['/var/lab/vdevs/l2.img', 'data'], ['/var/lab/vdevs/l3.img', 'data'], ['loop0', 'cache'],
    ]);
    expect(fuse.tables[0]!.rows[0]!.values.bw_read).toBe(Math.round(1.2 * 1024));
  });
  it('zfs-fuse refusing -H is reported as an error naming the refusal', () => {
    const r = parseZpoolIostat(obs('zpool_iostat_-H.txt'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/invalid option 'H'/);
  });
  it('-vly with rebuild column and -l without it (real OpenZFS outputs)', () => {
    const v = ok(parseZpoolIostat(obs('iostat-vly-openzfs-storage-temp.txt')));
    expect(v.tables[0]!.columns).toHaveLength(17);
    expect(v.tables[0]!.rows[0]!.values).toMatchObject({ total_wait_read: null, total_wait_write: 95e6, disk_wait_write: 12e6, syncq_wait_write: 1000, asyncq_wait_write: 82e6, rebuild_wait: null });
    const l = ok(parseZpoolIostat(obs('iostat-l-hdd-no-rebuild.txt')));
    expect(l.tables[0]!.columns.slice(-3)).toEqual(['asyncq_wait_write', 'scrub_wait', 'trim_wait']);
    expect(l.tables[0]!.rows[0]!.values).toMatchObject({ total_wait_read: 4e6, syncq_wait_read: 874000, scrub_wait: 36e6, trim_wait: null });
  });
  it('-r request-size histogram (real OpenZFS 2.4.4 capture): lower-bound labels', () => {
    const v = ok(parseZpoolIostat(obs('iostat-r-openzfs244-nvme1.txt')));
    const h = v.histograms[0]!;
    expect(h).toMatchObject({ kind: 'req_size', name: 'NVME1' });
    expect(h.columns).toEqual(['sync_read_ind', 'sync_read_agg', 'sync_write_ind', 'sync_write_agg', 'async_read_ind', 'async_read_agg',
      'async_write_ind', 'async_write_agg', 'scrub_ind', 'scrub_agg', 'trim_ind', 'trim_agg', 'rebuild_ind', 'rebuild_agg']);
    expect(h.buckets.map((b) => b.bound)).toEqual(Array.from({ length: 16 }, (_, i) => 512 * 2 ** i));
    expect(h.buckets[4]!.values.sync_read_ind).toBe(Math.round(13.5 * 2 ** 20));
    expect(h.buckets[6]!.values.trim_ind).toBe(Math.round(1.15 * 2 ** 20));
    expect(h.buckets[15]!.values.trim_ind).toBe(32);
  });
  it('-w latency histogram (DERIVED layout from zpool_main.c print_iostat_histo; no real -w capture available): upper-bound labels', () => {
    const labels = '1ns 3ns 7ns 15ns 31ns 63ns 127ns 255ns 511ns 1us 2us 4us 8us 16us 32us 65us 131us 262us 524us 1ms 2ms 4ms 8ms 16ms 33ms 67ms 134ms 268ms 536ms 1s 2s 4s 8s 17s 34s 68s 137s'.split(' ');
    const head = 'tank         total_wait     disk_wait    syncq_wait    asyncq_wait\nlatency      read  write   read  write   read  write   read  write  scrub   trim  rebuild\n' + '----------  ' + Array(11).fill('-----').join('  ');
    const rows = labels.map((l, j) => `${l.padEnd(10)}  ${Array.from({ length: 11 }, (_, c) => (c === 1 && j === 22 ? '1.5K' : c === 3 && j === 16 ? '40' : '0').padStart(5)).join('  ')}`);
    const v = ok(parseZpoolIostat(`${head}\n${rows.join('\n')}\n${'-'.repeat(100)}\n`));
    const h = v.histograms[0]!;
    expect(h.kind).toBe('latency');
    expect(h.columns).toEqual(['total_wait_read', 'total_wait_write', 'disk_wait_read', 'disk_wait_write', 'syncq_wait_read', 'syncq_wait_write', 'asyncq_wait_read', 'asyncq_wait_write', 'scrub', 'trim', 'rebuild']);
    // bucket j covers [2^j, 2^(j+1)) ns; the bound stored is the exclusive upper one.
    expect(h.buckets.map((b) => b.bound)).toEqual(labels.map((_, j) => 2 ** (j + 1)));
    expect(h.buckets[22]!.values.total_wait_write).toBe(1536);
    expect(h.buckets[16]!.values.disk_wait_write).toBe(40);
  });
  it('scripted -H -p rows: columns inferred from the field count', () => {
    const v = ok(parseZpoolIostat('tank\t1000\t2000\t3\t4\t5\t6\ndata\t10\t20\t30\t40\t50\t60\n'));
    expect(v.tables[0]!.rows.map((r) => [r.name, r.values.ops_write])).toEqual([['tank', 4], ['data', 40]]);
    const l = ok(parseZpoolIostat(`tank\t${Array(17).fill('7').join('\t')}\n`));
    expect(l.tables[0]!.columns.at(-1)).toBe('rebuild_wait');
    expect(l.tables[0]!.rows[0]!.values.total_wait_write).toBe(7);
  });
  it('parseIostatTime', () => {
    expect([parseIostatTime('95ms'), parseIostatTime('1us'), parseIostatTime('52ns'), parseIostatTime('1s'), parseIostatTime('123456'), parseIostatTime('-')]).toEqual([95e6, 1000, 52, 1e9, 123456, null]);
  });
  it('never throws on truncated, reordered or garbage text', () => {
    const t = obs('iostat-v-draid2-special-slog-STREAM-60-intervals.txt');
    const lines = t.split('\n');
    fc.assert(fc.property(fc.integer({ min: 0, max: t.length }), fc.string(), (n, junk) => typeof parseZpoolIostat(t.slice(0, n) + junk).ok === 'boolean'), { numRuns: 100 });
    fc.assert(fc.property(fc.shuffledSubarray(lines), (ls) => typeof parseZpoolIostat(ls.join('\n')).ok === 'boolean'), { numRuns: 50 });
    const huge = ok(parseZpoolIostat(t.repeat(20)));
    expect(huge.tables).toHaveLength(1200);
  });
});

describe('parseFio', () => {
  it('fio 3.33 fsync=1 job on zfs-fuse: write clat percentiles and fsync latency', () => {
    const r = ok(parseFio(fio('fio-zfsfuse-latency-fsync1.json')));
    const j = r.jobs[0]!;
    expect(j).toMatchObject({ name: 'zfsfuse-latency-fsync1', rw: 'randwrite', blockSize: '4k', fsync: 1, runtimeMs: 5000 });
    expect(j.write).toMatchObject({ iops: 1340.131974, bwBytes: 5489180, clatMeanNs: 179933.496867, clatP50Ns: 46848, clatP99Ns: 114176, clatP999Ns: 66846720, latMeanNs: 180094.891226 });
    expect(j.sync).toEqual({ latMeanNs: 564275.613697, latP50Ns: 552960, latP99Ns: 962560, totalIos: 6702 });
    expect(toFioContract(r).jobs[0]!.sync).toEqual({ latMeanNs: 564275.613697 });
  });
  it('async job: no sync block', () => {
    expect(ok(parseFio(fio('fio-zfsfuse-nosync.json'))).jobs[0]!.sync).toBeNull();
  });
  it('--status-interval stream: 6 documents, the last is final', () => {
    const r = ok(parseFio(fio('fio-rootfs-status-interval-1.json')));
    expect(r.interim.map((js) => js[0]!.write.totalIos)).toEqual([2345, 5041, 7804, 10419, 11963]);
    expect(r.jobs[0]!.write.totalIos).toBe(12390);
    expect(r.jobs[0]!.sync?.latP99Ns).toBe(2179072);
  });
  it('raw log: startup text, JSON, then the normal report (real)', () => {
    const r = ok(parseFio(fio('zfs-draid-special-slog-mixed-rw-RAW-json-plus-normal.txt')));
    expect(r.fioVersion).toBe('fio-3.36');
    expect(r.jobs[0]).toMatchObject({ name: 'mixed_rw', runtimeMs: 240007 });
    expect(r.jobs[0]!.read.iops).toBe(1417.448546);
    expect(r.jobs[0]!.read.clatP99Ns).toBe(63700992);
  });
  it('fio 2.18 (µs latencies, KiB io_bytes) normalised to ns and bytes', () => {
    const j = ok(parseFio(fio('fioplot-ex-randread-01.json'))).jobs[0]!;
    expect(j.read).toMatchObject({ iops: 73.184143, bwBytes: 292 * 1024, ioBytes: 17568 * 1024, totalIos: 4392, clatP50Ns: 13504000, clatP99Ns: 22912000, clatP999Ns: 24960000 });
    expect(j.read.clatMeanNs).toBeCloseTo(13636394.809, 3);
  });
  it('no group_reporting: four jobs kept separate', () => {
    expect(ok(parseFio(fio('fioplot-500gb-hdd-randread-4jobs-no-group-reporting.json'))).jobs.map((j) => j.read.iops)).toEqual([20.579217, 20.594165, 20.83125, 20.02599]);
  });
  it('json+ output parses like json', () => {
    expect(ok(parseFio(fio('fio-rootfs-fsync1-jsonplus.json'))).jobs[0]!.write.clatP99Ns).toBe(31872);
  });
  it('truncated or garbage input: clear error, never a throw', () => {
    const t = fio('fio-zfsfuse-latency-fsync1.json');
    const r = parseFio(t.slice(0, 500));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toEqual({ line: 1, message: 'fio JSON document is truncated or invalid' });
    fc.assert(fc.property(fc.integer({ min: 0, max: t.length }), fc.string(), (n, junk) => typeof parseFio(t.slice(0, n) + junk).ok === 'boolean'), { numRuns: 100 });
    expect(parseFio('fio: engine libaio not loadable').ok).toBe(false);
  });
});

/**
 * The app's benchmarks on real OpenZFS (issue 27 §1), inside the lab guest, kept small (1 s runs,
 * 4 MiB files: this is about what the app does, not about speed) so the file stays within CI's
 * budget (360–401 s here at load 1–8, BENCHMARKS.md):
 * - every profile in one suite, on a temporary dataset and on a real zvol, direct and buffered;
 * - the built-in sync-vs-async suite on a dataset and a zvol, whose table says what fio did and what
 *   the dataset's sync was as two columns (the CLI's table, and the JSON export);
 * - the guards refusing on a real scrub in progress, a nearly full pool and a degraded pool, each
 *   with its own guard and reason;
 * - `kill -9` of the CLI in the middle of a dataset run and of a zvol run: the next start removes
 *   the dataset, the zvol and fio, says so, and benchmarks normally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLab, byId, GUEST_CLI, LAB_HOOK_MS, labAvailable, type LabDrive, type LabVm } from '../../lab/vm.ts';
import { listProfiles } from '../../server/src/bench/profiles.ts';

const live = labAvailable();
const MIN = 60_000;
const D = {
  a: { bus: 'virtio', serial: 'BZ0001', size: '1G' },
  b: { bus: 'virtio', serial: 'BZ0002', size: '1G' },
  scrub: { bus: 'virtio', serial: 'SCRUB01', size: '256M' },
  full: { bus: 'virtio', serial: 'FULL01', size: '1G' },
} satisfies Record<string, LabDrive>;
const create = (pool: string, vdevs: string) => `zpool create -f -o cachefile=none -O mountpoint=/lab/pools/${pool} -o ashift=12 ${pool} ${vdevs}`;
/**
 * Emulation, not the app, sets these: the guest's load under TCG says nothing about a real host, and
 * fio's own start-up (about a second here) makes wall ÷ runtime of a 1 s run meaningless, so the
 * 002 stall watch would stop every suite at its first buffered zvol run. Every other guard stays.
 */
const LOAD = '--max-load 100';
const SMALL = `--runtime 1 --size 4M ${LOAD}`;
const SUITE = `${SMALL} --pause 0 --max-wall-ratio 100`;

/** Everything a benchmark could leave behind: datasets/zvols besides the pools' roots, fio processes. */
const LEFTOVERS = `zfs list -H -o name -t filesystem,volume | grep / || true; pgrep -a -x fio || true`;

interface Guard { id: string; ok: boolean; message: string }
interface Summary { status: string; syncMode: string; writeIops: number; readIops: number; targetKind: string; io: string; sync: string; target: string }
interface SuiteRun { profile: string; sync: string; io: string; target: string; result: Summary | null; message: string | null }
interface SuiteOut { id: string; status: string; stopReason: string | null; runs: SuiteRun[]; skipped: { label: string; targetKind: string; reason: string }[] }
interface Row { label: string; profile: string; targetKind: string; io: string; sync: string; bs: string; status: string; iops: number | null; fioSync: string | null; datasetSync: string }

/** The JSON document on stdout (a suite's progress goes to stderr). */
const json = <T>(stdout: string): T => JSON.parse(stdout.slice(stdout.indexOf('{'))) as T;

describe('benchmarks on real OpenZFS 2.4', () => {
  let vm: LabVm;
  beforeAll(async () => {
    if (!live) return;
    vm = await bootLab({ zfs: '2.4', drives: Object.values(D), memMiB: 2048, priority: 2, label: 'tests/lab/bench.test.ts' });
    // node and the bundle come from the guest's own disk (lab/guest/lab-agent): through the 9p share every CLI start re-read ~100 MB (3–7 s each).
    await vm.must(create('tank', `mirror ${byId(D.a)} ${byId(D.b)}`));
  }, LAB_HOOK_MS); // the image, then a guest slot another lab file may hold
  afterAll(async () => { await vm?.stop(); }, MIN);

  it.runIf(live)('every profile in one suite: temporary dataset and real zvol, direct and buffered; nothing left behind', async () => {
    const profiles = listProfiles();
    expect(profiles.length).toBeGreaterThanOrEqual(7);
    const r = await vm.cli(`bench suite --profiles ${profiles.map((p) => p.id).join(',')} --matrix io=direct,buffered --pool tank --zvol ${SUITE} --json`, { timeoutMs: 8 * MIN });
    expect(r.code, `${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`).toBe(0);
    const s = json<SuiteOut>(r.stdout);
    expect(s.status, s.stopReason ?? '').toBe('completed');
    const cells = s.runs.map((x) => `${x.profile} ${x.result?.targetKind} ${x.io}`).sort();
    const want = profiles.flatMap((p) => ['dataset', ...(p.readsFromDisk ? [] : ['zvol'])].flatMap((kind) => ['direct', 'buffered'].map((io) => `${p.id} ${kind} ${io}`))).sort();
    expect(cells).toEqual(want);
    // Read profiles on a zvol are skipped, saying why (a fresh zvol holds only holes), never run.
    expect(s.skipped.map((x) => `${x.targetKind}: ${x.reason}`)).toEqual(profiles.filter((p) => p.readsFromDisk).flatMap(() => Array(2).fill(
      'zvol: a fresh zvol has never been written, so reads would return holes without touching a disk; read profiles run on datasets')));
    for (const x of s.runs) {
      const p = profiles.find((q) => q.id === x.profile)!;
      const sum = x.result!;
      const cell = `${x.profile} · ${sum.targetKind} · ${x.io}`;
      expect(sum.status, `${cell}: ${x.message}`).toBe('completed');
      expect(sum.writeIops + sum.readIops, cell).toBeGreaterThan(0);
      expect(sum.io, cell).toBe(x.io);
      expect(sum.target, cell).toMatch(/^tank\/zfs-advisor-bench-[0-9a-f]{12}$/);
      // On real ZFS a sync profile sets sync=always on its dataset or zvol (the 000 method), never fio's fallback.
      expect(sum.syncMode, cell).toBe(p.sync ? 'property' : 'async');
      expect(sum.sync, cell).toBe(p.sync ? 'always' : 'standard');
    }
    expect((await vm.must(LEFTOVERS)).trim()).toBe('');
  }, 12 * MIN);

  it.runIf(live)('the sync-vs-async suite on a dataset and a zvol: fio sync and dataset sync are two columns, in the CLI table and the export', async () => {
    const r = await vm.cli(`bench suite sync-vs-async --pool tank --zvol ${SUITE}`, { timeoutMs: 6 * MIN });
    expect(r.code, `${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`).toBe(0);
    const id = /^suite sync-vs-async \(([0-9a-f]{12})\): completed$/m.exec(r.stdout)?.[1];
    expect(id, r.stdout).toBeDefined();
    // The CLI's own table: what fio did, then the dataset's property, side by side.
    expect(r.stdout).toMatch(/^run +fio sync +dataset sync +status /m);
    expect(r.stdout).toMatch(/ · sync=always · dataset +plain writes +sync=always +completed /);
    // The case: a sync profile at sync=standard is asynchronous writes with one fsync at the end, and says so.
    expect(r.stdout).toMatch(/^sync-write-4k-qd1 · 4k · QD1 · buffered · sync=standard · dataset +end_fsync only +sync=standard +completed /m);
    expect(r.stdout).toMatch(/^sync-write-4k-qd1 · 4k · QD1 · direct · sync=standard · zvol +end_fsync only +sync=standard +completed /m);
    const show = await vm.cli(`bench suite --show ${id} --json`);
    expect(show.code, show.stderr).toBe(0);
    const table = json<{ table: Row[] }>(show.stdout).table;
    expect(table.map((x) => `${x.targetKind} ${x.bs} ${x.sync}`).sort()).toEqual(['dataset', 'zvol'].flatMap((kind) =>
      ['128k always', '128k standard', '1m always', '1m standard', '4k always', '4k standard'].map((cell) => `${kind} ${cell}`)));
    for (const x of table) {
      expect(x.status, x.label).toBe('completed');
      expect(x.iops ?? 0, x.label).toBeGreaterThan(0);
      expect([x.fioSync, x.datasetSync], x.label).toEqual(x.sync === 'always' ? ['plain writes', 'sync=always'] : ['end_fsync only', 'sync=standard']);
    }
    expect((await vm.must(LEFTOVERS)).trim()).toBe('');
  }, 8 * MIN);

  it.runIf(live)('refuses on a real scrub in progress, a nearly full pool and a degraded pool, each for its own reason', async () => {
    /** Runs a benchmark that must be refused by exactly the named guard; returns that guard's message. */
    const refusedBy = async (pool: string, guard: string): Promise<string> => {
      const r = await vm.cli(`bench sync-write-4k-qd1 --pool ${pool} ${SMALL} --json`, { timeoutMs: 3 * MIN });
      expect(r.code, `${pool}: ${r.stderr.slice(-2000)}`).toBe(1);
      const run = json<{ summary: Summary; detail: { guards: Guard[] }; message: string }>(r.stdout);
      expect(run.summary.status, pool).toBe('refused');
      expect(run.detail.guards.filter((g) => !g.ok).map((g) => g.id), pool).toEqual([guard]);
      expect((await vm.must(LEFTOVERS)).trim(), pool).toBe('');
      return run.message;
    };
    // A real scrub, kept running: 1,024 4 KiB records, read one by one (no aggregation) from a disk on
    // which zinject delays every I/O by 200 ms — over three minutes of scrub for a refusal that takes seconds.
    const aggregation = (await vm.must('cat /sys/module/zfs/parameters/zfs_vdev_aggregation_limit')).trim();
    await vm.must(`${create('scrubby', byId(D.scrub))}
zfs set recordsize=4K compression=off scrubby
dd if=/dev/urandom of=/lab/pools/scrubby/data bs=4k count=1024 status=none; zpool sync scrubby
echo 0 > /sys/module/zfs/parameters/zfs_vdev_aggregation_limit
zinject -d ${byId(D.scrub)}-part1 -D 200:1 scrubby >/dev/null
zpool scrub scrubby
zpool status scrubby | grep -q 'scrub in progress'`, { timeoutMs: 3 * MIN });
    try {
      expect(await refusedBy('scrubby', 'pool-scan')).toMatch(/^refused: a scrub is running on scrubby; wait until it finishes/);
      // The refusal was about a scrub that was really running (not one that had just finished).
      expect(await vm.must('zpool status scrubby')).toMatch(/scrub in progress/);
    } finally {
      await vm.run(`zinject -c all; zpool scrub -s scrubby; echo ${aggregation} > /sys/module/zfs/parameters/zfs_vdev_aggregation_limit; zpool destroy -f scrubby`);
    }
    // Nearly full: over 80 % of the pool allocated (three copies of every block, so a third of the writing
    // fills it), with free space left for the test file itself, so only the fill guard may refuse.
    await vm.must(`${create('full', byId(D.full))}
zfs set compression=off checksum=off recordsize=1M copies=3 full
dd if=/dev/zero of=/lab/pools/full/fill bs=1M count=265 status=none; zpool sync full
test "$(zpool list -H -o capacity full | tr -d %)" -ge 80`, { timeoutMs: 3 * MIN });
    try {
      expect(await refusedBy('full', 'pool-fill')).toMatch(/^refused: pool full would be (8\d|9\d)\.\d % full during the test; it must stay below 80 %\. Give a smaller test size \(--size\), or free space on full/);
    } finally { await vm.run('zpool destroy -f full'); }
    // Degraded: one side of the mirror offline.
    await vm.must(`zpool offline tank ${byId(D.b)}-part1 && zpool status tank | grep -q DEGRADED`);
    try {
      expect(await refusedBy('tank', 'pool-health')).toMatch(/^refused: pool tank is DEGRADED; benchmarking a pool that is not ONLINE adds load to a pool at risk/);
    } finally { await vm.must(`zpool online tank ${byId(D.b)}-part1 && zpool wait -t resilver tank`); }
  }, 10 * MIN);

  it.runIf(live)('kill -9 of the CLI mid-run, on a dataset and on a zvol: the next start removes dataset, zvol and fio, and benchmarks again', async () => {
    /** Starts the CLI in the background, detached; returns its pid (setsid, nohup and env exec, they do not fork). */
    const start = async (args: string, log: string) => (await vm.must(`setsid nohup ${GUEST_CLI} ${args} > ${log} 2>&1 < /dev/null &
pid=$!; for i in $(seq 1 40); do [ "$(cat /proc/$pid/comm 2>/dev/null)" = node ] && break; sleep 0.25; done
[ "$(cat /proc/$pid/comm)" = node ] && echo $pid`)).trim();
    /** Waits until a measuring fio (not the layout) writes to a file starting with `file` (and not `but`); returns its pid. */
    const measuringFio = async (file: string, but = '^$') => (await vm.must(`for i in $(seq 1 1200); do
  p=$(pgrep -a -x fio | grep -- '--time_based=1' | grep -- '--filename=${file}' | grep -v -- '${but}' | cut -d' ' -f1 | head -1)
  [ -n "$p" ] && { echo $p; exit 0; }; sleep 0.25
done; exit 1`, { timeoutMs: 6 * MIN })).trim();
    const kill9 = (pid: string) => vm.must(`kill -9 ${pid}; for i in $(seq 1 40); do kill -0 ${pid} 2>/dev/null || exit 0; sleep 0.25; done; exit 1`);
    const alive = async (pid: string) => (await vm.run(`kill -0 ${pid}`)).code === 0;
    const runIdOf = (name: string) => /zfs-advisor-bench-([0-9a-f]{12})/.exec(name)![1]!;
    /**
     * The line the next start prints for a killed run: its fio (usually dead already: it writes a progress
     * line every second to the killed CLI's pipe and dies of SIGPIPE; one stuck in I/O would be stopped
     * here), then its dataset or zvol destroyed.
     */
    const recovered = (name: string, cli: string, fio: string, file: string) => new RegExp(`^recovered abandoned run ${runIdOf(name)} \\(pid ${cli}\\): `
      + `(stopped fio \\(pid ${fio}\\)|no fio was) writing ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; destroyed ${name}$`, 'm');

    // 1. A dataset run: the CLI dies during fio's measured run; its dataset stays behind.
    const cli1 = await start(`bench sync-write-4k-qd1 --pool tank --runtime 300 --size 4M ${LOAD}`, '/root/killed1.log');
    const fio1 = await measuringFio('/lab/pools/tank/zfs-advisor-bench-');
    await kill9(cli1);
    const dataset1 = (await vm.must('zfs list -H -o name -t filesystem | grep zfs-advisor-bench-')).trim();

    // 2. The next start, a suite with a dataset cell and a zvol cell, removes them first and says so. Its
    //    dataset cell's fio is killed (the cell fails, the suite goes on), then the CLI dies during the zvol run.
    const cli2 = await start(`bench suite --profiles sync-write-4k-qd1 --pool tank --zvol --runtime 300 --size 4M --pause 0 ${LOAD} --json`, '/root/killed2.log');
    const cellFio = await measuringFio('/lab/pools/tank/zfs-advisor-bench-', `/lab/pools/${dataset1}/`);
    expect(cellFio).not.toBe(fio1);
    expect(await alive(fio1), 'the first run\'s fio, after the next start').toBe(false);
    expect(await vm.must('zfs list -H -o name')).not.toContain(dataset1);
    expect(await vm.must('cat /root/killed2.log')).toMatch(recovered(dataset1, cli1, fio1, `/lab/pools/${dataset1}/zfs-advisor-bench.dat`));
    await kill9(cellFio);
    const fio2 = await measuringFio('/dev/zd');
    const zvolDevice = /--filename=(\/dev\/zd\d+)/.exec(await vm.must(`cat /proc/${fio2}/cmdline | tr '\\0' ' '`))![1]!;
    await kill9(cli2);
    const zvol2 = (await vm.must('zfs list -H -o name -t volume | grep zfs-advisor-bench-')).trim();
    // The suite's failed dataset cell cleaned up after itself; only the zvol run's leftovers remain.
    expect((await vm.must('zfs list -H -o name | grep zfs-advisor-bench- || true')).trim()).toBe(zvol2);

    // 3. The next start: the zvol and its fio are removed, and a benchmark runs normally (the lock went with the dead run).
    const r = await vm.cli(`bench sync-write-4k-qd1 --pool tank ${SMALL} --json`, { timeoutMs: 3 * MIN });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stderr).toMatch(recovered(zvol2, cli2, fio2, zvolDevice));
    expect(r.stderr).toMatch(new RegExp(`^recovered abandoned run ${runIdOf(zvol2)} \\(pid ${cli2}\\): freed the host-wide lock it held$`, 'm'));
    expect(json<{ summary: Summary }>(r.stdout).summary.status).toBe('completed');
    expect(await alive(fio2)).toBe(false);
    expect((await vm.must(LEFTOVERS)).trim()).toBe('');
  }, 15 * MIN);
});

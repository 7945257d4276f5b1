/**
 * The app's benchmarks on real OpenZFS (issue 27 §1), inside the lab guest: every profile on a
 * temporary dataset; a suite on a real zvol, buffered and direct, whose table says what fio did
 * and what the dataset's sync was as two columns; the guards refusing on a real scrub in progress
 * (a disk QEMU throttles to 10 IOPS), a degraded pool and a nearly full pool; and `kill -9` of the
 * CLI in the middle of a dataset run and of a zvol run: the next invocation leaves no dataset, zvol
 * or fio behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLab, byId, labAvailable, REPO_ROOT, type LabDrive, type LabVm } from '../../lab/vm.ts';

// Opt-in (ZFS_ADVISOR_LAB_BENCH=1) until it passes: its first runs on this busy 2-core machine took
// minutes per CLI call under emulation and never completed; the default \`npm test\` skips it and says so.
const optedIn = process.env.ZFS_ADVISOR_LAB_BENCH === '1';
const live = optedIn && labAvailable();
const MIN = 60_000;
const D = {
  a: { bus: 'virtio', serial: 'BZ0001', size: '1G' },
  b: { bus: 'virtio', serial: 'BZ0002', size: '1G' },
  scrub: { bus: 'virtio', serial: 'SCRUB01', size: '1G', iops: 10 },
  full: { bus: 'virtio', serial: 'FULL01', size: '512M' },
} satisfies Record<string, LabDrive>;
const create = (pool: string, vdevs: string) => `zpool create -f -o cachefile=none -O mountpoint=/lab/pools/${pool} -o ashift=12 ${pool} ${vdevs}`;
/** The guest's load under TCG says nothing about a real host; the other guards stay as they are. */
const LOAD = '--max-load 100';
const CLI = `ZFS_ADVISOR_DATA_DIR=/root/zfs-advisor-data node ${REPO_ROOT}/server/bin/zfs-advisor.js`;

/** Everything a benchmark could leave behind: datasets/zvols besides the pools' roots, fio processes. */
const LEFTOVERS = `zfs list -H -o name -t filesystem,volume | grep / || true; pgrep -a -x fio || true`;

describe('benchmarks on real OpenZFS 2.3', () => {
  let vm: LabVm;
  beforeAll(async () => {
    if (!live) return;
    vm = await bootLab({ zfs: '2.3', drives: Object.values(D), memMiB: 2048 });
    await vm.must(create('tank', `mirror ${byId(D.a)} ${byId(D.b)}`));
  }, 20 * MIN);
  afterAll(async () => { await vm?.stop(); }, MIN);

  it.runIf(live)('refuses on a scrub in progress, a degraded pool and a nearly full pool', async () => {
    const refused = async (pool: string, why: RegExp) => {
      const r = await vm.cli(`bench sync-write-4k-qd1 --pool ${pool} --runtime 5 --size 16M ${LOAD} --json`, { timeoutMs: 5 * MIN });
      expect(r.code, `${pool}: ${r.stdout}`).not.toBe(0);
      expect(`${r.stdout}\n${r.stderr}`, pool).toMatch(why);
      expect((await vm.must(LEFTOVERS)).trim(), pool).toBe('');
    };
    // A real scrub, made slow: 8,192 4 KiB records read one by one (no aggregation) from a disk QEMU
    // throttles to 10 IOPS — about 14 minutes, since the CLI itself may take minutes to start under TCG.
    await vm.must(`${create('scrubby', byId(D.scrub))}
zfs set recordsize=4K compression=off scrubby
dd if=/dev/urandom of=/lab/pools/scrubby/data bs=1M count=32 status=none; zpool sync scrubby
echo 0 > /sys/module/zfs/parameters/zfs_vdev_aggregation_limit
zpool scrub scrubby; sleep 1
zpool status scrubby | grep -q 'scrub in progress'`, { timeoutMs: 5 * MIN });
    try {
      await refused('scrubby', /scrub/i);
      // The refusal was about a scrub that was really running (not one that had just finished).
      expect(await vm.must('zpool status scrubby')).toMatch(/scrub in progress/);
    } finally {
      await vm.run('zpool scrub -s scrubby; echo 1048576 > /sys/module/zfs/parameters/zfs_vdev_aggregation_limit; zpool destroy -f scrubby');
    }
    // Nearly full: more than 80 % of the pool allocated.
    await vm.must(`${create('full', byId(D.full))}
zfs set compression=off full
dd if=/dev/urandom of=/lab/pools/full/fill bs=1M count=400 status=none || true; zpool sync full
test "$(zpool list -H -o capacity full | tr -d %)" -ge 80`, { timeoutMs: 10 * MIN });
    try { await refused('full', /full|capacity|free/i); } finally { await vm.run('zpool destroy -f full'); }
    // Degraded: one side of the mirror offline.
    await vm.must(`zpool offline tank ${byId(D.b)}-part1 && zpool status tank | grep -q DEGRADED`);
    try { await refused('tank', /DEGRADED|degraded/); } finally { await vm.must(`zpool online tank ${byId(D.b)}-part1 && zpool wait -t resilver tank`); }
  }, 40 * MIN);

  it.runIf(live)('kill -9 of the CLI mid-run (dataset, then zvol): the next bench leaves no dataset, zvol or fio', async () => {
    const killMidRun = async (args: string, until: string) => {
      const pid = (await vm.must(`setsid nohup ${CLI} ${args} > /root/killed.log 2>&1 < /dev/null & echo $!`)).trim();
      // Wait until fio is writing (and, for a zvol run, the zvol exists), then kill the CLI hard. Under
      // TCG on a loaded machine the CLI took more than 6 minutes to start fio, hence the long wait.
      await vm.must(`for i in $(seq 1 1800); do pgrep -x fio >/dev/null && ${until} && break; sleep 0.5; done
pgrep -x fio >/dev/null && ${until}
kill -9 ${pid}; sleep 1; ! kill -0 ${pid} 2>/dev/null`, { timeoutMs: 20 * MIN });
      // The CLI is gone; what it started is still there until the next invocation recovers it.
      expect((await vm.must(LEFTOVERS)).trim()).not.toBe('');
      const again = await vm.cli('bench --history --json');
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/recovered abandoned run/);
      expect((await vm.must(`sleep 2; ${LEFTOVERS}`)).trim()).toBe('');
    };
    await killMidRun(`bench sync-write-4k-qd1 --pool tank --runtime 120 --size 16M ${LOAD}`, 'zfs list -H -o name | grep -q zfs-advisor-bench');
    await killMidRun(`bench suite --profiles sync-write-4k-qd1 --matrix sync=always --pool tank --zvol --runtime 60 --size 16M --pause 1 ${LOAD}`,
      'zfs list -H -o name -t volume | grep -q zfs-advisor');
    // And a new benchmark runs normally afterwards (the lock was released with the dead run).
    const r = await vm.cli(`bench sync-write-4k-qd1 --pool tank --runtime 3 --size 16M ${LOAD} --json`, { timeoutMs: 5 * MIN });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect((await vm.must(LEFTOVERS)).trim()).toBe('');
  }, 60 * MIN);
  it.runIf(live)('a suite on a real zvol, buffered and direct: fio sync and dataset sync are separate columns', async () => {
    const r = await vm.cli(`bench suite --profiles sync-write-4k-qd1 --matrix sync=always,standard --matrix io=direct,buffered --pool tank --zvol --runtime 5 --size 32M --pause 1 ${LOAD} --json`, { timeoutMs: 20 * MIN });
    expect(r.code, `${r.stderr.slice(-3000)}\n${r.stdout.slice(-3000)}`).toBe(0);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    const show = await vm.cli(`bench suite --show ${id} --json`);
    expect(show.code, show.stderr).toBe(0);
    const table = (JSON.parse(show.stdout) as { table: { targetKind: string; io: string; sync: string; status: string; iops: number | null; fioSync: string | null; datasetSync: string | null }[] }).table;
    const cells = table.map((x) => `${x.targetKind} ${x.io} ${x.sync}`).sort();
    expect(cells).toEqual(['dataset buffered always', 'dataset buffered standard', 'dataset direct always', 'dataset direct standard',
      'zvol buffered always', 'zvol buffered standard', 'zvol direct always', 'zvol direct standard']);
    for (const x of table) {
      expect(x.status, `${x.targetKind} ${x.io} ${x.sync}`).toBe('completed');
      expect(x.iops ?? 0).toBeGreaterThan(0);
      // sync=always: the property made every write durable; sync=standard: async writes, one fsync at the end.
      expect([x.fioSync, x.datasetSync]).toEqual(x.sync === 'always' ? ['plain writes', 'sync=always'] : ['end_fsync only', 'sync=standard']);
    }
    const text = await vm.cli(`bench suite --show ${id}`);
    expect(text.stdout).toMatch(/fio sync\s+dataset sync/);
    expect(text.stdout).toMatch(/end_fsync only\s+sync=standard/);
    expect((await vm.must(LEFTOVERS)).trim()).toBe('');
  }, 30 * MIN);

  it.runIf(live)('every profile runs on a temporary dataset and leaves nothing behind', async () => {
    const list = await vm.cli('bench --list --json');
    expect(list.code, list.stderr).toBe(0);
    const profiles = (JSON.parse(list.stdout) as { profiles: { id: string; sync: boolean; writes: boolean }[] }).profiles;
    expect(profiles.length).toBeGreaterThanOrEqual(7);
    for (const p of profiles) {
      const r = await vm.cli(`bench ${p.id} --pool tank --runtime 5 --size 64M ${LOAD} --json`, { timeoutMs: 8 * MIN });
      expect(r.code, `${p.id}: ${r.stderr.slice(-2000)}\n${r.stdout.slice(-2000)}`).toBe(0);
      const s = (JSON.parse(r.stdout) as { summary: { status: string; syncMode: string; writeIops: number; readIops: number; targetKind: string } }).summary;
      expect(s.status, p.id).toBe('completed');
      expect(s.writeIops + s.readIops, p.id).toBeGreaterThan(0);
      expect(s.targetKind, p.id).toBe('dataset');
      // On real ZFS a sync profile sets sync=always on its dataset (the 000 method), never fio's fallback.
      expect(s.syncMode, p.id).toBe(p.sync ? 'property' : 'async');
    }
    expect((await vm.must(LEFTOVERS)).trim()).toBe('');
  }, 45 * MIN);
});

/**
 * Current by itself (issue 38 §2): the layout comparison on real `zpool status` output, and the
 * watch that re-assesses this machine once its pools are laid out differently from the newest
 * assessment — and only then.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseZpoolStatus } from '../../server/src/parsers/zpool-status.ts';
import { layoutChanges, layoutOf, type PoolsReading } from '../../server/src/freshness/layout.ts';
import { createFreshness } from '../../server/src/jobs/freshness.ts';
import type { HostRow } from '../../server/src/store/hosts-repo.ts';
import type { VdevNode } from '../../server/src/model/inventory.ts';

const pools = (text: string) => {
  const r = parseZpoolStatus(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

const STATUS = `  pool: tank
 state: ONLINE
config:

	NAME                        STATE     READ WRITE CKSUM
	tank                        ONLINE       0     0     0
	  mirror-0                  ONLINE       0     0     0
	    /dev/disk/by-id/ata-A-part1  ONLINE       0     0     0
	    /dev/disk/by-id/ata-B-part1  ONLINE       0     0     0

errors: No known data errors
`;
const WITH_LOG = STATUS.replace('\nerrors:', `	logs
	  mirror-1                  ONLINE       0     0     0
	    /dev/disk/by-id/nvme-X-part1  ONLINE       0     0     0
	    /dev/disk/by-id/nvme-Y-part1  ONLINE       0     0     0

errors:`);

describe('pool layouts', () => {
  it('say a log mirror was added, and nothing for states, counters or the order ZFS prints', () => {
    const before = layoutOf(pools(STATUS));
    expect(before).toEqual({ tank: ['data mirror (ata-A-part1, ata-B-part1)'] });
    expect(layoutChanges(before, layoutOf(pools(WITH_LOG)))).toEqual(['tank: log mirror (nvme-X-part1, nvme-Y-part1) added']);
    const degraded = STATUS.replace('ata-B-part1  ONLINE       0     0     0', 'ata-B-part1  FAULTED      3     1     0');
    expect(layoutChanges(before, layoutOf(pools(degraded)))).toEqual([]);
    // `zpool status -P` and zfs-fuse's plain names are the same devices.
    expect(layoutChanges(before, layoutOf(pools(STATUS.replaceAll('/dev/disk/by-id/', ''))))).toEqual([]);
  });

  it('say which pool appeared and which is gone', () => {
    expect(layoutChanges({ tank: ['data sda'] }, { backup: ['data sdb'] })).toEqual(['pool backup appeared', 'pool tank is gone']);
    expect(layoutChanges({ tank: ['data sda', 'log nvme0n1'] }, { tank: ['data sda'] })).toEqual(['tank: log nvme0n1 removed']);
  });

  it('read the real OpenZFS 2.4 lab capture the same from its text and its JSON', async () => {
    const dir = join(import.meta.dirname, '../fixtures/lab/2.4/all-classes');
    const { parseZpoolStatusJson } = await import('../../server/src/parsers/zpool-status-json.ts');
    const json = parseZpoolStatusJson(readFileSync(join(dir, 'zpool-status.json'), 'utf8'));
    if (!json.ok) throw new Error(json.error.message);
    const fromText = layoutOf(pools(readFileSync(join(dir, 'zpool-status.txt'), 'utf8')));
    expect(layoutOf(json.value)).toEqual(fromText);
    expect(Object.values(fromText)[0]!.map((v) => v.split(' ')[0])).toEqual(expect.arrayContaining(['data', 'log', 'special', 'cache', 'spare', 'dedup']));
  });
});

describe('the freshness watch', () => {
  const host: HostRow = { id: 'local', kind: 'local', name: 'this machine' } as HostRow;
  function setup(initial: string) {
    let current: PoolsReading = { ok: true, pools: pools(initial) };
    let snapshot = { id: 1, pools: pools(initial) as { name: string; vdevs: VdevNode[] }[] };
    let assessmentId = 10;
    let running = false;
    const runs: string[] = [];
    const watch = createFreshness({
      history: {
        latestSnapshotRef: () => ({ id: snapshot.id, capturedAt: '2026-11-28T10:00:00Z' }),
        latestSnapshot: () => ({ id: snapshot.id, hostId: 'local', capturedAt: '2026-11-28T10:00:00Z', inventory: { pools: snapshot.pools } as never }),
        latestAssessmentRef: () => ({ id: assessmentId, generatedAt: '2026-11-28T10:00:00Z' }),
      },
      // Like the real job: running from the call until its result is stored.
      job: {
        isRunning: () => running,
        run: async (_h, trigger) => {
          running = true;
          runs.push(trigger);
          await new Promise((r) => setTimeout(r, 5));
          if (current.ok) snapshot = { id: snapshot.id + 1, pools: current.pools };
          assessmentId += 1;
          running = false;
          return { record: { id: assessmentId } } as never;
        },
      },
      readPools: async () => current,
      notLive: 'not live',
      logger: { info: () => {}, warn: () => {}, error: () => {} } as never,
      minIntervalMs: 0,
    });
    return { watch, set: (text: string) => { current = { ok: true, pools: pools(text) }; }, fail: (reason: string) => { current = { ok: false, reason }; }, runs };
  }

  it('is current while nothing changed, and re-assesses once after a vdev is added', async () => {
    const s = setup(STATUS);
    expect(await s.watch.check(host, { refresh: true })).toMatchObject({ state: 'current', changes: [], refreshing: false, assessmentId: 10 });
    expect(s.runs).toEqual([]);
    s.set(WITH_LOG);
    const changed = await s.watch.check(host, { refresh: true });
    expect(changed).toMatchObject({ state: 'changed', changes: ['tank: log mirror (nvme-X-part1, nvme-Y-part1) added'], refreshing: true });
    await s.watch.settled();
    const after = await s.watch.check(host, { refresh: true });
    expect(after).toMatchObject({ state: 'current', changes: [], assessmentId: 11, lastRefresh: { assessmentId: 11, changes: ['tank: log mirror (nvme-X-part1, nvme-Y-part1) added'], error: null } });
    expect(s.runs).toEqual(['scheduled']);
  });

  it('only reports without refresh, says why it cannot tell, and watches only this machine', async () => {
    const s = setup(STATUS);
    s.set(WITH_LOG);
    expect(await s.watch.check(host, { refresh: false })).toMatchObject({ state: 'changed', refreshing: false });
    expect(s.runs).toEqual([]);
    s.fail('`zpool status` failed: no ZFS module');
    expect(await s.watch.check(host, { refresh: true })).toMatchObject({ state: 'unknown', reason: '`zpool status` failed: no ZFS module' });
    expect((await s.watch.check({ ...host, id: 'nas', kind: 'truenas', name: 'nas' } as HostRow, { refresh: true })).reason).toMatch(/only this machine's pools are watched/);
    expect(s.runs).toEqual([]);
  });
});

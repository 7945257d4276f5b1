import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { poolsCollector } from '../../server/src/gather/collectors/pools.ts';
import type { Pool } from '../../server/src/model/inventory.ts';
import type { RawSet } from '../../server/src/snapshot/raw-set.ts';

const fx = (name: string) => readFileSync(new URL(`../fixtures/zfs/derived/${name}`, import.meta.url), 'utf8');
const entry = (text: string, command: string[]) => ({ text, command, exitCode: 0, stderr: '', error: null });
const status = ['zpool', 'status', '-v', '-P', '-D'];

function build(files: Record<string, string>): { pools: Pool[]; gaps: string[] } {
  const raw: Record<string, unknown> = {};
  for (const [file, text] of Object.entries(files)) {
    raw[file] = entry(text, file.endsWith('.json') ? [...status, '-j', '--json-int'] : file === 'zpool-get.txt' ? ['zpool', 'get', '-H', '-p', 'all', 'tank'] : status);
  }
  const out = poolsCollector.build(raw as RawSet, { platform: 'linux' });
  return { pools: out.value ?? [], gaps: out.gaps.map((g) => `${g.source}: ${g.message}`) };
}

describe('Pools: raidz expansion and the dedup table', () => {
  it('asks zpool status for -D in text and JSON (the summary is printed only then)', () => {
    const reqs = poolsCollector.requests({} as RawSet, { platform: 'linux' });
    const argv = Object.fromEntries(reqs.map((r) => [r.file, 'commands' in r ? r.commands.map((c) => c.args.join(' ')) : []]));
    expect(argv['zpool-status.txt']![0]).toBe('status -v -P -D');
    expect(argv['zpool-status.txt']!.slice(1)).toEqual(['status -v -P', 'status -v']);
    expect(argv['zpool-status.json']).toEqual(['status -v -P -D -j --json-int']);
  });

  it('expansion in progress: the inventory from text equals the one from JSON (dates: same instant, text has no offset)', () => {
    const t = build({ 'zpool-status.txt': fx('raidz-expand-in-progress.txt') }).pools[0]!.expansion!;
    const j = build({ 'zpool-status.json': fx('raidz-expand-in-progress.json'), 'zpool-status.txt': fx('raidz-expand-in-progress.txt') }).pools[0]!.expansion!;
    expect(j).toMatchObject({ vdev: 'raidz1-0', state: 'in-progress', copiedBytes: 1288490188, totalBytes: 3221225472, progressPct: 40, startedAt: '2026-11-28T10:00:00Z' });
    expect({ ...t, raw: null, copiedBytes: null, startedAt: `${t.startedAt}Z` }).toEqual({ ...j, raw: null, copiedBytes: null });
  });

  it('dedup table: -D summary + dedup_table_size/quota + feature@fast_dedup; text equals JSON', () => {
    const t = build({ 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': fx('dedup-fast-zpool-get.txt') });
    const j = build({ 'zpool-status.json': fx('dedup-D.json'), 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': fx('dedup-fast-zpool-get.txt') });
    expect(t.gaps.filter((g) => !g.includes('missing') && !g.includes('not captured'))).toEqual(j.gaps.filter((g) => !g.includes('missing') && !g.includes('not captured')));
    const { raw: _a, ...jt } = j.pools[0]!.dedupTable!;
    const { raw: _b, ...tt } = t.pools[0]!.dedupTable!;
    expect(jt).toEqual({ entries: 8192, onDiskBytes: 1572864, inCoreBytes: 2621440, tableSizeBytes: 1572864, quota: 'auto', fastDedup: 'active', logEntries: null });
    expect(tt).toEqual(jt);
    expect(j.pools[0]!.dedupRatio).toBe(1.5);
  });

  it('the fast-dedup log: active + flushing entries from the pool\'s ddt_stats_<checksum> kstats, asked for only on Linux and only for pools with a table', () => {
    const statusOnly = { 'zpool-status.txt': entry(fx('dedup-D.txt'), status) } as unknown as RawSet;
    const reqs = poolsCollector.requests(statusOnly, { platform: 'linux' }).filter((r) => r.file.startsWith('kstat-ddt/'));
    expect(reqs.map((r) => ['readPath' in r ? r.readPath : null, r.file])).toEqual(['sha256', 'sha512', 'skein', 'edonr', 'blake3']
      .map((c) => [`/proc/spl/kstat/zfs/tank/ddt_stats_${c}`, `kstat-ddt/1-${c}.txt`]));
    expect(poolsCollector.requests(statusOnly, { platform: 'freebsd' }).filter((r) => r.file.startsWith('kstat-ddt/'))).toEqual([]);
    const noTable = { 'zpool-status.txt': entry(fx('dedup-D.txt').replace(/ dedup: DDT entries[^]*$/, ' dedup: no DDT entries\n'), status) } as unknown as RawSet;
    expect(poolsCollector.requests(noTable, { platform: 'linux' }).filter((r) => r.file.startsWith('kstat-ddt/'))).toEqual([]);
    const withLog = build({ 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': fx('dedup-fast-zpool-get.txt'), 'kstat-ddt/1-sha256.txt': fx('kstat-ddt_stats_sha256.txt') });
    expect(withLog.pools[0]!.dedupTable!.logEntries).toBe(1200 + 300);
    // Two tables (sha256 and blake3): their logs add up.
    const two = build({ 'zpool-status.txt': fx('dedup-D.txt'), 'kstat-ddt/1-sha256.txt': fx('kstat-ddt_stats_sha256.txt'), 'kstat-ddt/1-blake3.txt': fx('kstat-ddt_stats_sha256.txt').replace(/log_active_entries +4 +1200/, 'log_active_entries              4    7') });
    expect(two.pools[0]!.dedupTable!.logEntries).toBe(1500 + 7 + 300);
  });

  it('legacy table: fast_dedup disabled; quota none / a size; no -D output → no dedupTable (not guessed from dedupratio)', () => {
    const get = fx('dedup-legacy-zpool-get.txt');
    expect(build({ 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': get }).pools[0]!.dedupTable).toMatchObject({ fastDedup: 'disabled', quota: 'auto' });
    const none = get.replace('tank\tdedup_table_quota\tauto\tdefault', 'tank\tdedup_table_quota\t0\tlocal');
    expect(build({ 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': none }).pools[0]!.dedupTable!.quota).toBe('none');
    const sized = get.replace('tank\tdedup_table_quota\tauto\tdefault', 'tank\tdedup_table_quota\t1073741824\tlocal');
    expect(build({ 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': sized }).pools[0]!.dedupTable!.quota).toBe(1073741824);
    // Without the properties (2.2 and older have none of them) the table says null, never a default.
    expect(build({ 'zpool-status.txt': fx('dedup-D.txt') }).pools[0]!.dedupTable).toMatchObject({ entries: 8192, tableSizeBytes: null, quota: null, fastDedup: null });
    const plain = fx('dedup-D.txt').split('\n dedup:')[0]!;
    const p = build({ 'zpool-status.txt': plain, 'zpool-get.txt': get }).pools[0]!;
    expect('dedupTable' in p).toBe(false);
    expect('expansion' in p).toBe(false);
  });
});

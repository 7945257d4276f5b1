import { describe, expect, it } from 'vitest';
import { parseZpoolStatus } from '../../../server/src/parsers/zpool-status.ts';
import { parseZpoolStatusJson } from '../../../server/src/parsers/zpool-status-json.ts';
import { dedupFromJson, expandFromJson, parseDedupText, parseExpandText } from '../../../server/src/parsers/zpool-status-expand-dedup.ts';
import type { ParsedPoolStatus } from '../../../server/src/model/inventory.ts';
import { fixture } from './helpers.ts';

const G = 2 ** 30; const M = 2 ** 20;
const one = (r: ReturnType<typeof parseZpoolStatus>): ParsedPoolStatus => {
  if (!r.ok) throw new Error(r.error.message);
  expect(r.issues).toEqual([]);
  expect(r.value).toHaveLength(1);
  return r.value[0]!;
};
/** Text dates are the host's local time without an offset; the JSON's are epoch seconds (UTC). The lab guests run in UTC. */
const sameInstant = (text: string | null, json: string | null) => expect(text === null ? null : `${text}Z`).toBe(json);

describe('raidz expansion (expand: / raidz_expand_stats)', () => {
  it('in progress, text: vdev, bytes copied of total, percent, start', () => {
    const p = one(parseZpoolStatus(fixture('derived/raidz-expand-in-progress.txt')));
    expect(p.expand).toMatchObject({
      vdev: 'raidz1-0', state: 'in-progress', copiedBytes: Math.round(1.2 * G), totalBytes: 3 * G, progressPct: 40,
      startedAt: '2026-11-28T10:00:00', endedAt: null, waitingForResilver: false,
    });
    // The tree is untouched by the extra block: 4 disks under raidz1-0.
    expect(p.vdevs.map((v) => [v.name, v.type, v.children.length])).toEqual([['raidz1-0', 'raidz1', 4]]);
    expect(p.scan).toBeNull();
  });

  it('in progress, JSON: the same state; the name gets its index as the text prints it', () => {
    const r = parseZpoolStatusJson(fixture('derived/raidz-expand-in-progress.json'));
    const j = one(r);
    const t = one(parseZpoolStatus(fixture('derived/raidz-expand-in-progress.txt')));
    expect(j.expand).toMatchObject({ vdev: 'raidz1-0', state: 'in-progress', copiedBytes: 1288490188, totalBytes: 3221225472, progressPct: 40, waitingForResilver: false, endedAt: null });
    sameInstant(t.expand!.startedAt, j.expand!.startedAt);
    // Text prints 1.20G (zfs_nicenum): equal to the exact JSON count within the rounding of 3 digits.
    expect(Math.abs(t.expand!.copiedBytes! - j.expand!.copiedBytes!) / j.expand!.copiedBytes!).toBeLessThan(0.005);
    expect(t.expand!.totalBytes).toBe(j.expand!.totalBytes);
    expect(t.expand!.progressPct).toBe(j.expand!.progressPct);
  });

  it('finished: text and JSON agree on vdev, end time, bytes copied; the scrub that follows is read as before', () => {
    const t = one(parseZpoolStatus(fixture('derived/raidz-expand-finished.txt')));
    const j = one(parseZpoolStatusJson(fixture('derived/raidz-expand-finished.json')));
    expect(t.expand).toMatchObject({ vdev: 'raidz1-0', state: 'finished', copiedBytes: 3 * G, totalBytes: null, endedAt: '2026-11-28T10:04:10' });
    expect(j.expand).toMatchObject({ vdev: 'raidz1-0', state: 'finished', copiedBytes: 3 * G, totalBytes: 3 * G });
    sameInstant(t.expand!.endedAt, j.expand!.endedAt);
    expect([t.scan?.kind, t.scan?.state, j.scan?.kind, j.scan?.state]).toEqual(['scrub', 'finished', 'scrub', 'finished']);
  });

  it('the real 2.3 capture (mtlynch.io, raidz2 expanded with USB disks) reads as a finished expansion of 743K', () => {
    const p = one(parseZpoolStatus(fixture('status/zfs23-raidz2-expanded-very-long-usb-ids.txt')));
    expect(p.expand).toMatchObject({ vdev: 'raidz2-0', state: 'finished', copiedBytes: 743 * 1024, endedAt: '2025-05-11T13:18:13' });
  });

  it('paused for a resilver, a slow copy without estimate, a fresh start, and lines it does not know', () => {
    const start = 'expansion of raidz2-1 in progress since Sat Nov 28 10:00:00 2026';
    expect(parseExpandText(`${start}\n\t1 / 3G copied at 1/s, 0.00% done, paused for resilver or clear`))
      .toMatchObject({ vdev: 'raidz2-1', copiedBytes: 1, totalBytes: 3 * G, progressPct: 0, waitingForResilver: true });
    expect(parseExpandText(`${start}\n\t5M / 9T copied at 1K/s, 0.00% done, (copy is slow, no estimated time)`))
      .toMatchObject({ copiedBytes: 5 * M, totalBytes: 9 * 2 ** 40, waitingForResilver: false });
    expect(parseExpandText(start)).toMatchObject({ state: 'in-progress', copiedBytes: null, waitingForResilver: null });
    expect(parseExpandText('something else entirely')).toBeNull();
    const r = parseZpoolStatus(fixture('derived/raidz-expand-in-progress.txt').replace('expansion of raidz1-0 in progress', 'expansion frobnicated'));
    expect(r.ok && r.issues.map((i) => i.message)).toEqual([expect.stringContaining('expand block not understood')]);
    expect(r.ok && r.value[0]!.expand).toBeUndefined();
  });

  it('JSON: DSS_NONE gives nothing, waiting_for_resilver is a flag, string numbers (no --json-int) are read', () => {
    expect(expandFromJson({ name: 'raidz1', state: 'NONE', expanding_vdev: 0 })).toBeNull();
    expect(expandFromJson({ name: 'raidz2', state: 'SCANNING', expanding_vdev: '3', start_time: '1795860000', to_reflow: '3G', reflowed: '1G', waiting_for_resilver: '1' }))
      .toMatchObject({ vdev: 'raidz2-3', copiedBytes: G, totalBytes: 3 * G, progressPct: 33.33, waitingForResilver: true, startedAt: '2026-11-28T10:00:00Z' });
  });

  it('pools without an expansion carry no expand key (older outputs parse exactly as before)', () => {
    const p = one(parseZpoolStatus(fixture('../lab/2.4/special-no-slog/zpool-status.txt')));
    expect('expand' in p).toBe(false);
    expect('dedup' in p).toBe(false);
  });
});

describe('dedup table summary (zpool status -D)', () => {
  it('text: entries, on-disk and in-core size; the histogram below is not mistaken for pool lines', () => {
    const p = one(parseZpoolStatus(fixture('derived/dedup-D.txt')));
    expect(p.dedup).toMatchObject({ entries: 8192, onDiskBytes: Math.round(1.5 * M), inCoreBytes: Math.round(2.5 * M) });
    expect(p.errors).toBe('No known data errors');
    expect(p.partial).toBeUndefined();
  });

  it('JSON equals text', () => {
    const j = one(parseZpoolStatusJson(fixture('derived/dedup-D.json')));
    const t = one(parseZpoolStatus(fixture('derived/dedup-D.txt')));
    const { raw: _j, ...js } = j.dedup!;
    const { raw: _t, ...ts } = t.dedup!;
    expect(js).toEqual(ts);
    expect(js).toEqual({ entries: 8192, onDiskBytes: 1572864, inCoreBytes: 2621440 });
  });

  it('no DDT entries, -p exact numbers, and a line it does not know', () => {
    expect(parseDedupText('no DDT entries')).toMatchObject({ entries: 0, onDiskBytes: 0, inCoreBytes: 0 });
    expect(parseDedupText('DDT entries 123456, size 98765432 on disk, 45678901 in core')).toMatchObject({ entries: 123456, onDiskBytes: 98765432, inCoreBytes: 45678901 });
    expect(parseDedupText('DDT entries 10, size 1.50M on disk, 512K in core, 512K cached (100.00%)')).toMatchObject({ entries: 10, inCoreBytes: 512 * 1024 });
    expect(parseDedupText('DDT gremlins')).toBeNull();
    expect(dedupFromJson({ obj_count: 0, ddt_object_stats: {} })).toMatchObject({ entries: 0, onDiskBytes: 0 });
    expect(dedupFromJson({ obj_count: '8K', dspace: '1.50M', mspace: '2.50M' })).toMatchObject({ entries: 8192, onDiskBytes: 1572864 });
    expect(dedupFromJson({})).toBeNull();
    const r = parseZpoolStatus(fixture('derived/dedup-D.txt').replace('DDT entries 8192', 'DDT gremlins 8192'));
    expect(r.ok && r.issues.map((i) => i.message)).toEqual([expect.stringContaining('dedup line not understood')]);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureWithZdb, versionFromZfsVersion, ZDB_DEFAULT_TIMEOUT_MS } from '../../server/src/sizing/zdb-run.ts';
import { fakeRunner } from './support-fake-runner.ts';

// Real `zdb -Lbbbs` output (≤ 2.3 binning), see tests/fixtures/sizing/PROVENANCE.md.
const zdbText = readFileSync(join(import.meta.dirname, '../fixtures/sizing/zdb-bbb-level1techs-pre24.txt'), 'utf8');
const K = 1024;
const M = K ** 2;
const G = K ** 3;
const now = () => new Date('2026-11-22T08:00:00.000Z');
const root = () => true;

const opts = { recordsize: 128 * K, ashift: 12, now, isRoot: root };

describe('versionFromZfsVersion', () => {
  it('reads the userland version of `zfs version`', () => {
    expect(versionFromZfsVersion('zfs-2.2.6-1\nzfs-kmod-2.2.6-1\n')).toBe('2.2.6');
    expect(versionFromZfsVersion('zfs-2.4.0-rc1\n')).toBe('2.4.0');
    expect(versionFromZfsVersion('unrecognized command \'version\'\n')).toBeNull();
  });
});

describe('measureWithZdb', () => {
  it('refuses without root and runs nothing', async () => {
    const f = fakeRunner(() => ({ stdout: zdbText }));
    const r = await measureWithZdb('tank', { ...opts, run: f.run, isRoot: () => false });
    expect(r).toEqual({ ok: false, message: 'zdb reads the pool\'s devices directly and must run as root — run again with sudo, or leave out --zdb', commands: [] });
    expect(f.calls).toEqual([]);
  });

  it('refuses an invalid pool name before running anything', async () => {
    const f = fakeRunner(() => ({ stdout: zdbText }));
    for (const pool of ['tank/x', '-e', '../tank']) {
      const r = await measureWithZdb(pool, { ...opts, run: f.run });
      expect(r.ok, pool).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/is not a valid pool name/);
    }
    expect(f.calls).toEqual([]);
  });

  it('asks zfs for the version, runs zdb -Lbbbs at nice 19 / idle I/O with a long timeout, and reads ≤ 2.3 binning', async () => {
    const f = fakeRunner((program, args) => {
      if (program === 'zfs' && args[0] === 'version') return { stdout: 'zfs-2.3.4-1\nzfs-kmod-2.3.4-1\n' };
      if (program === 'nice') return { stdout: zdbText };
      return undefined;
    });
    const r = await measureWithZdb('tank', { ...opts, run: f.run });
    expect(f.calls.map((c) => [c.program, ...c.args].join(' '))).toEqual(['zfs version', 'nice -n 19 ionice -c 3 zdb -Lbbbs tank']);
    expect(f.calls[1]!.timeoutMs).toBe(ZDB_DEFAULT_TIMEOUT_MS);
    if (!r.ok) throw new Error(r.message);
    expect(r.version).toBe('2.3.4');
    expect(r.commands.map((c) => c.command)).toEqual(['zfs version', 'nice -n 19 ionice -c 3 zdb -Lbbbs tank']);
    const h = r.histogram;
    expect(h.method).toBe('zdb');
    expect(h.target).toBe('tank');
    expect(h.pool).toBe('tank');
    expect(h.capturedAt).toBe('2026-11-22T08:00:00.000Z');
    // ≤ 2.3: row 512 holds [512, 1K), so its upper edge is 1K; 16 rows.
    expect(h.blockBins).toHaveLength(16);
    expect(h.blockBins[0]).toEqual({ upperBytes: K, count: 833 * K, bytes: 416 * M, cumulativeBytes: 416 * M, cumulativeCount: 833 * K });
    // special_small_blocks=16K: only rows 512 … 8K are certainly ≤ 16K (lower bound); no Metadata Total row.
    const c16 = h.candidates.find((c) => c.specialSmallBlocks === 16 * K)!;
    expect(c16.smallBlockBytes).toBe(416 * M + Math.round(1.22 * G) + Math.round(2.31 * G) + Math.round(11.6 * G) + Math.round(21.8 * G));
    expect(c16.metadataBytes).toBe(0);
    const notes = h.notes.join('\n');
    expect(notes).toContain('≤ 2.3 binning');
    expect(notes).toContain('measured by `nice -n 19 ionice -c 3 zdb -Lbbbs tank` in 1.5 s (OpenZFS 2.3.4)');
    expect(notes).toContain('zdb covers the whole pool tank');
  });

  it('uses a given version without asking, and 2.4 binning makes "≤ T" exact', async () => {
    const f = fakeRunner((program) => (program === 'nice' ? { stdout: zdbText } : undefined));
    const r = await measureWithZdb('tank', { ...opts, version: '2.4.1', run: f.run });
    expect(f.calls.map((c) => c.program)).toEqual(['nice']);
    if (!r.ok) throw new Error(r.message);
    expect(r.histogram.blockBins[0]!.upperBytes).toBe(512);
    const c16 = r.histogram.candidates.find((c) => c.specialSmallBlocks === 16 * K)!;
    expect(c16.smallBlockBytes).toBe(416 * M + Math.round(1.22 * G) + Math.round(2.31 * G) + Math.round(11.6 * G) + Math.round(21.8 * G) + Math.round(30.5 * G));
    expect(r.histogram.notes[0]).toContain('≥ 2.4 binning');
  });

  it('falls back to plain nice when ionice is missing', async () => {
    const f = fakeRunner((program, args) => {
      if (args.includes('ionice')) return { exitCode: 127, stderr: "nice: 'ionice': No such file or directory\n" };
      return { stdout: zdbText };
    });
    const r = await measureWithZdb('tank', { ...opts, version: '2.2.0', run: f.run });
    expect(r.ok).toBe(true);
    expect(r.commands.map((c) => [c.command, c.exitCode])).toEqual([['nice -n 19 ionice -c 3 zdb -Lbbbs tank', 127], ['nice -n 19 zdb -Lbbbs tank', 0]]);
  });

  it('reports a failing zdb and unparsable output as values, with the commands run', async () => {
    const failing = fakeRunner(() => ({ exitCode: 1, stderr: "zdb: can't open 'tank': No such file or directory\n" }));
    const r1 = await measureWithZdb('tank', { ...opts, version: '2.2.0', run: failing.run });
    expect(r1).toEqual({
      ok: false,
      message: "nice -n 19 ionice -c 3 zdb -Lbbbs tank: exit 1: zdb: can't open 'tank': No such file or directory",
      commands: [{ command: 'nice -n 19 ionice -c 3 zdb -Lbbbs tank', exitCode: 1, durationMs: 1500, error: "nice -n 19 ionice -c 3 zdb -Lbbbs tank: exit 1: zdb: can't open 'tank': No such file or directory" }],
    });
    const garbage = fakeRunner(() => ({ stdout: 'Traversing all blocks ...\nbp count: 10\n' }));
    const r2 = await measureWithZdb('tank', { ...opts, version: '2.2.0', run: garbage.run });
    expect(r2.ok).toBe(false);
    if (!r2.ok) expect(r2.message).toMatch(/^zdb -Lbbbs tank: output( line \d+)?: \S/);
  });
});

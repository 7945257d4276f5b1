/** The `sizes` and `plan` CLI contracts: JSON on stdout with exit 0, one stderr line and 2 for bad input, 64 for usage. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { pool, leaf, group } from '../support/builders.ts';
import { factLinks } from '../../rules/lib/citations.ts';

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, stdin: async () => '', isTTY: false };
  const code = await main(argv, io);
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'plan-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('zfs-advisor plan', () => {
  it('layouts --json gives ranked candidates', async () => {
    const r = await cli(['plan', 'layouts', '--disks', '8', '--size', '16T', '--workload', 'vm', '--json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.out);
    expect(plan.candidates[0].label).toBe('4 × mirror (2-way)');
    expect(plan.input.diskBytes).toBe(16e12);
  });

  it('usage errors exit 64', async () => {
    expect((await cli(['plan', 'layouts', '--size', '16T'])).code).toBe(64);
    expect((await cli(['plan', 'layouts', '--disks', '4', '--size', '16T', '--bogus'])).code).toBe(64);
    expect((await cli(['plan', 'explode'])).code).toBe(64);
  });

  it('add-slog from --pool-json prints the plan; an unreadable file exits 2 with one line', async () => {
    const file = join(dir, 'pool.json');
    writeFileSync(file, JSON.stringify(pool('tank', [group('mirror', 'mirror-0', [leaf('sda'), leaf('sdb')])])));
    const r = await cli(['plan', 'add-slog', '--pool-json', file, '--devices', '/dev/disk/by-id/nvme-a,/dev/disk/by-id/nvme-b', '--json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.out);
    expect(plan.steps[1].display).toBe('zpool add -o ashift=12 tank log mirror /dev/disk/by-id/nvme-a /dev/disk/by-id/nvme-b');
    const bad = await cli(['plan', 'add-slog', '--pool-json', join(dir, 'missing.json'), '--devices', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toContain('missing.json');
  });
});

describe('zfs-advisor plan on the demo inventory (TrueNAS CORE, bench-pool = mirror da1 da3 + log da0, unused Optane nvd1)', () => {
  it('add-special --devices nvd1 on the mirror pool is refused: no -f, says 2 devices are needed', async () => {
    const r = await cli(['plan', 'add-special', '--demo', '--devices', 'nvd1']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/special vdev needs 2 devices \(a 2-way mirror\) to match; got 1.*--accept-lower-redundancy/);
  });

  it('--accept-lower-redundancy prints -f with a loud label', async () => {
    const r = await cli(['plan', 'add-special', '--demo', '--devices', 'nvd1', '--accept-lower-redundancy']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('!!! LOWER REDUNDANCY ACCEPTED');
    expect(r.out).toContain('1. zpool add -n -f -o ashift=12 bench-pool special /dev/nvd1\n');
    expect(r.out).toContain('2. zpool add -f -o ashift=12 bench-pool special /dev/nvd1\n');
    expect(r.out).toContain('Redundancy: Not redundancy-matched — LOWER REDUNDANCY ACCEPTED by the caller');
  });

  it('a single SLOG is called not redundant, never "matched", in text and JSON; the dry run comes first', async () => {
    const r = await cli(['plan', 'add-slog', '--demo', '--pool', 'bench-pool', '--devices', 'nvd1', '--shared-disk']);
    const j = JSON.parse((await cli(['plan', 'add-slog', '--demo', '--pool', 'bench-pool', '--devices', 'nvd1', '--json'])).out);
    expect(j.redundancy).toMatchObject({ matched: false, acceptable: true });
    expect(j.redundancy.reason).toBe(`not redundant: only in-flight sync writes are at risk if it fails together with a crash; the pool itself never depends on a log vdev (${factLinks('A25', 'B14')})`);
    // The terminal gets the links as "text (url)".
    expect(r.out).toContain('the pool itself never depends on a log vdev (OpenZFS zpool-import(8) at master snapshot');
    expect(j.steps[0].argv.slice(0, 3)).toEqual(['zpool', 'add', '-n']);
    expect(r.out).toContain('Redundancy: Single SLOG — not redundant: only in-flight sync writes are at risk if it fails together with a crash');
    expect(r.out).not.toMatch(/Redundancy matched/);
  });

  it('--devices=-f,nvd1 and in-use devices are refused with one line', async () => {
    const hostile = await cli(['plan', 'add-slog', '--demo', '--devices=-f,nvd1']);
    expect(hostile.code).toBe(1);
    expect(hostile.err).toBe('zfs-advisor plan add-slog: device "-f" refused: it starts with "-", so zpool/sgdisk would read it as an option — nothing was planned; change the devices or options as the reason says\n');
    const used = await cli(['plan', 'add-slog', '--demo', '--devices', 'da1']);
    expect(used.code).toBe(1);
    expect(used.err).toBe('zfs-advisor plan add-slog: device da1 is already in use: pool bench-pool uses da1 in a data vdev (mirror-0) — Choose a drive listed as unused (the Planner\'s device list, or zfs-advisor inventory); a device leaves its pool only through zpool remove or zpool detach where the layout allows it (root on this host; the pool then has one device less)\n');
  });

  it('partitioning on the FreeBSD demo uses gpart, never sgdisk', async () => {
    const r = await cli(['plan', 'add-slog', '--demo', '--devices', 'nvd1', '--partition', 'slog:16G,special:20G', '--json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.out);
    expect(plan.steps.map((s: { display: string }) => s.display)).toEqual([
      'gpart create -s gpt nvd1',
      'gpart add -t freebsd-zfs -a 1m -s 16384M -l slog-nvd1 nvd1',
      'gpart add -t freebsd-zfs -a 1m -s 20480M -l special-nvd1 nvd1',
      'zpool add -n -o ashift=12 bench-pool log /dev/nvd1p1',
      'zpool add -o ashift=12 bench-pool log /dev/nvd1p1',
    ]);
  });

  it('--pool-json without --platform prints no partitioning command; with --platform linux it prints sgdisk on /dev paths', async () => {
    const file = join(dir, 'pool-part.json');
    writeFileSync(file, JSON.stringify(pool('tank', [group('mirror', 'mirror-0', [leaf('sda'), leaf('sdb')])])));
    const args = ['plan', 'add-slog', '--pool-json', file, '--devices', '/dev/nvme0n1', '--partition', 'slog:16G', '--json'];
    const none = JSON.parse((await cli(args)).out);
    expect(none.steps).toHaveLength(2);
    expect(none.warnings.join(' ')).toMatch(/no partitioning command printed: the host platform is unknown/);
    const linux = JSON.parse((await cli([...args, '--platform', 'linux'])).out);
    expect(linux.steps.map((s: { display: string }) => s.display)).toEqual([
      'sgdisk --new=1:0:+16384M --typecode=1:BF01 --change-name=1:slog /dev/nvme0n1',
      'zpool add -n -o ashift=12 tank log /dev/nvme0n1p1',
      'zpool add -o ashift=12 tank log /dev/nvme0n1p1',
    ]);
  });

  it('layouts --demo plans for the unused disks: one NVMe, so no redundant layout (only the single disk, flagged)', async () => {
    const r = await cli(['plan', 'layouts', '--demo', '--json']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.out);
    expect(plan.fromInventory).toBe(true);
    expect(plan.unusedDisks).toMatchObject({ media: 'nvme', disks: 1, diskBytes: 58977157120 });
    expect(plan.unusedDisks.drives.map((d: { path: string }) => d.path)).toEqual(['/dev/nvd1']);
    expect(plan.input).toMatchObject({ disks: 1, diskBytes: 58977157120, media: 'nvme' });
    expect(plan.candidates.map((c: { label: string; flags: string[] }) => [c.label, c.flags])).toEqual([['stripe of 1', ['no redundancy']]]);
    expect(plan.candidates[0].findings.map((f: { ruleId: string }) => f.ruleId)).toContain('no-redundancy');
    const text = await cli(['plan', 'layouts', '--demo']);
    expect(text.out).toContain('No redundant layout fits 1 disk:');
    expect((await cli(['plan', 'layouts', '--demo', '--disks', '4'])).code).toBe(64);
  });
});

describe('zfs-advisor sizes', () => {
  it('walks a directory and prints the histogram as JSON', async () => {
    const own = mkdtempSync(join(dir, 'sizes-'));
    writeFileSync(join(own, 'a.bin'), Buffer.alloc(3000));
    writeFileSync(join(own, 'b.bin'), Buffer.alloc(70000));
    const r = await cli(['sizes', own, '--recordsize', '64K', '--json']);
    expect(r.code).toBe(0);
    const { histogram } = JSON.parse(r.out);
    expect(histogram.method).toBe('walk');
    expect(histogram.recordsize).toBe(65536);
    expect(histogram.candidates.at(-1).specialSmallBlocks).toBe(65536);
    expect(histogram.files).toBe(2);
    // 3000 B → one 4K block; 70000 B → two 64K blocks.
    expect(histogram.blockBins.filter((b: { count: number }) => b.count > 0).map((b: { upperBytes: number; count: number }) => [b.upperBytes, b.count])).toEqual([[4096, 1], [65536, 2]]);
  });

  it('a missing target exits 2 with one line; a bad recordsize exits 64', async () => {
    const r = await cli(['sizes', '/nonexistent/dir/x']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect((await cli(['sizes', dir, '--recordsize', '100K'])).code).toBe(64);
  });
});

/** The `sizes` and `plan` CLI contracts: JSON on stdout with exit 0, one stderr line and 2 for bad input, 64 for usage. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { pool, leaf, group } from '../support/builders.ts';

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
    expect(plan.steps[0].display).toBe('zpool add -o ashift=12 tank log mirror /dev/disk/by-id/nvme-a /dev/disk/by-id/nvme-b');
    const bad = await cli(['plan', 'add-slog', '--pool-json', join(dir, 'missing.json'), '--devices', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toContain('missing.json');
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

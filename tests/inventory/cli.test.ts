import { describe, expect, it } from 'vitest';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';

async function run(args: string[], stdin = '') {
  let out = ''; let err = '';
  const io: CliIO = { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, stdin: async () => stdin, isTTY: false };
  const code = await main(args, io);
  return { code, out, err };
}
const demo = 'server/demo/000-hdd-mirror-optane';

describe('zfs-advisor parse / inventory CLI contract', () => {
  it('parse zpool-status FILE prints the pools as JSON', async () => {
    const r = await run(['parse', 'zpool-status', `${demo}/zpool-status.txt`]);
    expect(r.code).toBe(0);
    const pools = JSON.parse(r.out) as { name: string; vdevs: { type: string; children: { name: string }[] }[] }[];
    expect(pools.map((p) => [p.name, p.vdevs[0]!.type, p.vdevs[0]!.children.map((c) => c.name)])).toEqual([['bench-pool', 'mirror', ['da1', 'da3']]]);
  });

  it('parse smartctl reads stdin with "-" and prints the documented fields only', async () => {
    const { readFileSync } = await import('node:fs');
    const r = await run(['parse', 'smartctl', '-'], readFileSync(`${demo}/smartctl/nvd1.json`, 'utf8'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      model: 'INTEL SSDPEK1A058GA', serial: 'PHOC209200KC058A', capacityBytes: 58977157120, rotational: false, transport: 'nvme',
      healthPassed: true, powerOnHours: 3752, temperatureC: 44, percentageUsed: 0, mediaErrors: 0, optane: { product: 'Intel Optane SSD P1600X 58GB' },
    });
  });

  it('unreadable input: exit 2 and exactly one stderr line naming the file (and line)', async () => {
    const missing = await run(['parse', 'zpool-status', 'no/such/file.txt']);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe('zfs-advisor parse: no/such/file.txt: cannot read (ENOENT) — check the file name and its permissions\n');
    const bad = await run(['parse', 'diskinfo', `${demo}/zfs-get.txt`]);
    expect(bad.code).toBe(2);
    expect(bad.err.split('\n').filter(Boolean)).toHaveLength(1);
    expect(bad.err).toMatch(/^zfs-advisor parse: server\/demo\/000-hdd-mirror-optane\/zfs-get\.txt(:\d+)?: .* — /);
    expect(bad.out).toBe('');
  });

  it('a partial read still prints JSON (exit 0) and says on stderr, line by line, what it skipped', async () => {
    const text = '  pool: tank\n state: ONLINE\nconfig:\n\n\tNAME STATE READ WRITE CKSUM\n\ttank ONLINE 0 0 0\n\t  sda ONLINE 0 0 0\n\t  @@@ garbage\n\nerrors: No known data errors\n';
    const r = await run(['parse', 'zpool-status', '-'], text);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { vdevs: { name: string }[] }[])[0]!.vdevs.map((v) => v.name)).toEqual(['sda']);
    expect(r.err).toBe('<stdin>:8: warning: pool tank: not a vdev row: @@@ garbage\n');
  });

  it('usage errors exit 64', async () => {
    expect((await run(['parse', 'nonsense'])).code).toBe(64);
    expect((await run(['inventory', '--bogus'])).code).toBe(64);
    expect((await run(['capture'])).code).toBe(64);
  });

  it('inventory --demo --json is the demo inventory, labelled as demo', async () => {
    const r = await run(['inventory', '--demo', '--json']);
    expect(r.code).toBe(0);
    const inv = JSON.parse(r.out) as { source: { kind: string; demo: boolean }; pools: { name: string }[] };
    expect(inv.source).toMatchObject({ kind: 'demo', demo: true });
    expect(inv.pools.map((p) => p.name)).toEqual(['bench-pool']);
  });

  it('inventory without --json prints the layout in words and the gaps', async () => {
    const r = await run(['inventory', '--snapshot', 'server/demo/001-raidz2-12disk']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('*** Demo data: 12-disk raidz2 on FreeBSD, 4 TB SAS drives (reference 001) ***');
    expect(r.out).toContain('    Data: 1 × RAIDZ2 | 12 wide | 3.64 TiB\n');
    expect(r.out).toContain('[warning] Host: zfs version: exit 1');
  });

  it('inventory --snapshot on a missing directory: exit 2, one line', async () => {
    const r = await run(['inventory', '--snapshot', '/nonexistent/snap']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('zfs-advisor inventory: /nonexistent/snap: no such snapshot directory — give a directory written by `zfs-advisor capture`\n');
  });
});

/**
 * The `sizes` CLI: --save stores into the server's evidence store (read back the way the server's
 * assessment reads it), --zdb runs zdb through the (injected) runner and shows both histograms.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../server/src/cli/command.ts';
import { createSizesCommand, type SizesDeps } from '../../server/src/cli/commands/sizes.ts';
import { SizeHistogram } from '../../server/src/model/workload.ts';
import { newestStoredHistograms, saveMeasurements } from '../../server/src/sizing/stored.ts';
import { DB_FILE_NAME, openStore } from '../../server/src/store/db.ts';
import { createEvidenceRepo } from '../../server/src/store/evidence-repo.ts';
import { createHostsRepo } from '../../server/src/store/hosts-repo.ts';
import { fakeRunner } from './support-fake-runner.ts';

const K = 1024;
const M = K ** 2;
const zdbText = readFileSync(join(import.meta.dirname, '../fixtures/sizing/zdb-bbb-level1techs-pre24.txt'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'sizes-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A small tree: 100 B, 3000 B, 5000 B, 200000 B (two 128K records).
const tree = join(work, 'tree');
mkdirSync(join(tree, 'sub'), { recursive: true });
writeFileSync(join(tree, 'a'), Buffer.alloc(100, 1));
writeFileSync(join(tree, 'sub', 'b'), Buffer.alloc(3000, 1));
writeFileSync(join(tree, 'sub', 'c'), Buffer.alloc(5000, 1));
writeFileSync(join(tree, 'd'), Buffer.alloc(200_000, 1));

function io() {
  const o = { out: '', err: '' };
  const cli: CliIO = { stdout: (s) => { o.out += s; }, stderr: (s) => { o.err += s; }, stdin: async () => '', isTTY: false };
  return { o, cli };
}

/** zfs list PATH answers "not a ZFS filesystem" (this tree is on tmpfs/ext4); zdb prints the fixture. */
function deps(over: Partial<SizesDeps> = {}) {
  const f = fakeRunner((program, args) => {
    if (program === 'zfs' && args[0] === 'list') return { exitCode: 1, stderr: `cannot open '${args.at(-1)}': not a ZFS filesystem\n` };
    if (program === 'zfs' && args[0] === 'version') return { stdout: 'zfs-2.3.4-1\nzfs-kmod-2.3.4-1\n' };
    if (program === 'nice') return { stdout: zdbText };
    return undefined;
  });
  let t = Date.parse('2026-11-22T08:00:00.000Z');
  const d: SizesDeps = { run: f.run, isRoot: () => true, now: () => new Date((t += 1000)), ...over };
  return { d, calls: f.calls };
}

describe('sizes --save', () => {
  const dataDir = join(work, 'data-save');

  it('stores the walk for the local host, and newestStoredHistograms returns it', async () => {
    const { o, cli } = io();
    const { d } = deps();
    const code = await createSizesCommand(d).run([tree, '--json', '--save', '--data-dir', dataDir, '--ashift', '12'], cli);
    expect(o.err).toBe('');
    expect(code).toBe(0);
    const out = JSON.parse(o.out) as { histogram: unknown; saved: { ids: number[]; hostId: string; file: string } };
    expect(out.saved).toEqual({ ids: [1], hostId: 'local', file: join(dataDir, DB_FILE_NAME) });

    const stored = await newestStoredHistograms(dataDir);
    if (!stored.ok) throw new Error(stored.message);
    expect(stored.hostId).toBe('local');
    expect(stored.histograms).toHaveLength(1);
    const h = stored.histograms[0]!;
    expect(h).toEqual(SizeHistogram.parse(out.histogram));
    expect(h.target).toBe(tree);
    expect(h.files).toBe(4);
    expect(h.totalBytes).toBe(100 + 3000 + 5000 + 200_000);
    // Blocks by hand (recordsize 128K, 4K sectors): 100 → 4K, 3000 → 4K, 5000 → 8K, 200000 → 2 × 128K.
    expect(h.blockBins.filter((b) => b.count > 0).map((b) => [b.upperBytes, b.count, b.bytes])).toEqual([[4 * K, 2, 8 * K], [8 * K, 1, 8 * K], [128 * K, 2, 256 * K]]);
    expect(h.candidates.find((c) => c.specialSmallBlocks === 16 * K)!.smallBlockBytes).toBe(16 * K);
  });

  it('is what the server reads: a completed record of the local host, newest per directory', async () => {
    const { cli } = io();
    expect(await createSizesCommand(deps().d).run([tree, '--json', '--save', '--data-dir', dataDir], cli)).toBe(0);
    const opened = await openStore(dataDir);
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      const hosts = createHostsRepo(opened.store.db).list();
      expect(hosts.map((h) => [h.id, h.kind, h.name])).toEqual([['local', 'local', 'This machine']]);
      const repo = createEvidenceRepo(opened.store.db);
      const records = repo.listSizes('local');
      expect(records.map((r) => [r.id, r.status, r.path, r.dataset, r.recordsize, r.ashift])).toEqual([
        [2, 'completed', tree, null, 131072, 12], [1, 'completed', tree, null, 131072, 12],
      ]);
      expect(records[0]!.stats).toMatchObject({ files: 4 });
      // The server's assessment passes repo.newestHistograms(host) as SizeHistograms: one per directory.
      expect(repo.newestHistograms('local')).toHaveLength(1);
    } finally {
      opened.store.close();
    }
  });

  it('uses the server\'s existing local host, and creates one beside remote-only hosts', async () => {
    const dir = join(work, 'data-remote');
    const opened = await openStore(dir);
    if (!opened.ok) throw new Error(opened.error.message);
    const t = '2026-01-01T00:00:00.000Z';
    createHostsRepo(opened.store.db).insert({ id: 'nas', kind: 'truenas', name: 'NAS', address: 'nas.example', port: 443, node: null, verifyTls: true, pinnedFingerprint: null, hasSecret: true, createdAt: t, updatedAt: t });
    opened.store.close();
    const { cli } = io();
    expect(await createSizesCommand(deps().d).run([tree, '--save', '--data-dir', dir], cli)).toBe(0);
    const stored = await newestStoredHistograms(dir);
    expect(stored.ok && stored.hostId).toBe('local');
    const again = await openStore(dir);
    if (!again.ok) throw new Error(again.error.message);
    expect(createHostsRepo(again.store.db).list().map((h) => h.id).sort()).toEqual(['local', 'nas']);
    expect(createEvidenceRepo(again.store.db).listSizes('nas')).toEqual([]);
    again.store.close();
  });

  it('reads a data directory without a store as "nothing measured" and does not create one', async () => {
    const empty = join(work, 'no-store');
    expect(await newestStoredHistograms(empty)).toEqual({ ok: true, histograms: [], hostId: null });
    expect(existsSync(join(empty, DB_FILE_NAME))).toBe(false);
  });

  it('reports an unusable data directory as one line and exit 1', async () => {
    const blocker = join(work, 'a-file');
    writeFileSync(blocker, 'x');
    const { o, cli } = io();
    expect(await createSizesCommand(deps().d).run([tree, '--save', '--data-dir', join(blocker, 'sub')], cli)).toBe(1);
    expect(o.err).toMatch(/^zfs-advisor sizes: --save: .*a-file/);
    expect(o.err.trim().split('\n')).toHaveLength(1);
    const r = await saveMeasurements(join(blocker, 'sub'), []);
    expect(r.ok).toBe(false);
  });
});

describe('sizes --zdb', () => {
  it('runs zdb -Lbbbs POOL at low priority and shows both histograms with the binning note', async () => {
    const { o, cli } = io();
    const { d, calls } = deps();
    const code = await createSizesCommand(d).run([tree, '--zdb', '--pool', 'tank'], cli);
    expect(o.err).toBe('');
    expect(code).toBe(0);
    expect(calls.map((c) => [c.program, ...c.args].join(' '))).toEqual(['zfs version', 'nice -n 19 ionice -c 3 zdb -Lbbbs tank']);
    expect(o.out).toContain('Data blocks (uncompressed, as stored)');
    expect(o.out).toContain('zdb -Lbbbs tank: blocks by physical size (whole pool, psize)');
    // The 401M blocks of 128K psize (≤ 2.3 row 128K → upper edge 256K), straight from the fixture.
    expect(o.out).toMatch(/\n\s+256K\s+420478976\s+50\.2T\s/);
    expect(o.out).toContain('zdb: zdb ≤ 2.3 binning: row T holds [T, 2T)');
    expect(o.out).toContain('ran: nice -n 19 ionice -c 3 zdb -Lbbbs tank (exit 0, 1.5 s)');
  });

  it('--json carries the zdb histogram and the commands run; --save stores both', async () => {
    const dataDir = join(work, 'data-zdb');
    const { o, cli } = io();
    const code = await createSizesCommand(deps().d).run([tree, '--zdb', '--pool', 'tank', '--zfs-version', '2.4.0', '--json', '--save', '--data-dir', dataDir], cli);
    expect(code).toBe(0);
    const out = JSON.parse(o.out) as { zdb: SizeHistogram; zdbCommands: { command: string }[]; saved: { ids: number[] } };
    expect(out.zdb.method).toBe('zdb');
    expect(out.zdb.blockBins[0]).toMatchObject({ upperBytes: 512, count: 833 * K, bytes: 416 * M });
    expect(out.zdbCommands.map((c) => c.command)).toEqual(['nice -n 19 ionice -c 3 zdb -Lbbbs tank']);
    expect(out.saved.ids).toEqual([1, 2]);
    const stored = await newestStoredHistograms(dataDir);
    if (!stored.ok) throw new Error(stored.message);
    expect(stored.histograms.map((h) => [h.method, h.target, h.pool])).toEqual([['zdb', 'tank', 'tank'], ['walk', tree, 'tank']]);
  });

  it('refuses without root (exit 1, one line) and needs a pool for a directory not on ZFS (exit 64)', async () => {
    const noRoot = io();
    const a = deps({ isRoot: () => false });
    expect(await createSizesCommand(a.d).run([tree, '--zdb', '--pool', 'tank'], noRoot.cli)).toBe(1);
    expect(noRoot.o.err).toBe('zfs-advisor sizes: --zdb: zdb reads the pool\'s devices directly and must run as root — run again with sudo, or leave out --zdb\n');
    expect(a.calls.filter((c) => c.program === 'nice')).toEqual([]);

    const noPool = io();
    expect(await createSizesCommand(deps().d).run([tree, '--zdb'], noPool.cli)).toBe(64);
    expect(noPool.o.err).toContain('add --pool POOL');
    const both = io();
    expect(await createSizesCommand(deps().d).run([tree, '--zdb', '--zdb-file', 'x'], both.cli)).toBe(64);
  });

  it('refuses a hostile dataset argument before running anything', async () => {
    const { o, cli } = io();
    const { d, calls } = deps();
    expect(await createSizesCommand(d).run(['tank/../../etc', '--json'], cli)).toBe(2);
    expect(o.err).toMatch(/^zfs-advisor sizes: "tank\/\.\.\/\.\.\/etc" is not a valid ZFS dataset name \(contains a "\.\." component\)/);
    expect(calls).toEqual([]);
  });
});

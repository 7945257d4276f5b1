/**
 * The bundle is relocatable (issue 26): a tree is laid out as the .deb installs it, built there,
 * then moved to another path; from there every command runs — the bundled CLI (`dist/cli.mjs`),
 * the `zfs-advisor` entry that picks it, and the server with its worker threads and UI — and
 * nothing in the bundle names the path it was built at. `capture`, `inventory` and `assess` read a
 * real (zfs-fuse) pool, the way the issue found `capture` failing on a moved tree.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';

const REPO = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'zfsa-relocate-'));
const BUILT = join(work, 'built-here', 'zfs-advisor');
const MOVED = join(work, 'moved', 'elsewhere', 'zfs-advisor');
const data = join(work, 'data');

interface Ran { code: number | null; out: string; err: string }

function run(file: string, args: string[], opts: { until?: RegExp; env?: NodeJS.ProcessEnv } = {}): Promise<Ran & { kill: () => void }> {
  return new Promise((resolve, reject) => {
    // cwd outside both trees: nothing may resolve against the working directory either.
    const p = spawn(process.execPath, [file, ...args], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ZFS_ADVISOR_DATA_DIR: data, ...opts.env } });
    let out = '';
    let err = '';
    const kill = () => p.kill('SIGTERM');
    p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; if (opts.until?.test(out)) resolve({ code: null, out, err, kill }); });
    p.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out, err, kill }));
  });
}

/** Every file below `dir`, for the search of the build path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('a relocated build', () => {
  const live = zfsFuseAvailable();
  let zf: ZfsFuseHandle | undefined;

  beforeAll(async () => {
    // The .deb's layout (plugin/debian/build-deb.sh): the sources, the rules, the knowledge pages,
    // the built UI, the build script; node_modules linked (its packages are found through it).
    mkdirSync(BUILT, { recursive: true });
    for (const f of ['server', 'rules', 'package.json', 'package-lock.json', 'tsconfig.json', 'docs/kb', 'ui/dist', 'scripts/build-server.mjs']) {
      cpSync(join(REPO, f), join(BUILT, f), { recursive: true, preserveTimestamps: true, filter: (src) => !src.endsWith('.test.ts') });
    }
    symlinkSync(join(REPO, 'node_modules'), join(BUILT, 'node_modules'));
    const built = await run(join(BUILT, 'scripts', 'build-server.mjs'), []);
    expect(built.code, built.err).toBe(0);
    mkdirSync(join(MOVED, '..'), { recursive: true });
    renameSync(BUILT, MOVED);
    if (live) zf = await startZfsFuse();
  }, 600_000);

  afterAll(async () => {
    await zf?.stop();
    rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it('names no path of the tree it was built in', () => {
    const hits = filesUnder(join(MOVED, 'dist')).filter((f) => readFileSync(f, 'latin1').includes(BUILT));
    expect(hits).toEqual([]);
  });

  it('runs every command from the moved tree', async () => {
    const cli = join(MOVED, 'dist', 'cli.mjs');
    const ok = async (args: string[], expectOut?: RegExp) => {
      const r = await run(cli, args);
      expect(r.err, args.join(' ')).not.toMatch(/ENOENT|built-here/);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
      if (expectOut) expect(r.out, args.join(' ')).toMatch(expectOut);
      return r;
    };
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    await ok(['--version'], new RegExp(version.replaceAll('.', '\\.')));
    await ok(['--help'], /Usage|USAGE|usage/);
    const info = JSON.parse((await ok(['info', '--json'])).out) as { knowledgePages: string; sourceCheckout: boolean };
    expect(info.knowledgePages).toBe(join(MOVED, 'docs', 'kb'));
    expect(info.sourceCheckout).toBe(false);
    await ok(['inventory', '--demo', '--json'], /"pools"/);
    await ok(['assess', '--demo', '--json'], /"findings"/);
    await ok(['optane', '--demo'], /./);
    await ok(['forecast', '--demo', '--pool', 'bench-pool', '--slog-model', 'P1600X'], /./);
    await ok(['plan', 'layouts', '--disks', '6', '--size', '8T'], /raidz2/i);
    await ok(['plan', 'add-slog', '--demo', '--devices', 'nvd1'], /./);
    await ok(['plan', 'add-special', '--demo', '--devices', '/dev/disk/by-id/nvme-a,/dev/disk/by-id/nvme-b', '--special-small-blocks', '16K'], /./);
    await ok(['parse', 'zpool-status', join(REPO, 'tests', 'fixtures', 'zfs', 'status', readdirSync(join(REPO, 'tests', 'fixtures', 'zfs', 'status')).find((f) => f.endsWith('.txt'))!)], /./);
    await ok(['report', '--demo', '--format', 'md'], /^# /m);
    const pdf = join(work, 'r.pdf');
    await ok(['report', '--demo', '--format', 'pdf', '-o', pdf]);
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await ok(['sizes', join(MOVED, 'docs'), '--json'], /"files"|"count"|bytes/);
    await ok(['bench', '--list'], /sync-write-4k-qd1/);
    await ok(['bench', 'suite', 'quick', '--path', work, '--dry-run'], /./);
    await ok(['man'], /\.TH/);
    await ok(['completion', 'bash'], /complete/);
    // The `zfs-advisor` entry picks the fresh bundle of its own tree.
    const viaBin = await run(join(MOVED, 'server', 'bin', 'zfs-advisor.js'), ['info', '--json']);
    expect(viaBin.code, viaBin.err).toBe(0);
    expect((JSON.parse(viaBin.out) as { knowledgePages: string }).knowledgePages).toBe(join(MOVED, 'docs', 'kb'));
  }, 300_000);

  it.runIf(live)('captures, inventories and assesses a real pool from the moved tree', async () => {
    const a = await zf!.fileVdev('reloc-a');
    const b = await zf!.fileVdev('reloc-b');
    await zf!.createPool('hx_reloc', ['mirror', a, b]);
    const cli = join(MOVED, 'dist', 'cli.mjs');
    const snap = join(work, 'snap');
    const cap = await run(cli, ['capture', snap]);
    expect(cap.code, cap.err).toBe(0);
    expect((JSON.parse(readFileSync(join(snap, 'meta.json'), 'utf8')) as { appVersion?: string; version?: string })).toBeTruthy();
    const inv = await run(cli, ['inventory', '--json']);
    expect(inv.code, inv.err).toBe(0);
    expect(inv.out).toContain('hx_reloc');
    const assessed = await run(cli, ['assess', '--snapshot', snap, '--json']);
    expect(assessed.code, assessed.err).toBe(0);
    expect(assessed.out).toContain('hx_reloc');
  }, 300_000);

  it('serves the API, the UI and a first assessment (worker thread) from the moved tree', async () => {
    // --open-loopback: this test is about where files are found; the login flow has its own tests (tests/security).
    const s = await run(join(MOVED, 'dist', 'server.mjs'), ['serve', '--port', '0', '--demo', '--open-loopback', '--data-dir', join(work, 'serve-data')], { until: /running at (http:\/\/\S+)/ });
    try {
      const url = /running at (http:\/\/\S+)/.exec(s.out)![1]!;
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app"');
      const hosts = (await (await fetch(new URL('api/hosts', url))).json()) as { id: string; kind: string }[];
      const demo = hosts.find((h) => h.kind === 'demo')!;
      let status = 0;
      for (let i = 0; i < 120 && status !== 200; i++) {
        status = (await fetch(new URL(`api/hosts/${demo.id}/assessments/latest`, url))).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 500));
      }
      expect(status).toBe(200);
      expect(existsSync(join(work, 'serve-data', 'zfs-advisor.db'))).toBe(true);
    } finally {
      s.kill();
    }
  }, 120_000);
});

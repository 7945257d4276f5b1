/**
 * `zfs-advisor bench` contract: --dry-run prints every command and guard and writes nothing;
 * usage errors exit 64; an unreadable store exits 2 with one line; --list; a real run and
 * --history through the CLI entry point.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { fioAvailable, tmpDir } from './support.ts';
import { removeTempDirs } from './support.ts';

function io(): CliIO & { out: string; err: string } {
  const o = { out: '', err: '', isTTY: false, stdout(s: string) { o.out += s; }, stderr(s: string) { o.err += s; }, stdin: async () => '' };
  return o;
}

afterAll(() => removeTempDirs(), 60_000);
const live = fioAvailable();

describe('zfs-advisor bench', () => {
  it('lists the profiles as JSON', async () => {
    const x = io();
    expect(await main(['bench', '--list', '--json'], x)).toBe(0);
    expect((JSON.parse(x.out) as { id: string }[]).map((p) => p.id)).toContain('mixed-70-30-4k');
  });

  it('rejects bad usage with exit 64', async () => {
    for (const args of [
      ['bench', 'sync-write-4k-qd1'],
      ['bench', 'sync-write-4k-qd1', '--pool', 'a', '--path', '/tmp'],
      ['bench', 'no-such-profile', '--path', '/tmp'],
      ['bench', 'sync-write-4k-qd1', '--device', '/dev/sdz'],
      ['bench', 'sync-write-4k-qd1', '--path', '/tmp', '--size', 'lots'],
    ]) {
      const x = io();
      expect(await main(args, x), args.join(' ')).toBe(64);
      expect(x.out).toBe('');
    }
  });

  it.runIf(live)('--dry-run shows every guard and command and writes nothing', async () => {
    const target = tmpDir();
    const dataDir = join(tmpDir(), 'never-created');
    const x = io();
    expect(await main(['bench', 'sync-write-4k-qd16', '--path', target, '--size', '16M', '--dry-run', '--json', '--data-dir', dataDir], x)).toBe(0);
    const r = JSON.parse(x.out) as { guards: { id: string; ok: boolean }[]; commands: string[][]; wouldRun: boolean; syncMode: string };
    expect(r.wouldRun).toBe(typeof r.guards.find((g) => !g.ok) === 'undefined');
    expect(r.guards.map((g) => g.id)).toEqual(expect.arrayContaining(['names', 'lock', 'load', 'wall-cap', 'path-exists', 'path-symlink', 'free-space']));
    expect(r.commands.map((c) => c[0])).toEqual(['mkdir', 'fio', 'fio', 'rm']);
    expect(r.commands[2]).toEqual(expect.arrayContaining(['--sync=1', '--iodepth=16', '--size=16777216']));
    expect(r.syncMode).toBe('fio-sync');
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('reports an unreadable store in one line with exit 2', async () => {
    const dataDir = tmpDir();
    writeFileSync(join(dataDir, 'zfs-advisor.db'), 'this is not a database, just text that fills a page '.repeat(100));
    const x = io();
    expect(await main(['bench', '--history', '--data-dir', dataDir], x)).toBe(2);
    expect(x.err.trim().split('\n')).toHaveLength(1);
    expect(x.err).toContain(join(dataDir, 'zfs-advisor.db'));
  });

  it.runIf(live)('runs a benchmark and shows it in --history', async () => {
    const target = tmpDir();
    const dataDir = join(tmpDir(), 'data');
    mkdirSync(dataDir);
    const x = io();
    const code = await main(['bench', 'seq-write-1m', '--path', target, '--size', '8M', '--runtime', '1', '--json', '--max-load', '1000000', '--data-dir', dataDir], x);
    const run = JSON.parse(x.out) as { summary: { id: string; status: string; writeIops: number } };
    expect(code).toBe(0);
    expect(run.summary.status).toBe('completed');
    expect(x.err).toMatch(/"progress":\{"phase":"run"/);
    const h = io();
    expect(await main(['bench', '--history', '--json', '--data-dir', dataDir], h)).toBe(0);
    expect((JSON.parse(h.out) as { id: string; status: string }[])[0]).toMatchObject({ id: run.summary.id, status: 'completed' });
    expect(readdirSync(target)).toEqual([]);
  }, 60_000);
});

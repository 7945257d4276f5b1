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
import { SUITE_NAMES } from '../../server/src/cli/defs/bench-suite.ts';
import { removeTempDirs } from './support.ts';

function io(): CliIO & { out: string; err: string } {
  const o = { out: '', err: '', isTTY: false, stdout(s: string) { o.out += s; }, stderr(s: string) { o.err += s; }, stdin: async () => '' };
  return o;
}

afterAll(() => removeTempDirs(), 60_000);
const live = fioAvailable();

describe('zfs-advisor bench', () => {
  it('lists the profiles and suites as JSON with --json, as tables without', async () => {
    const x = io();
    expect(await main(['bench', '--list', '--json'], x)).toBe(0);
    const j = JSON.parse(x.out) as { profiles: { id: string }[]; suites: { id: string }[] };
    expect(j.profiles.map((p) => p.id)).toContain('mixed-70-30-4k');
    expect(j.suites.map((p) => p.id)).toEqual([...SUITE_NAMES]); // the CLI definition names the same suites
    const t = io(); // not a terminal, and still a table: JSON only when asked
    expect(await main(['bench', '--list'], t)).toBe(0);
    expect(t.out).toMatch(/^profiles \(bench PROFILE …\):\nprofile +rw +bs +QD +sync +question\n-+/);
    expect(t.out).toMatch(/\nsuites \(bench suite NAME …\):\nsuite +runs/);
    expect(t.out).toMatch(/\nquick +sync-write-4k-qd1, sync-write-4k-qd16, async-write-4k, seq-write-1m × profile defaults +5\.0 s +3\.0 s +2 min 00 s/);
    expect(() => JSON.parse(t.out)).toThrow();
  });

  it('bench suite: usage errors exit 64 and name the problem', async () => {
    for (const [args, re] of [
      [['bench', 'suite', '--path', '/tmp'], /give a suite name or --profiles/],
      [['bench', 'suite', 'quick'], /exactly one of --pool, --path/],
      [['bench', 'suite', 'quick', '--path', '/tmp', '--zvol'], /--zvol needs --pool/],
      [['bench', 'suite', 'quick', '--path', '/tmp', '--matrix', 'qd=none'], /matrix qd/],
      [['bench', 'suite', 'quick', '--path', '/tmp', '--pause', 'soon'], /--pause/],
      [['bench', 'suite', 'quick', '--path', '/tmp', '--max-total', '1s'], /--max-total/],
      [['bench', 'suite', 'quick', 'slog', '--path', '/tmp'], /give one suite name/],
    ] as [string[], RegExp][]) {
      const x = io();
      expect(await main(args, x), args.join(' ')).toBe(64);
      expect(x.err).toMatch(re);
      expect(x.out).toBe('');
    }
  });

  it.runIf(live)('bench suite --dry-run: the plan shape with --json, a table without; nothing written', async () => {
    const target = tmpDir();
    const dataDir = join(tmpDir(), 'never-created');
    const x = io();
    expect(await main(['bench', 'suite', 'sync-vs-async', 'bs=4k,1m', '--path', target, '--runtime', '2s', '--pause', '1s', '--dry-run', '--json', '--data-dir', dataDir], x)).toBe(0);
    const plan = JSON.parse(x.out) as { suite: string; runs: { bs: number; sync: string; commands: string[][] }[]; estimatedSeconds: number };
    expect(Object.keys(plan)).toEqual(['suite', 'runs', 'estimatedSeconds']);
    expect(plan.suite).toBe('sync-vs-async');
    expect(plan.runs.map((r) => `${r.bs}/${r.sync}`)).toEqual(['4096/always', '4096/standard', '1048576/always', '1048576/standard']);
    const h = io();
    expect(await main(['bench', 'suite', 'slog', '--path', target, '--dry-run', '--data-dir', dataDir], h)).toBe(0);
    expect(h.out).toMatch(/^suite slog: SLOG/);
    expect(h.out).toMatch(/#\s+profile\s+bs\s+QD\s+io\s+sync\s+target\s+est\./);
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(dataDir)).toBe(false);
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
    expect(r.commands[2]).toEqual(expect.arrayContaining(['--sync=1', '--ioengine=psync', '--numjobs=16', '--iodepth=1', '--group_reporting=1', '--size=16777216']));
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
    const code = await main(['bench', 'seq-write-1m', '--path', target, '--size', '8M', '--runtime', '1', '--json', '--max-load', '1000', '--data-dir', dataDir], x);
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

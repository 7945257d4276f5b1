/**
 * The CLI framework's promises, for every command the definitions declare (so a command added
 * later is covered without touching this file): `--help`/`-h` on every command and subcommand
 * (exit 0, usage, options, an example), and every usage error in the one format
 * `zfs-advisor CMD: what is wrong — what to do` with exit 64.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIO, CommandDef } from '../../server/src/cli/command.ts';
import { COMMANDS } from '../../server/src/cli/defs/index.ts';
import { main } from '../../server/src/cli/main.ts';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, stdin: async () => '', isTTY: false };
  const code = await main(args, io);
  return { code, out, err };
}

function all(defs: readonly CommandDef[], prefix: string[] = []): { path: string[]; def: CommandDef }[] {
  return defs.flatMap((d) => [{ path: [...prefix, d.name], def: d }, ...all(d.subcommands ?? [], [...prefix, d.name])]);
}
const commands = all(COMMANDS);
/** Commands that run (not only group subcommands). */
const runnable = commands.filter((c) => c.def.handler);

/** One line: `zfs-advisor PATH: what — todo`. */
const oneLine = (path: string[]) => new RegExp(`^zfs-advisor ${path.join(' ')}: [^\\n]+ — [^\\n]+\\n$`);

const tmp = mkdtempSync(join(tmpdir(), 'zfsa-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('--help on every command and subcommand', () => {
  it('covers every command the definitions declare', () => {
    expect(commands.map((c) => c.path.join(' '))).toEqual(expect.arrayContaining(['sizes', 'plan', 'plan layouts', 'plan add-slog', 'bench', 'observe', 'serve']));
  });

  for (const { path, def } of commands) {
    it(`zfs-advisor ${path.join(' ')} --help / -h / help`, async () => {
      for (const args of [[...path, '--help'], [...path, '-h'], ['help', ...path]]) {
        const r = await cli(args);
        expect(r.code, args.join(' ')).toBe(0);
        expect(r.err).toBe('');
        expect(r.out).toMatch(new RegExp(`^zfs-advisor ${path.join(' ')} — \\S`));
        expect(r.out).toMatch(new RegExp(`\\nUsage:\\n  zfs-advisor ${path.join(' ')}\\b`));
        expect(r.out).toContain('\nOptions:\n');
        expect(r.out).toContain('-h, --help');
        expect(r.out).toMatch(/\nExamples?:\n {2}\$ \S/);
        for (const o of def.options) expect(r.out).toContain(`--${o.name}`);
      }
      expect(def.examples.length).toBeGreaterThan(0);
    });
  }

  it('the top-level help lists every command; --version prints the version', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const d of COMMANDS) expect(r.out).toContain(`\n  ${d.name} `);
    expect((await cli(['--version'])).out).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });
});

describe('usage errors: one line, the common format, exit 64', () => {
  it('no command, an unknown command or option at the top level', async () => {
    for (const args of [[], ['explode'], ['--frobnicate'], ['help', 'explode']]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.err, args.join(' ')).toMatch(/^zfs-advisor( help)?: [^\n]+ — [^\n]+\n$/);
    }
  });

  for (const { path, def } of runnable) {
    it(`zfs-advisor ${path.join(' ')}: unknown options, missing and malformed values`, async () => {
      const cases: string[][] = [[...path, '--no-such-option']];
      for (const o of def.options) {
        if (o.type === 'flag') { cases.push([...path, `--${o.name}=yes`]); continue; }
        if (!o.optionalValue) cases.push([...path, `--${o.name}`]);
        if (o.type !== 'string' && o.type !== 'path' && !o.optionalValue) cases.push([...path, `--${o.name}`, 'banana']);
        if (!o.multiple) {
          const v = o.example ?? o.choices?.[0] ?? '1';
          cases.push([...path, `--${o.name}=${v}`, `--${o.name}=${v}`]);
        }
      }
      for (const args of cases) {
        const r = await cli(args);
        expect(r.code, args.join(' ')).toBe(64);
        expect(r.out, args.join(' ')).toBe('');
        expect(r.err, args.join(' ')).toMatch(oneLine(path));
      }
    });
  }

  it('group commands: a missing or unknown subcommand', async () => {
    for (const { path } of commands.filter((c) => !c.def.handler)) {
      for (const args of [path, [...path, 'explode']]) {
        const r = await cli(args);
        expect(r.code, args.join(' ')).toBe(64);
        expect(r.err, args.join(' ')).toMatch(oneLine(path));
      }
    }
  });

  it('a bad value says what kind of value, with the unit and an example', async () => {
    const r = await cli(['plan', 'layouts', '--size', 'banana']);
    expect(r.code).toBe(64);
    expect(r.err).toBe('zfs-advisor plan layouts: --size "banana" is not a disk size (bytes per disk) — give the size of one disk as sold (T = 10^12 bytes, TiB = 2^40), e.g. --size 4T\n');
    const rs = await cli(['sizes', tmp, '--recordsize', '12Q']);
    expect(rs.err).toMatch(/^zfs-advisor sizes: --recordsize "12Q" is not a size \(bytes, a power of two ≥ 512\) — .*e\.g\. --recordsize 128K\n$/);
    const ashift = await cli(['sizes', tmp, '--ashift', '20']);
    expect(ashift.err).toBe('zfs-advisor sizes: --ashift "20" is not a whole number from 9 to 16 — give a whole number, e.g. --ashift 12\n');
    const missing = await cli(['plan', 'layouts', '--disks', '4']);
    expect(missing.err).toMatch(/^zfs-advisor plan layouts: --size is missing — give the size of one disk with a unit, e\.g\. --size 4T/);
    const pos = await cli(['parse']);
    expect(pos.err).toBe('zfs-advisor parse: KIND is missing — give which command produced the output; see zfs-advisor parse --help\n');
    const choice = await cli(['parse', 'zpool-stat']);
    expect(choice.err).toMatch(/^zfs-advisor parse: KIND "zpool-stat" is not one of the choices — give one of zpool-status, /);
  });
});

describe('errors around the command line', () => {
  it('a busy port names the port and --port (exit 1)', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await cli(['serve', '--port', String(port), '--data-dir', join(tmp, 'data'), '--no-demo']);
      expect(r.code).toBe(1);
      expect(r.err).toBe(`zfs-advisor serve: port ${port} on 127.0.0.1 is already in use by another program — stop that program, or choose another port with --port, e.g. --port ${port + 1}\n`);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('JSON only with --json: bench --list is text by default', async () => {
    const text = await cli(['bench', '--list']);
    expect(text.code).toBe(0);
    expect(() => JSON.parse(text.out)).toThrow();
    expect(text.out).toMatch(/^\S+ +\S/);
    const json = await cli(['bench', '--list', '--json']);
    expect(Array.isArray((JSON.parse(json.out) as { profiles: unknown }).profiles)).toBe(true); // { profiles, suites }
  });
});

describe('commands that need ZFS on a host without it', () => {
  it('say so in one line (exit 1), without raw command output', async () => {
    const { describeProbe } = await import('../../server/src/cli/framework/zfs-probe.ts');
    const base = { program: 'zpool', args: ['list'], signal: null, stdout: '', durationMs: 1 };
    expect(describeProbe({ ...base, exitCode: null, stderr: '', error: { code: 'not-found', message: 'spawn zpool ENOENT' } })).toEqual({ ok: false, why: 'this host has none (no zpool command)' });
    expect(describeProbe({ ...base, exitCode: 1, stderr: 'connect: No such file or directory\nPlease make sure that the zfs-fuse daemon is running.\n', error: null }))
      .toEqual({ ok: false, why: 'it does not answer (zpool list exit 1: connect: No such file or directory)' });
    expect(describeProbe({ ...base, exitCode: 0, stderr: '', error: null })).toEqual({ ok: true });
  });

  it('observe on this machine: one line when zpool does not answer, never "Observed 0 s"', async () => {
    const { probeZfs } = await import('../../server/src/cli/framework/zfs-probe.ts');
    const probe = await probeZfs();
    const r = await cli(['observe', '--duration', '1s', '--no-save']);
    if (probe.ok) {
      expect(r.err).not.toMatch(/^connect:/m);
    } else {
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toBe(`zfs-advisor observe: observe needs ZFS on this host, and ${probe.why} — run it on the ZFS host (or in its container with the pool devices)\n`);
    }
  }, 60_000);
});

describe('definitions match the lists they name', () => {
  it('choices in the definitions are the ones the code accepts', async () => {
    const { DEMO_NAMES } = await import('../../server/src/cli/defs/shared.ts');
    const { DEMO_SNAPSHOTS } = await import('../../server/src/gather/load.ts');
    expect(DEMO_NAMES).toEqual(DEMO_SNAPSHOTS);
    const { PARSE_KIND_NAMES } = await import('../../server/src/cli/defs/parse.ts');
    const { PARSE_KINDS } = await import('../../server/src/cli/commands/parse.ts');
    expect([...PARSE_KIND_NAMES].sort()).toEqual(Object.keys(PARSE_KINDS).sort());
    const { REPORT_FORMAT_NAMES } = await import('../../server/src/cli/defs/report.ts');
    const { REPORT_FORMATS } = await import('../../server/src/report/render.ts');
    expect(REPORT_FORMAT_NAMES).toEqual(REPORT_FORMATS);
    const { MEDIA_KINDS, WORKLOADS } = await import('../../server/src/cli/defs/plan-layouts.ts');
    expect(MEDIA_KINDS).toEqual((await import('../../server/src/planner/performance.ts')).MediaKind);
    expect(WORKLOADS).toEqual((await import('../../server/src/planner/layouts.ts')).Workload.options);
    const { PLATFORMS } = await import('../../server/src/cli/defs/plan-add-vdev.ts');
    expect(PLATFORMS).toEqual((await import('../../server/src/model/inventory.ts')).Platform.options);
  });
});

describe('forecast block sizes', () => {
  it('the definition lists exactly the block sizes the forecast maps', async () => {
    const { FORECAST_BLOCK_SIZES } = await import('../../server/src/cli/defs/forecast.ts');
    const { BLOCK_SIZES } = await import('../../server/src/forecast/request.ts');
    expect([...FORECAST_BLOCK_SIZES].sort()).toEqual(Object.keys(BLOCK_SIZES).sort());
  });
});

/**
 * The manual page and the shell completions come from the same definitions as --help: every
 * command, subcommand and option appears; the page renders without a single groff/man warning
 * (lintian treats them as errors); the bash completion completes commands, options and choices.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandDef } from '../../server/src/cli/command.ts';
import { COMMANDS } from '../../server/src/cli/defs/index.ts';
import { bashCompletion, zshCompletion } from '../../server/src/cli/framework/completion.ts';
import { manPage } from '../../server/src/cli/framework/man.ts';

const dir = mkdtempSync(join(tmpdir(), 'zfsa-man-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CI = process.env.CI === 'true';

function all(defs: readonly CommandDef[], prefix: string[] = []): { path: string[]; def: CommandDef }[] {
  return defs.flatMap((d) => [{ path: [...prefix, d.name], def: d }, ...all(d.subcommands ?? [], [...prefix, d.name])]);
}
const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

describe('man page zfs-advisor(1)', () => {
  const page = manPage('9.9.9', '2026-01-02');
  const file = join(dir, 'zfs-advisor.1');
  writeFileSync(file, page);

  it('has the sections man and lintian look for, and every command and option', () => {
    expect(page).toMatch(/^\.TH ZFS\\-ADVISOR 1 "2026-01-02" "zfs\\-advisor 9\.9\.9"/m);
    expect(page).toMatch(/^\.SH NAME\nzfs\\-advisor \\- \S/m);
    for (const s of ['SYNOPSIS', 'DESCRIPTION', 'COMMANDS', 'EXIT STATUS', 'SEE ALSO']) expect(page).toContain(`\n.SH ${s}\n`);
    for (const { path, def } of all(COMMANDS)) {
      expect(page).toContain(`.SS zfs\\-advisor ${path.join(' ').replace(/-/g, '\\-')}\n`);
      for (const o of def.options) expect(page).toContain(`\\-\\-${o.name.replace(/-/g, '\\-')}`);
    }
    expect(page).not.toMatch(/[^ -~\n]/);
  });

  it.runIf(CI || has('groff'))('renders with no groff warning (-ww)', () => {
    const r = spawnSync('groff', ['-man', '-ww', '-z', '-Tutf8', file], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });

  it.runIf(CI || has('man'))('man -l shows it with no warning', () => {
    const r = spawnSync('man', ['--warnings', '-l', file], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8', MANWIDTH: '80' } });
    r.stdout = r.stdout.split('\b').map((part, i, all) => (i < all.length - 1 ? part.slice(0, -1) : part)).join(''); // overstrike bold/underline when not a terminal
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/zfs-advisor\s+-\s+look\s+at\s+a\s+ZFS\s+system/);
    expect(r.stdout).toContain('zfs-advisor plan layouts');
  });
});

describe('bash completion', () => {
  const file = join(dir, 'zfs-advisor.bash');
  writeFileSync(file, bashCompletion());
  const complete = (...words: string[]): string => {
    const script = `source ${JSON.stringify(file)}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _zfs_advisor; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    return r.stdout.trim();
  };

  it('is valid bash', () => {
    expect(spawnSync('bash', ['-n', file]).status).toBe(0);
  });

  it('completes commands, subcommands, options, choices of options and positionals', () => {
    expect(complete('zfs-advisor', 'pl')).toBe('plan');
    expect(complete('zfs-advisor', 'plan', '')).toBe('layouts\nadd-slog\nadd-special');
    expect(complete('zfs-advisor', 'plan', 'layouts', '--ty')).toBe('--type');
    expect(complete('zfs-advisor', 'plan', 'layouts', '--type', '')).toBe('hdd\nssd\nnvme');
    expect(complete('zfs-advisor', 'sizes', '--ash')).toBe('--ashift');
    expect(complete('zfs-advisor', 'parse', 'zpool-s')).toBe('zpool-status');
    expect(complete('zfs-advisor', 'report', '--format', '')).toBe('md\nhtml\njson\npdf');
    for (const { path, def } of all(COMMANDS)) {
      const opts = complete('zfs-advisor', ...path, '--').split('\n');
      for (const o of def.options) expect(opts, path.join(' ')).toContain(`--${o.name}`);
    }
  });
});

describe('zsh completion', () => {
  const file = join(dir, '_zfs-advisor');
  writeFileSync(file, zshCompletion());
  it('names every command and option', () => {
    const text = zshCompletion();
    expect(text.startsWith('#compdef zfs-advisor\n')).toBe(true);
    for (const { def } of all(COMMANDS)) for (const o of def.options) expect(text).toContain(`--${o.name}`);
  });
  it.runIf(CI || has('zsh'))('is valid zsh (zsh -n)', () => {
    const r = spawnSync('zsh', ['-n', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

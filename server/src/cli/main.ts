/**
 * `zfs-advisor` entry point. Finds the command (and subcommand) in the definitions (defs/index.ts),
 * answers `--help`/`-h` from the definition, parses and checks the arguments, then loads the
 * handler — so `--version` and `--help` load no handler code at all.
 * Contract: human output on stdout by default, JSON with `--json`; errors are one line on stderr
 * `zfs-advisor CMD: what is wrong — what to do`, exit 64 usage, 2 unreadable input, 1 refused/failed.
 */
import type { CliIO, CommandDef } from './command.ts';
import { EXIT } from './command.ts';
import { COMMANDS } from './defs/index.ts';
import { renderCommandList, renderHelp } from './framework/help.ts';
import { runDefinition } from './framework/run.ts';
import { HANDLERS } from './handlers.ts';

const defaultIO: CliIO = {
  stdout: (s) => { process.stdout.write(s); },
  stderr: (s) => { process.stderr.write(s); },
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  isTTY: Boolean(process.stdout.isTTY),
};

async function version(): Promise<string> {
  return (await import('../version.ts')).APP_VERSION;
}

/** Walks `args` down the subcommands: the command reached, its path and the remaining arguments. */
export function resolveCommand(args: readonly string[], defs: readonly CommandDef[] = COMMANDS): { def: CommandDef; path: string; rest: string[] } | null {
  const def = defs.find((d) => d.name === args[0]);
  if (!def) return null;
  let cur = def;
  let path = def.name;
  let i = 1;
  for (;;) {
    const sub = cur.subcommands?.find((s) => s.name === args[i]);
    if (!sub) break;
    cur = sub;
    path = `${path} ${sub.name}`;
    i++;
  }
  return { def: cur, path, rest: args.slice(i) };
}

export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') { io.stdout(`${await version()}\n`); return EXIT.ok; }
  if (name === undefined) {
    io.stderr('zfs-advisor: no command given — run zfs-advisor --help for the list of commands\n');
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const target = rest.length ? resolveCommand(rest) : null;
    if (rest.length && !target) {
      io.stderr(`zfs-advisor help: unknown command "${rest[0]}" — run zfs-advisor --help for the list of commands\n`);
      return EXIT.usage;
    }
    io.stdout(target ? renderHelp(target.def, `zfs-advisor ${target.path}`) : renderCommandList(COMMANDS, await version()));
    return EXIT.ok;
  }
  const found = resolveCommand(argv);
  if (!found) {
    const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`;
    io.stderr(`zfs-advisor: ${what} — run zfs-advisor --help for the list of commands\n`);
    return EXIT.usage;
  }
  const id = found.def.handler;
  return runDefinition(found.def, found.path, found.rest, io, id ? async () => (await HANDLERS[id]()).run : undefined);
}

/**
 * Runs one resolved command: `--help` from its definition, parsing, the handler (loaded only
 * now), and the error contract (framework/errors.ts).
 */
import type { Args, CliIO, CommandDef, Handler, OptionDef } from '../command.ts';
import { EXIT } from '../command.ts';
import { CliError, firstLine, formatError, usageError } from './errors.ts';
import { renderHelp } from './help.ts';
import { parseCommandLine, wantsHelp } from './parse.ts';

/**
 * `load` gives the handler, called only after the arguments parsed (main.ts passes the one
 * handlers.ts has for `def.handler`; tests bind their own): this module imports no handler.
 */
export async function runDefinition(def: CommandDef, path: string, args: readonly string[], io: CliIO, load?: () => Promise<Handler<readonly OptionDef[]>>): Promise<number> {
  if (wantsHelp(args)) { io.stdout(renderHelp(def, `zfs-advisor ${path}`)); return EXIT.ok; }
  try {
    if (!load) {
      const subs = (def.subcommands ?? []).map((s) => s.name).join(', ');
      if (args.length === 0) throw usageError('a subcommand is missing', `give one of ${subs}; see zfs-advisor ${path} --help`);
      throw usageError(`unknown subcommand "${args[0]}"`, `give one of ${subs}; see zfs-advisor ${path} --help`);
    }
    const parsed = parseCommandLine(def, path, args);
    const run = await load();
    return await run({ ...parsed, commandPath: path } as Args<readonly OptionDef[]>, io);
  } catch (err) {
    if (err instanceof CliError) { io.stderr(formatError(path, err)); return err.exitCode; }
    // Last line of defence: one line, no stack trace.
    io.stderr(`zfs-advisor ${path}: ${firstLine(err)} — this was not expected; run again, and report it if it repeats\n`);
    return EXIT.failure;
  }
}

/** A command as an object with `run(args, io)`, for tests that inject a handler built with other dependencies. */
export function bindCommand<O extends readonly OptionDef[]>(def: CommandDef, path: string, handler: Handler<O>): { run(args: string[], io: CliIO): Promise<number> } {
  return { run: (args, io) => runDefinition(def, path, args, io, async () => handler as unknown as Handler<readonly OptionDef[]>) };
}


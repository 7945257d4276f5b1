/**
 * The CLI's one way of declaring a command. Each command (and subcommand) is declared ONCE, as
 * plain data in `server/src/cli/defs/NAME.ts`; from that declaration the framework derives
 * argument parsing and value checks (cli/framework/parse.ts), `--help`/`-h` (framework/help.ts),
 * the man page (framework/man.ts) and the bash/zsh completions (framework/completion.ts).
 *
 * Conventions (read before adding a command or an option):
 * - one small file per command in `defs/` holding only data and the name of its handler
 *   (`handler: 'info'`), which `handlers.ts` loads from `commands/` when the command runs — a
 *   definition imports no handler (imports run one way), so `--help` and `--version` stay fast;
 * - register the definition in `defs/index.ts` (the order is the order of `zfs-advisor --help`);
 * - every option says its value type (`size`, `duration`, `integer`, `choice`…), and, when it has
 *   one, the unit and an example value: the parser then rejects a bad value with a message naming
 *   the unit and the example (`--size "banana" is not a size — give bytes with a unit, e.g. --size 4T`);
 * - at least one example per command; examples are shown by `--help` and in the man page;
 * - a definition file exports its options as `export const options = [...] as const satisfies
 *   readonly OptionDef[]`; the handler is typed `Handler<typeof options>` and receives typed values;
 * - handlers write human text by default and JSON only
 *   with `--json`, and report problems by throwing `usageError`/`inputError`/`refusal`
 *   (framework/errors.ts): one line `zfs-advisor CMD: what is wrong — what to do`, exit 64/2/1.
 */

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  stdin(): Promise<string>;
  isTTY: boolean;
}

/** Exit codes of the CLI contract. */
export const EXIT = { ok: 0, failure: 1, badInput: 2, usage: 64 } as const;

/**
 * How an option's value is read and checked:
 * - `flag`: no value; `string`/`path`: any text (a path is completed as a file name);
 * - `integer`/`number`: with optional `min`/`max`;
 * - `size`: bytes with a binary unit as ZFS writes them (128K = 131072, 1G = 2^30);
 * - `disk-size`: a drive size as sold (16T = 16·10^12 bytes; 14.5TiB binary);
 * - `duration`: seconds, with s/m/h (10m = 600);
 * - `choice`: one of `choices`; `time`: an ISO 8601 date/time.
 */
export type ValueType = 'flag' | 'string' | 'path' | 'integer' | 'number' | 'size' | 'disk-size' | 'duration' | 'choice' | 'time';

export interface OptionDef {
  /** Long name without the dashes: `recordsize` for `--recordsize`. */
  readonly name: string;
  /** One letter, for `-o` style. */
  readonly short?: string;
  readonly type: ValueType;
  /** Placeholder shown in usage and help (SIZE, DIR, N…); a default is derived from the type. */
  readonly value?: string;
  readonly description: string;
  /** What the number means, for help and error messages ("bytes", "seconds", "disks"). */
  readonly unit?: string;
  /** An example value, used in help and in the error message for a bad value. */
  readonly example?: string;
  readonly choices?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** May be given more than once (values collect in an array). */
  readonly multiple?: boolean;
  /** `choice` only: the value may be left out (`--demo` or `--demo NAME`); the value is then `true`. */
  readonly optionalValue?: boolean;
  /** The default, in words, for help. */
  readonly default?: string;
}

export interface PositionalDef {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  /** Takes all remaining arguments. */
  readonly variadic?: boolean;
  /** The allowed values (completed by the shell, checked by the parser). */
  readonly choices?: readonly string[];
  /** Completed as a file name. */
  readonly path?: boolean;
}

export interface ExampleDef {
  readonly command: string;
  readonly description: string;
}

/** What a handler's loader resolves to: the module's `run`. */
export interface HandlerModule {
  // The concrete Args type is checked where the handler is written (Handler<typeof def>).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run: (args: any, io: CliIO) => Promise<number>;
}

export interface CommandDef {
  /** The word typed after `zfs-advisor` (or after the parent command). */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Longer text for `--help` and the man page (paragraphs separated by blank lines). */
  readonly description?: string;
  /** Usage lines after `zfs-advisor CMD `; derived from options and positionals when absent. */
  readonly usage?: readonly string[];
  readonly positionals?: readonly PositionalDef[];
  readonly options: readonly OptionDef[];
  readonly examples: readonly ExampleDef[];
  readonly subcommands?: readonly CommandDef[];
  /** Reads this host's ZFS: said in help, and checked by handlers that need it (framework/zfs-probe.ts). */
  readonly needsZfs?: boolean;
  /** Environment variables the command reads, for help and the man page. */
  readonly environment?: readonly { name: string; description: string }[];
  /**
   * Which handler runs it (cli/handlers.ts loads it, only when the command runs). A name, not an
   * import: definitions import no handler, so imports run one way — main → handlers → commands →
   * defs. Absent: the command only groups subcommands.
   */
  readonly handler?: HandlerId;
}

/** The handlers cli/handlers.ts can load, by the command path that runs them. */
export type HandlerId =
  | 'inventory' | 'assess' | 'optane' | 'forecast' | 'plan layouts' | 'plan add-slog' | 'plan add-special' | 'sizes' | 'observe'
  | 'bench' | 'bench suite' | 'report' | 'capture' | 'parse' | 'serve' | 'start' | 'info' | 'login-link' | 'completion' | 'man';

/** Declares a command (an identity function that checks the shape). */
export function defineCommand(def: CommandDef): CommandDef {
  return def;
}

type Scalar<O extends OptionDef> =
  O['type'] extends 'flag' ? boolean
    : O['type'] extends 'integer' | 'number' | 'size' | 'disk-size' | 'duration' ? number
      : O extends { optionalValue: true; choices: readonly (infer C)[] } ? C | true
        : O extends { type: 'choice'; choices: readonly (infer C)[] } ? C
          : string;
type OptValue<O extends OptionDef> = O extends { multiple: true } ? Scalar<O>[] : Scalar<O>;

/**
 * The parsed options, typed from a definition file's exported `options` tuple (declared
 * `as const satisfies readonly OptionDef[]`): each present option under its long name.
 * Handlers are typed by `typeof options` (the definition file's export), which they import as a
 * type: definitions never import handlers, so this runs one way.
 */
export type Values<O extends readonly OptionDef[]> = { [X in O[number] as X['name']]?: OptValue<X> };

export interface Args<O extends readonly OptionDef[]> {
  values: Values<O>;
  positionals: string[];
  /** `plan layouts`: the words that named the command, for messages. */
  commandPath: string;
}

export type Handler<O extends readonly OptionDef[]> = (args: Args<O>, io: CliIO) => Promise<number>;

/** The shape every `zfs-advisor` subcommand module exports as default. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  stdin(): Promise<string>;
  isTTY: boolean;
}

export interface CliCommand {
  /** One line for `zfs-advisor --help`. */
  summary: string;
  /** Returns the exit code: 0 ok, 1 failure, 2 unreadable input, 64 usage error. */
  run(args: string[], io: CliIO): Promise<number>;
}

/** Exit codes of the CLI contract. */
export const EXIT = { ok: 0, failure: 1, badInput: 2, usage: 64 } as const;

/**
 * The CLI's one error shape: `zfs-advisor CMD: what is wrong — what to do`, one line on stderr,
 * and one exit code per kind — 64 the command line is wrong, 2 an input (file, snapshot, store)
 * cannot be read, 1 the request was understood and refused or failed.
 */
import { EXIT } from '../command.ts';

export type ErrorKind = 'usage' | 'input' | 'refused';

const CODES: Record<ErrorKind, number> = { usage: EXIT.usage, input: EXIT.badInput, refused: EXIT.failure };

export class CliError extends Error {
  readonly exitCode: number;
  constructor(readonly kind: ErrorKind, readonly what: string, readonly todo: string) {
    super(`${what} — ${todo}`);
    this.exitCode = CODES[kind];
  }
}

/** The command line is wrong (exit 64). `todo` defaults to pointing at the command's --help. */
export const usageError = (what: string, todo?: string): CliError => new CliError('usage', what, todo ?? '');
/** An input named on the command line cannot be read or is not what it should be (exit 2). */
export const inputError = (what: string, todo: string): CliError => new CliError('input', what, todo);
/** Understood, and refused or failed (exit 1). */
export const refusal = (what: string, todo: string): CliError => new CliError('refused', what, todo);

/** The one line for an error of command `commandPath` (e.g. "plan layouts"). */
export function formatError(commandPath: string, err: CliError): string {
  const todo = err.todo || `see zfs-advisor ${commandPath} --help`;
  return `zfs-advisor ${commandPath}: ${err.what} — ${todo}\n`;
}

/** First line of an unexpected error's message, without a stack. */
export const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

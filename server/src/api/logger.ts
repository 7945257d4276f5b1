/**
 * The server's log: one JSON object per line. Every line goes through `scrub`, which replaces
 * any stored secret (remote API keys/tokens, the server's own bearer token) with "[secret]"
 * before it is written — so a secret cannot reach the log even by accident (an error message
 * that echoes a request, a URL with a token in it).
 */
import type { Logger, LogLevel } from '../model/jobs.ts';

export type { Logger, LogLevel };

export interface LoggerOptions {
  /** Where finished lines go (stderr by default). */
  sink?: (line: string) => void;
  /** Current secret values to scrub (called per line: secrets change at run time). */
  secrets?: () => readonly string[];
  minLevel?: LogLevel;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const MIN_SECRET_LENGTH = 6;

export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < MIN_SECRET_LENGTH) continue;
    out = out.split(s).join('[secret]');
    // JSON-escaped form, in case the secret contains characters JSON escapes.
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s) out = out.split(escaped).join('[secret]');
  }
  return out;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const sink = opts.sink ?? ((line: string) => { process.stderr.write(`${line}\n`); });
  const min = ORDER[opts.minLevel ?? 'info'];
  const log = (level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void => {
    if (ORDER[level] < min) return;
    let line: string;
    try {
      line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
    } catch {
      line = JSON.stringify({ time: new Date().toISOString(), level, msg });
    }
    sink(scrub(line, opts.secrets?.() ?? []));
  };
  return {
    log,
    info: (m, f) => log('info', m, f),
    warn: (m, f) => log('warn', m, f),
    error: (m, f) => log('error', m, f),
  };
}

/**
 * The server's bearer token: generated on first start (32 random bytes, base64url), stored in
 * `api-token` in the data directory with mode 0600, and reused afterwards. `created` tells the
 * caller to print it — once.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN_FILE_NAME = 'api-token';

export function ensureToken(dataDir: string): { token: string; created: boolean; file: string } {
  const file = join(dataDir, TOKEN_FILE_NAME);
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(token)) {
      chmodSync(file, 0o600);
      return { token, created: false, file };
    }
    throw new Error(`the token file ${file} is malformed; remove it to generate a new token`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const token = randomBytes(32).toString('base64url');
  const fd = openSync(file, 'wx', 0o600);
  try { writeSync(fd, `${token}\n`); } finally { closeSync(fd); }
  return { token, created: true, file };
}

/** Loopback addresses need no token: only local users can reach them. */
export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The server's bearer token: generated on first start (32 random bytes, base64url), stored in
 * `api-token` in the data directory with mode 0600, and reused afterwards. `created` tells the
 * caller to print it — once.
 *
 * The file is opened without following a symlink (O_NOFOLLOW) and judged by its descriptor: it must
 * be a regular file of this process's user with one link; a planted link or another account's
 * file is refused, never read and never chmod'ed (the mode is fixed through the descriptor).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN_FILE_NAME = 'api-token';

export function ensureToken(dataDir: string): { token: string; created: boolean; file: string } {
  const file = join(dataDir, TOKEN_FILE_NAME);
  let fd: number | null = null;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new Error(`refused: the token file ${file} is a symlink; remove it (a new token is then generated)`);
    if (code !== 'ENOENT') throw err;
  }
  if (fd !== null) {
    try {
      const st = fstatSync(fd);
      const me = process.geteuid?.() ?? 0;
      if (!st.isFile()) throw new Error(`refused: the token file ${file} is not a regular file; remove it`);
      if (st.uid !== me) throw new Error(`refused: the token file ${file} belongs to uid ${st.uid}, not to this server's user (uid ${me}): another account may have planted it; remove it`);
      if (st.nlink !== 1) throw new Error(`refused: the token file ${file} has ${st.nlink} hard links; remove it`);
      const token = readFileSync(fd, 'utf8').trim();
      if (!/^[A-Za-z0-9_-]{32,}$/.test(token)) throw new Error(`the token file ${file} is malformed; remove it to generate a new token`);
      if ((st.mode & 0o777) !== 0o600) fchmodSync(fd, 0o600);
      return { token, created: false, file };
    } finally { closeSync(fd); }
  }
  const token = randomBytes(32).toString('base64url');
  const out = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try { writeSync(out, `${token}\n`); } finally { closeSync(out); }
  return { token, created: true, file };
}

/** A loopback address or name (the server then binds both 127.0.0.1 and ::1). */
export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

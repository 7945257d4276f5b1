/**
 * `zfs-advisor login-link [--socket PATH] [--sign-out-everywhere] [--json]` (options:
 * defs/login-link.ts): the CLI as a local client of the running server, over its Unix socket — no
 * token, the kernel's permission check on the socket is the gate (api/listen.ts). It asks for a
 * fresh one-time login link (POST /api/login-links) or ends every session (POST /api/sessions/end-all).
 */
import { request } from 'node:http';
import { EXIT, type Handler } from '../command.ts';
import { DEFAULT_SOCKET, type options } from '../defs/login-link.ts';
import { refusal } from '../framework/errors.ts';
import { formatTime } from '../../text/format.ts';

/** One request over a Unix socket: status and parsed JSON body (or the error code of the connection). */
export function overSocket(socketPath: string, method: string, path: string): Promise<{ status: number; body: unknown } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ socketPath, method, path, headers: { Host: 'localhost', 'Content-Type': 'application/json', Accept: 'application/json' }, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

/** What a failed connection means, in words, with what to do. */
export function socketProblem(socketPath: string, code: string): Error {
  if (code === 'EACCES' || code === 'EPERM') {
    return refusal(`not allowed to connect to ${socketPath}: only root, or members of the operator group the admin named (ZFS_ADVISOR_SOCKET_GROUP in /etc/zfs-advisor/zfs-advisor.conf), may use the server's socket`, 'run it with sudo, or ask the admin to add you to that group');
  }
  if (code === 'ENOENT' || code === 'ECONNREFUSED') {
    return refusal(`no server answers on ${socketPath}`, 'is the service running? (systemctl status zfs-advisor); a server started by hand needs --socket PATH, given here too');
  }
  return refusal(`cannot talk to the server on ${socketPath} (${code})`, 'check systemctl status zfs-advisor');
}

export const run: Handler<typeof options> = async ({ values: o }, io) => {
  const socketPath = o.socket ?? (process.env.ZFS_ADVISOR_SOCKET?.trim() || DEFAULT_SOCKET);
  const end = o['sign-out-everywhere'] === true;
  const r = await overSocket(socketPath, 'POST', end ? '/api/sessions/end-all' : '/api/login-links');
  if ('error' in r) throw socketProblem(socketPath, r.error);
  const body = r.body as { url?: string; expiresAt?: string; sessionsEnded?: number; linksVoided?: number; error?: { message?: string } };
  if (r.status < 200 || r.status > 299) throw refusal(`the server answered ${r.status}: ${body.error?.message ?? String(r.body)}`, 'see the server\'s log (journalctl -u zfs-advisor)');
  if (o.json) {
    io.stdout(`${JSON.stringify(body, null, 2)}\n`);
    return EXIT.ok;
  }
  if (end) io.stdout(`Signed out everywhere: ${body.sessionsEnded} session(s) ended, ${body.linksVoided} unused login link(s) voided. The API token is unchanged.\n`);
  else io.stdout(`${body.url}\n(one-time, valid until ${formatTime(body.expiresAt)}; it signs in the first browser that opens it)\n`);
  return EXIT.ok;
};

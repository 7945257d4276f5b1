/**
 * TrueNAS JSON-RPC 2.0 over WebSocket (`wss://HOST/api/current`, TrueNAS 25.04+).
 *
 * - Always wss: TrueNAS revokes an API key that was sent over plain ws://.
 * - One connection per host, kept open and reused: TrueNAS bans a client for 10 minutes after
 *   20 auth calls in a minute, so we log in once per connection, and after a refused login we do
 *   not try again until the credentials change (`forget`).
 * - `auth.login_ex` with mechanism API_KEY_PLAIN (auth.login_with_api_key is removed in v27).
 */
import WebSocket from 'ws';
import { RemoteError } from './errors.ts';
import { openTrustedSocket, type TlsPolicy } from './tls.ts';

export interface TrueNasConnectionOptions {
  address: string;
  port: number;
  username: string;
  apiKey: string;
  tls: TlsPolicy;
  timeoutMs: number;
}

export interface JsonRpcClient {
  call(method: string, params?: unknown[]): Promise<unknown>;
  close(): void;
  readonly open: boolean;
}

export async function connectTrueNas(opts: TrueNasConnectionOptions): Promise<JsonRpcClient> {
  const socket = await openTrustedSocket(opts.address, opts.port, opts.tls, opts.timeoutMs);
  const host = opts.address.includes(':') && !opts.address.startsWith('[') ? `[${opts.address}]` : opts.address;
  const ws = new WebSocket(`wss://${host}:${opts.port}/api/current`, {
    createConnection: () => socket,
    handshakeTimeout: opts.timeoutMs,
    maxPayload: 64 * 1024 * 1024,
    perMessageDeflate: false,
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => { ws.terminate(); reject(new RemoteError('timeout', `TrueNAS ${opts.address} did not open the WebSocket within ${Math.round(opts.timeoutMs / 1000)} s`)); }, opts.timeoutMs);
    ws.once('open', () => { clearTimeout(timer); resolve(); });
    ws.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      ws.terminate();
      reject(new RemoteError(res.statusCode === 401 || res.statusCode === 403 ? 'auth' : 'protocol', `TrueNAS ${opts.address} refused the WebSocket at /api/current (HTTP ${res.statusCode}); is it TrueNAS 25.04 or newer?`));
    });
    ws.once('error', (err) => { clearTimeout(timer); reject(new RemoteError('connect', `WebSocket to TrueNAS ${opts.address} failed: ${err.message}`)); });
  });

  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();
  const failAll = (err: Error) => {
    for (const p of pending.values()) { clearTimeout(p.timer); p.reject(err); }
    pending.clear();
  };
  ws.on('message', (data) => {
    let msg: unknown;
    try { msg = JSON.parse(data.toString()); } catch {
      failAll(new RemoteError('protocol', `TrueNAS ${opts.address} sent a message that is not JSON`));
      ws.terminate();
      return;
    }
    if (typeof msg !== 'object' || msg === null) return;
    const m = msg as { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown; data?: { reason?: unknown } } };
    if (typeof m.id !== 'number') return; // notifications (collection_update) are not used here
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.error) {
      const reason = typeof m.error.data?.reason === 'string' ? m.error.data.reason : typeof m.error.message === 'string' ? m.error.message : 'error';
      p.reject(new RemoteError('remote', `TrueNAS ${opts.address}: ${reason.split('\n')[0]}`));
    } else if ('result' in m) p.resolve(m.result);
    else p.reject(new RemoteError('protocol', `TrueNAS ${opts.address} answered without result or error`));
  });
  ws.on('close', () => failAll(new RemoteError('connect', `the connection to TrueNAS ${opts.address} closed`)));
  ws.on('error', () => { /* reported through close */ });

  const call = (method: string, params: unknown[] = []): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (ws.readyState !== WebSocket.OPEN) return reject(new RemoteError('connect', `the connection to TrueNAS ${opts.address} is closed`));
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new RemoteError('timeout', `TrueNAS ${opts.address} did not answer ${method} within ${Math.round(opts.timeoutMs / 1000)} s`));
      }, opts.timeoutMs);
      pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });

  let login: unknown;
  try {
    login = await call('auth.login_ex', [{ mechanism: 'API_KEY_PLAIN', username: opts.username, api_key: opts.apiKey }]);
  } catch (err) {
    ws.terminate();
    if (err instanceof RemoteError && err.code === 'remote') throw new RemoteError('auth', `TrueNAS ${opts.address} refused the login: ${err.message.replace(/^TrueNAS [^:]+: /, '')}`);
    throw err;
  }
  const responseType = (login as { response_type?: unknown } | null)?.response_type;
  if (responseType !== 'SUCCESS') {
    ws.terminate();
    throw new RemoteError('auth', `TrueNAS ${opts.address} refused the API key for user "${opts.username}" (${typeof responseType === 'string' ? responseType : 'no response_type'}); check the key and that the user is a read-only administrator`);
  }

  return {
    call,
    close: () => { ws.close(); },
    get open() { return ws.readyState === WebSocket.OPEN; },
  };
}

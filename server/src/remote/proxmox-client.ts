/**
 * Proxmox VE REST API (`https://HOST:8006/api2/json/…`) with an API token
 * (`Authorization: PVEAPIToken=USER@REALM!TOKENID=UUID`, PVEAuditor role is enough).
 * Each request opens a checked TLS socket first (see tls.ts), so the token is only ever sent to
 * a trusted or pinned certificate.
 */
import { request } from 'node:https';
import { RemoteError } from './errors.ts';
import { openTrustedSocket, type TlsPolicy } from './tls.ts';

export interface ProxmoxConnectionOptions {
  address: string;
  port: number;
  tokenId: string;
  tokenSecret: string;
  tls: TlsPolicy;
  timeoutMs: number;
}

const MAX_BODY = 32 * 1024 * 1024;

export async function proxmoxGet(opts: ProxmoxConnectionOptions, path: string): Promise<unknown> {
  const socket = await openTrustedSocket(opts.address, opts.port, opts.tls, opts.timeoutMs);
  return new Promise((resolve, reject) => {
    const req = request({
      host: opts.address.replace(/^\[|\]$/g, ''),
      port: opts.port,
      path: `/api2/json${path}`,
      method: 'GET',
      headers: { Authorization: `PVEAPIToken=${opts.tokenId}=${opts.tokenSecret}`, Accept: 'application/json' },
      // With no agent, Node uses createConnection: the socket we already checked. (agent: false
      // would make a fresh agent that ignores it and opens its own connection.)
      createConnection: () => socket,
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new RemoteError('timeout', `Proxmox ${opts.address} did not answer GET ${path} within ${Math.round(opts.timeoutMs / 1000)} s`));
    }, opts.timeoutMs);
    req.on('error', (err) => { clearTimeout(timer); reject(new RemoteError('connect', `Proxmox ${opts.address}: ${err.message}`)); });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) { req.destroy(); clearTimeout(timer); reject(new RemoteError('protocol', `Proxmox ${opts.address} sent more than ${MAX_BODY} bytes for ${path}`)); return; }
        chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        if (status === 401 || status === 403) {
          return reject(new RemoteError('auth', `Proxmox ${opts.address} refused the API token for ${path} (HTTP ${status}); check the token and that it has the PVEAuditor role`));
        }
        if (status < 200 || status >= 300) {
          return reject(new RemoteError('remote', `Proxmox ${opts.address} answered HTTP ${status} for ${path}: ${(res.statusMessage ?? '').slice(0, 200)}`, null, status));
        }
        let body: unknown;
        try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {
          return reject(new RemoteError('protocol', `Proxmox ${opts.address} answered ${path} with something that is not JSON`));
        }
        if (typeof body !== 'object' || body === null || !('data' in body)) {
          return reject(new RemoteError('protocol', `Proxmox ${opts.address} answered ${path} without a "data" member`));
        }
        resolve((body as { data: unknown }).data);
      });
    });
    req.end();
  });
}

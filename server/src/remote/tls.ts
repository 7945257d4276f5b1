/**
 * Opens the TLS connection ourselves and decides trust BEFORE a single byte of a request (and so
 * an API key) is written: verified chain + host name by default, or exactly one pinned
 * self-signed certificate (SHA-256) when the user opted in. The checked socket is then handed to
 * https/ws through `createConnection`.
 */
import { checkServerIdentity, connect, type TLSSocket } from 'node:tls';
import { isIP } from 'node:net';
import { RemoteError } from './errors.ts';

export interface TlsPolicy {
  verify: boolean;
  /** `AB:CD:…` (SHA-256 of the DER certificate) or null. */
  pinnedFingerprint: string | null;
}

export function normaliseFingerprint(fp: string): string {
  return fp.replace(/:/g, '').toUpperCase().match(/../g)?.join(':') ?? '';
}

export function openTrustedSocket(host: string, port: number, policy: TlsPolicy, timeoutMs: number): Promise<TLSSocket> {
  const hostname = host.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    // rejectUnauthorized false: we make the decision below, with the certificate in hand.
    const socket = connect({ host: hostname, port, servername: isIP(hostname) ? undefined : hostname, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new RemoteError('timeout', `no TLS connection to ${host}:${port} within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(new RemoteError('connect', `cannot connect to ${host}:${port}: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
    });
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const cert = socket.getPeerCertificate();
      const presented = cert?.fingerprint256 ? normaliseFingerprint(cert.fingerprint256) : null;
      const fail = (code: 'tls-untrusted' | 'tls-mismatch', message: string) => {
        socket.destroy();
        reject(new RemoteError(code, message, presented));
      };
      if (!presented) return fail('tls-untrusted', `${host}:${port} presented no certificate`);
      if (policy.pinnedFingerprint) {
        if (normaliseFingerprint(policy.pinnedFingerprint) !== presented) {
          return fail('tls-mismatch', `the certificate of ${host}:${port} (SHA-256 ${presented}) is not the pinned one (${normaliseFingerprint(policy.pinnedFingerprint)}); refusing to send credentials`);
        }
        socket.removeAllListeners('error');
        return resolve(socket);
      }
      if (!policy.verify) return fail('tls-untrusted', `TLS verification is off but no certificate fingerprint is pinned for ${host}`);
      if (!socket.authorized) {
        return fail('tls-untrusted', `the certificate of ${host}:${port} is not trusted (${String(socket.authorizationError)}); if it is the host's self-signed certificate, pin its SHA-256 fingerprint ${presented}`);
      }
      const identity = checkServerIdentity(hostname, cert);
      if (identity) return fail('tls-untrusted', `the certificate of ${host}:${port} is not for this host name (${identity.message})`);
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

/**
 * Hosts: list, add, change, remove, test the connection. Secrets are stored apart (secrets.json,
 * 0600) and never returned.
 */
import { randomUUID } from 'node:crypto';
import type { HostRow } from '../../store/hosts-repo.ts';
import type { HostSecret } from '../../store/secrets.ts';
import type { AppContext } from '../context.ts';
import { routes, type HostCreate } from '../contract.ts';
import { HttpError } from '../errors.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { bindSecret, sameTarget, targetOf } from '../../remote/secret-target.ts';

/** A readable, unique id from the host's name: "My NAS" → "my-nas", "my-nas-2", … */
export function uniqueHostId(name: string, taken: (id: string) => boolean): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48) || 'host';
  if (!taken(base)) return base;
  for (let i = 2; i < 10_000; i++) if (!taken(`${base}-${i}`)) return `${base}-${i}`;
  return `${base}-${randomUUID().slice(0, 8)}`;
}

export function hostRoutes(ctx: AppContext) {
  const r = apiRouter();
  const { hosts, secrets, remote, logger, getHost, hostView } = ctx;

  bindRoute(r, routes.listHosts, () => hosts.list().map(hostView));
  bindRoute(r, routes.createHost, ({ body }) => {
    const b = body as HostCreate;
    const id = uniqueHostId(b.name, (x) => hosts.get(x) !== null);
    const now = new Date().toISOString();
    const row: HostRow = {
      id, kind: b.kind, name: b.name,
      address: 'address' in b ? b.address : null,
      port: 'port' in b && b.port !== undefined ? b.port : null,
      node: b.kind === 'proxmox' ? b.node : null,
      verifyTls: 'verifyTls' in b ? b.verifyTls : true,
      pinnedFingerprint: 'pinnedFingerprint' in b ? b.pinnedFingerprint ?? null : null,
      hasSecret: b.kind === 'truenas' || b.kind === 'proxmox',
      createdAt: now, updatedAt: now,
    };
    if ((b.kind === 'truenas' || b.kind === 'proxmox') && !row.verifyTls && !row.pinnedFingerprint) {
      throw new HttpError('bad-request', 'verifyTls may only be turned off together with a pinnedFingerprint (the certificate to trust)');
    }
    if (b.kind === 'truenas') secrets.set(id, bindSecret({ kind: 'truenas', username: b.username, apiKey: b.apiKey }, row));
    if (b.kind === 'proxmox') secrets.set(id, bindSecret({ kind: 'proxmox', tokenId: b.tokenId, tokenSecret: b.tokenSecret }, row));
    hosts.insert(row);
    logger.info('host added', { host: id, kind: b.kind });
    return hostView(row);
  });
  bindRoute(r, routes.getHost, ({ params }) => hostView(getHost(params.hostId)));
  bindRoute(r, routes.updateHost, ({ params, body }) => {
    const h = getHost(params.hostId);
    const remoteKind = h.kind === 'truenas' || h.kind === 'proxmox';
    if (!remoteKind && Object.keys(body).some((k) => k !== 'name')) throw new HttpError('bad-request', `only the name of a ${h.kind} host can change`);
    const next: HostRow = {
      ...h,
      name: body.name ?? h.name,
      address: body.address ?? h.address,
      port: body.port !== undefined ? body.port : h.port,
      node: h.kind === 'proxmox' ? body.node ?? h.node : h.node,
      verifyTls: body.verifyTls ?? h.verifyTls,
      pinnedFingerprint: body.pinnedFingerprint !== undefined ? body.pinnedFingerprint : h.pinnedFingerprint,
      updatedAt: new Date().toISOString(),
    };
    if (remoteKind && !next.verifyTls && !next.pinnedFingerprint) throw new HttpError('bad-request', 'verifyTls may only be turned off together with a pinnedFingerprint');
    // A secret belongs to the endpoint it was entered for: a new address, port or certificate
    // trust drops it, and a new one must be given whole (nothing is carried over from the old).
    const retargeted = remoteKind && !sameTarget(targetOf(h), targetOf(next));
    const oldSecret = retargeted ? null : secrets.get(h.id);
    let secret: HostSecret | null = null;
    if (h.kind === 'truenas' && (body.apiKey || body.username)) {
      const old = oldSecret;
      const username = body.username ?? (old?.kind === 'truenas' ? old.username : undefined);
      const apiKey = body.apiKey ?? (old?.kind === 'truenas' ? old.apiKey : undefined);
      if (!username || !apiKey) throw new HttpError('bad-request', 'a TrueNAS host needs both username and apiKey');
      secret = { kind: 'truenas', username, apiKey };
    }
    if (h.kind === 'proxmox' && (body.tokenId || body.tokenSecret)) {
      const old = oldSecret;
      const tokenId = body.tokenId ?? (old?.kind === 'proxmox' ? old.tokenId : undefined);
      const tokenSecret = body.tokenSecret ?? (old?.kind === 'proxmox' ? old.tokenSecret : undefined);
      if (!tokenId || !tokenSecret) throw new HttpError('bad-request', 'a Proxmox host needs both tokenId and tokenSecret');
      secret = { kind: 'proxmox', tokenId, tokenSecret };
    }
    if (h.kind === 'local' || h.kind === 'demo') {
      if (body.apiKey || body.username || body.tokenId || body.tokenSecret) throw new HttpError('bad-request', 'local hosts take no credentials');
    }
    if (secret) {
      secrets.set(h.id, bindSecret(secret, next));
      next.hasSecret = true;
    } else if (retargeted && h.hasSecret) {
      secrets.delete(h.id);
      next.hasSecret = false;
      logger.info('host target changed: its stored credentials were dropped', { host: h.id });
    }
    hosts.update(next);
    remote.forget(h.id);
    return hostView(next);
  });
  bindRoute(r, routes.deleteHost, ({ params }) => {
    getHost(params.hostId);
    hosts.delete(params.hostId);
    ctx.reader.forget(`${params.hostId}/`);
    secrets.delete(params.hostId);
    remote.forget(params.hostId);
    logger.info('host removed', { host: params.hostId });
    return undefined;
  });
  bindRoute(r, routes.testHost, async ({ params }) => {
    const h = getHost(params.hostId);
    if (h.kind === 'local' || h.kind === 'demo') return { ok: true, message: `${h.kind} host: nothing to connect to`, presentedFingerprint: null };
    const secret = secrets.get(h.id);
    if (!secret) return { ok: false, message: 'no credentials stored for this host', presentedFingerprint: null };
    return remote.test(h, secret);
  });
  return r;
}

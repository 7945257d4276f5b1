/**
 * Remote hosts as the API sees them: `collect(host, secret)` → the same `Inventory` + raw answers
 * as a local collection, `test()` for the "try connection" button. One instance per app: it owns
 * the open TrueNAS connections (one per host, reused) and remembers refused logins so a wrong key
 * is not retried into TrueNAS's 10-minute ban.
 */
import type { HostRow } from '../store/hosts-repo.ts';
import type { HostSecret } from '../store/secrets.ts';
import type { LoadedInventory } from '../api/services.ts';
import { HttpError } from '../api/errors.ts';
import type { ConnectionTest } from '../api/schemas.ts';
import { RemoteError } from './errors.ts';
import { connectTrueNas, type JsonRpcClient } from './truenas-client.ts';
import { inventoryFromTrueNas } from './truenas-inventory.ts';
import { proxmoxGet, type ProxmoxConnectionOptions } from './proxmox-client.ts';
import { isPveStorageId } from './pve-ids.ts';
import { inventoryFromProxmox, PVE_STORAGE_ID_REFUSAL } from './proxmox-inventory.ts';
import { secretTargetMatches } from './secret-target.ts';

const RETARGETED = 'the stored credentials were entered for another address, port or certificate; enter them again for this one';

export interface RemoteClients {
  collect(host: HostRow, secret: HostSecret): Promise<LoadedInventory>;
  test(host: HostRow, secret: HostSecret): Promise<ConnectionTest>;
  /** Drops the connection and the remembered failure (credentials or address changed). */
  forget(hostId: string): void;
  closeAll(): void;
}

export const TRUENAS_DEFAULT_PORT = 443;
export const PROXMOX_DEFAULT_PORT = 8006;

/** The dataset properties we ask TrueNAS for (ZFS names; TrueNAS maps them). */
const DATASET_PROPERTIES = ['type', 'recordsize', 'volblocksize', 'volsize', 'sync', 'special_small_blocks', 'compression', 'compressratio', 'logbias', 'primarycache', 'dedup', 'used', 'available', 'referenced', 'quota'];

export function toHttpError(err: unknown): HttpError {
  if (err instanceof RemoteError) return new HttpError('remote-error', err.message);
  if (err instanceof HttpError) return err;
  return new HttpError('remote-error', `remote host: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
}

export function defaultRemoteClients(opts: { timeoutMs?: number } = {}): RemoteClients {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const connections = new Map<string, Promise<JsonRpcClient>>();
  const refused = new Map<string, string>();

  const tlsOf = (h: HostRow) => ({ verify: h.verifyTls, pinnedFingerprint: h.pinnedFingerprint });

  const trueNas = async (h: HostRow, s: Extract<HostSecret, { kind: 'truenas' }>): Promise<JsonRpcClient> => {
    const why = refused.get(h.id);
    if (why) throw new RemoteError('auth', `${why} (not retried until the credentials change, to avoid TrueNAS's login ban)`);
    const existing = connections.get(h.id);
    if (existing) {
      const c = await existing.catch(() => null);
      if (c?.open) return c;
      connections.delete(h.id);
    }
    const p = connectTrueNas({ address: h.address ?? '', port: h.port ?? TRUENAS_DEFAULT_PORT, username: s.username, apiKey: s.apiKey, tls: tlsOf(h), timeoutMs });
    connections.set(h.id, p);
    try {
      return await p;
    } catch (err) {
      connections.delete(h.id);
      if (err instanceof RemoteError && err.code === 'auth') refused.set(h.id, err.message);
      throw err;
    }
  };

  const pveOpts = (h: HostRow, s: Extract<HostSecret, { kind: 'proxmox' }>): ProxmoxConnectionOptions => ({
    address: h.address ?? '', port: h.port ?? PROXMOX_DEFAULT_PORT, tokenId: s.tokenId, tokenSecret: s.tokenSecret, tls: tlsOf(h), timeoutMs,
  });

  const collect = async (h: HostRow, s: HostSecret): Promise<LoadedInventory> => {
    const capturedAt = new Date().toISOString();
    if (!secretTargetMatches(h, s)) throw new HttpError('conflict', RETARGETED);
    try {
      if (h.kind === 'truenas' && s.kind === 'truenas') {
        const c = await trueNas(h, s);
        const systemInfo = await c.call('system.info');
        const pools = await c.call('pool.query', [[], {}]);
        const datasets = await c.call('pool.dataset.query', [[], { extra: { flat: true, retrieve_children: true, retrieve_user_props: false, properties: DATASET_PROPERTIES } }]);
        const disks = await c.call('disk.query', [[], { extra: { pools: true } }]);
        // Optional extras: an older or newer TrueNAS without them still yields an inventory.
        const temperatures = await c.call('disk.temperatures', [[], false]).catch(() => null);
        const alerts = await c.call('alert.list').catch(() => null);
        const answers = { systemInfo, pools, datasets, disks, temperatures, alerts };
        return { inventory: inventoryFromTrueNas(answers, h.name, capturedAt), raw: { source: 'truenas-api', answers } };
      }
      if (h.kind === 'proxmox' && s.kind === 'proxmox') {
        const o = pveOpts(h, s);
        const node = encodeURIComponent(h.node ?? '');
        const version = await proxmoxGet(o, '/version').catch(() => null);
        const zfsList = await proxmoxGet(o, `/nodes/${node}/disks/zfs`);
        const disks = await proxmoxGet(o, `/nodes/${node}/disks/list`);
        const zfsDetail: Record<string, unknown> = {};
        const zfsDetailRefused: Record<string, string> = {};
        if (Array.isArray(zfsList)) {
          for (const p of zfsList) {
            const name = (p as { name?: unknown }).name;
            if (typeof name !== 'string') continue;
            // PVE takes {name} as a storage id: a pool named otherwise is refused (HTTP 400), not asked.
            if (!isPveStorageId(name)) { zfsDetailRefused[name] = PVE_STORAGE_ID_REFUSAL; continue; }
            try {
              zfsDetail[name] = await proxmoxGet(o, `/nodes/${node}/disks/zfs/${encodeURIComponent(name)}`);
            } catch (err) {
              // A refusal for this pool (HTTP 4xx other than auth) is a gap for it; the rest is read.
              if (!(err instanceof RemoteError && err.code === 'remote' && err.httpStatus !== null && err.httpStatus >= 400 && err.httpStatus < 500)) throw err;
              zfsDetailRefused[name] = `Proxmox VE refused it (HTTP ${err.httpStatus})`;
            }
          }
        }
        const answers = { node: h.node ?? '', version, zfsList, zfsDetail, zfsDetailRefused, disks };
        return { inventory: inventoryFromProxmox(answers, h.name, capturedAt), raw: { source: 'proxmox-api', answers } };
      }
      throw new RemoteError('protocol', `host "${h.id}" (${h.kind}) has credentials of another kind (${s.kind})`);
    } catch (err) {
      throw toHttpError(err);
    }
  };

  return {
    collect,
    async test(h, s) {
      if (!secretTargetMatches(h, s)) return { ok: false, message: RETARGETED, presentedFingerprint: null };
      try {
        if (h.kind === 'truenas' && s.kind === 'truenas') {
          const c = await trueNas(h, s);
          const info = (await c.call('system.info')) as { version?: unknown } | null;
          return { ok: true, message: `connected to TrueNAS ${typeof info?.version === 'string' ? info.version : ''}`.trim(), presentedFingerprint: null };
        }
        if (h.kind === 'proxmox' && s.kind === 'proxmox') {
          await proxmoxGet(pveOpts(h, s), `/nodes/${encodeURIComponent(h.node ?? '')}/disks/zfs`);
          return { ok: true, message: `connected to Proxmox VE node ${h.node}`, presentedFingerprint: null };
        }
        return { ok: false, message: 'credentials do not match the host kind', presentedFingerprint: null };
      } catch (err) {
        if (err instanceof RemoteError) return { ok: false, message: err.message, presentedFingerprint: err.presentedFingerprint };
        return { ok: false, message: err instanceof Error ? err.message.split('\n')[0]! : String(err), presentedFingerprint: null };
      }
    },
    forget(hostId) {
      refused.delete(hostId);
      const c = connections.get(hostId);
      connections.delete(hostId);
      void c?.then((x) => x.close()).catch(() => {});
    },
    closeAll() {
      for (const id of [...connections.keys()]) this.forget(id);
    },
  };
}

/**
 * Remote-host clients loaded on first use. The TrueNAS (WebSocket) and Proxmox (REST) clients
 * and their inventory mappers are only needed once a remote host is added, so a server that
 * watches only its own machine never loads them (idle memory matters on a NAS).
 */
import type { HostRow } from '../store/hosts-repo.ts';
import type { HostSecret } from '../store/secrets.ts';
import type { RemoteClients } from '../remote/clients.ts';

export function lazyRemoteClients(
  load: () => Promise<RemoteClients> = async () => (await import('../remote/clients.ts')).defaultRemoteClients(),
): RemoteClients {
  let pending: Promise<RemoteClients> | null = null;
  // Set once loaded: forget/closeAll are synchronous and have nothing to do before that.
  let ready: RemoteClients | null = null;
  const get = (): Promise<RemoteClients> => {
    pending ??= load().then((c) => (ready = c), (err: unknown) => { pending = null; throw err; });
    return pending;
  };
  return {
    collect: async (host: HostRow, secret: HostSecret) => (await get()).collect(host, secret),
    test: async (host: HostRow, secret: HostSecret) => (await get()).test(host, secret),
    forget: (hostId) => { ready?.forget(hostId); },
    closeAll: () => {
      ready?.closeAll();
      // A load still under way: close whatever it opens as soon as it is there.
      if (!ready) void pending?.then((c) => c.closeAll(), () => {});
    },
  };
}

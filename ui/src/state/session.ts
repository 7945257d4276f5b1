/**
 * What every view shares: the API client, the server's info, the hosts and the selected host,
 * and a revision counter bumped after each assessment so views reload. Provided once by the App
 * through a typed InjectionKey.
 */
import { computed, inject, ref, type ComputedRef, type InjectionKey, type Ref } from 'vue';
import type { AppInfo, HostView } from '../../../server/src/api/contract.ts';
import type { ApiClient, ApiFailure } from '../api/client.ts';

export interface Session {
  api: ApiClient;
  info: Ref<AppInfo | null>;
  hosts: Ref<HostView[]>;
  hostId: Ref<string | null>;
  host: ComputedRef<HostView | null>;
  /** Bumped when an assessment finished: views that show its results reload. */
  revision: Ref<number>;
  /** Data shown comes from the bundled demo snapshot. */
  demo: ComputedRef<boolean>;
  /** Last failure loading the session itself (401 → token needed). */
  failure: Ref<ApiFailure | null>;
  load(): Promise<void>;
  assessed(): void;
}

export const SessionKey: InjectionKey<Session> = Symbol('session');

export function useSession(): Session {
  const s = inject(SessionKey);
  if (!s) throw new Error('useSession() outside the App');
  return s;
}

export function createSession(api: ApiClient, storage: Pick<Storage, 'getItem' | 'setItem'> | null): Session {
  const info = ref<AppInfo | null>(null);
  const hosts = ref<HostView[]>([]);
  const hostId = ref<string | null>(storage?.getItem('zfs-advisor-host') ?? null);
  const revision = ref(0);
  const failure = ref<ApiFailure | null>(null);
  const host = computed(() => hosts.value.find((h) => h.id === hostId.value) ?? null);
  // Per host: the demo host beside this machine's live pools must not label them as demo.
  const demo = computed(() => Boolean(host.value?.kind === 'demo' || host.value?.lastAssessment?.demo));
  return {
    api, info, hosts, hostId, host, revision, demo, failure,
    async load() {
      const i = await api.call('info');
      if (!i.ok) {
        failure.value = i;
        return;
      }
      info.value = i.value;
      const h = await api.call('listHosts');
      if (!h.ok) {
        failure.value = h;
        return;
      }
      failure.value = null;
      hosts.value = h.value;
      if (!h.value.some((x) => x.id === hostId.value)) hostId.value = h.value[0]?.id ?? null;
    },
    assessed() {
      revision.value += 1;
      void api.call('listHosts').then((h) => { if (h.ok) hosts.value = h.value; });
    },
  };
}

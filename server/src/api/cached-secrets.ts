/**
 * The secret store with its list of values kept in memory for the log scrubber, which asks for it
 * on every log line (one per request): reading and validating secrets.json each time cost more
 * than the request itself. The list is dropped whenever a secret is set or deleted through this
 * store, which is the only writer while the server runs.
 */
import type { SecretStore } from '../store/secrets.ts';

export function withCachedValues(store: SecretStore): SecretStore {
  let values: string[] | null = null;
  return {
    file: store.file,
    get: (hostId) => store.get(hostId),
    set: (hostId, secret) => {
      values = null;
      store.set(hostId, secret);
    },
    delete: (hostId) => {
      values = null;
      store.delete(hostId);
    },
    values: () => (values ??= store.values()),
  };
}

/**
 * The bearer token, when the server requires one (bound off-loopback). Kept in sessionStorage:
 * gone when the tab closes, never in a cookie (the server accepts no cookies).
 */
const KEY = 'zfs-advisor-token';

export interface TokenStore {
  get(): string | null;
  set(token: string | null): void;
}

export function createTokenStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null): TokenStore {
  let memory: string | null = null;
  return {
    get: () => {
      try { return storage?.getItem(KEY) ?? memory; } catch { return memory; }
    },
    set: (token) => {
      memory = token;
      try {
        if (token) storage?.setItem(KEY, token);
        else storage?.removeItem(KEY);
      } catch { /* storage disabled: keep it in memory */ }
    },
  };
}

/** A token as the server accepts it: printable ASCII without spaces, ≤ 512 characters. */
export const validToken = (t: string): boolean => /^[\x21-\x7e]{1,512}$/.test(t.trim());

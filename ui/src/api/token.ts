/**
 * The bearer token, when the server asks for one (on TCP, loopback included, unless
 * --open-loopback). Kept in sessionStorage: gone when the tab closes, never in a cookie (the only
 * cookie is the HttpOnly session a one-time login link sets, which no script reads).
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

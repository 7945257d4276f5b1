/**
 * The token table of one redaction: every secret value gets one stable token (`SERIAL-1`,
 * `WWN-2`…) per kind, in the order values were first seen. One table serves a whole capture or
 * report, which is what makes tokens consistent across files.
 */

export const KINDS = ['SERIAL', 'WWN', 'GUID', 'HOST', 'DOMAIN', 'IP', 'MAC', 'EMAIL', 'POOL', 'DATASET'] as const;
export type Kind = (typeof KINDS)[number];

/** A token as the redactor writes it: something already redacted must never be learned again. */
export const TOKEN_RE = /^(?:SERIAL|WWN|GUID|HOST|DOMAIN|IP|MAC|EMAIL|POOL|DATASET)-\d+$/;

/** Values compared without case: hex identifiers, host and domain names, MACs, IPv6. */
const CASELESS: ReadonlySet<Kind> = new Set(['WWN', 'GUID', 'HOST', 'DOMAIN', 'IP', 'MAC', 'EMAIL']);

export const normalise = (kind: Kind, value: string): string => (CASELESS.has(kind) ? value.toLowerCase() : value);

export interface TokenTable {
  token(kind: Kind, value: string): string;
  has(kind: Kind, value: string): boolean;
  /** original value → token. */
  entries(): Array<{ kind: Kind; value: string; token: string }>;
  /** How many distinct values of each kind were replaced (kinds with none are left out). */
  counts(): Partial<Record<Kind, number>>;
}

export function createTokenTable(): TokenTable {
  const byKey = new Map<string, { kind: Kind; value: string; token: string }>();
  const counters = new Map<Kind, number>();
  const key = (kind: Kind, value: string) => `${kind}:${normalise(kind, value)}`;
  return {
    token(kind, value) {
      const k = key(kind, value);
      const hit = byKey.get(k);
      if (hit) return hit.token;
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      const token = `${kind}-${n}`;
      byKey.set(k, { kind, value, token });
      return token;
    },
    has: (kind, value) => byKey.has(key(kind, value)),
    entries: () => [...byKey.values()],
    counts() {
      const out: Partial<Record<Kind, number>> = {};
      for (const k of KINDS) if (counters.get(k)) out[k] = counters.get(k);
      return out;
    },
  };
}

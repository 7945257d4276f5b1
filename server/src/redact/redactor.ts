/**
 * Consistent redaction for snapshots and reports: serials, WWNs/EUIs, GUIDs, hostnames, IP
 * addresses and (optionally) pool names become tokens (`SERIAL-1`, `WWN-2`, `HOST-1`, `POOL-1`…).
 * The same input always gets the same token, across every file and the inventory, so a redacted
 * snapshot still resolves leaves to drives and rebuilds the same inventory shape.
 *
 * Use: `const r = createRedactor({poolNames: true}); r.learnRawSet(raw); r.redactRawSet(raw)`;
 * `r.redactInventory(inv)` learns from the inventory itself first. Literal secrets (serials,
 * hostnames, pool names) are learned from the outputs; WWN/EUI, GUID-in-context and IPv4 are
 * recognised by pattern.
 */
import { Inventory } from '../model/inventory.ts';
import type { RawSet } from '../snapshot/raw-set.ts';

export interface RedactOptions {
  /** Also replace pool names (and with them the first component of dataset names). */
  poolNames?: boolean;
}

export interface Redactor {
  learnText(text: string): void;
  learnRawSet(raw: RawSet): void;
  learnInventory(inv: Inventory): void;
  redactText(text: string): string;
  redactRawSet(raw: RawSet): RawSet;
  redactInventory(inv: Inventory): Inventory;
  /** original → token, for a person who wants to map findings back (never written to a snapshot). */
  mapping(): ReadonlyMap<string, string>;
}

type Kind = 'SERIAL' | 'WWN' | 'GUID' | 'HOST' | 'IP' | 'POOL';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Serials and names shorter than this are too likely to hit ordinary words and numbers. */
const MIN_LITERAL = 4;
const NOT_SECRET = new Set(['REDACTED', 'unknown', 'none', '-', 'Not Specified', 'To Be Filled By O.E.M.', 'localhost']);

export function createRedactor(opts: RedactOptions = {}): Redactor {
  const tokens = new Map<string, string>();
  const counters: Record<Kind, number> = { SERIAL: 0, WWN: 0, GUID: 0, HOST: 0, IP: 0, POOL: 0 };
  const literals = new Map<string, Kind>();
  const token = (kind: Kind, value: string): string => {
    const key = `${kind}:${kind === 'WWN' || kind === 'GUID' ? value.toLowerCase() : value}`;
    let t = tokens.get(key);
    if (!t) { t = `${kind}-${++counters[kind]}`; tokens.set(key, t); }
    return t;
  };
  const learn = (kind: Kind, value: string | null | undefined) => {
    const v = value?.trim();
    if (!v || v.length < MIN_LITERAL && kind !== 'POOL' && kind !== 'HOST' || NOT_SECRET.has(v) || /^(SERIAL|WWN|GUID|HOST|IP|POOL)-\d+$/.test(v)) return;
    if (!literals.has(v)) literals.set(v, kind);
    token(kind, v);
  };

  function learnText(text: string): void {
    for (const m of text.matchAll(/"serial_number"\s*:\s*"([^"]+)"/g)) learn('SERIAL', m[1]);
    for (const m of text.matchAll(/"(?:serial|SerialNumber)"\s*:\s*"([^"]+)"/g)) learn('SERIAL', m[1]);
    for (const m of text.matchAll(/^\s*(?:Serial Number|Serial number):\s*(\S+)/gm)) learn('SERIAL', m[1]);
    for (const m of text.matchAll(/^\s*(\S+)\s+# Disk ident\./gm)) learn('SERIAL', m[1]);
    const uname = /^(?:Linux|FreeBSD|Darwin|SunOS)\s+(\S+)\s/m.exec(text);
    if (uname) { learn('HOST', uname[1]); learn('HOST', uname[1]!.split('.')[0]); }
    for (const m of text.matchAll(/"hostname"\s*:\s*"([^"]+)"/g)) { learn('HOST', m[1]); learn('HOST', m[1]!.split('.')[0]); }
    for (const m of text.matchAll(/^\s*hostname:\s*'([^']+)'/gm)) learn('HOST', m[1]);
    if (opts.poolNames) for (const m of text.matchAll(/^\s*pool:\s*(\S+)/gm)) learn('POOL', m[1]);
  }

  function redactText(text: string): string {
    let out = text;
    // Longest first, so a serial inside a longer by-id name is replaced as part of it consistently.
    const lits = [...literals.entries()].sort((a, b) => b[0].length - a[0].length);
    for (const [value, kind] of lits) {
      const bounded = kind === 'POOL' || kind === 'HOST'
        ? new RegExp(`(?<![A-Za-z0-9_.:-])${escape(value)}(?![A-Za-z0-9_:-]|\\.[A-Za-z0-9])`, 'g')
        : new RegExp(escape(value), 'g');
      out = out.replace(bounded, () => token(kind, value));
    }
    // smartctl JSON spells the WWN as numbers {naa, oui, id}: replace the unit id by a stable fake.
    out = out.replace(/("wwn"\s*:\s*\{[^}]*?"id"\s*:\s*)(\d+)/g, (_m, p: string, id: string) => `${p}${900000000 + Number(token('WWN', `id:${id}`).slice(4))}`);
    out = out.replace(/\b(wwn-0x|0x|naa\.|eui\.)([0-9a-f]{16,32})\b/gi, (_m, p: string, hex: string) => `${p}${token('WWN', hex)}`);
    out = out.replace(/\b(guid\W{1,24})(\d{6,20})\b/gi, (_m, p: string, g: string) => `${p}${token('GUID', g)}`);
    out = out.replace(/("(?:pool_guid|guid|vdev_guid)"\s*:\s*"?)(\d{6,20})/g, (_m, p: string, g: string) => `${p}${token('GUID', g)}`);
    out = out.replace(/\b((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})\b(?!\.\d)/g, (ip: string) => (ip.startsWith('127.') || ip === '0.0.0.0' ? ip : token('IP', ip)));
    return out;
  }

  const redactor: Redactor = {
    learnText,
    learnRawSet(raw) { for (const r of Object.values(raw)) learnText(r.text); },
    learnInventory(inv) {
      for (const d of inv.drives) { learn('SERIAL', d.serial); }
      learn('HOST', inv.host.hostname);
      learn('HOST', inv.host.hostname?.split('.')[0]);
      if (opts.poolNames) for (const p of inv.pools) learn('POOL', p.name);
    },
    redactText,
    redactRawSet(raw) {
      const out: RawSet = {};
      for (const [name, r] of Object.entries(raw)) {
        out[redactText(name)] = { ...r, text: redactText(r.text), stderr: redactText(r.stderr), command: r.command?.map(redactText) ?? null };
      }
      return out;
    },
    redactInventory(inv) {
      redactor.learnInventory(inv);
      const wwns = inv.drives.map((d) => d.wwn).filter((w): w is string => Boolean(w));
      let text = redactText(JSON.stringify(inv));
      for (const w of wwns) text = text.split(w).join(token('WWN', w.replace(/^0x/i, '')));
      const redacted = Inventory.parse(JSON.parse(text));
      return { ...redacted, source: { ...redacted.source, redacted: true } };
    },
    mapping() {
      const m = new Map<string, string>();
      for (const [k, v] of tokens) m.set(k.slice(k.indexOf(':') + 1), v);
      return m;
    },
  };
  return redactor;
}

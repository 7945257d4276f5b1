/**
 * The one redactor of the project, used by `capture --redact` (raw outputs) and by every report
 * format (the report document): serials, WWNs/EUIs/NVMe ids, GUIDs, host and domain names, IPv4,
 * IPv6 and MAC addresses, and optionally pool and dataset names become tokens (`SERIAL-1`,
 * `WWN-2`, `HOST-1`, `DOMAIN-1`, `IP-1`, `MAC-1`, `POOL-1`, `POOL-1/DATASET-2`). The same value
 * gets the same token in every file and in the inventory, so a redacted snapshot still resolves
 * leaves to drives.
 *
 * How: `learn*` collects literal secrets where tools print them (learn.ts), then `redactText`
 * replaces (1) those literals wherever they occur, also without context, and (2) what is
 * recognisable by shape alone (WWN spellings, guid-labelled numbers, IP and MAC addresses).
 * Use: `const r = createRedactor({poolNames: true}); r.learnRawSet(raw); r.learnInventory(inv);
 * r.redactRawSet(raw)` / `r.redactValue(doc)`.
 *
 * Known limits (README "Redaction"): a pool or dataset named with an ordinary word (`data`) is
 * also replaced where that word stands alone in prose; the vendor default host names (`truenas`,
 * `pve`…) are matched case-sensitively so that product names in prose survive; a custom
 * mountpoint that does not contain the dataset's name is not a name and is kept.
 */
import { Inventory, type VdevNode } from '../model/inventory.ts';
import type { RawSet } from '../snapshot/raw-set.ts';
import { GUID_CONTEXT_RE, HEX_ID_RE, NVME_ID_RE, acceptable, hostParts, learnFromText, serialOfById, smartctlWwnHex, type Learned } from './learn.ts';
import { IPV4_RE, IPV6_RE, MAC_RE, keepIpv4, keepIpv6, keepMac } from './addresses.ts';
import { createTokenTable, TOKEN_RE, type Kind } from './tokens.ts';

export interface RedactOptions {
  /** Also replace pool names and the dataset components below them. */
  poolNames?: boolean;
}

export interface Redactor {
  learnText(text: string, fileName?: string): void;
  learnRawSet(raw: RawSet): void;
  learnInventory(inv: Inventory): void;
  redactText(text: string): string;
  /** Every string inside a JSON-like value (object keys included), copied. */
  redactValue<T>(value: T): T;
  redactRawSet(raw: RawSet): RawSet;
  redactInventory(inv: Inventory): Inventory;
  /** original → token, for a person who wants to map findings back (never written to a snapshot). */
  mapping(): ReadonlyMap<string, string>;
  /** Distinct values replaced per kind, e.g. `{SERIAL: 2, HOST: 1}`. */
  counts(): Partial<Record<Kind, number>>;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Default host names of the platforms: also product names in prose, so only matched as spelled. */
const VENDOR_HOSTNAMES = new Set(['truenas', 'freenas', 'pve', 'proxmox']);

/** `zpool status` labels: a pool with one of these names keeps the label (`  pool: POOL-1`). */
const STATUS_LABELS = new Set(['pool', 'state', 'status', 'action', 'see', 'scan', 'scrub', 'config', 'errors', 'remove']);

/** Literal classes differ in where a match may start and end. */
type Group = 'serialSpelled' | 'serial' | 'wwn' | 'guid' | 'host' | 'hostExact' | 'dataset' | 'pool';
const BOUNDS: Record<Group, { left: string; right: string; flags: string }> = {
  // Drive serials in every spelling: any letter case, and with or without the separators tools
  // disagree on (`WQ-SECRETSN42`, `wq_secretsn42`, `WQSECRETSN42`); keyed without separators.
  serialSpelled: { left: '', right: '', flags: 'gi' },
  // Serials also hide inside longer ids (an NVMe NQN `…:80868086PHOC2092…`), so no boundary at all.
  serial: { left: '', right: '', flags: 'gi' },
  wwn: { left: '(?<![0-9A-Fa-f])', right: '(?![0-9A-Fa-f])', flags: 'gi' },
  guid: { left: '(?<!\\d)', right: '(?!\\d)', flags: 'g' },
  host: { left: '(?<![A-Za-z0-9_-])', right: '(?![A-Za-z0-9_-])', flags: 'gi' },
  hostExact: { left: '(?<![A-Za-z0-9_-])', right: '(?![A-Za-z0-9_-])', flags: 'g' },
  // Dataset paths: no boundary on the right, names derived from a dataset (`vm-100-disk-0-16k`) reveal it too.
  dataset: { left: '(?<![A-Za-z0-9_.:-])', right: '', flags: 'g' },
  // A pool name may end a sentence (`tank.`) or a heading (`tank:`), but not a file name (`tank.conf`).
  pool: { left: '(?<![A-Za-z0-9_.:-])', right: '(?![A-Za-z0-9_-]|[.:][A-Za-z0-9])', flags: 'g' },
};
/** Replacement order: datasets before their pool component; serials before shapes that could contain them. */
const ORDER: Group[] = ['dataset', 'serialSpelled', 'serial', 'wwn', 'guid', 'host', 'hostExact', 'pool'];
/** Separators a serial may be printed with or without. */
const SEPARATORS = /[-_ .]/g;
const spelledKey = (s: string) => s.toLowerCase().replace(SEPARATORS, '');
/** An e-mail address anywhere (a user property's value, a contact field). */
const EMAIL_RE = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g;
/** A host token followed by the rest of its FQDN (a domain learned nowhere else). */
const HOST_FQDN_RE = /(?<![A-Za-z0-9_-])(HOST-\d+)\.([A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*)(?![A-Za-z0-9-])/g;

/** A bare JSON number replaced by a token must become a string to keep the JSON valid. */
function jsonSafe(text: string, offset: number, length: number, token: string): string {
  const before = text.slice(0, offset).trimEnd().at(-1);
  const after = text.slice(offset + length).trimStart()[0];
  const quoted = text[offset - 1] === '"';
  return !quoted && (before === ':' || before === '[' || before === ',') && (after === ',' || after === '}' || after === ']') ? `"${token}"` : token;
}

function walkStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => walkStrings(v, f));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, x]) => [f(k), walkStrings(x, f)]));
  return value;
}

export function createRedactor(opts: RedactOptions = {}): Redactor {
  const names = opts.poolNames === true;
  const table = createTokenTable();
  /** group → lower-or-exact key → replacement */
  const literals = new Map<Group, Map<string, string>>(ORDER.map((g) => [g, new Map()]));
  let compiled: Array<{ group: Group; re: RegExp; lookup: Map<string, string> }> | null = null;

  const put = (group: Group, value: string, replacement: string) => {
    const key = BOUNDS[group].flags.includes('i') ? value.toLowerCase() : value;
    const m = literals.get(group)!;
    if (!m.has(key)) { m.set(key, replacement); compiled = null; }
  };

  function learn({ kind, value: raw }: Learned): void {
    if (!names && (kind === 'POOL' || kind === 'DATASET')) return;
    const value = acceptable(kind, raw);
    if (!value) return;
    switch (kind) {
      case 'SERIAL': {
        const key = spelledKey(value);
        if (key.length >= 4) put('serialSpelled', key, table.token('SERIAL', value));
        else put('serial', value, table.token('SERIAL', value));
        break;
      }
      case 'WWN': put('wwn', value.toLowerCase(), table.token('WWN', value.toLowerCase())); break;
      case 'GUID': put('guid', value, table.token('GUID', value)); break;
      case 'HOST': case 'DOMAIN':
        put(VENDOR_HOSTNAMES.has(value) ? 'hostExact' : 'host', value, table.token(kind, value)); break;
      case 'POOL': put('pool', value, table.token('POOL', value)); break;
      case 'DATASET': {
        const parts = value.split('/');
        learn({ kind: 'POOL', value: parts[0]! });
        // `tank/vm/disk0` → `tank/DATASET-1/DATASET-2`: one token per path prefix, parents first.
        for (let i = 2; i <= parts.length; i++) {
          const prefix = parts.slice(0, i).join('/');
          const tokens = parts.slice(1, i).map((_, j) => table.token('DATASET', parts.slice(0, j + 2).join('/')));
          put('dataset', prefix, [parts[0]!, ...tokens].join('/'));
        }
        break;
      }
      default: put('serial', value, table.token(kind, value));
    }
  }

  function compile() {
    compiled = [];
    for (const group of ORDER) {
      const lookup = literals.get(group)!;
      if (lookup.size === 0) continue;
      const alts = [...lookup.keys()].sort((a, b) => b.length - a.length)
        .map((k) => (group === 'serialSpelled' ? [...k].map(escape).join('[-_ .]?') : escape(k))).join('|');
      const { left, right, flags } = BOUNDS[group];
      compiled.push({ group, re: new RegExp(`${left}(?:${alts})${right}`, flags), lookup });
    }
    return compiled;
  }

  function redactText(text: string): string {
    let out = text;
    const passes = compiled ?? compile();
    const serialPass = passes.find((p) => p.group === 'serial');
    const replaceLiterals = (p: NonNullable<typeof serialPass>) => {
      out = out.replace(p.re, (m: string, offset: number, whole: string) => {
        const r = p.lookup.get(p.group === 'serialSpelled' ? spelledKey(m) : p.re.flags.includes('i') ? m.toLowerCase() : m) ?? m;
        if (p.group === 'guid') return jsonSafe(whole, offset, m.length, r);
        // `  pool: tank` is zpool status's label, not a pool named "pool": keep it parseable.
        if (p.group === 'pool' && STATUS_LABELS.has(m) && whole[offset + m.length] === ':' && /(?:^|\n)[ \t]*$/.test(whole.slice(0, offset))) return m;
        return r;
      });
    };
    for (const p of passes) if (p.group === 'dataset') replaceLiterals(p);
    for (const p of passes) if (p.group === 'serialSpelled') replaceLiterals(p);
    if (serialPass) replaceLiterals(serialPass);
    out = out.replace(EMAIL_RE, (addr: string) => table.token('EMAIL', addr.toLowerCase()));
    // Shapes: smartctl's numeric WWN object, NVMe ids, hex WWN spellings, guid-labelled numbers.
    out = out.replace(/"wwn"\s*:\s*\{[^{}]*\}/g, (obj) => {
      const hex = smartctlWwnHex(obj);
      return hex ? obj.replace(/("id"\s*:\s*)(\d+)/, (_m, head: string) => `${head}"${table.token('WWN', hex)}"`) : obj;
    });
    out = out.replace(NVME_ID_RE, (id) => table.token('WWN', id.toLowerCase()));
    out = out.replace(HEX_ID_RE, (m: string, hex: string) => `${m.slice(0, m.length - hex.length)}${table.token('WWN', hex.toLowerCase())}`);
    out = out.replace(GUID_CONTEXT_RE, (_m, head: string, g: string, offset: number, whole: string) => {
      const t = table.token('GUID', g.toLowerCase());
      return `${head}${g.startsWith('0x') ? t : jsonSafe(whole, offset + head.length, g.length, t)}`;
    });
    for (const p of passes) if (p.group !== 'dataset' && p.group !== 'serial' && p.group !== 'serialSpelled') replaceLiterals(p);
    // The whole FQDN: a host followed by a domain that no output named as such.
    out = out.replace(HOST_FQDN_RE, (m: string, host: string, domain: string) => (TOKEN_RE.test(domain) ? m : `${host}.${table.token('DOMAIN', domain.toLowerCase())}`));
    out = out.replace(IPV4_RE, (ip: string) => (keepIpv4(ip) ? ip : table.token('IP', ip)));
    out = out.replace(IPV6_RE, (ip: string) => (keepIpv6(ip) ? ip : table.token('IP', ip)));
    out = out.replace(MAC_RE, (mac: string) => (keepMac(mac) ? mac : table.token('MAC', mac.replace(/-/g, ':'))));
    return out;
  }

  function learnVdevs(nodes: VdevNode[]): void {
    for (const n of nodes) {
      if (n.guid) learn({ kind: 'GUID', value: n.guid });
      if (/^\d{15,20}$/.test(n.name)) learn({ kind: 'GUID', value: n.name });
      const s = serialOfById(n.name.slice(n.name.lastIndexOf('/') + 1));
      if (s) learn({ kind: 'SERIAL', value: s });
      learnVdevs(n.children);
    }
  }

  const redactor: Redactor = {
    learnText(text, fileName = '') { for (const l of learnFromText(text, fileName, { names })) learn(l); },
    learnRawSet(raw) {
      for (const [name, r] of Object.entries(raw)) {
        redactor.learnText(r.text, name);
        redactor.learnText(r.stderr, name);
      }
    },
    learnInventory(inv) {
      for (const d of inv.drives) {
        learn({ kind: 'SERIAL', value: d.serial ?? '' });
        const hex = d.wwn?.replace(/^(?:0x|naa\.|eui\.)/i, '');
        if (hex && /^[0-9a-f]{16,32}$/i.test(hex)) learn({ kind: 'WWN', value: hex });
        for (const a of [...d.aliases, d.byIdPath ?? '']) {
          const s = serialOfById(a.slice(a.lastIndexOf('/') + 1));
          if (s) learn({ kind: 'SERIAL', value: s });
        }
      }
      for (const l of hostParts(inv.host.hostname ?? '')) learn(l);
      for (const p of inv.pools) {
        if (p.guid) learn({ kind: 'GUID', value: p.guid });
        learnVdevs(p.vdevs);
        learn({ kind: 'POOL', value: p.name });
      }
      for (const d of inv.datasets) {
        const name = d.name.split(/[@#]/)[0]!;
        learn(name.includes('/') ? { kind: 'DATASET', value: name } : { kind: 'POOL', value: name });
      }
    },
    redactText,
    redactValue: <T>(value: T): T => walkStrings(value, redactText) as T,
    redactRawSet(raw) {
      const out: RawSet = {};
      for (const [name, r] of Object.entries(raw)) {
        out[redactText(name)] = { ...r, text: redactText(r.text), stderr: redactText(r.stderr), command: r.command?.map(redactText) ?? null, error: r.error === null ? null : redactText(r.error) };
      }
      return out;
    },
    redactInventory(inv) {
      redactor.learnInventory(inv);
      const redacted = Inventory.parse(redactor.redactValue(inv));
      return { ...redacted, source: { ...redacted.source, redacted: true } };
    },
    mapping() {
      return new Map(table.entries().map((e) => [e.value, e.token]));
    },
    counts: () => table.counts(),
  };
  return redactor;
}
